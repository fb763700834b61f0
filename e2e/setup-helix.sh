#!/usr/bin/env bash
# Fetches what e2e/helix_test.go drives: tmux (apt, when missing) and Helix.
# Helix is not in Debian bookworm, so this downloads Debian trixie's hx
# package with trixie's glibc and unpacks them into a cache folder, without
# installing anything system-wide:
#
#   ${BATON_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baton-e2e}/helix/hx
#
# is a wrapper that runs that hx through trixie's own dynamic loader. Safe
# to run repeatedly; prints nothing when everything is already present.
set -euo pipefail

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	SUDO=(sudo)
fi

if ! command -v tmux >/dev/null 2>&1; then
	echo "e2e/setup-helix.sh: installing tmux" >&2
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" apt-get install -y -qq --no-install-recommends tmux >/dev/null
fi

CACHE=${BATON_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baton-e2e}
H=$CACHE/helix
if [ -x "$H/hx" ] && "$H/hx" --version >/dev/null 2>&1; then
	exit 0
fi

echo "e2e/setup-helix.sh: fetching Debian trixie's hx into $H" >&2
# The Debian mirror this machine's apt already uses.
MIRROR=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 || true)
[ -n "$MIRROR" ] || MIRROR=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian

tmp=$(mktemp -d "${TMPDIR:-/tmp}/baton-helix.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
A=$tmp/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$tmp/debs" "$tmp/root"
echo "deb $MIRROR trixie main" >"$A/sources.list"
APT=(-o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/nonexistent
	-o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache")
if [ "$(id -u)" -eq 0 ]; then
	APT+=(-o APT::Sandbox::User=root)
fi
apt-get "${APT[@]}" update -qq
(cd "$tmp/debs" && apt-get "${APT[@]}" download -qq hx/trixie libc6/trixie libgcc-s1/trixie)
for d in "$tmp"/debs/*.deb; do
	dpkg-deb -x "$d" "$tmp/root"
done

rm -rf "$H.new"
mkdir -p "$H.new"
mv "$tmp/root" "$H.new/root"
cat >"$H.new/hx" <<EOS
#!/bin/sh
# Debian trixie's Helix, run with trixie's glibc (written by e2e/setup-helix.sh).
H=\$(dirname "\$0")
export HELIX_RUNTIME="\$H/root/usr/lib/hx/runtime"
exec "\$H/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "\$H/root/usr/lib/x86_64-linux-gnu" "\$H/root/usr/lib/hx/hx" "\$@"
EOS
chmod +x "$H.new/hx"
rm -rf "$H"
mv "$H.new" "$H"
"$H/hx" --version >/dev/null
