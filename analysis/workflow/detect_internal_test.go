package workflow

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"
)

// The engine's grammar reads unclosed tags nested in unclosed tags in time
// quadratic or worse; baton's reading spends a budget linear in the text,
// and past it still answers (a closing tag or "/>" somewhere after).
func TestXMDScanBudget(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"nested unclosed, one closer", strings.Repeat("<If>", 20000) + "</If>", true},
		{"nested unclosed with text", strings.Repeat("<If>x ", 20000) + "</If></If>", true},
		{"unterminated values", strings.Repeat("<A x=\"", 20000), false},
		{"unterminated expressions", strings.Repeat("<A {", 20000), false},
		{"distinct names, never closed", func() string {
			var b strings.Builder
			for i := range 5000 {
				b.WriteString("<A" + strings.Repeat("b", i%50) + ">")
			}
			return b.String()
		}(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := markdown.Parse("f.md", tt.text)
			if _, _, got := Detect(d); got != tt.want {
				t.Errorf("a workflow: %v, want %v", got, tt.want)
			}
			s := xmdScan{text: d.Source}
			budget := 32*len(d.Source) + 1<<16
			for i := strings.Index(tt.text, "<"); i >= 0 && i < len(tt.text); i++ {
				if tt.text[i] == '<' {
					s.isXMDTag(i)
				}
			}
			if used := budget - s.budget; used > budget+maxOpenTag {
				t.Errorf("%d steps for %d bytes, over the budget of %d", used, len(d.Source), budget)
			}
		})
	}
}

// mayHoldExecutableFence, which spares most documents the walk for
// executable code blocks, says yes to every document the walk finds one
// in: fences after every kind of container marker, of both characters and
// any length, with info strings goldmark refuses; and no to a line of
// fences that open none.
func TestMayHoldExecutableFence(t *testing.T) {
	prefixes := []string{"", " ", "   ", "    ", "\t", "> ", ">", "- ", "1. ", "2) ", "* > ", "- - ", "+ 1. > ", "> - "}
	fences := []string{"```ts eval", "~~~ sh exec", "````js eval x", "``` x eval", "~~~~ ts   exec", "```ts `eval`", "~~~ts eval ```", "```eval", "``ts eval", "`x` ```ts eval"}
	befores := []string{"", "para\n", "- a\n", "> q\n", "```\nx\n```\n"}
	found := 0
	for _, before := range befores {
		for _, p := range prefixes {
			for _, f := range fences {
				src := before + p + f + "\n" + p + "x\n" + p + f[:3] + "\n"
				why, _, ok := Detect(markdown.Parse("x.md", src))
				walk := ok && strings.Contains(why, "a code block XMD executes")
				if walk {
					found++
				}
				if walk && !mayHoldExecutableFence([]byte(src)) {
					t.Errorf("%q: an executable block, and mayHoldExecutableFence says none", src)
				}
			}
		}
	}
	if found < 100 {
		t.Errorf("only %d documents hold an executable block: the cases are broken", found)
	}
	for _, src := range []string{strings.Repeat("```ts ", 1000), strings.Repeat("```ts eval ", 1000), "```ts\neval\n```\n"} {
		if mayHoldExecutableFence([]byte(src)) {
			t.Errorf("%.40q…: mayHoldExecutableFence says yes to a document with no executable block", src)
		}
	}
}
