package handoff_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/rogpeppe/go-internal/txtar"
)

// roundTrip is the block clio's test "round-trips a redacted
// knowledge/procedural snapshot into a fresh bank"
// (tests/contracts/task-memory-handoff.test.ts) renders for its bank.
const roundTrip = "```clio-task-memory\n" +
	`{"version":1,"knowledge":[{"id":"tm-k-2","content":"Use api_key=[redacted:assignment] when probing the fixture.","injectionCount":1}],"procedural":[{"id":"tm-p-3","content":"Run the targeted contract before the broad gate.","injectionCount":0}]}` +
	"\n```"

// TestAcceptsTaskMemory holds AcceptsTaskMemory to clio's contract tests
// and to what clio's parseTaskMemoryHandoffSnapshot answered, run under
// Node on each text, for the cases its tests leave out.
func TestAcceptsTaskMemory(t *testing.T) {
	entry := func(fields string) string {
		return "```clio-task-memory\n{\"version\":1,\"knowledge\":[{" + fields + "}],\"procedural\":[]}\n```\n"
	}
	for _, c := range []struct {
		name, text string
		accept     bool
	}{
		// tests/contracts/task-memory-handoff.test.ts
		{"round trip", "# Handoff\n\n## Task memory snapshot\n\n" + roundTrip + "\n", true},
		{"empty object", "```clio-task-memory\n{}\n```", false},
		{"private status", "```clio-task-memory\n{\"version\":1,\"knowledge\":[],\"procedural\":[],\"status\":\"private\"}\n```", false},
		{"oversized", strings.Repeat("x", 1_000_001), false},
		{"rendered alone", roundTrip, true},
		{"newest without memory", "# Newest handoff without memory\n", false},
		// Checked against clio's function under Node.
		{"empty text", "", false},
		{"CRLF", strings.ReplaceAll("# Handoff\n\n"+roundTrip+"\n", "\n", "\r\n"), false},
		{"CRLF, the fence last", strings.ReplaceAll("# Handoff\n\n"+roundTrip, "\n", "\r\n"), true},
		{"lone CRs", strings.ReplaceAll("# Handoff\n\n"+roundTrip+"\n", "\n", "\r"), false},
		{"byte-order mark before the fence", "\ufeff" + roundTrip, false},
		{"byte-order mark before a title", "\ufeff# Handoff\n\n" + roundTrip, true},
		{"inside a longer fence", "````markdown\n" + roundTrip + "\n````\n", true},
		{"indented", "  ```clio-task-memory\n  {\"version\":1,\"knowledge\":[],\"procedural\":[]}\n  ```\n", false},
		{"info words", "```clio-task-memory json\n{\"version\":1,\"knowledge\":[],\"procedural\":[]}\n```\n", false},
		{"JSON padded", "```clio-task-memory\n  {\"version\":1,\"knowledge\":[],\"procedural\":[]}  \n```\n", true},
		{"the first refused, the second not read", "```clio-task-memory\n{}\n```\n\n" + roundTrip + "\n", false},
		{"the first not matching, the second read", "~~~clio-task-memory\n{}\n~~~\n\n" + roundTrip + "\n", true},
		{"version 1.0", "```clio-task-memory\n{\"version\":1.0,\"knowledge\":[],\"procedural\":[]}\n```\n", true},
		{"version repeated, the last 1", "```clio-task-memory\n{\"version\":2,\"version\":1,\"knowledge\":[],\"procedural\":[]}\n```\n", true},
		{"version repeated, the last 2", "```clio-task-memory\n{\"version\":1,\"version\":2,\"knowledge\":[],\"procedural\":[]}\n```\n", false},
		{"__proto__", "```clio-task-memory\n{\"version\":1,\"knowledge\":[],\"procedural\":[],\"__proto__\":{}}\n```\n", false},
		{"count -0", entry(`"id":"a","content":"b","injectionCount":-0`), true},
		{"count 1e21", entry(`"id":"a","content":"b","injectionCount":1e21`), true},
		{"count 1e400", entry(`"id":"a","content":"b","injectionCount":1e400`), false},
		{"count 1e-400", entry(`"id":"a","content":"b","injectionCount":1e-400`), true},
		{"count 1.5", entry(`"id":"a","content":"b","injectionCount":1.5`), false},
		{"content of a zero-width space", entry(`"id":"a","content":"\u200b","injectionCount":0`), true},
		{"content of U+0085", entry(`"id":"a","content":"\u0085","injectionCount":0`), true},
		{"content of U+FEFF", entry(`"id":"a","content":"\ufeff","injectionCount":0`), false},
		{"content of U+2028", entry(`"id":"a","content":"\u2028","injectionCount":0`), false},
		{"content of a lone surrogate", entry(`"id":"a","content":"\ud800","injectionCount":0`), true},
		{"content of 600 escaped pairs", entry(`"id":"a","content":"` + strings.Repeat(`\ud83d\ude00`, 600) + `","injectionCount":0`), true},
		{"content of 600 escaped pairs and one more", entry(`"id":"a","content":"` + strings.Repeat(`\ud83d\ude00`, 600) + `x","injectionCount":0`), false},
		{"content of 600 emoji", entry(`"id":"a","content":"` + strings.Repeat("😀", 600) + `","injectionCount":0`), true},
		{"content of 1200 CJK", entry(`"id":"a","content":"` + strings.Repeat("中", 1200) + `","injectionCount":0`), true},
	} {
		if got := handoff.AcceptsTaskMemory(c.text); got != c.accept {
			t.Errorf("%s: accepted %v, clio %v", c.name, got, c.accept)
		}
	}
}

// TestTaskMemorySize pads the size fixture's document to clio's limit and
// one byte past it, as clio's test "rejects malformed or oversized
// structured payloads atomically" does with "x".repeat(1_000_001): a
// fixture of a megabyte is not kept.
func TestTaskMemorySize(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "taskmemory", "size-accepted.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".md") {
			doc = string(f.Data)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, ".clio-coder", "handoffs", "handoff-2026-07-13.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Sources{Registry: engine.Registry()})
	const title = "# Handoff\n\n"
	for _, size := range []int{handoff.TaskMemoryMaxBytes, handoff.TaskMemoryMaxBytes + 1} {
		line := strings.Repeat("x", 99) + "\n"
		pad := strings.Repeat(line, (size-len(doc))/len(line))
		pad += strings.Repeat("y", size-len(doc)-len(pad)-1) + "\n"
		text := title + pad + strings.TrimPrefix(doc, title)
		if len(text) != size {
			t.Fatalf("padded to %d bytes, want %d", len(text), size)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		env, err := eng.Env(engine.Request{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		res := eng.Analyze(env, path, text)
		var got []string
		for _, f := range res.Findings {
			if strings.HasPrefix(f.Rule, "handoff/") {
				got = append(got, f.Rule+": "+f.Message)
			}
		}
		refused := size > handoff.TaskMemoryMaxBytes
		switch {
		case refused && (len(got) != 1 || !strings.HasPrefix(got[0], handoff.RuleTaskMemorySize.ID+": the handoff is 1000001 bytes")):
			t.Errorf("%d bytes: %q, want one %s finding", size, got, handoff.RuleTaskMemorySize.ID)
		case !refused && len(got) != 0:
			t.Errorf("%d bytes: %q, want none", size, got)
		}
		if handoff.AcceptsTaskMemory(text) == refused {
			t.Errorf("%d bytes: AcceptsTaskMemory is %v", size, !refused)
		}
		if res.Doc.Kind != markdown.KindHandoff {
			t.Errorf("%d bytes: kind %v", size, res.Doc.Kind)
		}
	}
}
