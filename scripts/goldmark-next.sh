#!/usr/bin/env bash
# Runs the tests that hold baton's goldmark speed-ups to goldmark (the tree
# comparisons: TestParse* and FuzzParseTree's seeds; the copied tables:
# TestBlockTags…, TestPlainLines…, TestBlockParsers…) against another goldmark,
# the newest release by default ($GOLDMARK, e.g. GOLDMARK=v1.9.0), so that an
# upgrade that breaks a speed-up is seen before it lands. The module's go.mod
# and go.sum are not changed: the go command works on copies (-modfile).
set -eu
cd "$(dirname "$0")/.."
GO=${GO:-go}
GOLDMARK=${GOLDMARK:-latest}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp go.mod "$tmp/go.mod"
cp go.sum "$tmp/go.sum"
current=$("$GO" list -m -f '{{.Version}}' github.com/yuin/goldmark)
"$GO" get -modfile="$tmp/go.mod" "github.com/yuin/goldmark@$GOLDMARK"
next=$("$GO" list -modfile="$tmp/go.mod" -m -f '{{.Version}}' github.com/yuin/goldmark)
echo "goldmark-next: baton builds with goldmark $current; testing the speed-ups against $next"
"$GO" test -modfile="$tmp/go.mod" -count=1 ./analysis/ \
	-run '^(TestParse.*|FuzzParseTree|TestBlockTagsMatchGoldmark|TestPlainLinesKnowTheTriggers|TestBlockParsersWrapGoldmarksHTMLParser)$'
echo "goldmark-next: goldmark $next gives the trees and tables baton's speed-ups assume"
