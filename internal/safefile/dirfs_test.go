package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
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

// A path component swapped for a symbolic link to a folder outside, over
// and over while the file beneath it is read: no read ever returns the
// outside file. os.Root resolves each open beneath the folder, so the
// check and the open are one step.
func TestDirFSSwapRace(t *testing.T) {
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "components"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "components", "X.md"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "components.real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "components.real", "X.md"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "components")
	// swap points "components" at dest, atomically (a new link renamed
	// over it): at every moment it is one link or the other.
	swap := func(dest, tmp string) {
		_ = os.Remove(tmp)
		if err := os.Symlink(dest, tmp); err == nil {
			_ = os.Rename(tmp, target)
		}
	}
	out, in := filepath.Join(outside, "components"), "components.real" // the second stays beneath dir
	swap(out, target+".a")
	if b, err := fs.ReadFile(os.DirFS(dir), "components/X.md"); err != nil || string(b) != "outside" {
		t.Fatalf("os.DirFS does not read through the link (%q, %v): the test proves nothing", b, err)
	}
	swap(in, target+".a")
	if b, err := fs.ReadFile(DirFS(dir), "components/X.md"); err != nil || string(b) != "inside" {
		t.Fatalf("a link beneath the folder: %q, %v; want it followed", b, err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				swap(out, target+".a")
			} else {
				swap(in, target+".b")
			}
		}
	}()
	fsys := DirFS(dir)
	inside, refused := 0, 0
	for range 5000 {
		b, err := fs.ReadFile(fsys, "components/X.md")
		switch {
		case err == nil && string(b) == "outside":
			close(stop)
			<-done
			t.Fatal("read the file outside the folder through the swapped link")
		case err == nil:
			inside++
		default:
			refused++
		}
	}
	close(stop)
	<-done
	t.Logf("5000 reads while the link was swapped: %d inside, %d refused, none outside", inside, refused)
}

// TestDirFSReadDir: a listing has each entry's kind, and its Info is the
// entry's own (a link's, not its target's), read beneath the root.
func TestDirFSReadDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "f", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f", "a.md"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "f", "out.md")); err != nil {
		t.Fatal(err)
	}
	list, err := fs.ReadDir(DirFS(dir), "f")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range list {
		fi, err := e.Info()
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if fi.Mode().Type() != e.Type() || fi.Name() != e.Name() {
			t.Errorf("%s: Info %v %s, entry %v", e.Name(), fi.Mode().Type(), fi.Name(), e.Type())
		}
		got[e.Name()] = fmt.Sprintf("%v %d", e.Type(), map[bool]int64{true: fi.Size()}[e.Type().IsRegular()])
	}
	want := map[string]string{"a.md": "---------- 3", "out.md": "L--------- 0", "sub": "d--------- 0"}
	if !maps.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
}
