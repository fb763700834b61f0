package analysis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/google/go-cmp/cmp"
)

func span(start, end int) markdown.Span { return markdown.Span{Start: start, End: end} }

func TestSeverityString(t *testing.T) {
	tests := []struct {
		s    analysis.Severity
		want string
	}{
		{analysis.Off, "off"},
		{analysis.Error, "error"},
		{analysis.Warning, "warning"},
		{analysis.Info, "info"},
		{analysis.Hint, "hint"},
		{analysis.Severity(5), "severity(5)"},
		{analysis.Severity(-1), "severity(-1)"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("Severity(%d).String() = %q, want %q", int(tt.s), got, tt.want)
		}
	}
}

func TestParseSeverity(t *testing.T) {
	tests := []struct {
		name string
		want analysis.Severity
	}{
		{"off", analysis.Off},
		{"error", analysis.Error},
		{"warning", analysis.Warning},
		{"info", analysis.Info},
		{"hint", analysis.Hint},
		{"ERROR", analysis.Error},
		{"Warning", analysis.Warning},
		{"OFF", analysis.Off},
	}
	for _, tt := range tests {
		got, err := analysis.ParseSeverity(tt.name)
		if err != nil || got != tt.want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v, nil", tt.name, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "warn", "fatal", " error", "severity(1)", "1"} {
		if got, err := analysis.ParseSeverity(bad); err == nil {
			t.Errorf("ParseSeverity(%q) = %v, nil; want an error", bad, got)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("ParseSeverity(%q) error %q does not name the input", bad, err)
		}
	}
	// Every severity's name parses back to it.
	for s := analysis.Off; s <= analysis.Hint; s++ {
		if got, err := analysis.ParseSeverity(s.String()); err != nil || got != s {
			t.Errorf("ParseSeverity(%v.String()) = %v, %v", s, got, err)
		}
	}
}

func TestSpan(t *testing.T) {
	tests := []struct {
		s      markdown.Span
		offset int
		want   bool
	}{
		{span(2, 5), 1, false},
		{span(2, 5), 2, true},
		{span(2, 5), 4, true},
		{span(2, 5), 5, false},
		{span(2, 5), -1, false},
		{span(3, 3), 3, true}, // an empty span contains its own start
		{span(3, 3), 2, false},
		{span(3, 3), 4, false},
		{span(0, 0), 0, true},
		{span(0, 1), 0, true},
		{span(0, 1), 1, false},
	}
	for _, tt := range tests {
		if got := tt.s.Contains(tt.offset); got != tt.want {
			t.Errorf("%v.Contains(%d) = %v, want %v", tt.s, tt.offset, got, tt.want)
		}
	}
	for _, tt := range []struct {
		s    markdown.Span
		want int
	}{{span(2, 5), 3}, {span(3, 3), 0}, {span(0, 10), 10}} {
		if got := tt.s.Len(); got != tt.want {
			t.Errorf("%v.Len() = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestApplyEdits(t *testing.T) {
	e := func(start, end int, text string) analysis.Edit {
		return analysis.Edit{Span: span(start, end), NewText: text}
	}
	tests := []struct {
		name  string
		text  string
		edits []analysis.Edit
		want  string
	}{
		{"no edits", "hello", nil, "hello"},
		{"replace", "hello world", []analysis.Edit{e(6, 11, "there")}, "hello there"},
		{"insert at start", "world", []analysis.Edit{e(0, 0, "hello ")}, "hello world"},
		{"insert at end", "hello", []analysis.Edit{e(5, 5, "!")}, "hello!"},
		{"delete", "hello, world", []analysis.Edit{e(5, 6, "")}, "hello world"},
		{"delete everything", "hello", []analysis.Edit{e(0, 5, "")}, ""},
		{"edit an empty text", "", []analysis.Edit{e(0, 0, "new")}, "new"},
		{"edits in any order", "abcdef", []analysis.Edit{e(4, 5, "E"), e(0, 1, "A"), e(2, 3, "C")}, "AbCdEf"},
		{"adjacent edits", "abcd", []analysis.Edit{e(1, 2, "X"), e(2, 3, "Y")}, "aXYd"},
		{"insert before a replacement at the same offset", "abcd", []analysis.Edit{e(1, 3, "X"), e(1, 1, "+")}, "a+Xd"},
		{"insert right after a replacement", "abcd", []analysis.Edit{e(3, 3, "+"), e(1, 3, "X")}, "aX+d"},
		{"two inserts at one offset keep their order", "ad", []analysis.Edit{e(1, 1, "b"), e(1, 1, "c")}, "abcd"},
		{"multi-byte text", "a😀b", []analysis.Edit{e(1, 5, "é")}, "aéb"},
		{"CRLF line removal", "a\r\nb\r\nc", []analysis.Edit{e(3, 6, "")}, "a\r\nc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.edits)
			got, err := analysis.ApplyEdits(tt.text, tt.edits)
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			if got != tt.want {
				t.Errorf("ApplyEdits = %q, want %q", got, tt.want)
			}
			if d := cmp.Diff(before, tt.edits); d != "" {
				t.Errorf("ApplyEdits reordered its argument (-before +after):\n%s", d)
			}
		})
	}
}

func TestApplyEditsRejects(t *testing.T) {
	e := func(start, end int) analysis.Edit { return analysis.Edit{Span: span(start, end), NewText: "x"} }
	tests := []struct {
		name  string
		edits []analysis.Edit
	}{
		{"overlapping", []analysis.Edit{e(0, 3), e(2, 4)}},
		{"overlapping, given in reverse", []analysis.Edit{e(2, 4), e(0, 3)}},
		{"nested", []analysis.Edit{e(0, 5), e(1, 2)}},
		{"insert inside a replacement", []analysis.Edit{e(1, 4), e(2, 2)}},
		{"same span twice", []analysis.Edit{e(1, 2), e(1, 2)}},
		{"end before start", []analysis.Edit{e(3, 2)}},
		{"past the end", []analysis.Edit{e(4, 7)}},
		{"insert past the end", []analysis.Edit{e(6, 6)}},
		{"negative start", []analysis.Edit{e(-1, 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := analysis.ApplyEdits("hello", tt.edits); err == nil {
				t.Errorf("ApplyEdits = %q, nil; want an error", got)
			}
		})
	}
}

func TestSortFindings(t *testing.T) {
	f := func(rule string, start, end int, msg string, sev analysis.Severity) analysis.Finding {
		return analysis.Finding{Rule: rule, Span: span(start, end), Message: msg, Severity: sev}
	}
	in := []analysis.Finding{
		f("b/rule", 10, 12, "m", analysis.Error),
		f("a/rule", 10, 12, "m", analysis.Error),
		f("a/rule", 10, 11, "m", analysis.Error),
		f("a/rule", 3, 20, "z", analysis.Error),
		f("a/rule", 3, 20, "a", analysis.Error),
		f("a/rule", 0, 1, "m", analysis.Warning), // equal keys: input order kept
		f("a/rule", 0, 1, "m", analysis.Hint),
		f("a/rule", 0, 1, "m", analysis.Info),
	}
	want := []analysis.Finding{
		f("a/rule", 0, 1, "m", analysis.Warning),
		f("a/rule", 0, 1, "m", analysis.Hint),
		f("a/rule", 0, 1, "m", analysis.Info),
		f("a/rule", 3, 20, "a", analysis.Error),
		f("a/rule", 3, 20, "z", analysis.Error),
		f("a/rule", 10, 11, "m", analysis.Error),
		f("a/rule", 10, 12, "m", analysis.Error),
		f("b/rule", 10, 12, "m", analysis.Error),
	}
	analysis.SortFindings(in)
	if d := cmp.Diff(want, in); d != "" {
		t.Errorf("SortFindings (-want +got):\n%s", d)
	}
	analysis.SortFindings(nil) // must not panic
}

// --- rule.go ---

func rule(id string, sev analysis.Severity) *analysis.Rule {
	return &analysis.Rule{ID: id, Summary: "Summary of " + id + ".", Doc: "Doc of " + id + ".", Severity: sev}
}

func TestNewRegistryRejects(t *testing.T) {
	good := rule("test/good", analysis.Warning)
	tests := []struct {
		name    string
		rules   [][]*analysis.Rule // one analyzer per element
		wantErr string
	}{
		{"ID without kind", [][]*analysis.Rule{{rule("missing", analysis.Error)}}, `"missing"`},
		{"empty ID", [][]*analysis.Rule{{rule("", analysis.Error)}}, `""`},
		{"empty name", [][]*analysis.Rule{{rule("test/", analysis.Error)}}, `"test/"`},
		{"upper case", [][]*analysis.Rule{{rule("Test/rule", analysis.Error)}}, `"Test/rule"`},
		{"underscore", [][]*analysis.Rule{{rule("test/bad_rule", analysis.Error)}}, `"test/bad_rule"`},
		{"leading hyphen", [][]*analysis.Rule{{rule("test/-rule", analysis.Error)}}, `"test/-rule"`},
		{"trailing hyphen", [][]*analysis.Rule{{rule("test/rule-", analysis.Error)}}, `"test/rule-"`},
		{"double hyphen", [][]*analysis.Rule{{rule("test/a--b", analysis.Error)}}, `"test/a--b"`},
		{"two slashes", [][]*analysis.Rule{{rule("test/a/b", analysis.Error)}}, `"test/a/b"`},
		{"digit in kind", [][]*analysis.Rule{{rule("te5t/rule", analysis.Error)}}, `"te5t/rule"`},
		{"spaces", [][]*analysis.Rule{{rule(" test/rule", analysis.Error)}}, `" test/rule"`},
		{"duplicate in one analyzer", [][]*analysis.Rule{{good, rule("test/good", analysis.Error)}}, "test/good is declared twice"},
		{"duplicate across analyzers", [][]*analysis.Rule{{good}, {rule("test/good", analysis.Error)}}, "test/good is declared twice"},
		{"same rule in two analyzers", [][]*analysis.Rule{{good}, {good}}, "test/good is declared twice"},
		{"no summary", [][]*analysis.Rule{{{ID: "test/a", Doc: "d", Severity: analysis.Error}}}, "test/a has no summary or doc"},
		{"no doc", [][]*analysis.Rule{{{ID: "test/a", Summary: "s", Severity: analysis.Error}}}, "test/a has no summary or doc"},
		{"blank doc", [][]*analysis.Rule{{{ID: "test/a", Summary: "s", Doc: " \n\t", Severity: analysis.Error}}}, "test/a has no summary or doc"},
		{"no severity", [][]*analysis.Rule{{{ID: "test/a", Summary: "s", Doc: "d"}}}, "test/a has no default severity"},
		{"severity past hint", [][]*analysis.Rule{{rule("test/a", analysis.Hint+1)}}, "test/a has no default severity"},
		{"negative severity", [][]*analysis.Rule{{rule("test/a", -1)}}, "test/a has no default severity"},
		{"bad rule after good ones", [][]*analysis.Rule{{good}, {rule("test/x", analysis.Info), rule("bad", analysis.Info)}}, `"bad"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var as []*analysis.Analyzer
			for i, rs := range tt.rules {
				as = append(as, &analysis.Analyzer{Name: fmt.Sprint("a", i), Rules: rs, Run: func(*analysis.Pass) any { return nil }})
			}
			reg, err := analysis.NewRegistry(as...)
			if err == nil {
				t.Fatalf("NewRegistry = %v, nil; want an error", reg)
			}
			if reg != nil {
				t.Errorf("NewRegistry returned a registry with its error")
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestNewRegistryAccepts(t *testing.T) {
	rules := []*analysis.Rule{
		rule("zeta/last", analysis.Hint),
		rule("alpha/b-rule", analysis.Error),
		rule("alpha/a1-b2-c3", analysis.Warning),
		rule("mid/x", analysis.Info),
		rule("alpha/a", analysis.Error),
	}
	a1 := &analysis.Analyzer{Name: "one", Rules: rules[:2], Run: func(*analysis.Pass) any { return nil }}
	a2 := &analysis.Analyzer{Name: "two", Rules: rules[2:], Run: func(*analysis.Pass) any { return nil }}
	empty := &analysis.Analyzer{Name: "empty", Run: func(*analysis.Pass) any { return nil }}
	reg, err := analysis.NewRegistry(a1, empty, a2)
	if err != nil {
		t.Fatalf("NewRegistry: %v", err)
	}
	var ids []string
	for _, r := range reg.Rules() {
		ids = append(ids, r.ID)
	}
	want := []string{"alpha/a", "alpha/a1-b2-c3", "alpha/b-rule", "mid/x", "zeta/last"}
	if d := cmp.Diff(want, ids); d != "" {
		t.Errorf("Rules() IDs (-want +got):\n%s", d)
	}
	for _, r := range rules {
		if got := reg.Rule(r.ID); got != r {
			t.Errorf("Rule(%q) = %p, want the declared rule %p", r.ID, got, r)
		}
	}
	if got := reg.Rule("alpha/nope"); got != nil {
		t.Errorf("Rule(unknown) = %v, want nil", got)
	}
	// Rules returns a fresh slice: changing it leaves the registry alone.
	rs := reg.Rules()
	rs[0] = nil
	if reg.Rules()[0] == nil {
		t.Error("Rules() shares its slice with the registry")
	}

	reg, err = analysis.NewRegistry()
	if err != nil || len(reg.Rules()) != 0 {
		t.Errorf("NewRegistry() = %v rules, %v; want none, nil", len(reg.Rules()), err)
	}
}

func TestRegistryAnalyze(t *testing.T) {
	rErr := rule("test/err", analysis.Error)
	rWarn := rule("test/warn", analysis.Warning)
	rHint := rule("test/hint", analysis.Hint)
	var ranOther, ranPacket int
	other := &analysis.Analyzer{
		Name:  "other",
		Kind:  markdown.KindOther,
		Rules: []*analysis.Rule{rErr, rWarn, rHint},
		Run: func(p *analysis.Pass) any {
			ranOther++
			if p.Doc.Text != "some text\n" {
				t.Errorf("pass holds document %q", p.Doc.Text)
			}
			p.Report(rWarn, span(5, 9), "warn")
			p.Report(rHint, span(2, 3), "hint")
			p.Report(rErr, span(0, 4), "err",
				analysis.WithRelated(span(5, 9), "see here"),
				analysis.WithFix(analysis.Fix{Title: "fix it", Safe: true, Edits: []analysis.Edit{{Span: span(0, 4), NewText: "more"}}}))
			return "other model"
		},
	}
	packetRule := rule("packet/only", analysis.Error)
	packetOnly := &analysis.Analyzer{
		Name:  "packet",
		Kind:  markdown.KindPacket,
		Rules: []*analysis.Rule{packetRule},
		Run: func(p *analysis.Pass) any {
			ranPacket++
			p.Report(packetRule, span(0, 1), "packet")
			return "packet model"
		},
	}
	reg, err := analysis.NewRegistry(other, packetOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := markdown.Parse("f.md", "some text\n")

	type got struct {
		Rule     string
		Severity analysis.Severity
		Span     markdown.Span
		Message  string
	}
	summarize := func(fs []analysis.Finding) []got {
		var out []got
		for _, f := range fs {
			out = append(out, got{f.Rule, f.Severity, f.Span, f.Message})
		}
		return out
	}

	tests := []struct {
		name string
		cfg  *analysis.Config
		want []got
	}{
		{"defaults", nil, []got{
			{"test/err", analysis.Error, span(0, 4), "err"},
			{"test/hint", analysis.Hint, span(2, 3), "hint"},
			{"test/warn", analysis.Warning, span(5, 9), "warn"},
		}},
		{"empty config", &analysis.Config{}, []got{
			{"test/err", analysis.Error, span(0, 4), "err"},
			{"test/hint", analysis.Hint, span(2, 3), "hint"},
			{"test/warn", analysis.Warning, span(5, 9), "warn"},
		}},
		{"override and off", &analysis.Config{Severity: map[string]analysis.Severity{
			"test/warn":    analysis.Error,
			"test/hint":    analysis.Off,
			"test/unknown": analysis.Off,
		}}, []got{
			{"test/err", analysis.Error, span(0, 4), "err"},
			{"test/warn", analysis.Error, span(5, 9), "warn"},
		}},
		{"everything off", &analysis.Config{Severity: map[string]analysis.Severity{
			"test/err": analysis.Off, "test/warn": analysis.Off, "test/hint": analysis.Off,
		}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ranOther, ranPacket = 0, 0
			res := reg.Analyze(doc, tt.cfg)
			if ranOther != 1 || ranPacket != 0 {
				t.Errorf("analyzers ran other=%d packet=%d times, want 1 and 0", ranOther, ranPacket)
			}
			if res.Doc != doc {
				t.Error("Result.Doc is not the analysed document")
			}
			if d := cmp.Diff(tt.want, summarize(res.Findings)); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			if m := res.Model(other); m != "other model" {
				t.Errorf("Model(other) = %v", m)
			}
			if m := res.Model(packetOnly); m != nil {
				t.Errorf("Model(packet) = %v for an analyzer that did not run", m)
			}
		})
	}

	// Options reach the finding.
	res := reg.Analyze(doc, nil)
	f := res.Findings[0]
	if d := cmp.Diff([]analysis.Related{{Span: span(5, 9), Message: "see here"}}, f.Related); d != "" {
		t.Errorf("Related (-want +got):\n%s", d)
	}
	if len(f.Fixes) != 1 || f.Fixes[0].Title != "fix it" || !f.Fixes[0].Safe || len(f.Fixes[0].Edits) != 1 {
		t.Errorf("Fixes = %+v", f.Fixes)
	}

	// The configuration does not change the rules' defaults.
	if rWarn.Severity != analysis.Warning || rHint.Severity != analysis.Hint {
		t.Errorf("Analyze changed rule defaults: %v %v", rWarn.Severity, rHint.Severity)
	}

	// A packet document runs the packet analyzer only.
	ranOther, ranPacket = 0, 0
	pdoc := markdown.Parse("p.md", "## What I Just Did\n## Why I Stopped\n## What I Need From You\n")
	res = reg.Analyze(pdoc, nil)
	if ranOther != 0 || ranPacket != 1 {
		t.Errorf("on a packet, analyzers ran other=%d packet=%d times, want 0 and 1", ranOther, ranPacket)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "packet/only" {
		t.Errorf("findings on a packet = %+v", res.Findings)
	}
	if m := res.Model(packetOnly); m != "packet model" {
		t.Errorf("Model(packet) = %v", m)
	}
}

func TestRegistryAnalyzeNilModel(t *testing.T) {
	a := &analysis.Analyzer{Name: "quiet", Kind: markdown.KindOther, Run: func(*analysis.Pass) any { return nil }}
	reg, err := analysis.NewRegistry(a)
	if err != nil {
		t.Fatal(err)
	}
	res := reg.Analyze(markdown.Parse("f.md", "x"), nil)
	if res.Model(a) != nil || len(res.Findings) != 0 {
		t.Errorf("Model = %v, Findings = %v; want nil, none", res.Model(a), res.Findings)
	}
}

func TestReportUndeclaredRuleIsAnInternalError(t *testing.T) {
	declared := rule("test/declared", analysis.Error)
	tests := []struct {
		name string
		r    *analysis.Rule
	}{
		{"another rule", rule("test/other", analysis.Error)},
		// Rules are identified by pointer: a copy with the same ID is not
		// the declared rule.
		{"a copy of the declared rule", rule("test/declared", analysis.Error)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &analysis.Analyzer{
				Name:  "liar",
				Kind:  markdown.KindOther,
				Rules: []*analysis.Rule{declared},
				Run: func(p *analysis.Pass) any {
					p.Report(tt.r, span(0, 1), "boom")
					return nil
				},
			}
			reg, err := analysis.NewRegistry(a)
			if err != nil {
				t.Fatal(err)
			}
			// The panic Report raises is a bug in the analyzer: the
			// registry turns it into the analyzer's one finding.
			res := reg.Analyze(markdown.Parse("f.md", "x"), nil)
			if len(res.Findings) != 1 || res.Findings[0].Rule != analysis.RuleInternalError.ID {
				t.Fatalf("findings = %v, want one %s", res.Findings, analysis.RuleInternalError.ID)
			}
			if msg := res.Findings[0].Message; !strings.Contains(msg, "liar") || !strings.Contains(msg, tt.r.ID) {
				t.Errorf("message %q does not name the analyzer and the rule", msg)
			}
		})
	}
}
