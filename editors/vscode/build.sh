#!/usr/bin/env bash
# Builds the baton VS Code extension package for one platform: that
# platform's baton binary in bin/<target>/ (and no other), the compiled
# TypeScript in out/, then the vsix, for the Marketplace and Open VSX.
#   editors/vscode/build.sh [OUTPUT.vsix]   (default: editors/vscode/baton-<target>-<version>.vsix)
# TARGET is the vsce target: linux-x64, linux-arm64, darwin-x64, darwin-arm64,
# win32-x64 or win32-arm64 (default: this machine's). GO overrides the go
# command; VERSION and COMMIT are linked into baton (default:
# scripts/version.sh); BATON_BIN skips the build and bundles that binary.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-}
if [ -n "$out" ]; then
	case $out in /*) ;; *) out=$PWD/$out ;; esac
fi
GO=${GO:-go}

target=${TARGET:-}
if [ -z "$target" ]; then
	goos=$("$GO" env GOOS) goarch=$("$GO" env GOARCH)
	target=${goos/windows/win32}-${goarch/amd64/x64}
fi
case $target in
linux-x64 | linux-arm64 | darwin-x64 | darwin-arm64 | win32-x64 | win32-arm64) ;;
*) echo "build.sh: TARGET $target: want linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64 or win32-arm64" >&2; exit 2 ;;
esac
goos=${target%-*} goarch=${target#*-}
goos=${goos/win32/windows} goarch=${goarch/x64/amd64}
exe=baton
[ "$goos" = windows ] && exe=baton.exe

# Only this target's binary: vsce packages everything under bin/.
rm -rf "$here/bin"
mkdir -p "$here/bin/$target"
if [ -n "${BATON_BIN:-}" ]; then
	install -m 0755 "$BATON_BIN" "$here/bin/$target/$exe"
else
	VERSION=${VERSION-$("$root/scripts/version.sh")}
	COMMIT=${COMMIT-$("$root/scripts/version.sh" --commit)}
	(cd "$root" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch "$GO" build -trimpath \
		-ldflags "${VERSION:+-X main.version=$VERSION}${COMMIT:+ -X main.commit=$COMMIT}" \
		-o "$here/bin/$target/$exe" ./cmd/baton)
fi

cd "$here"
npm=(npm --no-audit --no-fund --loglevel=error)
# Reinstall only when package-lock.json changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	"${npm[@]}" ci
fi
"${npm[@]}" run compile
args=(package --target "$target")
[ -n "$out" ] && args+=(-o "$out")
npx --no-install vsce "${args[@]}"
