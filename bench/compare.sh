#!/usr/bin/env bash
# compare.sh: baton check against markdownlint-cli2 (and mdsmith, when it
# installs from the Go module proxy) on the same generated files, in one run;
# prints each tool's wall time and the ratio.
#
#   bench/compare.sh [N]        N documents (default 1000), seed 1
#
# markdownlint-cli2 is installed with npm into a cache folder
# ($BATON_BENCH_CACHE, default ~/.cache/baton-bench), once. Each tool runs
# RUNS times (default 3) after a warm-up run; the best time counts.
set -euo pipefail

cd "$(dirname "$0")/.."
N=${1:-1000}
RUNS=${RUNS:-3}
CACHE=${BATON_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baton-bench}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

go build -o "$WORK/baton" ./cmd/baton
go run ./bench/cmd/gencorpus -out "$WORK/corpus" -n "$N" -seed 1 >/dev/null
FILES=$(find "$WORK/corpus" -name '*.md' | wc -l)
BYTES=$(find "$WORK/corpus" -name '*.md' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)

MDL="$CACHE/markdownlint-cli2/node_modules/.bin/markdownlint-cli2"
if [ ! -x "$MDL" ]; then
	echo "installing markdownlint-cli2 into $CACHE/markdownlint-cli2 ..." >&2
	mkdir -p "$CACHE/markdownlint-cli2"
	npm install --silent --no-audit --no-fund --prefix "$CACHE/markdownlint-cli2" markdownlint-cli2 >&2
fi
MDL_VERSION=$(node -p "require('$CACHE/markdownlint-cli2/node_modules/markdownlint-cli2/package.json').version")

# best_ms CMD...: the best wall time of RUNS runs, in milliseconds (exit
# status ignored: every linter exits non-zero on the bad files).
best_ms() {
	"$@" >/dev/null 2>&1 || true
	local best=
	for _ in $(seq "$RUNS"); do
		local t0 t1
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		local ms=$(((t1 - t0) / 1000000))
		if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
	done
	echo "$best"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / (b > 0 ? b : 1) }'; }

echo "corpus: $FILES files, $((BYTES / 1024)) KB (go run ./bench/cmd/gencorpus -n $N -seed 1); best of $RUNS runs; $(nproc) CPUs"
BATON_MS=$(best_ms "$WORK/baton" check --state-dir "$WORK/corpus/clio-state" "$WORK/corpus")
printf '%-28s %8s ms\n' "baton check" "$BATON_MS"
# markdownlint-cli2 reads globs; a .markdownlint-cli2.jsonc would change its rules, and there is none.
MDL_MS=$(best_ms "$MDL" "$WORK/corpus/**/*.md")
printf '%-28s %8s ms   baton is %sx faster (goal: at least 20x)\n' "markdownlint-cli2 $MDL_VERSION" "$MDL_MS" "$(ratio "$MDL_MS" "$BATON_MS")"

MDSMITH=$(command -v mdsmith || true)
if [ -z "$MDSMITH" ]; then
	for mod in github.com/jeduden/mdsmith/cmd/mdsmith github.com/jeduden/mdsmith; do
		if GOBIN="$CACHE/bin" go install "$mod@latest" >"$WORK/mdsmith.log" 2>&1; then
			MDSMITH="$CACHE/bin/mdsmith"
			break
		fi
	done
fi
if [ -n "$MDSMITH" ] && [ -x "$MDSMITH" ]; then
	MDS_MS=$(best_ms "$MDSMITH" check "$WORK/corpus")
	printf '%-28s %8s ms   baton is %sx faster\n' "mdsmith" "$MDS_MS" "$(ratio "$MDS_MS" "$BATON_MS")"
else
	echo "mdsmith: skipped, not installable from the Go module proxy ($(grep -m1 -o '[0-9]\{3\} [A-Za-z ]*' "$WORK/mdsmith.log" 2>/dev/null || echo 'go install failed'))"
fi
