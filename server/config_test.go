package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The server reads the .baton.yaml above a document and re-lints open
// documents when the file changes, with no edit to them.
func TestConfigFileIsReadAndWatched(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".baton.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  packet/missing-section: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	u := uri.File(filepath.Join(dir, "stop.md"))
	c.open(u, missingWhy)
	if p := c.waitPush(u, version(1)); len(p.Diagnostics) != 0 {
		t.Fatalf("a rule set off in .baton.yaml still reported: %+v", p.Diagnostics)
	}
	if err := os.WriteFile(cfg, []byte("rules:\n  packet/missing-section: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := c.waitPush(u, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if p.Diagnostics[0].Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("severity after the file changed = %v, want information", p.Diagnostics[0].Severity)
	}
	// A broken file is not used (the defaults apply) and the user is told.
	if err := os.WriteFile(cfg, []byte("rules:\n  packet/missing-section: fatal\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitPush(u, func(p protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && p.Diagnostics[0].Severity == protocol.DiagnosticSeverityError
	})
}

// ignore: and rule patterns in .baton.yaml apply in the editor as they do
// in `baton check`: an ignored document publishes no findings, and
// `packet/*: off` silences every packet rule.
func TestConfigIgnoreAndRulePatterns(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".baton.yaml"), []byte("ignore: [specs/]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	kept := uri.File(filepath.Join(dir, "stop.md"))
	ignored := uri.File(filepath.Join(dir, "specs", "stop.md"))
	c.open(kept, missingWhy)
	if p := c.waitPush(kept, version(1)); len(p.Diagnostics) == 0 {
		t.Fatal("a document outside the ignored folder got no findings")
	}
	c.open(ignored, missingWhy)
	if p := c.waitPush(ignored, version(1)); len(p.Diagnostics) != 0 {
		t.Fatalf("an ignored document got findings: %+v", p.Diagnostics)
	}

	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, ".baton.yaml"), []byte("rules:\n  \"packet/*\": off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := uri.File(filepath.Join(other, "stop.md"))
	c.open(u, missingWhy)
	if p := c.waitPush(u, version(1)); len(p.Diagnostics) != 0 {
		t.Fatalf("packet/* set off still reported: %+v", p.Diagnostics)
	}
}
