;;; markdown-mode.el --- a stand-in for the real markdown-mode in the e2e tests  -*- lexical-binding: t; -*-
;; Only what baton.el relies on: the two major modes and *.md files opening in
;; markdown-mode, so the test covers baton.el's markdown-mode path without
;; installing the package.
(define-derived-mode markdown-mode text-mode "Markdown")
(define-derived-mode gfm-mode markdown-mode "GFM")
(add-to-list 'auto-mode-alist '("\\.md\\'" . markdown-mode))
(provide 'markdown-mode)
