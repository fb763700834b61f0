package workflow

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// TestMayDeclareBundle: only a file whose front matter names components
// (or holds an escape that could spell it) is read in full as a possible
// bundle root; a closing line is judged whole, however the file is read.
func TestMayDeclareBundle(t *testing.T) {
	long := strings.Repeat("x: 1\n", 2000) // front matter past the first reads
	fsys := fstest.MapFS{
		"root.md":      {Data: []byte("---\nworkflow:\n  components:\n    A: a.md\n---\nbody\n")},
		"crlf.md":      {Data: []byte("---\r\nworkflow:\r\n  components: {A: a.md}\r\n---\r\n")},
		"long.md":      {Data: []byte("---\n" + long + "workflow: {components: {A: a.md}}\n---\n")},
		"escaped.md":   {Data: []byte("---\nworkflow: {\"c\\u006fmponents\": {A: a.md}}\n---\n")},
		"props.md":     {Data: []byte("---\nprops:\n  x: {type: string}\n---\n<Prompt>components</Prompt>\n")},
		"plain.md":     {Data: []byte("# components\n")},
		"unclosed.md":  {Data: []byte("---\nworkflow: {components: {A: a.md}}\n")},
		"bodyonly.md":  {Data: []byte("---\n---\nworkflow: {components: {A: a.md}}\n")},
		"longplain.md": {Data: []byte("---\n" + long + "---\n")},
		"title.md":     {Data: []byte("---\ntitle: \"Common components (e.g. <div>)\"\n---\n<Intro />\n")},
		"meta.md":      {Data: []byte("---\nmeta:\n  workflow:\n    components: {A: a.md}\n---\n")},
	}
	want := map[string]bool{"root.md": true, "crlf.md": true, "long.md": true, "escaped.md": true, "meta.md": true}
	for name := range fsys {
		if got := mayDeclareBundle(fsys, name); got != want[name] {
			t.Errorf("mayDeclareBundle(%s) = %v, want %v", name, got, want[name])
		}
	}
	if mayDeclareBundle(fsys, "missing.md") {
		t.Error("a missing file may declare a bundle")
	}
	// Every file the pre-check passes over parses without a bundle.
	for name, f := range fsys {
		if !want[name] && len(Parse(string(f.Data)).Bundle) > 0 {
			t.Errorf("%s declares a bundle, but the pre-check skips it", name)
		}
	}
}

// TestDirsRemembers: a Dirs lists a folder once; nil lists it every time.
func TestDirsRemembers(t *testing.T) {
	fsys := fstest.MapFS{
		"w/root.md": {Data: []byte("---\nworkflow:\n  components:\n    A: a.md\n---\n")},
		"w/a.md":    {Data: []byte("---\nprops: {}\n---\n")},
	}
	d := NewDirs()
	if got := d.roots(fsys, "w"); len(got) != 1 || got[0] != "w/root.md" {
		t.Fatalf("roots = %v, want [w/root.md]", got)
	}
	delete(fsys, "w/root.md")
	if got := d.roots(fsys, "w"); len(got) != 1 {
		t.Errorf("a remembered folder was listed again: %v", got)
	}
	var none *Dirs
	if got := none.roots(fsys, "w"); len(got) != 0 {
		t.Errorf("nil Dirs remembered %v", got)
	}
}

// countFS counts the files opened (Stat and ReadDir do not open them).
type countFS struct {
	fstest.MapFS
	opened   map[string]int
	inMemory map[string]bool
}

func (c *countFS) Open(name string) (fs.File, error) {
	c.opened[name]++
	return c.MapFS.Open(name)
}

func (c *countFS) InMemory(name string) bool { return c.inMemory[name] }

// TestLiveDirsReadsOnlyWhatChanged: a live Dirs re-reads a file only when
// its size or modification time changed, or when it had been modified too
// recently for them to be trusted; it lists a folder again when the
// folder's time changed, and always reads what the FS holds in memory.
func TestLiveDirsReadsOnlyWhatChanged(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	clock := t0.Add(time.Minute)
	root := "---\nworkflow:\n  components:\n    A: a.md\n---\n"
	member := "---\nprops: {}\n---\n"
	alike := strings.Replace(root, "components", "xomponents", 1) // root's size, no bundle
	fsys := &countFS{MapFS: fstest.MapFS{
		"w":         {Mode: fs.ModeDir | 0o755, ModTime: t0},
		"w/root.md": {Data: []byte(root), ModTime: t0},
		"w/a.md":    {Data: []byte(member), ModTime: t0},
		"w/b.txt":   {Data: []byte("components"), ModTime: t0},
	}, inMemory: map[string]bool{}}
	d := NewLiveDirs()
	d.now = func() time.Time { return clock }
	look := func(step string, want ...string) map[string]int {
		t.Helper()
		fsys.opened = map[string]int{}
		got := d.roots(fsys, "w")
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: roots = %v, want %v", step, got, want)
		}
		return fsys.opened
	}

	if opened := look("first look", "w/root.md"); opened["w/root.md"] != 1 || opened["w/a.md"] != 1 {
		t.Errorf("first look opened %v, want each .md file once", opened)
	}
	clock = clock.Add(time.Minute)
	if opened := look("nothing changed", "w/root.md"); len(opened) != 0 {
		t.Errorf("nothing changed, yet %v was opened", opened)
	}

	// a.md gains a bundle: a new time, so it is read again, alone.
	fsys.MapFS["w/a.md"] = &fstest.MapFile{Data: []byte(root), ModTime: clock}
	if opened := look("a.md rewritten", "w/a.md", "w/root.md"); len(opened) != 1 || opened["w/a.md"] != 1 {
		t.Errorf("a.md rewritten: opened %v, want a.md alone", opened)
	}
	// It was read in the second of its change: its time is not trusted, so
	// a change of the same size within the same timestamp is still seen.
	fsys.MapFS["w/a.md"] = &fstest.MapFile{Data: []byte(alike), ModTime: clock}
	look("a.md rewritten within its timestamp", "w/root.md")
	clock = clock.Add(time.Minute)
	look("a.md still", "w/root.md")
	if opened := look("a.md trusted now", "w/root.md"); len(opened) != 0 {
		t.Errorf("a.md has been still for a minute, yet %v was opened", opened)
	}
	// Once trusted, size and time stand for the content: a rewrite that
	// keeps both (only a tool setting the time back can) is not seen.
	fsys.MapFS["w/a.md"].Data = []byte(root)
	look("a.md rewritten keeping its size and time", "w/root.md")
	fsys.MapFS["w/a.md"] = &fstest.MapFile{Data: []byte(alike), ModTime: clock.Add(-time.Minute)}

	// A new file changes the folder's time: the folder is listed again.
	clock = clock.Add(time.Minute)
	fsys.MapFS["w/c.md"] = &fstest.MapFile{Data: []byte(root), ModTime: clock}
	fsys.MapFS["w"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: clock}
	if opened := look("c.md added", "w/c.md", "w/root.md"); len(opened) != 1 || opened["w/c.md"] != 1 {
		t.Errorf("c.md added: opened %v, want c.md alone", opened)
	}
	clock = clock.Add(time.Minute)
	delete(fsys.MapFS, "w/root.md")
	fsys.MapFS["w"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: clock}
	look("root.md deleted", "w/c.md")

	// A file the FS holds in memory is read every time: its text changes
	// with no time to tell.
	clock = clock.Add(time.Minute)
	fsys.inMemory["w/a.md"] = true
	if opened := look("a.md open in an editor", "w/c.md"); opened["w/a.md"] != 1 || len(opened) != 1 {
		t.Errorf("a.md in memory: opened %v, want a.md alone", opened)
	}
	fsys.MapFS["w/a.md"].Data = []byte(root) // same size, same time
	look("a.md edited in memory", "w/a.md", "w/c.md")

	delete(fsys.MapFS, "w")
	for name := range fsys.MapFS {
		delete(fsys.MapFS, name)
	}
	look("the folder deleted")
}

// TestBundlePathsAsTheEngine: bundlePath refuses what the engine's
// canonicalPath refuses, with its reason, and joins what it takes to the
// root's folder (verdicts of declaredBundle, recorded under Node 20.20.2 at
// 307ca55c; the fixtures under testdata/rules/host say so).
func TestBundlePathsAsTheEngine(t *testing.T) {
	for _, c := range []struct{ path, want, why string }{
		{"./Plan.md", "wf/Plan.md", ""},
		{"sub/Plan.md", "wf/sub/Plan.md", ""},
		{"sub/@team/Plan.md", "wf/sub/@team/Plan.md", ""},
		{"sub/c:Plan.md", "wf/sub/c:Plan.md", ""},
		{"sub/a@b.md", "wf/sub/a@b.md", ""},
		{"./sub/./Plan.md", "", "walks the tree"},
		{"././Plan.md", "", "walks the tree"},
		{"../Plan.md", "", "walks the tree"},
		{"sub//Plan.md", "", "has an empty segment"},
		{"@team/Plan.md", "", "is a package specifier"},
		{"./@team/Plan.md", "", "is a package specifier"},
		{"c:Plan.md", "", "is a URL"},
		{"x:y.md", "", "is a URL"},
		{"https://x/Plan.md", "", "is a URL"},
		{"{a}.md", "", "contains glob syntax"},
		{"a].md", "", "contains glob syntax"},
		{"*.md", "", "contains glob syntax"},
		{"sub/", "", "names a directory"},
		{"", "", "is empty"},
		{"/Plan.md", "", "is absolute"},
		{`sub\Plan.md`, "", "contains a backslash"},
		{"Plan.txt", "", "is not a Markdown file"},
	} {
		got, why := bundlePath("wf", c.path)
		if got != c.want || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("bundlePath(%q) = %q, %q; want %q, %q", c.path, got, why, c.want, c.why)
		}
	}
}

// TestRunDirsReadsEachFileOnce: the resolvers of one run (a NewDirs) read
// a bundle root and a component file once, however many documents of the
// folder invoke it; resolvers without a Dirs read them for each document.
func TestRunDirsReadsEachFileOnce(t *testing.T) {
	fsys := &countFS{MapFS: fstest.MapFS{
		"w/root.md": {Data: []byte("---\nworkflow:\n  components:\n    B: b.md\n---\n<B />\n")},
		"w/b.md":    {Data: []byte("---\nprops: {}\n---\nb\n")},
		"w/A.md":    {Data: []byte("---\nprops: {}\n---\na\n")},
		"w/x.md":    {Data: []byte("<A />\n")},
		"w/y.md":    {Data: []byte("<A />\n")},
	}, opened: map[string]int{}}
	resolveIn := func(d *Dirs, doc string) {
		t.Helper()
		r := newResolver(fsys, d, doc, &Component{}, nil, nil, "")
		if res := r.resolve("A"); res.Kind != ResolveFile || res.Path != "w/A.md" || res.Component == nil {
			t.Fatalf("%s: <A> resolves to %+v, want the file w/A.md", doc, res)
		}
	}
	d := NewDirs()
	resolveIn(d, "w/x.md")
	if fsys.opened["w/A.md"] == 0 || fsys.opened["w/root.md"] == 0 {
		t.Fatalf("the first document opened %v, want w/A.md and w/root.md", fsys.opened)
	}
	fsys.opened = map[string]int{}
	resolveIn(d, "w/y.md")
	if len(fsys.opened) != 0 {
		t.Errorf("the second document of the run opened %v again", fsys.opened)
	}
	resolveIn(nil, "w/y.md")
	if fsys.opened["w/A.md"] == 0 || fsys.opened["w/root.md"] == 0 {
		t.Errorf("without a Dirs: opened %v, want w/A.md and w/root.md read again", fsys.opened)
	}
}

// TestRootsOnDisk: on disk a folder's files are read from the folder
// opened once, and a link to a root elsewhere in the workspace is still
// read as a root.
func TestRootsOnDisk(t *testing.T) {
	dir := t.TempDir()
	root := "---\nworkflow:\n  components:\n    A: a.md\n---\n"
	for name, text := range map[string]string{"w/root.md": root, "w/a.md": "---\nprops: {}\n---\n", "other/real.md": root, "w/plain.md": "# x\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../other/real.md", filepath.Join(dir, "w", "linked.md")); err != nil {
		t.Fatal(err)
	}
	got := NewDirs().roots(safefile.DirFS(dir), "w")
	if want := []string{"w/linked.md", "w/root.md"}; !slices.Equal(got, want) {
		t.Errorf("roots = %v, want %v", got, want)
	}
}

// TestRootsOfALargeFolder: a folder of hundreds of files is read on every
// CPU at once; the roots are those a read of one file after the other
// finds, in the folder's order.
func TestRootsOfALargeFolder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "w"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := "---\nworkflow:\n  components:\n    A: a.md\n---\n"
	var want []string
	for i := range 300 {
		name := fmt.Sprintf("w/%03d.md", i)
		text := "---\nprops: {}\n---\n"
		if i%37 == 5 {
			text = root
			want = append(want, name)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, fsys := range []fs.FS{safefile.DirFS(dir), os.DirFS(dir)} {
		if got := NewDirs().roots(fsys, "w"); !slices.Equal(got, want) {
			t.Errorf("%T: roots = %v, want %v", fsys, got, want)
		}
	}
}
