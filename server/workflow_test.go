package server_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const wfStart = `---
props:
  topic: { type: string }
required: [topic]
---

# Start

<UserCheckpoint purpose="x" as="cp" />

<If condition={cp.proceed}>
  <Planning plan={cp} as="result" />
</If>
`

const wfCheckpoint = `---
props:
  purpose: { type: string }
required: [purpose]
returns:
  proceed: { type: boolean }
  notes: { type: string }
---

Decide.
`

const wfPlanning = `---
props:
  plan: { type: object }
  depth: { type: number }
required: [plan]
---

Plan it.
`

// wfAt is the position of the n-th byte of the first occurrence of sub in
// text (ASCII text: a character is a byte).
func wfAt(t *testing.T, text, sub string, n int) (uint32, uint32) {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in the text", sub)
	}
	i += n
	line := strings.Count(text[:i], "\n")
	return uint32(line), uint32(i - (strings.LastIndex(text[:i], "\n") + 1))
}

func wfWorkspace(t *testing.T) (string, uri.URI) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"start.md": wfStart, "UserCheckpoint.md": wfCheckpoint, "Planning.md": wfPlanning} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, uri.File(filepath.Join(dir, "start.md"))
}

func labels(items []protocol.CompletionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func TestWorkflowNavigation(t *testing.T) {
	dir, u := wfWorkspace(t)
	c := start(t)
	c.initialize(pullCaps(), "")
	if c.init.Capabilities.DefinitionProvider == nil {
		t.Errorf("no definitionProvider in %+v", c.init.Capabilities)
	}
	c.open(u, wfStart)

	// Hover on <Planning: the file it resolves to and its props.
	l, ch := wfAt(t, wfStart, "<Planning", 3)
	h := c.hoverText(u, l, ch)
	if !strings.Contains(h, "Planning.md") || !strings.Contains(h, "`plan`") || !strings.Contains(h, "component file") {
		t.Errorf("hover on <Planning = %q", h)
	}
	// Hover on <UserCheckpoint: a checkpoint returning proceed.
	l, ch = wfAt(t, wfStart, "<UserCheckpoint", 2)
	if h := c.hoverText(u, l, ch); !strings.Contains(h, "UserCheckpoint.md") || !strings.Contains(h, "proceed") {
		t.Errorf("hover on <UserCheckpoint = %q", h)
	}
	// Hover on cp in cp.proceed: where it is bound.
	l, ch = wfAt(t, wfStart, "cp.proceed", 1)
	if h := c.hoverText(u, l, ch); !strings.Contains(h, "bound on line 9") {
		t.Errorf("hover on cp = %q", h)
	}
	// Hover on cp in plan={cp}: bound, and gated by the checkpoint's If.
	l, ch = wfAt(t, wfStart, "{cp}", 1)
	if h := c.hoverText(u, l, ch); !strings.Contains(h, "bound on line 9") {
		t.Errorf("hover on plan={cp} = %q", h)
	}

	// Hover on a binding made under the checkpoint's gate.
	l, ch = wfAt(t, wfStart, `"result"`, 2)
	if h := c.hoverText(u, l, ch); !strings.Contains(h, "gated by the checkpoint `cp`") || !strings.Contains(h, "`<If>` on line 11") {
		t.Errorf("hover on result = %q", h)
	}

	// Definition on Planning: Planning.md.
	var locs []protocol.Location
	l, ch = wfAt(t, wfStart, "<Planning", 2)
	if err := c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: l, Character: ch},
	}}, &locs); err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || locs[0].URI != uri.File(filepath.Join(dir, "Planning.md")) || locs[0].Range.Start.Line != 0 {
		t.Errorf("definition of Planning = %+v", locs)
	}
	// Definition on cp in cp.proceed: the as="cp".
	locs = nil
	l, ch = wfAt(t, wfStart, "cp.proceed", 0)
	if err := c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: l, Character: ch},
	}}, &locs); err != nil {
		t.Fatal(err)
	}
	bl, bc := wfAt(t, wfStart, `as="cp"`, len(`as="`))
	if len(locs) != 1 || locs[0].URI != u || locs[0].Range.Start != (protocol.Position{Line: bl, Character: bc}) {
		t.Errorf("definition of cp = %+v, want line %d char %d", locs, bl, bc)
	}

	// Document symbols: the checkpoint cp and the stage Planning.
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &syms); err != nil {
		t.Fatal(err)
	}
	var flat []protocol.DocumentSymbol
	var walk func([]protocol.DocumentSymbol)
	walk = func(ss []protocol.DocumentSymbol) {
		for _, s := range ss {
			flat = append(flat, s)
			walk(s.Children)
		}
	}
	walk(syms)
	if !slices.ContainsFunc(flat, func(s protocol.DocumentSymbol) bool { return s.Name == "cp" && s.Kind == protocol.SymbolKindEvent }) ||
		!slices.ContainsFunc(flat, func(s protocol.DocumentSymbol) bool {
			return s.Name == "Planning" && s.Kind == protocol.SymbolKindFunction
		}) {
		t.Errorf("symbols = %+v", syms)
	}

	// Completion after "<" on a new line: component names.
	edited := wfStart + "<"
	c.change(u, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: edited})
	l, ch = wfAt(t, edited, "</If>\n<", len("</If>\n<"))
	got := labels(c.completions(u, l, ch))
	for _, want := range []string{"Planning", "UserCheckpoint", "If"} {
		if !slices.Contains(got, want) {
			t.Errorf("completion after < lacks %s: %v", want, got)
		}
	}
	if slices.Contains(got, "start") {
		t.Errorf("completion offers the document itself: %v", got)
	}

	// Completion inside "<Planning ": its props, the required one first.
	edited = wfStart + "<Planning "
	c.change(u, 3, &protocol.TextDocumentContentChangeWholeDocument{Text: edited})
	l, ch = wfAt(t, edited, "</If>\n<Planning ", len("</If>\n<Planning "))
	got = labels(c.completions(u, l, ch))
	if len(got) != 2 || got[0] != "plan" || got[1] != "depth" {
		t.Errorf("completion in <Planning  = %v, want [plan depth]", got)
	}
	// A prop already written is not offered again.
	edited = wfStart + "<Planning plan={cp} "
	c.change(u, 4, &protocol.TextDocumentContentChangeWholeDocument{Text: edited})
	l, ch = wfAt(t, edited, "</If>\n<Planning plan={cp} ", len("</If>\n<Planning plan={cp} "))
	if got = labels(c.completions(u, l, ch)); !slices.Equal(got, []string{"depth"}) {
		t.Errorf("completion after plan = %v, want [depth]", got)
	}
}

// TestWorkflowBundleOnDiskFollowsChanges: the folders a workflow member's
// bundle is looked for in are remembered between edits, and a root rewritten
// on disk (a new size or time) is read again: its bundle applies from the
// next edit, and stops applying when it is taken out.
func TestWorkflowBundleOnDiskFollowsChanges(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, age time.Duration) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if age > 0 {
			old := time.Now().Add(-age)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil { // the workspace root
		t.Fatal(err)
	}
	plain := "---\nprops: {}\n---\n\n<Planning />\n"
	bundled := "---\nworkflow:\n  components:\n    Planning: ./stages/Planning.md\n    Review: ./review/Review.md\n---\n\n<Planning />\n"
	write("start.md", plain, time.Hour)
	write("review/Review.md", "Review.\n", time.Hour)
	member := "---\nrequired: []\n---\n\n<Review as=\"r\" />\n" // a workflow by its front matter, bundled or not
	u := uri.File(filepath.Join(dir, "stages", "Planning.md"))
	write("stages/Planning.md", member, time.Hour)

	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	c.open(u, member)
	unresolved := func(v int32) bool {
		t.Helper()
		return slices.Contains(codes(c.waitPush(u, version(v)).Diagnostics), "workflow/unresolved-component")
	}
	whole := protocol.TextDocumentContentChangeWholeDocument{Text: member}
	if !unresolved(1) {
		t.Fatal("<Review> resolved with no bundle declared")
	}
	c.change(u, 2, &whole)
	if !unresolved(2) {
		t.Fatal("<Review> resolved with no bundle declared, at the second edit")
	}
	write("start.md", bundled, 0) // a new size and time
	c.change(u, 3, &whole)
	if unresolved(3) {
		t.Error("start.md now declares the bundle, but <Review> is still unresolved")
	}
	write("start.md", plain, 30*time.Minute) // back, with another (old) time
	c.change(u, 4, &whole)
	if !unresolved(4) {
		t.Error("start.md no longer declares the bundle, but <Review> still resolves")
	}
}

// Completion offers the components of the search folders: the configured
// ones replace components/ and ./ (workflow.component-dirs).
func TestWorkflowCompletionFollowsSearchFolders(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		".baton.yaml":         "workflow:\n  component-dirs: [lib]\n",
		"lib/Stage.md":        wfPlanning,
		"lib/Ns/Sub/index.md": wfPlanning,
		"components/Old.md":   wfPlanning,
		"flow.md":             "<Prompt>x</Prompt>\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u := uri.File(filepath.Join(dir, "flow.md"))
	c := start(t)
	c.initialize(pullCaps(), "")
	text := "<Prompt>x</Prompt>\n<"
	c.open(u, text)
	got := labels(c.completions(u, 1, 1))
	for _, want := range []string{"Stage", "Ns.Sub"} {
		if !slices.Contains(got, want) {
			t.Errorf("completion lacks %s: %v", want, got)
		}
	}
	if slices.Contains(got, "Old") {
		t.Errorf("completion offers components/Old.md, which the configured folders leave out: %v", got)
	}
}

// A component the workflow bundle declares, in a folder no search folder
// holds, has its props offered before the document invokes it anywhere:
// completion asks the analysis's resolver, bundle first. The repository
// file of the same name, which the bundle shadows, is not read.
func TestWorkflowCompletionOffersBundleComponentProps(t *testing.T) {
	dir := t.TempDir()
	root := "---\nworkflow:\n  components:\n    Planning: ./stages/Planning.md\n---\n\n"
	for name, text := range map[string]string{
		"wf/start.md":            root,
		"wf/stages/Planning.md":  wfPlanning,
		"components/Planning.md": "---\nprops:\n  shadowed: { type: string }\n---\nShadowed.\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u := uri.File(filepath.Join(dir, "wf", "start.md"))
	c := start(t)
	c.initialize(pullCaps(), "")
	c.open(u, root+"<Planning ")
	if got, want := labels(c.completions(u, 6, 10)), []string{"plan", "depth"}; !slices.Equal(got, want) {
		t.Errorf("props offered = %v, want %v", got, want)
	}
}
