package handoff_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff"
)

func TestGoalProblem(t *testing.T) {
	for _, tc := range []struct{ goal, want string }{
		// clio's contract tests.
		{"fix it", "short"},
		{"continue", "stoplist"},
		{"  Keep Going ", "stoplist"},
		{"PROCEED", "stoplist"},
		{"go on", "stoplist"},
		{"resume", "stoplist"},
		{"next", "stoplist"},
		{"same", "stoplist"},
		{"  finish the working-set eviction rules  ", ""},
		{"continue the eviction work", ""},
		{"12345678901", "short"},
		{"123456789012", ""},
		{"ab 😀 cdefgh", ""},    // 11 code points, 12 UTF-16 units
		{"é è à ç ù", "short"}, // 9 characters, 18 bytes
		{"日本語の目標を達成", "short"}, // 9 characters, 27 bytes
	} {
		if got := handoff.GoalProblem(tc.goal); got != tc.want {
			t.Errorf("GoalProblem(%q) = %q, want %q", tc.goal, got, tc.want)
		}
	}
}

// TestBoundString cuts strings of every multi-byte width so the cut at
// 498 bytes lands on each byte of a character: the result is a prefix of
// the (trimmed) original plus the marker, valid UTF-8, at most 512 bytes,
// and as long as it can be.
func TestBoundString(t *testing.T) {
	if got, cut := handoff.BoundString("  a short fact  "); got != "a short fact" || cut {
		t.Errorf("BoundString(short) = %q, %v", got, cut)
	}
	if got, cut := handoff.BoundString(strings.Repeat("x", 1024)); !cut || len(got) > 512 || !strings.HasSuffix(got, handoff.TruncationMarker) {
		t.Errorf("BoundString(1024 × x) = %d bytes, %v", len(got), cut)
	}
	if got, cut := handoff.BoundString(strings.Repeat("x", 512)); cut || len(got) != 512 {
		t.Errorf("512 bytes must not be cut: %d, %v", len(got), cut)
	}
	for _, ch := range []string{"a", "é", "日", "😀"} {
		for pad := range 4 {
			for total := 505; total <= 530; total++ {
				s := strings.Repeat("p", pad)
				for len(s)+len(ch) <= total {
					s += ch
				}
				got, cut := handoff.BoundString(s)
				if cut != (len(s) > 512) {
					t.Fatalf("%q×, pad %d, %d bytes: cut = %v", ch, pad, len(s), cut)
				}
				checkCut(t, s, got, cut)
			}
		}
	}
}

func checkCut(t *testing.T, orig, got string, cut bool) {
	t.Helper()
	if !cut {
		if got != orig {
			t.Fatalf("not cut but changed: %q", got)
		}
		return
	}
	head, ok := strings.CutSuffix(got, handoff.TruncationMarker)
	switch {
	case !ok:
		t.Fatalf("no marker: %q", got)
	case len(got) > handoff.MaxStringBytes:
		t.Fatalf("%d bytes", len(got))
	case !strings.HasPrefix(orig, head):
		t.Fatalf("not a prefix of the original")
	case !utf8.ValidString(got):
		t.Fatalf("invalid UTF-8: %q", got)
	case len(head) < 498-3:
		t.Fatalf("cut too short: %d bytes kept", len(head))
	}
	if len(head) < len(orig) {
		if r, _ := utf8.DecodeRuneInString(orig[len(head):]); len(head)+utf8.RuneLen(r) <= 498 {
			t.Fatalf("the next character %q would still fit", r)
		}
	}
}

// TestStringBoundFix applies the quick fix to over-long strings of every
// kind, with é, CJK and emoji at the cut: the new string is what
// BoundString gives, and the fixed document has no bound finding left.
func TestStringBoundFix(t *testing.T) {
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	head := "# Handoff\n\n**Goal:** finish the eviction rules\n\nCarried from session `session-a`.\n\n"
	earlierCut, _ := handoff.BoundString(strings.Repeat("fact ", 120)) // a string clio cut before
	for _, ch := range []string{"é", "日", "😀", "y"} {
		for pad := range 4 {
			long := strings.Repeat("p", pad) + strings.Repeat(ch, 600/len(ch))
			want, _ := handoff.BoundString(long)
			for _, tmpl := range []string{
				"## Decisions\n\n- %s\n",
				"## Decisions\n\n- summary\n  %s\n",
				"## Facts\n\n- %s\n",
				"## Files\n\n- `src/a.ts`: %s\n",
				"## Files\n\n- `%s`: why\n",
				"## Commands\n\n- `%s`: why\n",
				"## Commands\n\n- `go test`: %s\n",
				"## Open questions\n\n- %s\n",
				"## Facts\n\n- one\n- %s\n\n## Open questions\n\n- why?\n",
				"## Facts\n\n- " + earlierCut + "\n- %s\n\n## Bounds applied\n\n- 1 entry was cut to 512 bytes and marked with …[truncated]\n",
			} {
				text := head + fmt.Sprintf(tmpl, long)
				res := reg.Analyze(markdown.Parse("f.md", text), nil)
				if len(res.Findings) != 1 || res.Findings[0].Rule != handoff.RuleStringBound.ID {
					t.Fatalf("%q: findings %v", tmpl, res.Findings)
				}
				f := res.Findings[0]
				if text[f.Span.Start:f.Span.End] != long {
					t.Fatalf("%q: the finding's span is %q", tmpl, text[f.Span.Start:f.Span.End])
				}
				fixed, err := analysis.ApplyEdits(text, f.Fixes[0].Edits)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(fixed, want) || strings.Contains(fixed, long) {
					t.Fatalf("%q: the fixed document does not hold the cut string:\n%s", tmpl, fixed)
				}
				checkCut(t, long, want, true)
				if again := reg.Analyze(markdown.Parse("f.md", fixed), nil); len(again.Findings) != 0 {
					t.Fatalf("%q: after the fix: %v\n%s", tmpl, again.Findings, fixed)
				}
			}
		}
	}
}
