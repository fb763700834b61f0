-- baton's language server for Neovim 0.11+ (`:help lsp-config`).
--
-- With this folder (editors/nvim) on the 'runtimepath', or this file copied
-- to ~/.config/nvim/lsp/baton.lua:
--
--   vim.lsp.enable('baton')
--
-- Override any field with vim.lsp.config, e.g. a binary outside $PATH or
-- server settings (see "The language server" in baton's README):
--
--   vim.lsp.config('baton', {
--     cmd = { '/path/to/baton', 'serve' },
--     settings = { baton = { severity = { ['packet/heading-level'] = 'off' } } },
--   })
--
-- `settings.baton` is sent in workspace/didChangeConfiguration when the
-- server starts; `init_options = { baton = { … } }` is sent as the
-- initializationOptions. The server takes the same keys in both.
return {
  cmd = { 'baton', 'serve' },
  filetypes = { 'markdown' },
  -- One server per repository; without a repository, the folder holding a
  -- .baton.yaml or a specrew project (.specrew/).
  root_markers = { '.git', '.baton.yaml', '.specrew' },
}
