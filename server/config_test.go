package server_test

import (
	"os"
	"path/filepath"
	"strings"
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

// The workflow section of .baton.yaml reaches the server's analyses:
// component-dirs replace the default folders, registered names resolve.
func TestConfigWorkflowSection(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		".baton.yaml":          "workflow:\n  component-dirs: [smoke-test]\n  registered: [Probe]\n",
		"smoke-test/Badge.md":  "Badge.\n",
		"components/Stale.md":  "Stale.\n",
		"smoke-test/README.md": "<Badge />\n<Probe />\n<Stale />\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	u := uri.File(filepath.Join(dir, "smoke-test", "README.md"))
	c.open(u, "<Badge />\n<Probe />\n<Stale />\n")
	p := c.waitPush(u, version(1))
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Line != 2 {
		t.Fatalf("diagnostics = %+v, want one, <Stale> unresolved on line 3", p.Diagnostics)
	}
}

// A document over markdown.MaxDocumentBytes, opened in the editor, is not
// parsed: one diagnostic says so, and the server goes on serving.
func TestOpenTooLargeDocument(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	u := uri.File(filepath.Join(t.TempDir(), "big.md"))
	c.open(u, strings.Repeat("## What I Just Did\n\nWork.\n\n", (16<<20)/26+1))
	p := c.waitPush(u, version(1))
	if len(p.Diagnostics) != 1 || !strings.Contains(hoMessage(p.Diagnostics[0]), "it was not checked") {
		t.Fatalf("diagnostics = %+v, want one saying the document was not checked", p.Diagnostics)
	}
	small := uri.File(filepath.Join(t.TempDir(), "stop.md"))
	c.open(small, missingWhy)
	if p := c.waitPush(small, version(1)); len(p.Diagnostics) == 0 {
		t.Fatal("the next document was not served")
	}
}
