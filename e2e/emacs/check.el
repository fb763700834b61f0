;;; check.el --- e2e: drive baton through editors/emacs/baton.el and eglot  -*- lexical-binding: t; -*-
;;
;; emacs --batch -Q -l e2e/emacs/check.el FILE
;;
;; Environment:
;;   BATON_EL      editors/emacs/baton.el (required); `baton' must be on PATH
;;   OUT           the report file (required)
;;   STUB_DIR      when set, a folder with a stand-in markdown-mode.el, loaded first
;;   SETTINGS      when set, read as a plist into `baton-settings'
;;   WANT_CODE     a rule ID: wait for a diagnostic with that code
;;   HOVER_LINE, HOVER_COL  (0-based; column in characters) request hover there
;;   EXPLAIN       when set (with WANT_CODE), run baton-explain-rule-at-point on it
;;   ACTION        a code action title: offer it over the whole buffer and apply it
;;
;; The report has one line per fact ("diag code=... type=...", "hover TEXT",
;; "action-offered TITLE", "buffer ...") and the process exits 0 when every
;; requested check passed.  Each wait is bounded (STEP_TIMEOUT seconds).

(setq debug-on-error nil)
(when (< emacs-major-version 29)
  ;; Emacs 28: eglot comes from ELPA (Debian's elpa-eglot); -Q does not activate it.
  (require 'package)
  (setq package-user-dir (expand-file-name "elpa" (getenv "HOME")))
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
  (package-initialize))

(let ((stub (getenv "STUB_DIR")))
  (when (and stub (not (string-empty-p stub)))
    (add-to-list 'load-path stub)
    (require 'markdown-mode)))

(load (getenv "BATON_EL") nil t)
(require 'cl-lib)

(setq eglot-sync-connect t
      eglot-autoshutdown t
      eglot-events-buffer-size 200000
      eldoc-idle-delay 0)

(let ((s (getenv "SETTINGS")))
  (when (and s (not (string-empty-p s)))
    (setq baton-settings (car (read-from-string s)))))

(defvar check-report nil)
(defvar check-ok t)
(defun check-say (fmt &rest args)
  (push (apply #'format fmt args) check-report))
(defun check-fail (fmt &rest args)
  (setq check-ok nil)
  (push (concat "FAIL " (apply #'format fmt args)) check-report))

(defconst check-step-timeout
  (string-to-number (or (getenv "STEP_TIMEOUT") "20")))

(defmacro check-poll (form)
  "Evaluate FORM until it is non-nil or the step timeout passes; return it."
  `(let ((deadline (+ (float-time) check-step-timeout)) v)
     (while (and (null (setq v ,form)) (< (float-time) deadline))
       (accept-process-output nil 0.05))
     v))

(defun check-diag-code (d)
  (plist-get (cdr (assoc 'eglot-lsp-diag (eglot--diag-data d))) :code))

(defun check-write-report ()
  (with-temp-file (getenv "OUT")
    (insert (mapconcat #'identity (reverse check-report) "\n") "\n")))

(let* ((file (car command-line-args-left))
       (want (getenv "WANT_CODE"))
       (hline (getenv "HOVER_LINE"))
       (hcol (getenv "HOVER_COL"))
       (title (getenv "ACTION"))
       (buf (find-file-noselect file)))
  (setq command-line-args-left nil)
  (switch-to-buffer buf)
  (with-current-buffer buf
    (check-say "emacs %s eglot %s major-mode=%s baton-buffer=%s"
               emacs-version
               (locate-library "eglot")
               major-mode (if (baton--buffer-p) "yes" "no"))
    (condition-case err
        (progn
          ;; What `eglot-ensure' (from `baton-eglot-ensure') does once the command
          ;; loop runs, which it never does in batch mode.
          (apply #'eglot (eglot--guess-contact))
          (let ((server (eglot-current-server)))
            (unless server (error "eglot did not start a server"))
            (check-say "server %s language-id=%s"
                       (plist-get (eglot--server-info server) :name)
                       (eglot--language-id server))

            (when want
              (let ((d (check-poll
                        (progn (flymake-start)
                               (cl-find want (flymake-diagnostics) :key #'check-diag-code
                                        :test #'equal)))))
                (dolist (x (flymake-diagnostics))
                  (check-say "diag code=%s type=%s line=%d text=%s"
                             (check-diag-code x) (flymake-diagnostic-type x)
                             (line-number-at-pos (flymake-diagnostic-beg x))
                             (replace-regexp-in-string "\n" " " (flymake-diagnostic-text x))))
                (unless d (check-fail "no diagnostic with code %s" want))
                (when (and d (getenv "EXPLAIN"))
                  ;; baton-explain-rule-at-point on the diagnostic: `baton explain RULE'.
                  (goto-char (flymake-diagnostic-beg d))
                  (let ((text (with-current-buffer
                                  (call-interactively #'baton-explain-rule-at-point)
                                (buffer-string))))
                    (check-say "explain %s"
                               (car (split-string text "\n")))
                    (unless (string-prefix-p want text)
                      (check-fail "explain buffer does not start with %s" want))))))

            (when (and hline hcol)
              (goto-char (point-min))
              (forward-line (string-to-number hline))
              (forward-char (string-to-number hcol))
              ;; Through eldoc, as a user sees it: eglot's hover eldoc function.
              (let* (got
                     (_ (eglot-hover-eldoc-function (lambda (info &rest _) (setq got (or info "")))))
                     (text (check-poll got)))
                (check-say "hover %s" (replace-regexp-in-string "\n" " " (or text "<none>")))
                (unless (and text (not (string-empty-p text)))
                  (check-fail "no hover at %s:%s" hline hcol))))

            (when title
              (let* ((actions (check-poll
                               (eglot-code-actions (point-min) (point-max))))
                     (titles (mapcar (lambda (a) (plist-get a :title)) actions)))
                (dolist (tt titles) (check-say "action-offered %s" tt))
                (if (not (member title titles))
                    (check-fail "code action %S not offered" title)
                  ;; The interactive path: pick TITLE from eglot's menu and run it
                  ;; (a keyboard event, so eglot prompts instead of popping a menu).
                  (cl-letf* ((last-nonmenu-event ?\r)
                             ((symbol-function 'completing-read)
                             (lambda (&rest _) title))
                            ((symbol-function 'y-or-n-p) (lambda (&rest _) t)))
                    (eglot-code-actions (point-min) (point-max) nil t))
                  (check-say "buffer-after-action %s"
                             (replace-regexp-in-string
                              "\n" "\\\\n"
                              (buffer-substring-no-properties (point-min) (point-max))))
                  (let ((sent (check-poll (progn (flymake-start) (buffer-modified-p)))))
                    (check-say "buffer-modified %s" (if sent "yes" "no"))))))))
      (error (check-fail "error: %S" err)))
    (ignore-errors (let ((eglot-autoshutdown t)) (eglot-shutdown (eglot-current-server) nil 5)))
    (set-buffer-modified-p nil))
  (check-say "result %s" (if check-ok "ok" "fail"))
  (check-write-report)
  (kill-emacs (if check-ok 0 1)))
