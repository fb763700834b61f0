;;; baton.el --- baton, the stop-packet and handoff linter, through eglot  -*- lexical-binding: t; -*-

;; Keywords: languages, tools, markdown
;; Package-Requires: ((emacs "28.1") (eglot "1.9"))
;; URL: https://github.com/baton-md/baton

;;; Commentary:

;; Registers `baton serve' as the eglot language server of Markdown buffers
;; (`markdown-mode' and `gfm-mode'; `text-mode' for *.md files when
;; markdown-mode is not installed), passes `baton-settings' to it under
;; "baton" (in initializationOptions and in the workspace configuration),
;; and adds `baton-explain-rule-at-point', which shows `baton explain RULE'
;; for the diagnostic at point.
;;
;;   (require 'baton)
;;   (add-hook 'markdown-mode-hook #'baton-eglot-ensure)  ; optional: start eglot automatically
;;
;; Works with Emacs 28 and eglot 1.9 (GNU ELPA or Debian's elpa-eglot) and
;; with the eglot built into Emacs 29 and later.  See README.md next to this
;; file.

;;; Code:

(require 'eglot)
(require 'flymake)
(require 'subr-x)

(defgroup baton nil
  "The baton linter and language server."
  :group 'tools
  :prefix "baton-")

(defcustom baton-executable "baton"
  "The baton program: a name looked up on `exec-path', or an absolute file name."
  :type 'string)

(defcustom baton-settings nil
  "Settings sent to baton under \"baton\", as a plist.
Sent as initializationOptions when the server starts and in the
workspace configuration (workspace/didChangeConfiguration).  Keys
are those of the LSP settings in baton's README, for example:

  (:debounce 150
   :severity (:packet/heading-level \"off\")
   :phrases (:held [\"on ice\"])
   :stateDir \"~/.local/state/clio-coder\")

Use vectors for JSON arrays.  Restart eglot (or run
\\[eglot-signal-didChangeConfiguration]) after changing it."
  :type 'plist)

(defconst baton--rule-id-regexp "\\b[a-z][a-z0-9]*/[a-z0-9][a-z0-9-]*\\b"
  "What a baton rule ID looks like, e.g. packet/missing-section.")

(defun baton--markdown-available-p ()
  "Non-nil when markdown-mode is defined or installed."
  (or (fboundp 'markdown-mode) (locate-library "markdown-mode")))

(defun baton--modes ()
  "The major modes baton is registered for, in `eglot-server-programs' form."
  (if (baton--markdown-available-p)
      '(markdown-mode (gfm-mode :language-id "markdown"))
    '((text-mode :language-id "markdown"))))

(defun baton--initialization-options (_server)
  "The initializationOptions of the baton server."
  (list :baton (or baton-settings (make-hash-table))))

(defun baton--contact (&optional _interactive)
  "The eglot contact for baton: `baton serve' with its initializationOptions."
  (list baton-executable "serve"
        :initializationOptions #'baton--initialization-options))

(defun baton--workspace-configuration-add ()
  "Add `baton-settings' under :baton to this buffer's workspace configuration.
A configuration that already has a baton section (say, from
.dir-locals.el) or is a function is left alone."
  (when baton-settings
    (let ((conf eglot-workspace-configuration))
      (cond
       ((functionp conf))
       ((and (consp (car-safe conf))            ; alist ((SECTION . VALUE) ...)
             (or (assq :baton conf) (assq 'baton conf) (assoc "baton" conf))))
       ((consp (car-safe conf))
        (setq-local eglot-workspace-configuration
                    (append conf (list (cons :baton baton-settings)))))
       ((plist-member conf :baton))             ; plist (:SECTION VALUE ...)
       (t
        (setq-local eglot-workspace-configuration
                    (append conf (list :baton baton-settings))))))))

(defun baton--buffer-p ()
  "Non-nil when baton should manage this buffer."
  (and buffer-file-name
       (or (derived-mode-p 'markdown-mode 'gfm-mode)
           (and (not (baton--markdown-available-p))
                (derived-mode-p 'text-mode)
                (string-match-p "\\.\\(?:md\\|markdown\\)\\'" buffer-file-name)))))

;;;###autoload
(defun baton-eglot-ensure ()
  "Start eglot with baton in this buffer when it is a Markdown file.
Meant for `markdown-mode-hook', `gfm-mode-hook' and `text-mode-hook'."
  (when (baton--buffer-p)
    (baton--workspace-configuration-add)
    (eglot-ensure)))

;;;###autoload
(defun baton-setup ()
  "Register baton with eglot (done when baton.el is loaded)."
  (setq eglot-server-programs
        (cl-remove-if (lambda (e) (eq (cdr e) #'baton--contact)) eglot-server-programs))
  (push (cons (baton--modes) #'baton--contact) eglot-server-programs)
  (add-hook 'markdown-mode-hook #'baton--workspace-configuration-add)
  (add-hook 'gfm-mode-hook #'baton--workspace-configuration-add)
  (unless (baton--markdown-available-p)
    ;; Without markdown-mode, *.md files would open in fundamental-mode.
    (add-to-list 'auto-mode-alist '("\\.\\(?:md\\|markdown\\)\\'" . text-mode))
    (add-hook 'text-mode-hook #'baton--text-mode-setup)))

(defun baton--text-mode-setup ()
  "Without markdown-mode: prepare *.md buffers in `text-mode' for baton."
  (when (baton--buffer-p)
    (baton--workspace-configuration-add)))

(defun baton--rules-at-point ()
  "The baton rule IDs of the diagnostics at point, then of the line."
  (let (ids)
    (dolist (d (append (flymake-diagnostics (point))
                       (flymake-diagnostics (line-beginning-position) (line-end-position))))
      (let* ((lsp (cdr (assoc 'eglot-lsp-diag (ignore-errors (eglot--diag-data d)))))
             (code (plist-get lsp :code))
             (code (if (numberp code) (number-to-string code) code)))
        (when (and (stringp code) (not (string-empty-p code)))
          (push code ids))))
    (unless ids                          ; a rule ID written in the text, e.g. a suppression
      (save-excursion
        (let ((eol (line-end-position)))
          (beginning-of-line)
          (while (re-search-forward baton--rule-id-regexp eol t)
            (push (match-string-no-properties 0) ids)))))
    (delete-dups (nreverse ids))))

(defun baton--all-rules ()
  "Every rule ID, from `baton explain'."
  (with-temp-buffer
    (when (eq 0 (ignore-errors (process-file baton-executable nil t nil "explain")))
      (goto-char (point-min))
      (let (ids)
        (while (re-search-forward (concat "^\\(" baton--rule-id-regexp "\\)") nil t)
          (push (match-string-no-properties 1) ids))
        (nreverse ids)))))

;;;###autoload
(defun baton-explain-rule-at-point (rule)
  "Show the documentation of RULE (`baton explain RULE').
Interactively, RULE is the rule of the baton diagnostic at point
\(asking when there are several or none)."
  (interactive
   (let ((ids (baton--rules-at-point)))
     (list (if (and ids (null (cdr ids)))
               (car ids)
             (completing-read (if ids (format "Explain rule (default %s): " (car ids))
                                "Explain rule: ")
                              (or ids (baton--all-rules)) nil nil nil nil (car ids))))))
  (let ((buf (get-buffer-create "*baton explain*")))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (let ((status (process-file baton-executable nil t nil "explain" rule)))
          (goto-char (point-min))
          (unless (eq status 0)
            (error "baton explain %s failed: %s" rule
                   (string-trim (buffer-string))))))
      (if (fboundp 'gfm-view-mode) (gfm-view-mode) (view-mode 1)))
    (display-buffer buf)
    buf))

(baton-setup)

(provide 'baton)
;;; baton.el ends here
