package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links are not available here: %v", err)
	}
}

// The workspace bound holds for the file actually opened: while ws/dir is
// swapped, in a tight loop, between a folder holding stop.md and a link
// to a folder outside holding a stop.md of its own, no read of
// dir/stop.md returns the file outside. A refusal, or the file inside,
// are both right answers. (Checking the path and then opening it
// returned the file outside in 1-6 % of the calls.)
func TestPathBoundCannotBeRaced(t *testing.T) {
	base := t.TempDir()
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "out")
	write(t, filepath.Join(ws, "dir", "stop.md"), "# Notes\n\ninside\n")
	write(t, filepath.Join(out, "stop.md"), brokenPacket+"\nSECRET-MARKER\n")
	dir, real, link := filepath.Join(ws, "dir"), filepath.Join(ws, "dir-real"), filepath.Join(ws, "dir-link")
	symlinkOrSkip(t, out, link)
	s := newServer(t, ws)
	cs, _ := connect(t, s)

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			// dir is the folder, then the link, then the folder again.
			if os.Rename(dir, real) != nil || os.Rename(link, dir) != nil ||
				os.Rename(dir, link) != nil || os.Rename(real, dir) != nil {
				return
			}
		}
	})
	defer func() { stop.Store(true); wg.Wait() }()

	name := filepath.Join("dir", "stop.md")
	loads, inside, calls := 0, 0, 0
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); loads++ {
		d, err := s.load(name, nil, "untitled.md")
		if err == nil && strings.Contains(d.text, "SECRET-MARKER") {
			t.Fatalf("load %d returned the file outside the workspace", loads)
		}
		if err == nil {
			inside++
		}
		if loads%25 == 0 {
			calls++
			var doc DocumentOutput
			res := call(t, cs, ToolCheckDocument, map[string]any{"path": name}, &doc)
			if !res.IsError && (doc.Errors > 0 || doc.Kind != "other") {
				t.Fatalf("call %d analysed the file outside the workspace: %s", calls, text(res))
			}
		}
	}
	t.Logf("%d loads (%d of the file inside), %d tool calls: none outside", loads, inside, calls)
}
