#!/usr/bin/env bash
# Installs what e2e/emacs_test.go drives: Debian's Emacs (emacs-nox) and
# eglot (elpa-eglot; Emacs 29 and later have eglot built in). Safe to run
# repeatedly; prints nothing when everything is already present.
set -euo pipefail

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	SUDO=(sudo)
fi

need=()
command -v emacs >/dev/null 2>&1 || need+=(emacs-nox)
if ! emacs --batch -Q --eval '(kill-emacs (if (or (>= emacs-major-version 29) (directory-files "/usr/share/emacs/site-lisp/elpa" nil "\\`eglot-")) 0 1))' >/dev/null 2>&1; then
	need+=(elpa-eglot)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "e2e/setup-emacs.sh: installing ${need[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
