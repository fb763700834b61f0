package server_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// openFillers opens n more packets, each analysed, so the documents opened
// before them are no longer among the analyses the server keeps.
func (c *client) openFillers(dir string, n int) {
	c.t.Helper()
	for i := range n {
		u := uri.File(filepath.Join(dir, fmt.Sprintf("filler-%d.md", i)))
		c.open(u, missingWhy)
		c.waitPush(u, version(1))
	}
}

// TestEvictedAnalysisAnswersAsBefore: beside many other open documents, a
// document whose analysis the server no longer keeps answers hover, code
// actions and pulls as it did, from an analysis made again.
func TestEvictedAnalysisAnswersAsBefore(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	c.open(docURI, missingWhy)
	first := c.waitPush(docURI, version(1))
	hover := func() string {
		t.Helper()
		var raw jsonrpc2.RawMessage
		if err := c.call(protocol.MethodTextDocumentHover, hoverAt(docURI, 4, 10), &raw); err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	actions := func() string {
		t.Helper()
		var raw jsonrpc2.RawMessage
		if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: docURI},
			Range:        first.Diagnostics[0].Range,
			Context:      protocol.CodeActionContext{Diagnostics: first.Diagnostics},
		}, &raw); err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	h0, a0 := hover(), actions()
	if !strings.Contains(h0, "packet/missing-section") || !strings.Contains(a0, "Why I Stopped") {
		t.Fatalf("before: hover %s, actions %s", h0, a0)
	}
	c.openFillers(t.TempDir(), 40)
	if h := hover(); h != h0 {
		t.Errorf("hover after eviction = %s, want %s", h, h0)
	}
	if a := actions(); a != a0 {
		t.Errorf("code actions after eviction = %s, want %s", a, a0)
	}
}

// TestEditedComponentRelintsEvictedCallers: editing an open component
// re-lints the open workflows that call it, also when neither analysis is
// still kept (the kind of a document outlives its analysis).
func TestEditedComponentRelintsEvictedCallers(t *testing.T) {
	dir, startURI := wfWorkspace(t)
	planning := uri.File(filepath.Join(dir, "Planning.md"))
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	c.open(startURI, wfStart)
	if ds := c.waitPush(startURI, version(1)).Diagnostics; slices.Contains(codes(ds), "workflow/missing-required-prop") {
		t.Fatalf("start.md before the edit: %v", codes(ds))
	}
	c.open(planning, wfPlanning)
	c.waitPush(planning, version(1))
	c.openFillers(t.TempDir(), 40)

	required := strings.Replace(wfPlanning, "required: [plan]", "required: [plan, depth]", 1)
	c.change(planning, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: required})
	c.waitPush(startURI, func(p protocol.PublishDiagnosticsParams) bool {
		return slices.Contains(codes(p.Diagnostics), "workflow/missing-required-prop")
	})
}
