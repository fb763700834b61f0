-- baton's language server for Neovim 0.7 and later, without nvim-lspconfig.
--
--   require('baton').setup {
--     cmd = { 'baton', 'serve' },            -- the default
--     settings = { baton = { debounce = 300 } },
--   }
--
-- Attaches `baton serve` to every markdown buffer (already open ones too),
-- one server per root folder (the nearest .git, .baton.yaml or .specrew
-- above the file, else the file's own folder). Uses vim.lsp.config and
-- vim.lsp.enable on 0.11+, vim.lsp.start on 0.8–0.10, and
-- vim.lsp.start_client with vim.lsp.buf_attach_client on 0.7.
local M = {}

M.defaults = {
  cmd = { 'baton', 'serve' },
  filetypes = { 'markdown' },
  root_markers = { '.git', '.baton.yaml', '.specrew' },
  -- Sent in workspace/didChangeConfiguration, e.g. { baton = { severity = { … } } }.
  settings = nil,
  -- Sent as initializationOptions, e.g. { baton = { diagnostics = 'push' } }.
  init_options = nil,
  -- Passed through to the client: on_attach, capabilities, handlers, …
  on_attach = nil,
  capabilities = nil,
  handlers = nil,
}

local function has(v)
  return vim.fn.has('nvim-' .. v) == 1
end

-- The nearest folder at or above `path` holding one of `markers`, trying
-- each marker in turn; nil when none does.
local function find_root(path, markers)
  for _, marker in ipairs(markers) do
    local dir = path
    while dir and dir ~= '' do
      if (vim.uv or vim.loop).fs_stat(dir .. '/' .. marker) then
        return dir
      end
      local parent = vim.fn.fnamemodify(dir, ':h')
      if parent == dir then
        break
      end
      dir = parent
    end
  end
  return nil
end

local function root_for(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  return find_root(dir, markers) or dir
end

-- The client configuration shared by every Neovim version.
local function client_config(opts, root)
  return {
    name = 'baton',
    cmd = opts.cmd,
    root_dir = root,
    settings = opts.settings,
    init_options = opts.init_options,
    on_attach = opts.on_attach,
    capabilities = opts.capabilities,
    handlers = opts.handlers,
  }
end

local clients = {} -- root folder -> client id, on 0.7

local function attach(bufnr, opts)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return
  end
  local root = root_for(bufnr, opts.root_markers)
  if vim.lsp.start then -- 0.8+: reuses the client of the same name and root
    vim.lsp.start(client_config(opts, root), { bufnr = bufnr })
    return
  end
  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config(opts, root))
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

function M.setup(opts)
  opts = vim.tbl_extend('force', M.defaults, opts or {})

  if has('0.11') then
    local cfg = {
      cmd = opts.cmd,
      filetypes = opts.filetypes,
      root_markers = opts.root_markers,
      settings = opts.settings,
      init_options = opts.init_options,
      on_attach = opts.on_attach,
      capabilities = opts.capabilities,
      handlers = opts.handlers,
    }
    vim.lsp.config('baton', cfg)
    vim.lsp.enable('baton')
    return
  end

  local group = vim.api.nvim_create_augroup('baton', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      attach(args.buf, opts)
    end,
  })
  -- Buffers opened before setup() ran.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) then
      attach(bufnr, opts)
    end
  end
end

return M
