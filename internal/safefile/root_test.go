package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rootFixture is a workspace ws holding dir/stop.md, and beside it a
// folder out holding a stop.md with a secret and secret.md.
func rootFixture(t *testing.T) (base string, root *os.Root) {
	t.Helper()
	base = t.TempDir()
	for name, text := range map[string]string{
		"ws/dir/stop.md": "inside\n",
		"ws/in.md":       "inside\n",
		"out/stop.md":    "SECRET\n",
		"out/secret.md":  "SECRET\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return base, root
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links are not available here: %v", err)
	}
}

func TestOpenInRefusesWhatLeavesTheRoot(t *testing.T) {
	base, root := rootFixture(t)
	if data, err := ReadFileIn(root, "dir/stop.md", 1<<20); err != nil || string(data) != "inside\n" {
		t.Fatalf("dir/stop.md: %q, %v", data, err)
	}
	if _, err := ReadFileIn(root, "in.md", 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("in.md over the bound: %v", err)
	}
	if _, err := ReadFileIn(root, "dir", 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a folder") {
		t.Errorf("dir: %v, want not a regular file: a folder", err)
	}
	if _, err := ReadFileIn(root, "none.md", 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("none.md: %v, want not exist", err)
	}
	if _, err := ReadFileIn(root, filepath.Join("..", "out", "secret.md"), 1<<20); !errors.Is(err, ErrOutside) {
		t.Errorf("../out/secret.md: %v, want outside", err)
	}
	symlinkOrSkip(t, filepath.Join(base, "out", "secret.md"), filepath.Join(base, "ws", "file-link.md"))
	symlinkOrSkip(t, filepath.Join(base, "out"), filepath.Join(base, "ws", "dir-link"))
	symlinkOrSkip(t, filepath.Join("..", "out"), filepath.Join(base, "ws", "rel-link"))
	for _, name := range []string{"file-link.md", filepath.Join("dir-link", "secret.md"), filepath.Join("rel-link", "secret.md")} {
		data, err := ReadFileIn(root, name, 1<<20)
		if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %q, %v; want refused as outside, named", name, data, err)
		}
	}
	// A link that stays inside is followed.
	symlinkOrSkip(t, filepath.Join("dir", "stop.md"), filepath.Join(base, "ws", "in-link.md"))
	if data, err := ReadFileIn(root, "in-link.md", 1<<20); err != nil || string(data) != "inside\n" {
		t.Errorf("in-link.md: %q, %v", data, err)
	}
}

// TestOpenInCannotBeRaced swaps ws/dir between a folder and a link to a
// folder outside while opening ws/dir/stop.md: the file outside must
// never be read, whatever the timing.
func TestOpenInCannotBeRaced(t *testing.T) {
	base, root := rootFixture(t)
	dir := filepath.Join(base, "ws", "dir")
	real := filepath.Join(base, "ws", "dir-real")
	link := filepath.Join(base, "ws", "dir-link")
	symlinkOrSkip(t, filepath.Join(base, "out"), link)
	if err := os.Rename(dir, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(real, dir); err != nil {
		t.Fatal(err)
	}
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
	reads, inside := 0, 0
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); reads++ {
		data, err := ReadFileIn(root, filepath.Join("dir", "stop.md"), 1<<20)
		if strings.Contains(string(data), "SECRET") {
			t.Fatalf("read %d returned the file outside the root (err %v)", reads, err)
		}
		if err == nil {
			inside++
		}
	}
	t.Logf("%d reads, %d of the file inside, none outside", reads, inside)
}
