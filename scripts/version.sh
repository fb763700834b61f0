#!/bin/sh
# Prints the version baton is built as: `git describe --tags --always
# --dirty` of this checkout (v1.2.3, v1.2.3-4-gabcdef0-dirty, or the short
# commit before the first tag). With --commit, the full commit instead.
# Prints nothing outside a git checkout of baton (a source archive, or a
# copy inside some other repository): the build then links no version, and
# baton reports the module version the go command recorded.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null) || exit 0
[ "$(cd "$top" && pwd -P)" = "$root" ] || exit 0
if [ "${1:-}" = --commit ]; then
	git -C "$root" rev-parse HEAD
else
	git -C "$root" describe --tags --always --dirty
fi
