#!/usr/bin/env bash
# Builds the baton VS Code extension package: a linux-x64 baton binary in
# bin/linux-x64/, the compiled TypeScript in out/, then the vsix.
#   editors/vscode/build.sh [OUTPUT.vsix]   (default: editors/vscode/baton-<version>.vsix)
# GO overrides the go command; BATON_BIN skips the build and bundles that binary.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-}
if [ -n "$out" ]; then
	case $out in /*) ;; *) out=$PWD/$out ;; esac
fi

mkdir -p "$here/bin/linux-x64"
if [ -n "${BATON_BIN:-}" ]; then
	install -m 0755 "$BATON_BIN" "$here/bin/linux-x64/baton"
else
	(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 "${GO:-go}" build -trimpath \
		-o "$here/bin/linux-x64/baton" ./cmd/baton)
fi

cd "$here"
npm=(npm --no-audit --no-fund --loglevel=error)
# Reinstall only when package-lock.json changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	"${npm[@]}" ci
fi
"${npm[@]}" run compile
args=(package --target linux-x64)
[ -n "$out" ] && args+=(-o "$out")
npx --no-install vsce "${args[@]}"
