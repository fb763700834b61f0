#!/usr/bin/env bash
# Installs the editors the e2e tests drive: Neovim (Debian's, and sid's in a
# cache folder), Emacs with eglot, Helix (trixie's, in a cache folder), and
# VS Code as code-server with headless Chromium; then the agent host CLIs
# (setup-hosts.sh, with the Node setup-vscode.sh installs). Safe to run
# repeatedly; quick and quiet when everything is already present.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/setup-nvim.sh"
"$here/setup-emacs.sh"
"$here/setup-helix.sh"
"$here/setup-vscode.sh"
"$here/setup-hosts.sh"
