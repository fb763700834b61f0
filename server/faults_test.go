package server_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/handoff/session"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Session-store faults while a handoff document is open: the session's
// current.jsonl is deleted, rewritten, replaced by a folder, made
// unreadable and truncated. The server keeps serving, and when it cannot
// read the ledger it says so (handoff/ledger-unavailable) and never calls a
// path invented; once the file is back, the findings are right again.

func TestSessionStoreFaults(t *testing.T) {
	state := hoState(t)
	const id = "k3x9m2p7q1wz"
	file := hoSession(t, state, id) // src/a.go, src/b.go, src/lib/util.go
	original, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id, hoFiles) // src/a.go (read) and src/new.go (never touched)
	c.open(u, text)

	invented := func(p protocol.PublishDiagnosticsParams) bool {
		return slices.Equal(codes(p.Diagnostics), []string{"handoff/invented-path"})
	}
	unavailable := func(p protocol.PublishDiagnosticsParams) bool {
		return slices.Equal(codes(p.Diagnostics), []string{"handoff/ledger-unavailable"})
	}
	clean := func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }
	// serving: a request answers, and hover on the invented path agrees
	// with the ledger's state.
	serving := func(readable bool) {
		t.Helper()
		h := c.hoverAtPos(u, hoRangeOf(text, "src/new.go").Start)
		if readable && h == "" || !readable && (h == "" || !strings.Contains(h, "could not be read")) {
			t.Errorf("hover on src/new.go (ledger readable: %v) = %q", readable, h)
		}
	}
	// mark forgets the pushes so far, so that waitPush sees only new ones.
	mark := func() {
		c.mu.Lock()
		c.pushes = nil
		c.mu.Unlock()
	}

	c.waitPush(u, invented)
	serving(true)

	t.Run("deleted", func(t *testing.T) {
		mark()
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
		c.waitPush(u, unavailable)
		serving(false)
	})
	t.Run("rewritten", func(t *testing.T) {
		mark()
		hoWriteSession(t, state, id,
			hoUser("u1", "", "2026-08-21T14:01:00.000Z", "fix the eviction rules"),
			hoToolCall("a1", "u1", "2026-08-21T14:02:11.000Z", "read", map[string]any{"path": "src/a.go"}),
			hoToolCall("a2", "a1", "2026-08-21T14:02:12.000Z", "read", map[string]any{"path": "src/new.go"}),
		)
		c.waitPush(u, clean)
		serving(true)
	})
	t.Run("replaced-by-a-folder", func(t *testing.T) {
		mark()
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(file, 0o755); err != nil {
			t.Fatal(err)
		}
		c.waitPush(u, unavailable)
		serving(false)
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("restored", func(t *testing.T) {
		mark()
		if err := os.WriteFile(file, original, 0o644); err != nil {
			t.Fatal(err)
		}
		c.waitPush(u, invented)
		serving(true)
	})
	t.Run("permission-denied", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads files whatever their mode")
		}
		mark()
		if err := os.Chmod(file, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(file, 0o644)
		// A mode change alters neither size nor time: an edit re-lints.
		c.change(u, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
		c.waitPush(u, func(p protocol.PublishDiagnosticsParams) bool { return version(2)(p) && unavailable(p) })
		serving(false)
	})
	t.Run("truncated-to-nothing", func(t *testing.T) {
		mark()
		if err := os.Truncate(file, 0); err != nil {
			t.Fatal(err)
		}
		// An empty session file is readable: it touched nothing. What
		// matters here is that the server still answers and the
		// restore below is seen.
		c.waitPush(u, func(p protocol.PublishDiagnosticsParams) bool {
			return !slices.Equal(codes(p.Diagnostics), []string{"handoff/invented-path"})
		})
		c.hoverAtPos(u, hoRangeOf(text, "src/new.go").Start)
	})
	t.Run("truncated-mid-line-then-restored", func(t *testing.T) {
		mark()
		if err := os.WriteFile(file, original[:len(original)/2], 0o644); err != nil {
			t.Fatal(err)
		}
		c.waitPush(u, func(protocol.PublishDiagnosticsParams) bool { return true })
		c.hoverAtPos(u, hoRangeOf(text, "src/new.go").Start)
		mark()
		if err := os.WriteFile(file, original, 0o644); err != nil {
			t.Fatal(err)
		}
		c.waitPush(u, invented)
		serving(true)
	})
	t.Run("session-folder-deleted", func(t *testing.T) {
		mark()
		if err := os.RemoveAll(filepath.Join(state, "sessions", session.CwdHash(hoCwd), id)); err != nil {
			t.Fatal(err)
		}
		c.waitPush(u, unavailable)
		serving(false)
	})
}
