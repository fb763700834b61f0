package workflow_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/google/go-cmp/cmp"
)

// featureWorkspace is a workflow bundle as in testdata/rules/bundle.txtar:
// wf/start.md declares Planning in wf/stages, which no search folder
// holds, and a repository file of the same name the bundle shadows; a .ts
// component lives in components/.
func featureWorkspace(start string) fstest.MapFS {
	return fstest.MapFS{
		"wf/start.md": {Data: []byte(start)},
		"wf/stages/Planning.md": {Data: []byte(`---
required: [task]
props:
  task: { type: string }
  depth: { type: number }
---
Plan.
`)},
		"components/Planning.md": {Data: []byte("---\nprops:\n  shadowed: { type: string }\n---\nA repository file the bundle shadows.\n")},
		"components/Tool.ts":     {Data: []byte("export default {}\n")},
	}
}

const bundleRoot = `---
workflow:
  components:
    Planning: ./stages/Planning.md
---

`

func analyzeIn(t *testing.T, fsys fstest.MapFS, docPath string) *analysis.Result {
	t.Helper()
	_, res := analyze(docPath, string(fsys[docPath].Data), analysis.Env{workflow.EnvFS: fsys, workflow.EnvPath: docPath})
	if workflow.ModelOf(res) == nil {
		t.Fatal("no workflow model")
	}
	return res
}

// A prop of a component the workflow bundle declares is offered while the
// document invokes it for the first time: the resolver answers the name,
// bundle first, as the diagnostics do.
func TestCompletePropsOfBundleComponent(t *testing.T) {
	text := bundleRoot + "<Planning ta"
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	c := workflow.Complete(res, len(text))
	if c == nil {
		t.Fatal("no completion in an open tag")
	}
	want := []analysis.CompletionItem{
		{Label: "task", Kind: analysis.CompleteProperty, Detail: "string (required)", SortText: "000",
			Edit: analysis.Edit{Span: markdown.Span{Start: len(text) - 2, End: len(text)}, NewText: "task="}},
		{Label: "depth", Kind: analysis.CompleteProperty, Detail: "number", SortText: "001",
			Edit: analysis.Edit{Span: markdown.Span{Start: len(text) - 2, End: len(text)}, NewText: "depth="}},
	}
	if d := cmp.Diff(want, c.Items); d != "" {
		t.Errorf("props (-want +got):\n%s", d)
	}
}

// Props already written are not offered again, in any form of value.
func TestCompleteSkipsWrittenProps(t *testing.T) {
	text := bundleRoot + "<Planning task={\"a b\"} "
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	c := workflow.Complete(res, len(text))
	if c == nil || len(c.Items) != 1 || c.Items[0].Label != "depth" {
		t.Errorf("completion = %+v, want depth only", c)
	}
	if c := workflow.Complete(res, len(text)-3); c != nil {
		t.Errorf("completion inside a braced value = %+v, want none", c)
	}
}

// Component names: the bundle's entries as declared, then the component
// files of the search folders, .ts ones included, then the language's.
func TestCompleteComponentNames(t *testing.T) {
	text := bundleRoot + "<"
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	c := workflow.Complete(res, len(text))
	if c == nil {
		t.Fatal("no completion after <")
	}
	detail := map[string]string{}
	var names []string
	for _, it := range c.Items {
		detail[it.Label] = it.Detail
		names = append(names, it.Label)
	}
	for name, want := range map[string]string{
		"Planning": "workflow bundle: ./stages/Planning.md",
		"Tool":     "component file: components/Tool.ts",
		"If":       "structural",
		"Prompt":   "registered component",
	} {
		if detail[name] != want {
			t.Errorf("%s: detail %q, want %q", name, detail[name], want)
		}
	}
	if i, j := slices.Index(names, "Planning"), slices.Index(names, "If"); i < 0 || j < 0 || i > j {
		t.Errorf("the bundle's names come before the language's: %v", names)
	}
}

// Go-to-definition follows the resolution: a bundle entry to its file, a
// .ts component to its file, a name read to its binding, props.x to the
// prop's declaration.
func TestDefinition(t *testing.T) {
	text := bundleRoot + "<Planning task={props.topic} as=\"plan\" />\n<Tool />\n\n{plan}\n"
	text = strings.Replace(text, "---\n\n", "props:\n  topic: { type: string }\n---\n\n", 1)
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	at := func(sub string, n int) int { return strings.Index(text, sub) + n }
	for _, c := range []struct {
		off  int
		want []analysis.Location
	}{
		{at("<Planning", 3), []analysis.Location{{Path: "wf/stages/Planning.md"}}},
		{at("<Tool", 2), []analysis.Location{{Path: "components/Tool.ts"}}},
		{at("{plan}", 2), []analysis.Location{{Span: markdown.Span{Start: at(`"plan"`, 1), End: at(`"plan"`, 5)}}}},
		{at("props.topic", 2), []analysis.Location{{Span: markdown.Span{Start: at("topic:", 0), End: at("topic:", 5)}}}},
		{at("\n\n{plan}", 1), nil},
	} {
		got := workflow.Definition(res, c.off)
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("definition at %d (%q) (-want +got):\n%s", c.off, text[c.off:min(len(text), c.off+8)], d)
		}
	}
}

// Hover on a bundled tag says where the bundle declares it, and lists the
// props of the component.
func TestHoverBundleTag(t *testing.T) {
	text := bundleRoot + "<Planning task=\"t\" />\n"
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	off := strings.Index(text, "<Planning") + 2
	hs := workflow.Hover(res, off)
	if len(hs) != 1 {
		t.Fatalf("hover = %+v", hs)
	}
	h := hs[0]
	if want := (markdown.Span{Start: off - 1, End: off + 7}); h.Span != want {
		t.Errorf("span = %v, want %v", h.Span, want)
	}
	for _, s := range []string{"an entry of the workflow bundle, `wf/stages/Planning.md` (declared by `wf/start.md`)", "| `task` | string | yes |"} {
		if !strings.Contains(h.Markdown, s) {
			t.Errorf("hover lacks %q:\n%s", s, h.Markdown)
		}
	}
}

// The outline holds the stages with their files and the bindings.
func TestSymbols(t *testing.T) {
	text := bundleRoot + "<Planning task=\"t\" as=\"plan\" />\n"
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	syms := workflow.Symbols(res)
	if len(syms) != 1 || syms[0].Name != "Planning" || syms[0].Detail != "wf/stages/Planning.md" || syms[0].Kind != analysis.SymbolFunction {
		t.Fatalf("symbols = %+v", syms)
	}
	if k := syms[0].Children; len(k) != 1 || k[0].Name != "plan" || k[0].Detail != "bound by <Planning>" {
		t.Errorf("children = %+v", k)
	}
}

// Features run concurrently on one analysed document (an editor's
// requests); the resolver they share is guarded.
func TestCompleteConcurrently(t *testing.T) {
	text := bundleRoot + "<Planning \n<Other \n<"
	res := analyzeIn(t, featureWorkspace(text), "wf/start.md")
	offs := []int{strings.Index(text, "<Planning ") + 10, strings.Index(text, "<Other ") + 7, len(text)}
	done := make(chan bool)
	for i := range 8 {
		go func() {
			defer func() { done <- true }()
			workflow.Complete(res, offs[i%len(offs)])
		}()
	}
	for range 8 {
		<-done
	}
}

// A component the engine registers shows its props as the engine
// registers them, with where, and offers them, captures after the
// schema's; a name a repository file answers shows the file's.
func TestRegisteredComponentFeatures(t *testing.T) {
	text := "<File path=\"a.md\" />\n<Json value={1} />\n<AssertEquals "
	fsys := fstest.MapFS{"doc.md": {Data: []byte(text)}}
	res := analyzeIn(t, fsys, "doc.md")
	hover := func(off int) string {
		var out []string
		for _, h := range workflow.Hover(res, off) {
			out = append(out, h.Markdown)
		}
		return strings.Join(out, "\n")
	}
	h := hover(2)
	for _, want := range []string{"| `path` | string | yes |", "packages/core/src/components/registry.ts, CORE_REGISTRY", "packages/core/src/components/File.ts, props"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on <File> lacks %q:\n%s", want, h)
		}
	}
	if h := hover(strings.Index(text, "Json") + 1); !strings.Contains(h, "Captured, handed over unevaluated: `value` (required).") {
		t.Errorf("hover on <Json>:\n%s", h)
	}
	c := workflow.Complete(res, len(text))
	if c == nil {
		t.Fatal("no completion in <AssertEquals")
	}
	var labels []string
	for _, it := range c.Items {
		labels = append(labels, it.Label+": "+it.Detail)
	}
	want := []string{"msg: string", "actual: captured: handed over unevaluated (required)", "expected: captured: handed over unevaluated"}
	if d := cmp.Diff(want, labels); d != "" {
		t.Errorf("completion (-want +got):\n%s", d)
	}
}

// Hover on a name read in a component's expression prop says that its
// value is the run's, not a guess of baton's; in a structural directive's
// it does not.
func TestHoverRunTimeValue(t *testing.T) {
	text := "<Let as=\"plan\" value={{ steps: [1] }} />\n<Card title={plan.steps} />\n<If condition={plan.steps}>x</If>\n"
	res := analyzeIn(t, fstest.MapFS{
		"input.md":           {Data: []byte(text)},
		"components/Card.md": {Data: []byte("---\nprops:\n  title: {}\n---\n{props.title}\n")},
	}, "input.md")
	card := strings.Index(text, "title={plan") + len("title={") + 1
	hs := workflow.Hover(res, card)
	if len(hs) != 1 || !strings.Contains(hs[0].Markdown, "known only when the workflow runs: the engine evaluates `title={…}` when execution reaches `<Card>`") {
		t.Errorf("hover on a prop's expression = %+v", hs)
	}
	cond := strings.Index(text, "condition={plan") + len("condition={") + 1
	if hs := workflow.Hover(res, cond); len(hs) != 1 || strings.Contains(hs[0].Markdown, "known only when") {
		t.Errorf("hover in <If condition> = %+v", hs)
	}
}

// TestModelResolution: a tag the analysis visited answers what its name
// resolved to; a tag of another document at the same place in its own
// list answers nothing, as one the analysis never saw.
func TestModelResolution(t *testing.T) {
	text := bundleRoot + "<Planning task=\"x\" />\n\n<Tool />\n"
	m := workflow.ModelOf(analyzeIn(t, featureWorkspace(text), "wf/start.md"))
	if len(m.Tags) != 2 {
		t.Fatalf("%d tags, want 2", len(m.Tags))
	}
	if r := m.Resolution(m.Tags[0]); r.Kind != workflow.ResolveBundle || r.Path != "wf/stages/Planning.md" {
		t.Errorf("<Planning> resolved to %+v, want the bundle's wf/stages/Planning.md", r)
	}
	if r := m.Resolution(m.Tags[1]); r.Kind != workflow.ResolveFile || r.Path != "components/Tool.ts" {
		t.Errorf("<Tool> resolved to %+v, want components/Tool.ts", r)
	}
	other := workflow.ModelOf(analyzeIn(t, featureWorkspace(text), "wf/start.md"))
	if r := m.Resolution(other.Tags[0]); r.Kind != 0 || r.Path != "" {
		t.Errorf("a tag of another document resolved to %+v, want nothing", r)
	}
}
