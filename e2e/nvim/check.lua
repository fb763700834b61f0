-- Run after init.lua via `-c "luafile e2e/nvim/check.lua"`. Waits for the
-- baton client to attach and, when WANT_CODE is set, for that diagnostic
-- code; then optionally hovers at HOVER_LINE/HOVER_COL (0-based; retried
-- until the text contains HOVER_WANT, when set) and requests the code
-- actions at ACTION_LINE, applying the one titled ACTION_TITLE. Writes a
-- plain-text report to OUT and exits 0 only if the client attached and the
-- wanted diagnostic appeared; the test reads the rest from the report.

local WAIT_MS = 15000
local REQUEST_TIMEOUT_MS = 5000
local uv = vim.uv or vim.loop

local function oneline(s)
  return (tostring(s or ''):gsub('\r?\n', '\\n'))
end

-- 0.7 may keep the LSP code only under user_data.lsp.code.
local function diag_code(d)
  if d.code ~= nil then
    return d.code
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code
end

local function clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

-- Flattens MarkupContent, MarkedString and MarkedString[] into plain text.
local function hover_text(contents)
  if type(contents) == 'string' then
    return contents
  end
  if type(contents) ~= 'table' then
    return ''
  end
  if contents.value ~= nil then
    return contents.value
  end
  local parts = {}
  for _, c in ipairs(contents) do
    table.insert(parts, hover_text(c))
  end
  return table.concat(parts, '\n')
end

-- attached_buffers exists from 0.7 on and, unlike buf_is_attached, is not
-- deprecated; its values are true up to 0.11, the language ID from 0.12.
local function is_attached(c, bufnr)
  return c.attached_buffers ~= nil and c.attached_buffers[bufnr] ~= nil and c.attached_buffers[bufnr] ~= false
end

local function baton_client(bufnr)
  for _, c in ipairs(clients()) do
    if c.name == 'baton' and c.initialized and is_attached(c, bufnr) then
      return c
    end
  end
  return nil
end

-- The results of a request to every attached client, with errors reported in lines.
local function request(lines, label, bufnr, method, params)
  local results, err = vim.lsp.buf_request_sync(bufnr, method, params, REQUEST_TIMEOUT_MS)
  local out = {}
  for _, r in pairs(results or {}) do
    local rerr = r.err or r.error -- 0.7 names it `error`, 0.10+ `err`
    if rerr then
      table.insert(lines, label .. '-error ' .. oneline(vim.inspect(rerr)))
    elseif r.result ~= nil then
      table.insert(out, r.result)
    end
  end
  if err then
    table.insert(lines, label .. '-error ' .. oneline(err))
  end
  return out
end

local function hover(lines, bufnr, line, col, want)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = col },
  }
  local text = ''
  -- Retried only until the text shows up; the deadline guards against a hang.
  local deadline = uv.now() + WAIT_MS
  while true do
    local texts = {}
    for _, res in ipairs(request(lines, 'hover', bufnr, 'textDocument/hover', params)) do
      if res.contents then
        table.insert(texts, hover_text(res.contents))
      end
    end
    text = table.concat(texts, '\n')
    if text ~= '' and (want == '' or text:find(want, 1, true) ~= nil) or uv.now() >= deadline then
      break
    end
    vim.wait(100)
  end
  table.insert(lines, 'hover ' .. oneline(text))
end

-- Requests the code actions at the start of `line` and applies the one titled `title`.
local function code_action(lines, bufnr, client, line, title)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
    context = { diagnostics = {} },
  }
  local chosen
  for _, res in ipairs(request(lines, 'action', bufnr, 'textDocument/codeAction', params)) do
    for _, a in ipairs(res) do
      table.insert(lines, 'action ' .. oneline(a.title))
      if a.title == title and not chosen then
        chosen = a
      end
    end
  end
  if not chosen then
    return
  end
  if not chosen.edit then
    table.insert(lines, 'action-error the action has no edit')
    return
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  table.insert(lines, 'applied ' .. oneline(title))
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    table.insert(lines, string.format('buffer %d %s', i - 1, l))
  end
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  local want = os.getenv('WANT_CODE') or ''
  -- 0.7's vim.version() is a plain table without __tostring.
  local v = vim.version()
  local lines = { string.format('nvim %d.%d.%d', v.major, v.minor, v.patch) }
  table.insert(lines, 'api ' .. tostring(vim.g.baton_e2e_api))

  local function has_wanted()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if tostring(diag_code(d)) == want then
        return true
      end
    end
    return false
  end
  local found = vim.wait(WAIT_MS, function()
    return baton_client(bufnr) ~= nil
  end, 50)
  if found and want ~= '' then
    found = vim.wait(WAIT_MS, has_wanted, 50)
  end

  table.insert(lines, string.format('file %s filetype=%s', vim.api.nvim_buf_get_name(bufnr), vim.bo[bufnr].filetype))
  for _, c in ipairs(clients()) do
    local attached = is_attached(c, bufnr)
    table.insert(lines, string.format('client %s id=%d attached=%s root=%s cmd=%s', c.name, c.id, tostring(attached),
      tostring(c.config.root_dir), table.concat(c.config.cmd or {}, ' ')))
  end
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(lines, string.format('diag %d:%d-%d:%d sev=%s source=%s code=%s msg=%s',
      d.lnum, d.col, d.end_lnum or d.lnum, d.end_col or d.col, tostring(d.severity),
      tostring(d.source), tostring(diag_code(d)), oneline(d.message)))
  end
  -- Without the client (or the diagnostic) the server is likely not up;
  -- requests would only add timeouts.
  if not found then
    return found, lines
  end

  local hl, hc = tonumber(os.getenv('HOVER_LINE') or ''), tonumber(os.getenv('HOVER_COL') or '')
  if hl and hc then
    hover(lines, bufnr, hl, hc, os.getenv('HOVER_WANT') or '')
  end
  local al, title = tonumber(os.getenv('ACTION_LINE') or ''), os.getenv('ACTION_TITLE') or ''
  if al and title ~= '' then
    code_action(lines, bufnr, baton_client(bufnr), al, title)
  end
  return found, lines
end

local ok, found, lines = pcall(run)
if not ok then
  -- An uncaught error would leave headless nvim running until the test's timeout.
  lines = { 'error ' .. oneline(found) }
  found = false
end

local out = os.getenv('OUT')
if out and out ~= '' then
  local f = io.open(out, 'w')
  if f then
    f:write(table.concat(lines, '\n') .. '\n')
    f:close()
  end
else
  io.stdout:write(table.concat(lines, '\n') .. '\n')
end

if found then
  vim.cmd('qa!')
else
  vim.cmd('cquit 1')
end
