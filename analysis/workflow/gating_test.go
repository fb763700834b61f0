package workflow_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
)

const checkpointComponent = `---
props:
  purpose: { type: string }
returns:
  proceed: { type: boolean }
---

<Return value={{ proceed: true }} />
`

// stages writes n stages, each a checkpoint bound to name(i) and a Prompt
// gated on that checkpoint alone.
func stages(n int, name func(int) string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "<UserCheckpoint purpose=\"p\" as=\"%s\" />\n<If condition={%s.proceed}>\n  <Prompt>Stage %d.</Prompt>\n</If>\n\n", name(i), name(i), i)
	}
	return b.String()
}

func gatingFindings(t *testing.T, text string) []analysis.Finding {
	t.Helper()
	env := analysis.Env{workflow.EnvFS: fstest.MapFS{"UserCheckpoint.md": {Data: []byte(checkpointComponent)}}, workflow.EnvPath: "input.md"}
	_, res := analyze("input.md", text, env)
	var out []analysis.Finding
	for _, f := range res.Findings {
		if f.Rule == workflow.RuleUngatedTransition.ID {
			out = append(out, f)
		} else {
			t.Errorf("unexpected finding %s: %s", f.Rule, f.Message)
		}
	}
	return out
}

// TestGatingBoundedPerTransition: in an unnested workflow every stage
// escapes every earlier checkpoint; each transition is reported for at
// most three of them, the third saying there are more, and the wrap fix is
// offered only while the condition stays short.
func TestGatingBoundedPerTransition(t *testing.T) {
	const n = 40
	text := stages(n, func(i int) string { return fmt.Sprintf("check%d", i) })
	fs := gatingFindings(t, text)
	per := map[int][]analysis.Finding{}
	for _, f := range fs {
		per[f.Span.Start] = append(per[f.Span.Start], f)
	}
	if len(per) != n-1 {
		t.Fatalf("%d transitions reported, want %d (every stage but the first)", len(per), n-1)
	}
	if len(fs) != 1+2+3*(n-3) {
		t.Errorf("%d findings, want %d (1, 2, then 3 per transition)", len(fs), 1+2+3*(n-3))
	}
	for i := 1; i < n; i++ {
		start := strings.Index(text, fmt.Sprintf("<Prompt>Stage %d.", i)) + 1
		got := per[start]
		if want := min(i, 3); len(got) != want {
			t.Fatalf("stage %d: %d findings, want %d", i, len(got), want)
		}
		last := got[len(got)-1].Message
		if i > 3 {
			if !strings.Contains(last, "it escapes more checkpoints too") {
				t.Errorf("stage %d: last message %q does not say it escapes %d more checkpoints", i, last, i-3)
			}
		} else if strings.Contains(last, "more checkpoint") {
			t.Errorf("stage %d: %q says it escapes more checkpoints than there are", i, last)
		}
		for _, f := range got {
			if hasFix := len(f.Fixes) > 0; hasFix != (i <= 4) {
				t.Errorf("stage %d (escapes %d checkpoints): fix offered = %v", i, i, hasFix)
			}
		}
	}
}

// TestGatingRebindSupersedes: a workflow that binds every checkpoint to
// one name gates each stage on the latest decision: nothing escapes.
// Each reference reads the latest binding only: the earlier ones are
// overwritten (and hover and go-to-definition list that one).
func TestGatingRebindSupersedes(t *testing.T) {
	text := stages(200, func(int) string { return "decision" })
	if fs := gatingFindings(t, text); len(fs) != 0 {
		t.Errorf("%d findings, want none; first: %s", len(fs), fs[0].Message)
	}
	env := analysis.Env{workflow.EnvFS: fstest.MapFS{"UserCheckpoint.md": {Data: []byte(checkpointComponent)}}, workflow.EnvPath: "input.md"}
	_, res := analyze("input.md", text, env)
	m := res.Model(workflow.Analyzer).(*workflow.Model)
	refs := 0
	for _, r := range m.References {
		if r.Name != "decision" {
			continue
		}
		refs++
		if len(r.Bindings) != 1 || r.Bindings[0].Span.Start > r.Span.Start {
			t.Fatalf("reference at %d reads %d bindings, want the one just before it", r.Span.Start, len(r.Bindings))
		}
		prev := strings.LastIndex(text[:r.Span.Start], `as="decision"`)
		if got := r.Bindings[0].Span.Start; got < prev || got > prev+len(`as="decision"`) {
			t.Errorf("reference at %d reads the binding at %d, want the one at %d", r.Span.Start, got, prev)
		}
	}
	if refs != 200 {
		t.Errorf("%d references to decision, want 200", refs)
	}
}

// TestBindingBothBranches: a name bound in both branches of an <If> is
// bound after it; bound in one, it may be unset (the merge is per <If>).
func TestBindingBothBranches(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "<If condition={x%d}>\n  <Let as=\"v\" value={1} />\n  <Else>\n    <Let as=\"v\" value={2} />\n  </Else>\n</If>\n{v}\n", i)
	}
	b.WriteString("<If condition={y}>\n  <Let as=\"w\" value={1} />\n</If>\n{w}\n")
	_, res := analyze("input.md", b.String(), analysis.Env{workflow.EnvFS: fstest.MapFS{}, workflow.EnvPath: "input.md"})
	var unset []string
	for _, f := range res.Findings {
		if f.Rule == workflow.RuleBindingMaybeUnset.ID {
			unset = append(unset, b.String()[f.Span.Start:f.Span.End])
		}
	}
	if len(unset) != 1 || unset[0] != "{w}" {
		t.Errorf("maybe-unset findings on %q, want only w", unset)
	}
}

// TestBindingsReadBounded: a name bound in a branch of each of 100 stages
// is read as one of the latest 64, the rest counted; each stage's reader
// inside its own gate reads that stage's binding alone.
func TestBindingsReadBounded(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "<If condition={x%d}>\n  <Let as=\"plan\" value={%d} />\n  {plan}\n</If>\n", i, i)
	}
	b.WriteString("{plan}\n")
	_, res := analyze("input.md", b.String(), analysis.Env{workflow.EnvFS: fstest.MapFS{}, workflow.EnvPath: "input.md"})
	m := res.Model(workflow.Analyzer).(*workflow.Model)
	var refs []*workflow.Reference
	for _, r := range m.References {
		if r.Name == "plan" {
			refs = append(refs, r)
		}
	}
	if len(refs) != 101 {
		t.Fatalf("%d references to plan, want 101", len(refs))
	}
	for i, r := range refs[:100] {
		if len(r.Bindings) != 1 || r.EarlierBindings != 0 || r.Bindings[0] != m.Bindings[i] {
			t.Fatalf("reader in stage %d sees %d bindings (+%d earlier), want its own stage's only", i, len(r.Bindings), r.EarlierBindings)
		}
	}
	last := refs[100]
	if len(last.Bindings) != 64 || last.EarlierBindings != 36 || last.Bindings[63] != m.Bindings[99] {
		t.Errorf("the last reader sees %d bindings (+%d earlier), want the latest 64 (+36)", len(last.Bindings), last.EarlierBindings)
	}
}
