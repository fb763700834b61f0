-- Run after init.lua via `-c "luafile e2e/nvim/check.lua"`. Waits for the
-- diagnostic code in WANT_CODE, then optionally hovers at HOVER_LINE/HOVER_COL
-- (0-based), writes a plain-text report to OUT and exits 0 only if the
-- wanted diagnostic appeared.

local WAIT_MS = 15000
local HOVER_TIMEOUT_MS = 5000

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

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  local want = os.getenv('WANT_CODE') or ''
  -- 0.7's vim.version() is a plain table without __tostring.
  local v = vim.version()
  local lines = { string.format('nvim %d.%d.%d', v.major, v.minor, v.patch) }

  local function has_wanted()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if tostring(diag_code(d)) == want then
        return true
      end
    end
    return false
  end
  local found = vim.wait(WAIT_MS, has_wanted, 50)

  table.insert(lines, string.format('buffer %s filetype=%s', vim.api.nvim_buf_get_name(bufnr), vim.bo[bufnr].filetype))
  for _, c in ipairs(clients()) do
    -- attached_buffers exists from 0.7 on and, unlike buf_is_attached, is not deprecated.
    local attached = c.attached_buffers ~= nil and c.attached_buffers[bufnr] == true
    table.insert(lines, string.format('client %s id=%d attached=%s', c.name, c.id, tostring(attached)))
  end
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(lines, string.format('diag %d:%d-%d:%d sev=%s source=%s code=%s msg=%s',
      d.lnum, d.col, d.end_lnum or d.lnum, d.end_col or d.col, tostring(d.severity),
      tostring(d.source), tostring(diag_code(d)), oneline(d.message)))
  end

  local hl, hc = tonumber(os.getenv('HOVER_LINE') or ''), tonumber(os.getenv('HOVER_COL') or '')
  -- Without the diagnostic the server is likely not up; hovering would only add a timeout.
  if found and hl and hc then
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      position = { line = hl, character = hc },
    }
    local results, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, HOVER_TIMEOUT_MS)
    local texts = {}
    for _, r in pairs(results or {}) do
      local rerr = r.err or r.error -- 0.7 names it `error`, 0.10+ `err`
      if rerr then
        table.insert(lines, 'hover-error ' .. oneline(vim.inspect(rerr)))
      elseif r.result and r.result.contents then
        table.insert(texts, hover_text(r.result.contents))
      end
    end
    if err then
      table.insert(lines, 'hover-error ' .. oneline(err))
    end
    table.insert(lines, 'hover ' .. oneline(table.concat(texts, '\n')))
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
