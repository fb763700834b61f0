package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.md")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		fifo:           "a named pipe",
		zero:           "a character device",
		"/dev/urandom": "a character device",
		dir:            "a folder",
	}
	for name, what := range cases {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(name, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), what) {
				t.Errorf("%s: err = %v, want %s named, not a regular file", name, err, what)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the read blocked", name)
		}
	}
}

func TestOpenInRefusesSpecialFilesWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan error, 1)
	go func() { _, err := ReadFileIn(root, "pipe.md", 1<<20); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe") {
			t.Errorf("pipe.md: err = %v, want not a regular file: a named pipe", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pipe.md: the read blocked")
	}
}

func TestBound(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.md")
	if err := os.WriteFile(name, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(name, 1024); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2.0 KiB, over the 1.0 KiB baton reads") {
		t.Errorf("err = %v, want too large with both sizes", err)
	}
	data, err := ReadFile(name, 2048)
	if err != nil || len(data) != 2048 {
		t.Errorf("at the bound: %d bytes, %v", len(data), err)
	}
	// A symlink to a regular file is read.
	link := filepath.Join(filepath.Dir(name), "link.md")
	if err := os.Symlink(name, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link, 4096); err != nil {
		t.Errorf("a symlink to a regular file: %v", err)
	}
}

func TestReadTail(t *testing.T) {
	name := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(name, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int64]string{100: "one\ntwo\nthree\n", 8: "three\n", 10: "three\n", 11: "two\nthree\n", 3: ""} {
		data, whole, err := ReadTail(name, n)
		if err != nil || string(data) != want || whole != (n >= 14) {
			t.Errorf("ReadTail(%d) = %q, %v, %v; want %q", n, data, whole, err, want)
		}
	}
	if _, _, err := ReadTail("/dev/zero", 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v", err)
	}
}

func TestFSRefusesSpecialFilesWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// os.DirFS is asked the kind of file first; DirFS opens without
	// blocking and asks the file opened (NonBlockingFS).
	for _, fsys := range []fs.FS{os.DirFS(dir), DirFS(dir)} {
		special := map[string]string{"pipe.md": "a named pipe", ".": "a folder"}
		if _, ok := fsys.(NonBlockingFS); !ok {
			special["zero.md"] = "a character device" // DirFS refuses the link out of dir
		}
		for name, what := range special {
			done := make(chan error, 1)
			go func() { _, err := ReadFileFS(fsys, name, 1<<20); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), what) {
					t.Errorf("%T %s: err = %v, want not a regular file: %s", fsys, name, err, what)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%T %s: the read blocked", fsys, name)
			}
		}
		if data, err := ReadFileFS(fsys, "a.md", 5); err != nil || string(data) != "text\n" {
			t.Errorf("%T a.md: %q, %v", fsys, data, err)
		}
		if _, err := ReadFileFS(fsys, "a.md", 4); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%T a.md over the bound: %v", fsys, err)
		}
	}
}

// TestSubReadsBeneathItsFolder: Sub's files are those of the folder, and
// a link out of the folder is refused as a link out of the root is.
func TestSubReadsBeneathItsFolder(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "root")
	for name, text := range map[string]string{"a/b/x.md": "x\n", "a/y.md": "y\n"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../y.md", filepath.Join(root, "a/b/up.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(top, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(root)
	sub, done, ok := Sub(fsys, "a/b")
	if !ok {
		t.Fatal("a DirFS has no Sub")
	}
	defer done()
	if data, err := ReadFileFS(sub, "x.md", 1<<10); err != nil || string(data) != "x\n" {
		t.Errorf("x.md: %q, %v", data, err)
	}
	if _, err := ReadFileFS(sub, "up.md", 1<<10); !errors.Is(err, ErrOutside) {
		t.Errorf("a link out of the folder: %v, want ErrOutside", err)
	}
	if data, err := ReadFileFS(fsys, "a/b/up.md", 1<<10); err != nil || string(data) != "y\n" {
		t.Errorf("the same link from the root: %q, %v", data, err)
	}
	outSub, done2, _ := Sub(fsys, "out")
	defer done2()
	if _, err := ReadFileFS(outSub, "root/a/y.md", 1<<10); !errors.Is(err, ErrOutside) {
		t.Errorf("a Sub through a link out of the root: %v, want ErrOutside", err)
	}
	if _, _, ok := Sub(os.DirFS(root), "a"); ok {
		t.Error("os.DirFS has a Sub")
	}
}
