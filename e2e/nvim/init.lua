-- Minimal init for the e2e tests: attach baton to markdown buffers with the
-- project's own Neovim configuration (editors/nvim) and nothing else. Run
-- with `nvim --headless -u e2e/nvim/init.lua FILE`, `baton` on $PATH.
--
-- 0.11+: editors/nvim is on the runtimepath, so vim.lsp.enable('baton')
-- finds lsp/baton.lua. Older: the plugin, require('baton').setup{}.

-- editors/nvim, found from this file's own path (e2e/nvim/init.lua).
local here = debug.getinfo(1, 'S').source:sub(2)
local editors = vim.fn.fnamemodify(here, ':p:h:h:h') .. '/editors/nvim'
if vim.fn.isdirectory(editors) == 0 then
  io.stderr:write('init.lua: ' .. editors .. ' is not a directory\n')
  vim.cmd('cquit 2')
end
if vim.fn.executable('baton') == 0 then
  io.stderr:write('init.lua: baton is not on PATH\n')
  vim.cmd('cquit 2')
end

-- Headless -u does not guarantee ftplugins are on; the markdown FileType
-- event must fire before the server can attach.
vim.cmd('filetype plugin on')
vim.o.swapfile = false
vim.o.shadafile = 'NONE'
vim.opt.runtimepath:prepend(editors)

if vim.fn.has('nvim-0.11') == 1 then
  vim.g.baton_e2e_api = 'vim.lsp.enable'
  vim.lsp.enable('baton')
else
  vim.g.baton_e2e_api = 'require("baton").setup'
  require('baton').setup({})
end
