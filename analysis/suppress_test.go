package analysis_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysistest"
	"github.com/google/go-cmp/cmp"
)

// wordAnalyzer reports rule id at every occurrence of word in documents of
// kind.
func wordAnalyzer(kind markdown.Kind, words map[string]*analysis.Rule) *analysis.Analyzer {
	a := &analysis.Analyzer{Name: "words-" + kind.String(), Kind: kind}
	for _, r := range words {
		a.Rules = append(a.Rules, r)
	}
	a.Run = func(p *analysis.Pass) any {
		for w, r := range words {
			for off := 0; ; off += len(w) {
				i := strings.Index(p.Doc.Text[off:], w)
				if i < 0 {
					break
				}
				off += i
				p.Report(r, markdown.Span{Start: off, End: off + len(w)}, "found "+w)
			}
		}
		return nil
	}
	return a
}

var (
	ruleA = rule("test/a", analysis.Error)
	ruleB = rule("test/b", analysis.Warning)
	ruleC = rule("test/c", analysis.Info)
	ruleW = rule("test/w", analysis.Error)

	wordsOther    = wordAnalyzer(markdown.KindOther, map[string]*analysis.Rule{"AAA": ruleA, "BBB": ruleB, "CCC": ruleC})
	wordsWorkflow = wordAnalyzer(markdown.KindWorkflow, map[string]*analysis.Rule{"WWW": ruleW})
)

func suppressRegistry(t testing.TB, withRule bool) *analysis.Registry {
	as := []*analysis.Analyzer{wordsOther, wordsWorkflow}
	if withRule {
		as = append(as, analysis.SuppressionAnalyzer)
	}
	reg, err := analysis.NewRegistry(as...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// formatAll formats findings as analysistest does ("LINE:COL rule message").
func formatAll(doc *markdown.Document, fs []analysis.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = analysistest.Format(doc, f)
	}
	return out
}

// matchFindings compares formatted findings with want lines ("LINE:COL
// rule substring-of-message"), in order.
func matchFindings(t *testing.T, got, want []string) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		w := strings.SplitN(want[i], " ", 3)
		g := strings.SplitN(got[i], " ", 3)
		ok = len(g) == 3 && w[0] == g[0] && w[1] == g[1] && (len(w) < 3 || strings.Contains(g[2], w[2]))
	}
	if !ok {
		t.Errorf("findings:\n  got  %s\n  want %s", strings.Join(got, "\n       "), strings.Join(want, "\n       "))
	}
}

func TestSuppress(t *testing.T) {
	const unused = "baton/unused-suppression"
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"no comments", "AAA BBB\n", []string{"1:1 test/a", "1:5 test/b"}},
		{"next line", "<!-- baton-disable-next-line test/a -->\nAAA BBB\nAAA\n",
			[]string{"2:5 test/b", "3:1 test/a"}},
		{"next line skips blank lines", "<!-- baton-disable-next-line test/a -->\n\n  \t\nAAA\nAAA\n",
			[]string{"5:1 test/a"}},
		{"not the comment's own line", "AAA <!-- baton-disable-next-line test/a -->\nAAA\n",
			[]string{"1:1 test/a"}},
		{"several rules, commas and spaces", "<!-- baton-disable-next-line test/a, test/b test/c -->\nAAA BBB CCC\nAAA\n",
			[]string{"3:1 test/a"}},
		{"range closed by enable", "AAA\n<!-- baton-disable test/a -->\nAAA BBB\n\nAAA\n<!-- baton-enable test/a -->\nAAA\n",
			[]string{"1:1 test/a", "3:5 test/b", "7:1 test/a"}},
		{"range to the end", "AAA\n\n<!-- baton-disable test/a test/b -->\n\nAAA BBB CCC\n\nAAA\n",
			[]string{"1:1 test/a", "5:9 test/c"}},
		{"enable of another rule leaves the range open", "<!-- baton-disable test/a -->\nAAA\n<!-- baton-enable test/b -->\nAAA\n",
			nil},
		{"bare next line", "<!-- baton-disable-next-line -->\nAAA BBB CCC\nAAA\n",
			[]string{"3:1 test/a"}},
		{"bare range and bare enable", "<!-- baton-disable -->\nAAA BBB\n<!-- baton-enable -->\nAAA\n",
			[]string{"4:1 test/a"}},
		{"bare range, one rule enabled again", "<!-- baton-disable -->\nAAA BBB\n<!-- baton-enable test/a -->\nAAA BBB\n",
			[]string{"4:1 test/a"}},
		{"bare enable closes named ranges", "<!-- baton-disable test/a -->\nAAA\n<!-- baton-enable -->\nAAA\n",
			[]string{"4:1 test/a"}},
		{"unknown rule", "<!-- baton-disable-next-line test/zzz, test/a -->\nAAA\n",
			[]string{`1:30 ` + unused + ` names rule "test/zzz", which baton does not know`}},
		{"unknown rule only: not bare", "<!-- baton-disable-next-line test/zzz -->\nAAA\n",
			[]string{`1:30 ` + unused + ` names rule "test/zzz"`, "2:1 test/a"}},
		{"unknown rule in enable", "<!-- baton-disable test/a -->\nAAA\n<!-- baton-enable tset/a -->\n",
			[]string{`3:19 ` + unused + ` baton-enable names rule "tset/a"`}},
		{"unused next line", "<!-- baton-disable-next-line test/a -->\nBBB\n",
			[]string{"1:6 " + unused + " baton-disable-next-line test/a suppresses nothing: no finding of that rule starts on the next line", "2:1 test/b"}},
		{"unused, two rules", "<!-- baton-disable test/a, test/c -->\nBBB\n",
			[]string{"1:6 " + unused + " baton-disable test/a, test/c suppresses nothing: no finding of those rules starts after it", "2:1 test/b"}},
		{"unused bare", "AAA\n<!-- baton-disable -->\n",
			[]string{"1:1 test/a", "2:6 " + unused + " baton-disable suppresses nothing: no finding starts after it"}},
		{"no next line", "AAA\n<!-- baton-disable-next-line -->\n\n",
			[]string{"1:1 test/a", "2:6 " + unused + " no finding starts after it (there is no next line)"}},
		{"one of two rules unused", "<!-- baton-disable-next-line test/a, test/b -->\nAAA\n",
			[]string{"1:38 " + unused + " baton-disable-next-line suppresses nothing for test/b"}},
		{"a range used by a later finding only", "<!-- baton-disable test/a -->\nBBB\n<!-- baton-enable test/a -->\nAAA\n",
			[]string{"1:6 " + unused, "2:1 test/b", "4:1 test/a"}},
		{"not a suppression comment", "<!-- baton-disable-line test/a -->\nAAA\n",
			[]string{`1:1 ` + unused + ` "baton-disable-line" is not a suppression comment`, "2:1 test/a"}},
		{"other comments are not suppressions", "<!-- baton is fine -->\n<!-- disable-next-line test/a -->\nAAA\n",
			[]string{"3:1 test/a"}},
		{"fenced code", "```\n<!-- baton-disable test/a -->\n```\nAAA\n",
			[]string{"4:1 test/a"}},
		{"indented code", "    <!-- baton-disable -->\n\nAAA\n",
			[]string{"3:1 test/a"}},
		{"code span", "`<!-- baton-disable-next-line -->`\nAAA\n",
			[]string{"2:1 test/a"}},
		{"block quote", "> <!-- baton-disable-next-line -->\nAAA\n",
			[]string{"2:1 test/a"}},
		{"inside an HTML block", "<div>\n<!-- baton-disable-next-line test/a -->\nAAA\n</div>\n\nAAA\n",
			[]string{"6:1 test/a"}},
		{"two comments on one line", "<!-- baton-disable-next-line test/a --> <!-- baton-disable-next-line test/b -->\nAAA BBB CCC\n",
			[]string{"2:9 test/c"}},
		{"comment over several lines", "<!--\n  baton-disable-next-line\n  test/a\n-->\nAAA BBB\n",
			[]string{"5:5 test/b"}},
		{"in a list item", "- <!-- baton-disable-next-line test/a -->\n  AAA\n- AAA\n",
			[]string{"3:3 test/a"}},
		{"CRLF next line", "<!-- baton-disable-next-line test/a -->\r\n\r\nAAA\r\nAAA\r\n",
			[]string{"4:1 test/a"}},
		{"CRLF range", "<!-- baton-disable\r\ntest/a -->\r\nAAA\r\n<!-- baton-enable test/a -->\r\nAAA BBB\r\n",
			[]string{"5:1 test/a", "5:5 test/b"}},
		{"CR only", "<!-- baton-disable-next-line test/a -->\r\rAAA\rAAA\r",
			[]string{"4:1 test/a"}},
		{"the unused rule cannot suppress its own comment", "<!-- baton-disable-next-line baton/unused-suppression -->\nBBB\n",
			[]string{"1:6 " + unused + " suppresses nothing", "2:1 test/b"}},
		{"an earlier comment suppresses a later one's finding", "<!-- baton-disable-next-line baton/unused-suppression -->\n<!-- baton-disable-next-line test/a -->\nBBB\n",
			[]string{"3:1 test/b"}},
		{"a chain of comments", "<!-- baton-disable-next-line baton/unused-suppression -->\n<!-- baton-disable-next-line baton/unused-suppression -->\n<!-- baton-disable-next-line test/a -->\nBBB\n",
			[]string{"1:6 " + unused, "4:1 test/b"}},
		{"a bare range covers later comments", "<!-- baton-disable -->\nAAA\n<!-- baton-disable-next-line test/zzz -->\n<!-- baton-oops -->\n",
			nil},
		{"a bare range used only by later comments' findings", "<!-- baton-disable -->\n<!-- baton-disable-next-line test/a -->\nBBB\n",
			nil},
		{"other kinds: workflow", "---\nprops: {}\n---\n\n<!-- baton-disable-next-line test/w -->\nWWW\nWWW\n",
			[]string{"7:1 test/w"}},
	}
	reg := suppressRegistry(t, true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := markdown.Parse("f.md", tt.text)
			res := reg.Analyze(doc, nil)
			matchFindings(t, formatAll(doc, res.Findings), tt.want)
			for _, f := range res.Findings {
				for _, fix := range f.Fixes {
					if _, err := analysis.ApplyEdits(tt.text, fix.Edits); err != nil {
						t.Errorf("%s: fix %q: %v", f.Rule, fix.Title, err)
					}
				}
			}
		})
	}
}

// TestSuppressWithoutTheRule: a registry without SuppressionAnalyzer still
// honours the comments but reports nothing about them.
func TestSuppressWithoutTheRule(t *testing.T) {
	reg := suppressRegistry(t, false)
	text := "<!-- baton-disable-next-line test/a -->\nAAA BBB\n<!-- baton-disable-next-line test/zzz -->\n<!-- baton-what -->\n"
	doc := markdown.Parse("f.md", text)
	matchFindings(t, formatAll(doc, reg.Analyze(doc, nil).Findings), []string{"2:5 test/b"})
	// The rule is only known to a registry that holds the analyzer.
	if reg.Rule(analysis.RuleUnusedSuppression.ID) != nil {
		t.Error("the registry knows baton/unused-suppression without SuppressionAnalyzer")
	}
	if got := suppressRegistry(t, true).Rule(analysis.RuleUnusedSuppression.ID); got != analysis.RuleUnusedSuppression {
		t.Errorf("Rule(baton/unused-suppression) = %v", got)
	}
}

func TestSuppressConfig(t *testing.T) {
	reg := suppressRegistry(t, true)
	text := "<!-- baton-disable-next-line test/a -->\nAAA\n<!-- baton-disable-next-line test/b -->\nBBB\n"
	doc := markdown.Parse("f.md", text)
	tests := []struct {
		name string
		cfg  map[string]analysis.Severity
		want []string
	}{
		{"default", nil, nil},
		// A rule configured off reports nothing, so a comment for it
		// suppresses nothing.
		{"suppressed rule off", map[string]analysis.Severity{"test/a": analysis.Off},
			[]string{"1:6 baton/unused-suppression"}},
		{"unused rule off", map[string]analysis.Severity{"test/a": analysis.Off, "baton/unused-suppression": analysis.Off}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := reg.Analyze(doc, &analysis.Config{Severity: tt.cfg})
			matchFindings(t, formatAll(doc, res.Findings), tt.want)
		})
	}
	res := reg.Analyze(markdown.Parse("f.md", "<!-- baton-disable -->\n"), &analysis.Config{Severity: map[string]analysis.Severity{"baton/unused-suppression": analysis.Hint}})
	if len(res.Findings) != 1 || res.Findings[0].Severity != analysis.Hint {
		t.Errorf("severity override: %+v", res.Findings)
	}
	if res := reg.Analyze(markdown.Parse("f.md", "<!-- baton-disable -->\n"), nil); len(res.Findings) != 1 || res.Findings[0].Severity != analysis.Warning {
		t.Errorf("default severity: %+v", res.Findings)
	}
}

func TestSuppressFixes(t *testing.T) {
	reg := suppressRegistry(t, true)
	tests := []struct {
		name, text, fixed string
	}{
		{"comment on its own line", "BBB\n<!-- baton-disable-next-line test/a -->\nBBB\n", "BBB\nBBB\n"},
		{"CRLF", "BBB\r\n  <!-- baton-disable-next-line test/a -->  \r\nBBB\r\n", "BBB\r\nBBB\r\n"},
		{"last line", "BBB\n\n<!-- baton-disable -->", "BBB\n\n"},
		{"inline", "BBB <!-- baton-disable-next-line test/a --> BBB\nBBB\n", "BBB  BBB\nBBB\n"},
		{"not a suppression", "<!-- baton-disable-line -->\nBBB\n", "BBB\n"},
		{"first of two rules", "<!-- baton-disable-next-line test/a, test/b -->\nBBB\n", "<!-- baton-disable-next-line test/b -->\nBBB\n"},
		{"last of two rules", "<!-- baton-disable-next-line test/b test/a -->\nBBB\n", "<!-- baton-disable-next-line test/b -->\nBBB\n"},
		{"middle of three rules", "<!-- baton-disable-next-line test/b,test/a , test/c -->\nBBB CCC\n", "<!-- baton-disable-next-line test/b,test/c -->\nBBB CCC\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := reg.Analyze(markdown.Parse("f.md", tt.text), nil)
			var fixes []analysis.Fix
			for _, f := range res.Findings {
				if f.Rule == analysis.RuleUnusedSuppression.ID {
					fixes = append(fixes, f.Fixes...)
				}
			}
			if len(fixes) != 1 {
				t.Fatalf("%d fixes, want 1: %+v", len(fixes), res.Findings)
			}
			if fixes[0].Safe {
				t.Error("the fix is marked safe: removing a comment is for a person to decide")
			}
			got, err := analysis.ApplyEdits(tt.text, fixes[0].Edits)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.fixed, got); d != "" {
				t.Errorf("fixed (-want +got):\n%s", d)
			}
			if again := reg.Analyze(markdown.Parse("f.md", got), nil); slices.ContainsFunc(again.Findings, func(f analysis.Finding) bool {
				return f.Rule == analysis.RuleUnusedSuppression.ID
			}) {
				t.Errorf("still unused after the fix: %v", again.Findings)
			}
		})
	}
}

// TestSuppressEveryKind: the comments work with the rules baton ships, in
// stop packets and handoff documents.
func TestSuppressEveryKind(t *testing.T) {
	reg, err := analysis.NewRegistry(analysistest.Analyzers()...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text, rule string
		kind             markdown.Kind
	}{
		{"packet", "## What I Just Did\n\nWork.\n\n## What Needs Your Review\n\n- Is `config` the name you want?\n\n<!-- baton-disable-next-line packet/section-order -->\n## Why I Stopped\n\nThe name.\n\n## What Happens Next\n\nOnce you reply, I will apply it.\n\n## What I Need From You\n\nReply with the name.\n",
			"packet/section-order", markdown.KindPacket},
		{"handoff", "# Handoff\n\n<!-- baton-disable handoff/goal-stoplist -->\n**Goal:** continue\n<!-- baton-enable -->\n\nCarried from session `k3m9x2p7q1wz`.\n",
			"handoff/goal-stoplist", markdown.KindHandoff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if reg.Rule(tt.rule) == nil {
				t.Fatalf("no rule %s", tt.rule)
			}
			without := strings.NewReplacer("<!-- baton-disable-next-line "+tt.rule+" -->\n", "", "<!-- baton-disable "+tt.rule+" -->\n", "").Replace(tt.text)
			doc := markdown.Parse("f.md", without)
			if doc.Kind != tt.kind {
				t.Fatalf("kind %v, want %v", doc.Kind, tt.kind)
			}
			if !slices.ContainsFunc(reg.Analyze(doc, nil).Findings, func(f analysis.Finding) bool { return f.Rule == tt.rule }) {
				t.Fatalf("without the comment, no %s finding: the test document is wrong", tt.rule)
			}
			doc = markdown.Parse("f.md", tt.text)
			for _, f := range reg.Analyze(doc, nil).Findings {
				if f.Rule == tt.rule || f.Rule == analysis.RuleUnusedSuppression.ID {
					t.Errorf("finding not suppressed: %s", analysistest.Format(doc, f))
				}
			}
		})
	}
}

// FuzzSuppress: suppression never panics, never adds findings of other
// rules, and its findings and fixes lie in the text.
func FuzzSuppress(f *testing.F) {
	for _, s := range []string{
		"<!-- baton-disable-next-line test/a -->\nAAA BBB\n",
		"<!-- baton-disable test/a, test/b -->\nAAA\n<!-- baton-enable -->\nBBB\n",
		"<!-- baton-disable -->\n<!-- baton-disable-next-line baton/unused-suppression test/zzz -->\n",
		"<!--\r\nbaton-disable-next-line\r\n-->\r\n\r\nCCC\r",
		"> <!-- baton-enable -->\n- <!-- baton-disable test/c -->CCC `<!-- baton-x -->`\n",
	} {
		f.Add(s)
	}
	with, without := suppressRegistry(f, true), suppressRegistry(f, false)
	f.Fuzz(func(t *testing.T, text string) {
		doc := markdown.Parse("f.md", text)
		all := map[string]bool{}
		for _, fd := range without.Analyze(doc, nil).Findings {
			all[analysistest.Format(doc, fd)] = true
		}
		for _, fd := range with.Analyze(doc, nil).Findings {
			if fd.Span.Start < 0 || fd.Span.End < fd.Span.Start || fd.Span.End > len(text) {
				t.Fatalf("%s: span %v outside the text (%d bytes)", fd.Rule, fd.Span, len(text))
			}
			if fd.Rule != analysis.RuleUnusedSuppression.ID && !all[analysistest.Format(doc, fd)] {
				t.Fatalf("finding %s is not one the analyzers reported", analysistest.Format(doc, fd))
			}
			for _, fix := range fd.Fixes {
				if _, err := analysis.ApplyEdits(text, fix.Edits); err != nil {
					t.Fatalf("%s: fix %q: %v", fd.Rule, fix.Title, err)
				}
			}
		}
	})
}
