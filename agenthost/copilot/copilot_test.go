package copilot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A hook.start record matches the input's timestamp in either form Copilot
// CLI sends: Unix milliseconds (camelCase input) or ISO 8601 (the VS Code
// compatible input).
func TestInstantBothForms(t *testing.T) {
	ms, ok1 := instant(json.RawMessage(`1764496800000`))
	iso, ok2 := instant(json.RawMessage(`"2025-11-30T10:00:00.000Z"`))
	if !ok1 || !ok2 || ms != iso {
		t.Fatalf("instant: %d %t, %d %t; want the same instant", ms, ok1, iso, ok2)
	}
	for _, raw := range []string{``, `null`, `0`, `"yesterday"`, `{}`} {
		if _, ok := instant(json.RawMessage(raw)); ok {
			t.Errorf("instant(%s) is a time", raw)
		}
	}
}

func events(stamp string) string {
	return `{"type":"session.start","data":{}}` + "\n" +
		`{"type":"assistant.message","data":{"content":"done"}}` + "\n" +
		`{"type":"hook.start","data":{"input":{"timestamp":` + stamp + `}}}` + "\n"
}

// Await returns once the events hold this stop's hook.start record, waits
// for nothing when the input has no timestamp, and past its limit says
// what was missing.
func TestAwait(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(path, []byte(events(`"2025-11-30T10:00:00Z"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Await(path, json.RawMessage(`1764496800000`), time.Second); err != nil {
		t.Errorf("the record is there: %v", err)
	}
	if err := Await(filepath.Join(dir, "none.jsonl"), nil, time.Millisecond); err != nil {
		t.Errorf("no timestamp is not waited for: %v", err)
	}
	err := Await(path, json.RawMessage(`1764496900000`), 50*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "had not written this stop's hook.start record") {
		t.Errorf("another stop's record: %v, want the missing record named", err)
	}
}

// Events tells Copilot CLI's events file by its name, or by its content.
func TestEvents(t *testing.T) {
	dir := t.TempDir()
	if !Events(filepath.Join(dir, "session-state", "s", "events.jsonl")) {
		t.Error("events.jsonl, not yet written, is not taken for Copilot's")
	}
	other := filepath.Join(dir, "copy.jsonl")
	if err := os.WriteFile(other, []byte(events(`1`)), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Events(other) {
		t.Error("a file of Copilot's events under another name is not taken for Copilot's")
	}
	claude := filepath.Join(dir, "claude.jsonl")
	if err := os.WriteFile(claude, []byte(`{"type":"user","message":{"role":"user","content":"hi"},"parentUuid":null}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if Events(claude) {
		t.Error("a Claude Code transcript is taken for Copilot's events")
	}
}
