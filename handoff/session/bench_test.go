package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	bigOnce    sync.Once
	bigDir     string
	bigSize    int64
	bigErr     error
	benchRoots []string
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, r := range benchRoots {
		os.RemoveAll(r)
	}
	os.Exit(code)
}

// bigSession writes, once per test binary, a deterministic session of about
// size bytes: turns of a user message, an assistant message with toolCall
// blocks, tool_call and tool_result messages (the results carry escaped
// file text), fileEntry, decisionLedger, label and compaction records, and a
// /tree switch to an earlier turn every 40 turns.
func bigSession(tb testing.TB, size int64) (string, int64) {
	bigOnce.Do(func() {
		root, err := os.MkdirTemp("", "baton-session-bench-")
		if err != nil {
			bigErr = err
			return
		}
		benchRoots = append(benchRoots, root)
		bigDir = filepath.Join(root, "sessions", CwdHash("/work/repo"), "bench")
		if bigErr = os.MkdirAll(bigDir, 0o755); bigErr != nil {
			return
		}
		bigSize, bigErr = writeBigSession(filepath.Join(bigDir, "current.jsonl"), size)
	})
	if bigErr != nil {
		tb.Fatal(bigErr)
	}
	return bigDir, bigSize
}

func writeBigSession(name string, size int64) (int64, error) {
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	emit := func(v any) {
		data, _ := json.Marshal(v)
		n, _ := w.Write(append(data, '\n'))
		written += int64(n)
	}
	r := rand.New(rand.NewSource(42))
	tools := []string{"read", "edit", "write", "grep", "find", "ls", "bash", "git", "artifact"}
	var lines []string
	for i := 0; i < 200; i++ {
		lines = append(lines, fmt.Sprintf("\tconst value%d = \"%s\"; // line %d with a \\ backslash and ünïcödé", i, strings.Repeat("x", r.Intn(60)), i))
	}
	fileText := func() string {
		start := r.Intn(len(lines) - 80)
		return strings.Join(lines[start:start+20+r.Intn(60)], "\n")
	}
	ts := func(n int) string { return fmt.Sprintf("2026-08-21T%02d:%02d:%02d.000Z", n/3600%24, n/60%60, n%60) }

	emit(map[string]any{"type": "session", "version": 3, "id": "bench", "timestamp": ts(0), "cwd": "/work/repo"})
	var users []string
	parent := any(nil)
	n := 0
	for turn := 0; written < size; turn++ {
		id := func(kind string) string { n++; return fmt.Sprintf("%s-%d", kind, n) }
		if k := 2 + r.Intn(4); turn%40 == 39 && k <= len(users) {
			parent = users[len(users)-k] // a /tree switch back a few turns
		}
		u := id("u")
		users = append(users, u)
		emit(map[string]any{"kind": "message", "turnId": u, "parentTurnId": parent, "timestamp": ts(n), "role": "user",
			"payload": map[string]any{"text": "please look at the parser again and fix the " + strings.Repeat("edge case ", r.Intn(20))}})
		calls := 1 + r.Intn(3)
		var blocks []any
		var names, paths []string
		for c := 0; c < calls; c++ {
			name := tools[r.Intn(len(tools))]
			p := fmt.Sprintf("src/pkg%d/file%d.ts", r.Intn(50), r.Intn(400))
			names, paths = append(names, name), append(paths, p)
			blocks = append(blocks, map[string]any{"type": "toolCall", "id": fmt.Sprintf("call-%d-%d", n, c), "name": name, "arguments": map[string]any{"path": p}})
		}
		a := id("a")
		emit(map[string]any{"kind": "message", "turnId": a, "parentTurnId": u, "timestamp": ts(n), "role": "assistant",
			"payload": map[string]any{"text": strings.Repeat("I will read the file and think about it. ", 1+r.Intn(12)), "content": blocks}})
		last := a
		for c := range calls {
			tc := id("c")
			args := map[string]any{"path": paths[c]}
			if names[c] == "write" || names[c] == "edit" {
				args["content"] = fileText()
			}
			emit(map[string]any{"kind": "message", "turnId": tc, "parentTurnId": last, "timestamp": ts(n), "role": "tool_call",
				"payload": map[string]any{"toolCallId": fmt.Sprintf("call-%d-%d", n, c), "name": names[c], "args": args}})
			tr := id("r")
			emit(map[string]any{"kind": "message", "turnId": tr, "parentTurnId": tc, "timestamp": ts(n), "role": "tool_result",
				"payload": map[string]any{"toolCallId": fmt.Sprintf("call-%d-%d", n, c), "toolName": names[c],
					"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": fileText()}}}, "isError": false}})
			last = tr
		}
		if r.Intn(4) == 0 {
			emit(map[string]any{"kind": "fileEntry", "turnId": id("f"), "parentTurnId": last, "timestamp": ts(n), "path": paths[0], "operation": "read"})
		}
		if r.Intn(25) == 0 {
			emit(map[string]any{"kind": "decisionLedger", "turnId": id("d"), "parentTurnId": u, "timestamp": ts(n),
				"interviewId": fmt.Sprintf("int-%d", r.Intn(5)), "interviewStatus": "complete", "startedAt": ts(n), "endedAt": ts(n), "roundCount": 1,
				"decisions": []any{map[string]any{"key": "runner", "value": fmt.Sprint("v", r.Intn(9)), "status": "active", "decidedAt": ts(n)}}})
		}
		if r.Intn(30) == 0 {
			emit(map[string]any{"kind": "label", "turnId": id("l"), "parentTurnId": nil, "timestamp": ts(n), "targetTurnId": a, "label": "checkpoint"})
		}
		if r.Intn(60) == 0 {
			emit(map[string]any{"kind": "compactionSummary", "turnId": id("s"), "parentTurnId": nil, "timestamp": ts(n),
				"summary": strings.Repeat("summary ", 50), "tokensBefore": 12345, "firstKeptTurnId": u})
		}
		parent = last
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return written, f.Close()
}

// BenchmarkLedger100MB times a cold Ledger build (a new Store each time) of
// a ~100 MB session; the MB/s column is the read throughput.
func BenchmarkLedger100MB(b *testing.B) {
	dir, size := bigSession(b, 100<<20)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	var l *Ledger
	for range b.N {
		var err error
		if l, err = NewStore().Ledger(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(l.Lines), "lines")
	b.ReportMetric(float64(len(l.Paths)), "paths")
	if len(l.InvalidLines) != 0 || l.TornLastLine {
		b.Fatalf("generated session reads badly: %d invalid lines, torn %v", len(l.InvalidLines), l.TornLastLine)
	}
}

// BenchmarkLedgerAppend times an incremental Ledger after a small append to
// the ~100 MB session (parsing the new bytes, then refolding every entry).
func BenchmarkLedgerAppend(b *testing.B) {
	dir, _ := bigSession(b, 100<<20)
	s := NewStore()
	if _, err := s.Ledger(dir); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(dir, "current.jsonl")
	line := `{"kind":"label","turnId":"bench-label","parentTurnId":null,"timestamp":"t","targetTurnId":"x","label":"x"}` + "\n"
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		appendFile(b, file, line)
		b.StartTimer()
		if _, err := s.Ledger(dir); err != nil {
			b.Fatal(err)
		}
	}
}
