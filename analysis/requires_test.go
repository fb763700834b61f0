package analysis_test

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// modelOf is an analyzer on kind whose model is its name, and whose run
// appends its name to *ran.
func modelOf(name string, kind markdown.Kind, ran *[]string, requires ...*analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Kind:     kind,
		Requires: requires,
		Run: func(p *analysis.Pass) any {
			*ran = append(*ran, name)
			for _, r := range requires {
				if p.Model(r) != r.Name {
					panic("the model of " + r.Name + " is missing")
				}
			}
			return name
		},
	}
}

// The registry runs an analyzer after what it requires, whatever the order
// it was given, and keeps the given order between analyzers otherwise.
func TestRegistryOrdersByRequires(t *testing.T) {
	var ran []string
	c := modelOf("c", markdown.KindOther, &ran)
	b := modelOf("b", markdown.KindOther, &ran, c)
	a := modelOf("a", markdown.KindOther, &ran, b)
	x := modelOf("x", markdown.KindOther, &ran)
	reg, err := analysis.NewRegistry(a, x, b, c)
	if err != nil {
		t.Fatal(err)
	}
	res := reg.Analyze(markdown.Parse("f.md", "text\n"), nil)
	if len(res.Findings) != 0 {
		t.Fatalf("findings = %v", res.Findings)
	}
	if got := strings.Join(ran, " "); got != "c b a x" {
		t.Errorf("ran %q, want %q", got, "c b a x")
	}
}

func TestRegistryRefusesBadRequires(t *testing.T) {
	var ran []string
	missing := modelOf("missing", markdown.KindOther, &ran)
	needsMissing := modelOf("needs-missing", markdown.KindOther, &ran, missing)
	onPackets := modelOf("on-packets", markdown.KindPacket, &ran)
	crossKind := modelOf("cross-kind", markdown.KindWorkflow, &ran, onPackets)
	p := &analysis.Analyzer{Name: "p", Kind: markdown.KindOther, Run: func(*analysis.Pass) any { return nil }}
	q := &analysis.Analyzer{Name: "q", Kind: markdown.KindOther, Requires: []*analysis.Analyzer{p}, Run: p.Run}
	p.Requires = []*analysis.Analyzer{q}
	self := &analysis.Analyzer{Name: "self", Kind: markdown.KindOther, Run: p.Run}
	self.Requires = []*analysis.Analyzer{self}
	tests := []struct {
		name      string
		analyzers []*analysis.Analyzer
		want      string
	}{
		{"missing requirement", []*analysis.Analyzer{needsMissing}, "analyzer needs-missing requires missing, which the registry does not hold"},
		{"another kind", []*analysis.Analyzer{onPackets, crossKind}, "analyzer cross-kind (on workflow documents) requires on-packets, which runs on stop packet documents"},
		{"cycle", []*analysis.Analyzer{p, q}, "analyzers require each other in a cycle: p -> q -> p"},
		{"self", []*analysis.Analyzer{self}, "cycle: self -> self"},
		{"twice", []*analysis.Analyzer{missing, missing}, "analyzer missing is registered twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := analysis.NewRegistry(tt.analyzers...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewRegistry: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// Reading the model of an analyzer not required is a bug, reported as one,
// not a nil that depends on the registry's order.
func TestModelNotRequired(t *testing.T) {
	var ran []string
	first := modelOf("first", markdown.KindOther, &ran)
	reader := &analysis.Analyzer{
		Name: "reader",
		Kind: markdown.KindOther,
		Run:  func(p *analysis.Pass) any { return p.Model(first) },
	}
	reg, err := analysis.NewRegistry(first, reader)
	if err != nil {
		t.Fatal(err)
	}
	res := reg.Analyze(markdown.Parse("f.md", "text\n"), nil)
	if len(res.Findings) != 1 || res.Findings[0].Rule != analysis.RuleInternalError.ID ||
		!strings.Contains(res.Findings[0].Message, "analyzer reader read the model of first, which it does not require") {
		t.Fatalf("findings = %v", res.Findings)
	}
	if res.Model(reader) != nil {
		t.Errorf("the failed analyzer's model = %v, want nil", res.Model(reader))
	}
}

// An analyzer's panic replaces its findings with one baton/internal-error
// finding at the document's start, keeps the other analyzers' findings,
// and logs the stack.
func TestPanicIsAnInternalError(t *testing.T) {
	good := rule("test/good", analysis.Warning)
	good2 := rule("test/good-too", analysis.Warning)
	lost := rule("test/lost", analysis.Warning)
	before := &analysis.Analyzer{Name: "before", Kind: markdown.KindOther, Rules: []*analysis.Rule{good},
		Run: func(p *analysis.Pass) any { p.Report(good, span(2, 3), "before"); return "model" }}
	crash := &analysis.Analyzer{Name: "crash", Kind: markdown.KindOther, Rules: []*analysis.Rule{lost},
		Run: func(p *analysis.Pass) any {
			p.Report(lost, span(1, 2), "reported before the panic")
			var m map[string]int
			m["x"] = 1 // a runtime error, as a real bug would be
			return "never"
		}}
	after := &analysis.Analyzer{Name: "after", Kind: markdown.KindOther, Rules: []*analysis.Rule{good2},
		Run: func(p *analysis.Pass) any { p.Report(good2, span(4, 5), "after"); return nil }}
	reg, err := analysis.NewRegistry(before, crash, after, analysis.InternalErrorAnalyzer)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	reg = reg.WithLogger(slog.New(slog.NewTextHandler(&log, nil)))
	res := reg.Analyze(markdown.Parse("f.md", "some text\n"), nil)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Message)
	}
	if len(res.Findings) != 3 || res.Findings[0].Rule != analysis.RuleInternalError.ID ||
		res.Findings[0].Span != span(0, 0) || res.Findings[0].Severity != analysis.Error ||
		res.Findings[1].Message != "before" || res.Findings[2].Message != "after" {
		t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
	}
	msg := res.Findings[0].Message
	for _, want := range []string{"internal error in analyzer crash", "assignment to entry in nil map", "please report"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
	if res.Model(crash) != nil || res.Model(before) != "model" {
		t.Errorf("models: crash %v, before %v", res.Model(crash), res.Model(before))
	}
	for _, want := range []string{"internal error in analyzer crash: assignment to entry in nil map", "document=f.md", "requires_test.go"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log does not contain %q:\n%s", want, log.String())
		}
	}

	// The finding obeys the configuration like any other.
	off := &analysis.Config{Severity: map[string]analysis.Severity{analysis.RuleInternalError.ID: analysis.Off}}
	if res := reg.Analyze(markdown.Parse("f.md", "some text\n"), off); len(res.Findings) != 2 {
		t.Errorf("with the rule off, findings = %v", res.Findings)
	}
}

// An analyzer whose requirement panicked is not run (it would read the
// missing model as an empty document), and says so.
func TestRequirementFailed(t *testing.T) {
	var ran []string
	broken := &analysis.Analyzer{Name: "broken", Kind: markdown.KindOther, Run: func(*analysis.Pass) any { panic("boom") }}
	reader := modelOf("reader", markdown.KindOther, &ran, broken)
	other := modelOf("other", markdown.KindOther, &ran)
	reg, err := analysis.NewRegistry(reader, broken, other)
	if err != nil {
		t.Fatal(err)
	}
	res := reg.Analyze(markdown.Parse("f.md", "text\n"), nil)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+": "+f.Message)
	}
	want := []string{ // sorted: same place, same rule, by message
		"baton/internal-error: analyzer reader was not run: it requires broken, which failed on this document; its rules were not checked",
		"baton/internal-error: internal error in analyzer broken: boom; its rules were not checked (please report this bug to baton, with the document)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(ran, " ") != "other" {
		t.Errorf("ran %v, want only other", ran)
	}
}
