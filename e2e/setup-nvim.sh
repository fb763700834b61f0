#!/usr/bin/env bash
# Provides the two Neovims the e2e tests drive:
#
#   - Debian's own nvim (0.7.2 on bookworm), installed with apt-get when
#     `nvim` is not on PATH;
#   - Debian sid's Neovim (0.11+), downloaded with apt-get into a cache folder
#     and unpacked there, never installed: it runs through sid's own glibc
#     loader, so the system's libraries are left alone.
#
# The sid build ends up at $BATON_E2E_CACHE/nvim-sid/nvim (default cache:
# ${XDG_CACHE_HOME:-~/.cache}/baton-e2e), a wrapper script the tests find on
# their own. Safe to run repeatedly; prints nothing and returns quickly when
# both are present. Set BATON_E2E_SKIP_SID=1 to provide only Debian's nvim.
set -euo pipefail

CACHE=${BATON_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baton-e2e}
SID=$CACHE/nvim-sid

# Root needs no sudo; otherwise use it when available and let apt fail loudly if not.
SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	SUDO=(sudo)
fi

if ! command -v nvim >/dev/null 2>&1; then
	echo "e2e/setup-nvim.sh: installing neovim from Debian" >&2
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" apt-get install -y -qq --no-install-recommends neovim >/dev/null
fi

[ "${BATON_E2E_SKIP_SID:-0}" = 1 ] && exit 0

# Already there and runnable: nothing to do.
if [ -x "$SID/nvim" ] && "$SID/nvim" --version >/dev/null 2>&1; then
	exit 0
fi

echo "e2e/setup-nvim.sh: fetching Debian sid's neovim into $SID (not installed)" >&2
mkdir -p "$CACHE"
WORK=$(mktemp -d "$CACHE/.nvim-sid.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The Debian mirror this machine's apt already uses, else the default one.
MIRROR=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v -- '-security' | head -1 || true)
[ -n "$MIRROR" ] || MIRROR=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
MIRROR=${MIRROR%% *}

# A private apt state: sid's package lists never reach the system's apt.
A=$WORK/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$WORK/debs" "$WORK/root"
echo "deb $MIRROR sid main" >"$A/sources.list"
APT=(-o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/nonexistent
	-o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache"
	-o "APT::Sandbox::User=$(id -un)" -o Debug::NoLocking=1)
apt-get "${APT[@]}" update -qq

# neovim, what it depends on (two levels: e.g. lua-luv needs libuv), and
# sid's glibc and libgcc, whose loader runs the binary.
deps() {
	apt-cache "${APT[@]}" show "$@" 2>/dev/null | sed -n 's/^\(Pre-\)\?Depends: //p' |
		tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/ //g' | grep -v '^$' | sort -u
}
first=$(deps neovim/sid)
second=$(deps $(printf '%s/sid ' $first))
pkgs=$(printf '%s\n' neovim libc6 libgcc-s1 $first $second | sort -u)
(cd "$WORK/debs" && apt-get "${APT[@]}" download -qq $(printf '%s/sid ' $pkgs))
for d in "$WORK"/debs/*.deb; do
	dpkg-deb -x "$d" "$WORK/root"
done

# The bundled tree-sitter parsers, where the runtime looks for them.
if [ -d "$WORK/root/usr/lib/nvim/parser" ] && [ ! -e "$WORK/root/usr/share/nvim/runtime/parser" ]; then
	ln -s ../../../lib/nvim/parser "$WORK/root/usr/share/nvim/runtime/parser"
fi

LOADER=
for l in usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2; do
	if [ -e "$WORK/root/$l" ]; then LOADER=$l && break; fi
done
[ -n "$LOADER" ] || { echo "e2e/setup-nvim.sh: sid's glibc loader not found" >&2; exit 1; }
cat >"$WORK/nvim" <<EOS
#!/bin/sh
# Debian sid's Neovim, run through sid's own glibc loader and libraries.
R=\$(dirname "\$(readlink -f "\$0")")/root
export VIMRUNTIME="\$R/usr/share/nvim/runtime" VIM="\$R/usr/share/nvim"
exec "\$R/$LOADER" --library-path "\$R/usr/lib/x86_64-linux-gnu:\$R/lib/x86_64-linux-gnu" "\$R/usr/bin/nvim" "\$@"
EOS
chmod +x "$WORK/nvim"

rm -rf "$WORK/apt" "$WORK/debs"
"$WORK/nvim" --version >/dev/null
rm -rf "$SID"
mv "$WORK" "$SID"
trap - EXIT
"$SID/nvim" --version | head -1 >&2
