-- Minimal init for the e2e tests: attach baton to markdown buffers and
-- nothing else. Run with `nvim --headless -u e2e/nvim/init.lua FILE`.

local bin = os.getenv('BATON_BIN')
if not bin or bin == '' then
  io.stderr:write('init.lua: BATON_BIN is not set\n')
  vim.cmd('cquit 2')
end

-- Headless -u does not guarantee ftplugins are on; the markdown FileType
-- event must fire before the server can attach.
vim.cmd('filetype plugin on')
vim.o.swapfile = false
vim.o.shadafile = 'NONE'

local cmd = { bin, 'serve' }
local root = vim.fn.getcwd()

if vim.fn.has('nvim-0.11') == 1 then
  vim.lsp.config('baton', {
    cmd = cmd,
    filetypes = { 'markdown' },
    root_dir = root,
  })
  vim.lsp.enable('baton')
elseif vim.fn.has('nvim-0.8') == 1 then
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'markdown',
    callback = function(args)
      vim.lsp.start({ name = 'baton', cmd = cmd, root_dir = root }, { bufnr = args.buf })
    end,
  })
else
  -- 0.7 has no vim.lsp.start: start one client lazily and attach each buffer.
  local client_id
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'markdown',
    callback = function(args)
      if not client_id then
        client_id = vim.lsp.start_client({ name = 'baton', cmd = cmd, root_dir = root })
      end
      if client_id then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })
end
