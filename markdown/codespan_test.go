package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// TestCodeSpansMatchGoldmark: every text built from up to four pieces of
// code span syntax (runs of one to three backticks, escapes, text, spaces,
// line breaks, block quote and list markers, tabs) parses to goldmark's
// own tree, with its own code span parser; so do the shapes made to be
// slow, small.
func TestCodeSpansMatchGoldmark(t *testing.T) {
	pieces := []string{"`", "``", "```", "\\", "a", " ", "\n", "\n> ", "\n- ", "\t"}
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		sameTree(t, fmt.Sprintf("%q", prefix), prefix)
		if depth == 4 {
			return
		}
		for _, p := range pieces {
			build(prefix+p, depth+1)
		}
	}
	build("", 0)
	build("x ", 0)
	build("`` a\n", 0)
	for name, src := range map[string]string{
		"runs of every length":        backtickRuns(40, " x "),
		"runs of every length, twice": backtickRuns(40, " x ") + "\n" + backtickRuns(40, " y "),
		"each closed":                 closedBacktickRuns(40),
		"each on its own line":        backtickRuns(40, " x\n"),
		"in a block quote":            "> " + strings.ReplaceAll(backtickRuns(30, " x\n"), "\n", "\n> "),
		"in a heading":                "# " + backtickRuns(30, " x ") + "\n",
		"escaped openers":             strings.Repeat("\\`` x ``` \\``` y `` ", 20),
	} {
		sameTree(t, name, src)
	}
}

// backtickRuns is runs of 1, 2, … n backticks, each followed by sep.
func backtickRuns(n int, sep string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("`", i))
		b.WriteString(sep)
	}
	return b.String()
}

// closedBacktickRuns is code spans of 1, 2, … n backticks.
func closedBacktickRuns(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		run := strings.Repeat("`", i)
		b.WriteString(run + " x " + run + " ")
	}
	return b.String()
}
