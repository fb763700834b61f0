package server_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
