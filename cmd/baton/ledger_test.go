package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// A session in clio-coder's documented format: a header, a user message, a
// read tool call, a fileEntry record, a line that is not JSON, and a
// decision ledger snapshot.
const ledgerSession = `{"type":"session","version":3,"id":"sess-1","timestamp":"2026-08-21T00:00:00.000Z","cwd":"/work/project"}
{"kind":"message","turnId":"u1","parentTurnId":null,"timestamp":"t1","role":"user","payload":{"text":"fix the parser"}}
{"kind":"message","turnId":"c1","parentTurnId":"u1","timestamp":"t2","role":"tool_call","payload":{"toolCallId":"call-c1","name":"read","args":{"path":"src/parser.go"}}}
not json
{"kind":"fileEntry","turnId":"f1","parentTurnId":"c1","timestamp":"t3","path":"docs/notes.md","operation":"read"}
{"kind":"decisionLedger","turnId":"d1","parentTurnId":"f1","timestamp":"t4","interviewId":"iv-1","interviewStatus":"complete","startedAt":"s","endedAt":"e","roundCount":1,"decisions":[{"key":"scope","value":"parser only","status":"active","decidedAt":"t4","label":"Scope"}]}
`

// TestLedgerJSONFieldNames pins the fields of baton ledger --json, each
// object's exactly as docs/ledger-json.md lists them, all snake_case.
func TestLedgerJSONFieldNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sess")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "current.jsonl"), []byte(ledgerSession), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"ledger", "--json", dir}, nil, &out, &errOut); code != exitOK {
		t.Fatalf("exit status %d: %s", code, errOut.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	object := func(where string, x any, want ...string) map[string]any {
		t.Helper()
		m, ok := x.(map[string]any)
		if !ok {
			t.Fatalf("%s is %T, want an object", where, x)
		}
		got := slices.Sorted(maps.Keys(m))
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s has the fields %q, want %q", where, got, want)
		}
		for _, k := range got {
			if !snake.MatchString(k) {
				t.Errorf("%s: field %q is not snake_case", where, k)
			}
		}
		return m
	}
	array := func(where string, x any) []any {
		t.Helper()
		a, ok := x.([]any)
		if !ok || len(a) == 0 {
			t.Fatalf("%s is %#v, want a non-empty array", where, x)
		}
		return a
	}
	top := object("the ledger", v, "version", "session", "dir", "cwd", "paths", "board", "invalid_lines", "torn_last_line", "warnings")
	if top["version"] != 1.0 || top["session"] != "sess-1" || top["cwd"] != "/work/project" || top["torn_last_line"] != false {
		t.Errorf("the ledger: %v", top)
	}
	if lines := array("invalid_lines", top["invalid_lines"]); len(lines) != 1 || lines[0] != 4.0 {
		t.Errorf("invalid_lines %v, want [4]", lines)
	}
	var paths []string
	for _, p := range array("paths", top["paths"]) {
		path := object("a path", p, "path", "evidence")
		paths = append(paths, path["path"].(string))
		for _, e := range array("evidence", path["evidence"]) {
			object("evidence", e, "tool", "operation", "turn_id", "timestamp", "line", "raw")
		}
	}
	if !slices.Equal(paths, []string{"docs/notes.md", "src/parser.go"}) {
		t.Errorf("paths %q, want them sorted", paths)
	}
	d := object("a decision", array("board", top["board"])[0], "key", "value", "label", "interview_id", "decided_at", "line", "source_question", "correction", "rationale")
	if d["interview_id"] != "iv-1" || d["decided_at"] != "t4" || d["line"] != 6.0 {
		t.Errorf("decision %v", d)
	}
}
