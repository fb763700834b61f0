package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestClio033Store reads a session as clio-coder 0.3.3 writes it: the tool
// call stored twice (the assistant's toolCall block and the tool_call
// entry), custom entries of other types (promptRecompiled,
// middlewareReminder), the sibling files tree.json,
// context-snapshots.jsonl and prompt-manifest.jsonl, the handoffNote clio
// appends with no parent when the session is handed off, and no warning.
func TestClio033Store(t *testing.T) {
	b := newBuilder(t, "/home/dev/ws")
	b.user("u1", "")
	b.entry("custom", "p1", "u1", map[string]any{"customType": "promptRecompiled", "data": map[string]any{"previousHash": nil, "hash": "68eb", "tokenEstimate": 3293}})
	b.assistant("a1", "u1", block("name", "read", "arguments", map[string]any{"path": "src/parser.py"}))
	b.call("c1", "a1", "name", "read", "args", map[string]any{"path": "src/parser.py"})
	b.entry("message", "r1", "c1", map[string]any{"role": "tool_result", "payload": map[string]any{"toolCallId": "call-c1", "toolName": "read", "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "x"}}}}})
	b.entry("custom", "m1", "r1", map[string]any{"customType": "middlewareReminder", "display": true, "data": map[string]any{"message": "advisory", "severity": "warn"}})
	b.entry("custom", "n1", "", map[string]any{"customType": "handoffNote", "display": true, "data": map[string]any{"toSessionId": "3qoqyxbwra2x", "goal": "finish the tokenizer cache"}})
	dir := b.writeTemp()
	for name, text := range map[string]string{
		"tree.json":               `[{"id":"u1","parentId":null,"at":"t","kind":"user"}]`,
		"context-snapshots.jsonl": `{"snapshotId":"snap-1","sessionId":"unknown","turnId":"u1"}` + "\n",
		"prompt-manifest.jsonl":   `{"at":"t","previousHash":null,"systemPromptHash":"68eb"}` + "\n",
	} {
		writeFile(t, filepath.Join(dir, name), text)
	}
	l, err := NewStore().Ledger(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Warnings) > 0 || len(l.InvalidLines) > 0 || l.TornLastLine {
		t.Errorf("warnings %q, invalid lines %v, torn %v", l.Warnings, l.InvalidLines, l.TornLastLine)
	}
	ev := l.Paths["src/parser.py"]
	if len(l.Paths) != 1 || len(ev) != 2 || ev[0].Line != 4 || ev[1].Line != 5 {
		t.Errorf("paths %v: want src/parser.py from the block (line 4) and the tool_call entry (line 5)", l.Paths)
	}
	if l.SeededFrom != nil || l.ForkedFrom != nil {
		t.Errorf("seeded from %+v, forked from %+v: want neither", l.SeededFrom, l.ForkedFrom)
	}
	want := []Handoff{{Session: "3qoqyxbwra2x", Goal: "finish the tokenizer cache", TurnID: "n1", Timestamp: "ts-n1", Line: 8}}
	if !slices.Equal(l.HandedOffTo, want) {
		t.Errorf("handed off to %+v, want %+v", l.HandedOffTo, want)
	}
}

// TestClio033Successor reads the session clio's /handoff mints: it opens
// with the handoffSeed entry (no parent) naming where the work came from.
// A custom entry that only looks like a handoff (another customType, a
// session id that is not a string, no goal) is not one, as clio's
// isHandoffSeedData and isHandoffNoteData decide.
func TestClio033Successor(t *testing.T) {
	b := newBuilder(t, "/home/dev/ws")
	b.entry("custom", "s1", "", map[string]any{"customType": "handoffSeed", "display": true, "data": map[string]any{"fromSessionId": "huqgkba04dfb", "goal": "finish the tokenizer cache", "document": "# Handoff\n\n**Goal:** finish the tokenizer cache\n"}})
	b.entry("custom", "s2", "", map[string]any{"customType": "handoffSeed", "data": map[string]any{"fromSessionId": 7, "goal": "x", "document": ""}})
	b.entry("custom", "s3", "", map[string]any{"customType": "handoffNote", "data": map[string]any{"toSessionId": "abc"}})
	b.entry("custom", "s4", "", map[string]any{"customType": "handoffNotes", "data": map[string]any{"toSessionId": "abc", "goal": "x"}})
	b.entry("label", "s5", "", map[string]any{"customType": "handoffNote", "data": map[string]any{"toSessionId": "abc", "goal": "x"}})
	b.user("u1", "")
	b.read("c1", "u1", "src/cache.py")
	l, err := NewStore().Ledger(b.writeTemp())
	if err != nil {
		t.Fatal(err)
	}
	if s := l.SeededFrom; s == nil || s.Session != "huqgkba04dfb" || s.Goal != "finish the tokenizer cache" || s.Line != 2 || s.TurnID != "s1" {
		t.Errorf("seeded from %+v", s)
	}
	if len(l.HandedOffTo) != 0 || len(l.Warnings) != 0 {
		t.Errorf("handed off to %+v, warnings %q: want none", l.HandedOffTo, l.Warnings)
	}
	if _, ok := l.Paths["src/cache.py"]; !ok || len(l.Paths) != 1 {
		t.Errorf("paths %v", l.Paths)
	}
}

// TestClio033Fork reads a /fork-ed session as clio's forkFromState writes
// it: the header names the parent's current.jsonl and the turn forked at,
// meta.json the parent's id, and the entries of the parent's path up to
// that turn are copied in. They are this session's evidence: clio's
// buildHandoffReadLedger reads them like any other entry.
func TestClio033Fork(t *testing.T) {
	b := &builder{t: t}
	b.add(map[string]any{"type": "session", "version": 3, "id": "fork-1", "timestamp": "t0", "cwd": "/home/dev/ws",
		"parentSession": "/state/sessions/d8b1/huqgkba04dfb/current.jsonl", "parentTurnId": "c1"})
	b.user("u1", "")
	b.read("c1", "u1", "src/parser.py")
	b.user("u2", "c1")
	b.read("c2", "u2", "src/fork-only.py")
	b.meta = map[string]any{"id": "fork-1", "cwd": "/home/dev/ws", "parentSessionId": "huqgkba04dfb", "parentTurnId": "c1"}
	dir := b.writeTemp()
	l, err := NewStore().Ledger(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Fork{Session: "huqgkba04dfb", File: "/state/sessions/d8b1/huqgkba04dfb/current.jsonl", TurnID: "c1"}
	if l.ForkedFrom == nil || *l.ForkedFrom != want {
		t.Errorf("forked from %+v, want %+v", l.ForkedFrom, want)
	}
	if len(l.Warnings) != 0 || len(l.Paths) != 2 {
		t.Errorf("warnings %q, paths %v", l.Warnings, l.Paths)
	}
	// A meta.json written before enrichForkMeta stamped it: the header
	// alone says it is a fork.
	os.Remove(filepath.Join(dir, "meta.json"))
	l, err = NewStore().Ledger(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want.Session = ""; l.ForkedFrom == nil || *l.ForkedFrom != want {
		t.Errorf("without meta.json, forked from %+v, want %+v", l.ForkedFrom, want)
	}
}

// TestClioVersion4Store reads a session as clio-coder 0.3.4 and later
// write it: format version 4 in the header (and meta.json's
// sessionFormatVersion), with the working-set entries contextEviction and
// contextRecall. An eviction is a projection: the evicted tool call's
// entries stay, and so does its path in the read ledger. No warning.
func TestClioVersion4Store(t *testing.T) {
	b := &builder{t: t}
	b.add(map[string]any{"type": "session", "version": 4, "id": "sess-4", "timestamp": "t0", "cwd": "/home/dev/ws"})
	b.user("u1", "")
	b.read("c1", "u1", "src/parser.py")
	b.entry("contextEviction", "e1", "c1", map[string]any{"policyId": "default", "trigger": "pressure",
		"evicted":      []any{map[string]any{"ref": map[string]any{"entry": "c1"}, "reason": "superseded_read", "tokensFreed": 120, "marker": "[evicted]"}},
		"tokensBefore": 9000, "tokensAfter": 8880, "pressureBefore": 0.9, "snapshotIdBefore": nil})
	b.entry("contextRecall", "r1", "e1", map[string]any{"ref": map[string]any{"entry": "c1"}, "trigger": "tool", "tokensReadmitted": 120, "toolCallId": "call-c1"})
	b.read("c2", "r1", "src/lexer.py")
	b.meta = map[string]any{"id": "sess-4", "cwd": "/home/dev/ws", "sessionFormatVersion": 4}
	l, err := NewStore().Ledger(b.writeTemp())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Warnings) != 0 || len(l.InvalidLines) != 0 {
		t.Errorf("warnings %q, invalid lines %v", l.Warnings, l.InvalidLines)
	}
	for _, p := range []string{"src/parser.py", "src/lexer.py"} {
		if _, ok := l.Paths[p]; !ok {
			t.Errorf("%s is not in the ledger: %v", p, l.Paths)
		}
	}
}
