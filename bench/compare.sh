#!/usr/bin/env bash
# compare.sh: the whole `baton check` process against goldmark's parse floor
# and its peers, on the same files, paired and alternating
# (bench/cmd/compare): medians of the per-round ratios of wall time and peak
# RSS.
#
#   bench/compare.sh [N] [TREE…]
#
# First on the generated corpus (N documents, default 1000, seed 1), then on
# each TREE (an upstream checkout, given by path). RUNS rounds (default 5).
# docs/performance.md runs it on specrew's tree (every kind of stop packet
# and prompt file) and on react.dev (a documentation site written in MDX,
# with components on most pages and none of baton's kinds):
#
#   git clone --depth 1 https://github.com/alonf/specrew
#   git clone --depth 1 https://github.com/reactjs/react.dev
#   MDL_MAX=0 RUNS=7 bench/compare.sh 1000 specrew react.dev
#
# The peers are installed as a user would, once, into $BATON_BENCH_CACHE
# (default ~/.cache/baton-bench): markdownlint-cli2 and rumdl from npm,
# mdsmith from the Go module proxy. rumdl is timed twice: cold (--no-cache)
# and with its result cache warm. markdownlint-cli2 takes about 30 ms a file,
# so it runs only on sets of at most MDL_MAX files (default 2000).
set -euo pipefail

cd "$(dirname "$0")/.."
N=${1:-1000}
shift || true
RUNS=${RUNS:-5}
MDL_MAX=${MDL_MAX:-2000}
CACHE=${BATON_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baton-bench}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

go build -o "$WORK/baton" ./cmd/baton
go build -o "$WORK/floor" ./bench/cmd/floor
go build -o "$WORK/compare" ./bench/cmd/compare
go run ./bench/cmd/gencorpus -out "$WORK/corpus" -n "$N" -seed 1 >/dev/null

npm_peer() { # npm_peer PACKAGE: its folder under the cache, installed once
	local dir="$CACHE/$1"
	if [ ! -d "$dir/node_modules/$1" ]; then
		echo "installing $1 from npm into $dir ..." >&2
		mkdir -p "$dir"
		npm install --silent --no-audit --no-fund --prefix "$dir" "$1" >&2
	fi
	echo "$dir"
}
MDL_DIR=$(npm_peer markdownlint-cli2)
MDL="$MDL_DIR/node_modules/.bin/markdownlint-cli2"
MDL_VERSION=$(node -p "require('$MDL_DIR/node_modules/markdownlint-cli2/package.json').version")
RUMDL_DIR=$(npm_peer rumdl)
# The npm package's command is a Node launcher of a native binary: time the
# binary itself, as a user of its other installers (cargo, pip) runs it.
RUMDL=$(find "$RUMDL_DIR/node_modules/@rumdl" -type f -name rumdl -perm -u+x 2>/dev/null | head -1)
RUMDL=${RUMDL:-$RUMDL_DIR/node_modules/.bin/rumdl}
RUMDL_VERSION=$("$RUMDL" --version | awk '{print $2}')

MDSMITH=$(command -v mdsmith || true)
if [ -z "$MDSMITH" ] && [ ! -x "$CACHE/bin/mdsmith" ]; then
	GOBIN="$CACHE/bin" go install github.com/jeduden/mdsmith/cmd/mdsmith@latest >"$WORK/mdsmith.log" 2>&1 || true
fi
[ -z "$MDSMITH" ] && [ -x "$CACHE/bin/mdsmith" ] && MDSMITH="$CACHE/bin/mdsmith"

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $("$WORK/baton" version); markdownlint-cli2 $MDL_VERSION; rumdl $RUMDL_VERSION"
if [ -z "$MDSMITH" ]; then
	echo "mdsmith: skipped, not installable from the Go module proxy ($(grep -m1 -o '[0-9]\{3\} [A-Za-z ]*' "$WORK/mdsmith.log" 2>/dev/null || echo 'go install failed'))"
fi

compare() { # compare LABEL DIR [baton flags…]
	local label=$1 dir=$2
	shift 2
	# Every tool gets the same files: those baton's walk of DIR checks
	# (.gitignore'd and hidden folders left out, as git and
	# markdownlint-cli2's globs leave them), named one by one.
	"$WORK/baton" check --format json "$@" "$dir" >"$WORK/files.json" 2>/dev/null || true
	node -e 'for (const f of JSON.parse(require("fs").readFileSync(process.argv[1])).files) console.log(f.path)' "$WORK/files.json" >"$WORK/files"
	local files bytes
	files=$(wc -l <"$WORK/files")
	bytes=$(xargs -d '\n' cat <"$WORK/files" | wc -c)
	local args=(-runs "$RUNS" -dir "$dir" -files "$WORK/files" -label "$label: $files files, $((bytes / 1024)) KB"
		-tool "baton=$WORK/baton check $* DIR"
		-tool "goldmark parse (floor)=$WORK/floor FILES"
		-tool "rumdl $RUMDL_VERSION (cold)=$RUMDL check --no-cache FILES"
		-tool "rumdl $RUMDL_VERSION*=$RUMDL check --cache-dir $WORK/rumdl-cache FILES")
	if [ -n "$MDSMITH" ]; then
		args+=(-tool "mdsmith=$MDSMITH check FILES")
	fi
	if [ "$files" -le "$MDL_MAX" ]; then
		args+=(-tool "markdownlint-cli2 $MDL_VERSION=$MDL FILES")
	else
		echo "markdownlint-cli2: skipped on $label ($files files > MDL_MAX=$MDL_MAX)"
	fi
	rm -rf "$WORK/rumdl-cache"
	"$WORK/compare" "${args[@]}"
	echo
}

compare "generated corpus (gencorpus -n $N -seed 1)" "$WORK/corpus" --state-dir "$WORK/corpus/clio-state"
for tree in "$@"; do
	compare "$tree" "$(cd "$tree" && pwd)"
done
