#!/usr/bin/env bash
# make release: baton's release artifacts in bin/release/ (OUT), built with
# the plain Go toolchain, then checked (scripts/releasecheck):
#   baton_<version>_<os>_<arch>.tar.gz  (.zip for windows): baton, LICENSE, README.md
#   baton-<target>-<version>.vsix       the VS Code extension with that platform's baton
#   SHA256SUMS                          every file above
# Binaries are built with CGO_ENABLED=0 and -trimpath, and the archives with
# fixed owners, order and times (the commit's), so that one commit and one
# toolchain give the same archives wherever they are built. DWARF is left
# out (-w) but the symbol table kept: it is where scripts/releasecheck reads
# main.version from a binary for another platform.
#
# VERSION (default: scripts/version.sh, i.e. git describe) and COMMIT are
# linked into every binary. PLATFORMS narrows the GOOS/GOARCH pairs;
# VSIX=0 skips the VS Code packages (which need npm). GO overrides go.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
GO=${GO:-go}
VERSION=${VERSION:-$(./scripts/version.sh)}
COMMIT=${COMMIT:-$(./scripts/version.sh --commit)}
OUT=${OUT:-$root/bin/release}
PLATFORMS=${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
VSIX=${VSIX:-1}
say() { echo "release: $*" >&2; }
if [ -z "$VERSION" ]; then
	say "no version: run in a git checkout of baton, or set VERSION=v1.2.3"
	exit 2
fi
case $VERSION in *[!A-Za-z0-9._+-]*) say "VERSION $VERSION: only letters, digits and . _ + - may appear"; exit 2 ;; esac
case $OUT in /*) ;; *) OUT=$root/$OUT ;; esac

# The extension's version must be the release's: a tag v1.2.3 ships
# baton-<target>-1.2.3.vsix. Other builds keep package.json's version.
pkgversion=$(sed -n 's/^  "version": "\([^"]*\)",$/\1/p' editors/vscode/package.json)
if [ "$VSIX" = 1 ] && [[ $VERSION =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] && [ "v$pkgversion" != "$VERSION" ]; then
	say "VERSION is $VERSION but editors/vscode/package.json says $pkgversion: make them agree before tagging"
	exit 1
fi

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export TZ=UTC
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT"
start=$SECONDS

for p in $PLATFORMS; do
	goos=${p%/*} goarch=${p#*/}
	exe=baton
	[ "$goos" = windows ] && exe=baton.exe
	name=baton_${VERSION#v}_${goos}_${goarch}
	dir=$stage/$name
	mkdir -p "$dir"
	say "building $p"
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch "$GO" build -trimpath \
		-ldflags "-w -X main.version=$VERSION${COMMIT:+ -X main.commit=$COMMIT}" \
		-o "$dir/$exe" ./cmd/baton
	install -m 0644 LICENSE README.md "$dir/"
	chmod 0755 "$dir/$exe"
	touch -d "@$SOURCE_DATE_EPOCH" "$dir"/*
	if [ "$goos" = windows ]; then
		(cd "$dir" && zip -q -X "$OUT/$name.zip" "$exe" LICENSE README.md)
	else
		tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
			-C "$dir" -cf - "$exe" LICENSE README.md | gzip -n -9 >"$OUT/$name.tar.gz"
	fi
done

if [ "$VSIX" = 1 ]; then
	for p in $PLATFORMS; do
		goos=${p%/*} goarch=${p#*/}
		t=${goos/windows/win32}-${goarch/amd64/x64}
		exe=baton
		[ "$goos" = windows ] && exe=baton.exe
		say "packaging the VS Code extension for $t"
		TARGET=$t BATON_BIN=$stage/baton_${VERSION#v}_${goos}_${goarch}/$exe \
			./editors/vscode/build.sh "$OUT/baton-$t-$pkgversion.vsix" >/dev/null
	done
fi

(cd "$OUT" && sha256sum -- * >"$stage/SHA256SUMS") && mv "$stage/SHA256SUMS" "$OUT/"
say "built in $((SECONDS - start))s:"
(cd "$OUT" && ls -l -- *) >&2
"$GO" run ./scripts/releasecheck -version "$VERSION" -platforms "$PLATFORMS" -vsix="$([ "$VSIX" = 1 ] && echo true || echo false)" "$OUT"
