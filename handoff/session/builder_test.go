package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// builder writes a fixture session: a header, then one line per call.
type builder struct {
	t     testing.TB
	lines []string
	meta  map[string]any // nil: no meta.json
}

// newBuilder starts a session whose header has cwd (no header when cwd is
// "-").
func newBuilder(t testing.TB, cwd string) *builder {
	b := &builder{t: t}
	if cwd != "-" {
		b.add(map[string]any{"type": "session", "version": 3, "id": "sess-1", "timestamp": "2026-08-21T00:00:00.000Z", "cwd": cwd})
	}
	return b
}

// add appends an entry and returns its line.
func (b *builder) add(v map[string]any) int {
	b.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.raw(string(data))
}

// raw appends a line as is and returns its line.
func (b *builder) raw(line string) int {
	b.lines = append(b.lines, line)
	return len(b.lines)
}

// nullable turns "" into JSON null.
func nullable(id string) any {
	if id == "" {
		return nil
	}
	return id
}

func (b *builder) entry(kind, turn, parent string, extra map[string]any) int {
	v := map[string]any{"kind": kind, "turnId": turn, "parentTurnId": nullable(parent), "timestamp": "ts-" + turn}
	for k, x := range extra {
		v[k] = x
	}
	return b.add(v)
}

func (b *builder) user(turn, parent string) int {
	return b.entry("message", turn, parent, map[string]any{"role": "user", "payload": map[string]any{"text": "do " + turn}})
}

// call appends a tool_call message with payload {nameKey: name, argsKey: args}.
func (b *builder) call(turn, parent, nameKey, name, argsKey string, args any) int {
	return b.entry("message", turn, parent, map[string]any{"role": "tool_call",
		"payload": map[string]any{"toolCallId": "call-" + turn, nameKey: name, argsKey: args}})
}

func (b *builder) read(turn, parent, path string) int {
	return b.call(turn, parent, "name", "read", "args", map[string]any{"path": path})
}

// assistant appends an assistant message with the given content blocks.
func (b *builder) assistant(turn, parent string, blocks ...map[string]any) int {
	return b.entry("message", turn, parent, map[string]any{"role": "assistant", "payload": map[string]any{"text": "", "content": blocks}})
}

func block(nameKey, name, argsKey string, args any) map[string]any {
	return map[string]any{"type": "toolCall", "id": "call", nameKey: name, argsKey: args}
}

func (b *builder) fileEntry(turn, parent, path, op string) int {
	return b.entry("fileEntry", turn, parent, map[string]any{"path": path, "operation": op})
}

func (b *builder) decisions(turn, parent, interview, endedAt string, ds ...map[string]any) int {
	return b.entry("decisionLedger", turn, parent, map[string]any{"interviewId": interview, "interviewStatus": "complete",
		"startedAt": "s", "endedAt": endedAt, "roundCount": 1, "decisions": ds})
}

func decision(key, value, label, status string) map[string]any {
	d := map[string]any{"key": key, "value": value, "status": status, "decidedAt": "at-" + key}
	if label != "" {
		d["label"] = label
	}
	return d
}

func (b *builder) label(turn, target string) int {
	return b.entry("label", turn, "", map[string]any{"targetTurnId": target, "label": "x"})
}

func (b *builder) compaction(turn, parent, firstKept string) int {
	return b.entry("compactionSummary", turn, parent, map[string]any{"summary": "s", "tokensBefore": 1, "firstKeptTurnId": firstKept})
}

func (b *builder) pin(id string) {
	if b.meta == nil {
		b.meta = map[string]any{}
	}
	b.meta["pinnedLeafTurnId"] = nullable(id)
}

// text is current.jsonl's contents, every line ended by a newline.
func (b *builder) text() string {
	if len(b.lines) == 0 {
		return ""
	}
	return strings.Join(b.lines, "\n") + "\n"
}

// write writes the session into <stateDir>/sessions/<hash>/<id>/ and
// returns that folder.
func (b *builder) write(stateDir, cwdHash, id string) string {
	b.t.Helper()
	dir := filepath.Join(stateDir, "sessions", cwdHash, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	writeFile(b.t, filepath.Join(dir, "current.jsonl"), b.text())
	if b.meta != nil {
		data, err := json.Marshal(b.meta)
		if err != nil {
			b.t.Fatal(err)
		}
		writeFile(b.t, filepath.Join(dir, "meta.json"), string(data))
	}
	return dir
}

// writeTemp writes the session into a fresh temporary state folder.
func (b *builder) writeTemp() string {
	return b.write(b.t.TempDir(), "0123456789abcdef", "sess-1")
}

func writeFile(t testing.TB, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t testing.TB, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// summary renders a ledger's paths as path -> "tool@line" (with the
// operation for a fileEntry), for compact expectations.
func summary(l *Ledger) map[string][]string {
	out := make(map[string][]string)
	for p, evs := range l.Paths {
		for _, ev := range evs {
			s := ev.Tool
			if ev.Operation != "" {
				s += "(" + ev.Operation + ")"
			}
			out[p] = append(out[p], s+"@"+itoa(ev.Line))
		}
	}
	return out
}

func itoa(n int) string {
	data, _ := json.Marshal(n)
	return string(data)
}
