package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/internal/corpus"
)

// A session in clio-coder's documented format: a header, a user message, a
// read tool call, a fileEntry record, a line that is not JSON, and a
// decision ledger snapshot.
const ledgerSession = `{"type":"session","version":3,"id":"sess-1","timestamp":"2026-08-21T00:00:00.000Z","cwd":"/work/project","parentSession":"/state/sessions/ab/sess-0/current.jsonl","parentTurnId":"c9"}
{"kind":"message","turnId":"u1","parentTurnId":null,"timestamp":"t1","role":"user","payload":{"text":"fix the parser"}}
{"kind":"message","turnId":"c1","parentTurnId":"u1","timestamp":"t2","role":"tool_call","payload":{"toolCallId":"call-c1","name":"read","args":{"path":"src/parser.go"}}}
not json
{"kind":"fileEntry","turnId":"f1","parentTurnId":"c1","timestamp":"t3","path":"docs/notes.md","operation":"read"}
{"kind":"decisionLedger","turnId":"d1","parentTurnId":"f1","timestamp":"t4","interviewId":"iv-1","interviewStatus":"complete","startedAt":"s","endedAt":"e","roundCount":1,"decisions":[{"key":"scope","value":"parser only","status":"active","decidedAt":"t4","label":"Scope"}]}
{"kind":"custom","parentTurnId":null,"customType":"handoffSeed","display":true,"data":{"fromSessionId":"sess-0","goal":"fix the parser for good","document":"# Handoff"},"turnId":"s1","timestamp":"t5"}
{"kind":"custom","parentTurnId":null,"customType":"handoffNote","display":true,"data":{"toSessionId":"sess-2","goal":"ship the parser fix"},"turnId":"n1","timestamp":"t6"}
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
	top := object("the ledger", v, "version", "session", "dir", "cwd", "paths", "board", "invalid_lines", "torn_last_line", "warnings",
		"seeded_from", "handed_off_to", "forked_from")
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
	object("seeded_from", top["seeded_from"], "session", "goal", "turn_id", "timestamp", "line")
	object("a handoff note", array("handed_off_to", top["handed_off_to"])[0], "session", "goal", "turn_id", "timestamp", "line")
	object("forked_from", top["forked_from"], "session", "file", "turn_id")
	d := object("a decision", array("board", top["board"])[0], "key", "value", "label", "interview_id", "decided_at", "line", "source_question", "correction", "rationale")
	if d["interview_id"] != "iv-1" || d["decided_at"] != "t4" || d["line"] != 6.0 {
		t.Errorf("decision %v", d)
	}
}

// TestLedgerClioReal runs baton ledger on the stores clio-coder wrote (the
// shared corpus's clio-real, beside the repository): no warning and no
// skipped line on any session, the handed-off session says where the work
// went (clio's handoffNote) and its successor where it came from (the
// handoffSeed).
func TestLedgerClioReal(t *testing.T) {
	sessions := corpus.Glob(t, "clio-real/*/state/sessions/*/*")
	to, from := 0, 0
	for _, dir := range sessions {
		var out, errOut bytes.Buffer
		if code := run([]string{"ledger", dir}, nil, &out, &errOut); code != exitOK || errOut.Len() > 0 {
			t.Errorf("%s: exit status %d, stderr %q", dir, code, errOut.String())
		}
		text := out.String()
		if strings.Contains(text, "\nskipped: ") {
			t.Errorf("%s: %s", dir, text)
		}
		if strings.Contains(text, "\nhanded off to session ") {
			to++
		}
		if strings.Contains(text, "\nhanded off from session ") {
			from++
		}
		var js bytes.Buffer
		run([]string{"ledger", "--json", dir}, nil, &js, &errOut)
		var v struct{ Warnings []string }
		if err := json.Unmarshal(js.Bytes(), &v); err != nil || len(v.Warnings) > 0 {
			t.Errorf("%s: --json warnings %q (%v)", dir, v.Warnings, err)
		}
	}
	if cases := corpus.Glob(t, "clio-real/*/clio-verdict.json"); to != len(cases) || from != len(cases) {
		t.Errorf("%d sessions say where their work went and %d where theirs came from; want %d each", to, from, len(cases))
	}
}

// TestCheckClioReal runs baton check on every document clio-coder's own
// /handoff wrote, against the store it wrote: nothing to report, no warning.
func TestCheckClioReal(t *testing.T) {
	cases := corpus.Glob(t, "clio-real/*/handoff.md")
	for _, doc := range cases {
		var out, errOut bytes.Buffer
		code := run([]string{"check", "--state-dir", filepath.Join(filepath.Dir(doc), "state"), doc}, nil, &out, &errOut)
		if code != exitOK || out.Len() > 0 || errOut.Len() > 0 {
			t.Errorf("%s: exit status %d\n%s%s", doc, code, out.String(), errOut.String())
		}
	}
}
