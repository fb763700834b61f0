#!/usr/bin/env bash
# Runs every fuzz target of the module, found by name in the test files so
# none is forgotten, for $FUZZTIME each (default 20s). Every target runs even
# when one fails; the failures are listed at the end and the exit status is 1.
#
# Go before 1.27 can fail a run just as -fuzztime ends, with "context deadline
# exceeded" and no failing input written (go.dev/issue/75804, a race in the
# fuzzing coordinator): such a target is run once more rather than reported.
set -u
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-20s}
failed=()
for f in $(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do
	dir=$(dirname "$f")
	for t in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$f"); do
		for try in 1 2; do
			echo "fuzz: $dir $t"
			out=$("$GO" test "$dir" -run '^$' -fuzz "^$t\$" -fuzztime "$FUZZTIME" 2>&1)
			rc=$?
			printf '%s\n' "$out"
			if [ "$rc" -eq 0 ]; then
				break
			fi
			if [ "$try" -eq 1 ] && grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
				echo "fuzz: $t stopped at the time limit without a failing input (Go's fuzzer before 1.27); running it again"
				continue
			fi
			failed+=("$dir:$t")
			break
		done
	done
done
if [ "${#failed[@]}" -gt 0 ]; then
	echo "fuzz: failing inputs found by ${failed[*]}"
	exit 1
fi
