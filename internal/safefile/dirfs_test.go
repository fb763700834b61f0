package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// DirFS is a file system as os.DirFS is (fstest.TestFS), but a symbolic
// link leading out of its folder, to a file or through a folder, is
// refused with ErrOutside where os.DirFS follows it.
func TestDirFSStaysBeneath(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "components", "nested"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.md": "a", "components/X.md": "x", "components/nested/Y.md": "y"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := fstest.TestFS(DirFS(dir), "a.md", "components/X.md", "components/nested/Y.md"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(dir)
	for _, name := range []string{"link.md", "out/secret.md"} {
		if b, err := fs.ReadFile(fsys, name); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%s) = %q, %v; want ErrOutside", name, b, err)
		}
		if _, err := fs.Stat(fsys, name); err == nil {
			t.Errorf("Stat(%s) succeeded outside the folder", name)
		}
		if b, err := fs.ReadFile(os.DirFS(dir), name); err != nil || string(b) != "outside" {
			t.Fatalf("os.DirFS no longer follows the link (%q, %v): the test proves nothing", b, err)
		}
	}
	for _, name := range []string{"../x", "/etc/passwd", "a/../../x", `a\b`} {
		if _, err := fsys.Open(name); err == nil {
			t.Errorf("Open(%q) succeeded", name)
		}
	}
	if _, err := fs.ReadFile(DirFS(filepath.Join(dir, "missing")), "a.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing folder: %v, want not exist", err)
	}
}
