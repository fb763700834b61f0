package bench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/handoff/session"
)

// BenchmarkLedgerAppendBytes reports what handoff/session's
// BenchmarkLedgerAppend times but does not count: the bytes a Store reads
// to bring a ~100 MB session's ledger up to date after each small append
// (the goal is exactly the appended bytes, never the whole file), and the
// bytes of the cold build before it.
func BenchmarkLedgerAppendBytes(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "sessions", session.CwdHash(SessionCwd), "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(dir, "current.jsonl")
	size := writeSession(b, file, 100<<20)
	s := session.NewStore()
	if _, err := s.Ledger(dir); err != nil {
		b.Fatal(err)
	}
	cold := s.BytesRead()
	line := `{"kind":"fileEntry","turnId":"bench-f","parentTurnId":null,"timestamp":"t","path":"src/appended.go","operation":"read"}` + "\n"
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteString(line); err != nil {
			b.Fatal(err)
		}
		f.Close()
		b.StartTimer()
		if _, err := s.Ledger(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(size)/(1<<20), "sessionMB")
	b.ReportMetric(float64(cold), "coldBytesRead")
	b.ReportMetric(float64(s.BytesRead()-cold)/float64(b.N), "bytesRead/append")
	b.ReportMetric(float64(len(line)), "bytesAppended/append")
}

// writeSession writes a session of about size bytes: a chain of turns, each
// an assistant read and its tool result carrying about 1 KB of file text.
func writeSession(tb testing.TB, name string, size int64) int64 {
	f, err := os.Create(name)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	emit := func(s string) {
		k, _ := w.WriteString(s)
		n += int64(k)
	}
	emit(fmt.Sprintf(`{"type":"session","version":3,"id":"big","timestamp":"t","cwd":%q}`+"\n", SessionCwd))
	body := strings.Repeat(`package retry \"loop\" with a \\ backslash\n`, 24)
	parent := "null"
	for i := 0; n < size; i++ {
		p := fmt.Sprintf("src/pkg%d/file%d.go", i%50, i%400)
		emit(fmt.Sprintf(`{"kind":"message","turnId":"c%d","parentTurnId":%s,"timestamp":"t","role":"tool_call","payload":{"toolCallId":"k%d","name":"read","args":{"path":%q}}}`+"\n", i, parent, i, p))
		emit(fmt.Sprintf(`{"kind":"message","turnId":"r%d","parentTurnId":"c%d","timestamp":"t","role":"tool_result","payload":{"toolCallId":"k%d","toolName":"read","result":{"content":[{"type":"text","text":"%s"}]},"isError":false}}`+"\n", i, i, i, body))
		parent = fmt.Sprintf(`"r%d"`, i)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return n
}
