package workspace

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRootStopsAtGitOrConfig(t *testing.T) {
	top := t.TempDir()
	deep := filepath.Join(top, "proj", "wf", "components")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// No marker anywhere below the temp folder: the document's own folder
	// (a marker above the temp folder could exist on some machines, so the
	// check is only that the result is an ancestor of the document).
	doc := filepath.Join(deep, "Stage.md")
	if r := Root(doc); r != deep && !isAncestor(r, deep) {
		t.Errorf("Root = %q, want %q or an ancestor", r, deep)
	}
	if err := os.Mkdir(filepath.Join(top, "proj", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r, want := Root(doc), filepath.Join(top, "proj"); r != want {
		t.Errorf("with .git: Root = %q, want %q", r, want)
	}
	if err := os.WriteFile(filepath.Join(top, "proj", "wf", ".baton.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r, want := Root(doc), filepath.Join(top, "proj", "wf"); r != want {
		t.Errorf("with .baton.yaml nearer: Root = %q, want %q", r, want)
	}
	if got := Rel(filepath.Join(top, "proj"), doc); got != "wf/components/Stage.md" {
		t.Errorf("Rel = %q", got)
	}
}

func isAncestor(a, b string) bool {
	rel, err := filepath.Rel(a, b)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}

func TestFSOverlaysOpenDocuments(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "A.md"), []byte("on disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "B.md"), []byte("b on disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := FS(root, map[string]string{"A.md": "in the editor", "New.md": "unsaved"})
	for name, want := range map[string]string{"A.md": "in the editor", "B.md": "b on disk", "New.md": "unsaved"} {
		got, err := fs.ReadFile(fsys, name)
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := fs.ReadFile(fsys, "Missing.md"); err == nil {
		t.Error("a missing file was read")
	}
	// Stat and Open agree with the overlay; only overlay files are in memory.
	for name, size := range map[string]int64{"A.md": 13, "B.md": 9, "New.md": 7} {
		fi, err := fs.Stat(fsys, name)
		if err != nil || fi.Size() != size || fi.IsDir() {
			t.Errorf("Stat(%s) = %v, %v; want a file of %d bytes", name, fi, err, size)
		}
		f, err := fsys.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		f.Close()
		if err != nil || int64(len(got)) != size {
			t.Errorf("Open(%s) read %q, %v", name, got, err)
		}
	}
	mem, ok := fsys.(interface{ InMemory(string) bool })
	if !ok || !mem.InMemory("A.md") || !mem.InMemory("New.md") || mem.InMemory("B.md") {
		t.Errorf("InMemory does not tell the overlay's files (A.md, New.md) from the disk's (B.md)")
	}
	if names, err := fs.ReadDir(fsys, "."); err != nil || len(names) != 2 {
		t.Errorf("ReadDir(.) = %v, %v; want the two files on disk", names, err)
	}
	if got, _ := fs.ReadFile(FS(root, nil), "A.md"); string(got) != "on disk" {
		t.Errorf("without an overlay A.md = %q", got)
	}
}

// Inside agrees with Rel for the paths inside root and refuses the rest.
func TestInside(t *testing.T) {
	root := filepath.FromSlash("/ws/proj")
	for p, want := range map[string]string{
		"/ws/proj/a.md":          "a.md",
		"/ws/proj/wf/b.md":       "wf/b.md",
		"/ws/proj/wf/../c.md":    "c.md",
		"/ws/proj":               "",
		"/ws/project/a.md":       "",
		"/ws/a.md":               "",
		"/ws/proj/../other/a.md": "",
		"":                       "",
	} {
		got, ok := Inside(root, filepath.FromSlash(p))
		if got != want || ok != (want != "") {
			t.Errorf("Inside(%q, %q) = %q, %v; want %q", root, p, got, ok, want)
		}
		if ok && got != Rel(root, filepath.FromSlash(p)) {
			t.Errorf("Inside(%q, %q) = %q, but Rel says %q", root, p, got, Rel(root, filepath.FromSlash(p)))
		}
	}
	if got, ok := Inside(string(filepath.Separator), filepath.FromSlash("/a/b.md")); !ok || got != "a/b.md" {
		t.Errorf("Inside of the file system root = %q, %v", got, ok)
	}
}

// A configuration naming component folders makes its folder the root of
// the documents inside it, past a nearer .git; outside it, Root decides.
func TestRootForConfigFolder(t *testing.T) {
	top := t.TempDir()
	sub := filepath.Join(top, "repo", "sub")
	if err := os.MkdirAll(filepath.Join(sub, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(sub, "flow.md")
	if r, want := RootFor(doc, filepath.Join(top, "repo")), filepath.Join(top, "repo"); r != want {
		t.Errorf("RootFor = %q, want %q", r, want)
	}
	if r, want := RootFor(doc, ""), sub; r != want {
		t.Errorf("RootFor without a configuration = %q, want %q", r, want)
	}
	if r, want := RootFor(doc, filepath.Join(top, "other")), sub; r != want {
		t.Errorf("RootFor outside the configuration's folder = %q, want %q", r, want)
	}
}

// TestLazyFSMakesItsOverlayWhenRead: the overlay is made once, when the
// view is first read, and never for a view nobody reads.
func TestLazyFSMakesItsOverlayWhenRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	made := 0
	overlay := func() map[string]string { made++; return map[string]string{"a.md": "open"} }
	_ = LazyFS(dir, overlay)
	if made != 0 {
		t.Fatalf("an unread view made its overlay %d times", made)
	}
	fsys := LazyFS(dir, overlay)
	for range 3 {
		data, err := fs.ReadFile(fsys, "a.md")
		if err != nil || string(data) != "open" {
			t.Fatalf("a.md = %q, %v; want the open text", data, err)
		}
	}
	if !fsys.(interface{ InMemory(string) bool }).InMemory("a.md") {
		t.Error("a.md is not served from memory")
	}
	if made != 1 {
		t.Errorf("the overlay was made %d times, want once", made)
	}
}
