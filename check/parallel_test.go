package check

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/engine"
	"github.com/google/go-cmp/cmp"
)

// TestCheckSeveralAtOnce: `baton check` of a folder gives the same output,
// byte for byte and in the same order, whether it analyses one file at a
// time or several at once, in every format, with unreadable files among
// them (reported on stderr in order) and handoff documents reading a
// shared session store.
func TestCheckSeveralAtOnce(t *testing.T) {
	dir := t.TempDir()
	if err := bench.Generate(120, 5).Write(dir); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 { // permissions do not stop the superuser
		for _, name := range []string{"packets/unreadable-1.md", "workflows/unreadable-2.md"} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.WriteFile(p, []byte("# x\n"), 0o000); err != nil {
				t.Fatal(err)
			}
		}
	}
	state := filepath.Join(dir, bench.StateDir)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, format := range []string{"text", "json", "sarif"} {
		args := []string{"check", "--state-dir", state, "--format", format, dir}
		var outs [2]struct {
			stdout, stderr bytes.Buffer
			code           int
		}
		for i, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			outs[i].code = run(args, nil, &outs[i].stdout, &outs[i].stderr)
		}
		if outs[0].stdout.Len() == 0 {
			t.Fatalf("%s: no output", format)
		}
		if diff := cmp.Diff(outs[0].stdout.String(), outs[1].stdout.String()); diff != "" {
			t.Errorf("%s: stdout one at a time (-) and several at once (+) differ:\n%s", format, diff)
		}
		if diff := cmp.Diff(outs[0].stderr.String(), outs[1].stderr.String()); diff != "" {
			t.Errorf("%s: stderr one at a time (-) and several at once (+) differ:\n%s", format, diff)
		}
		if outs[0].code != outs[1].code {
			t.Errorf("%s: exit status %d one at a time, %d several at once", format, outs[0].code, outs[1].code)
		}
	}
}

// TestCheckHoldsABoundedWindow: the workers run ahead of the file being
// reported by at most the window, however many files there are, so memory
// does not grow with the run; and every file is reported once, in order.
func TestCheckHoldsABoundedWindow(t *testing.T) {
	dir := t.TempDir()
	if err := bench.Generate(300, 9).Write(dir); err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	largest := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			largest = max(largest, int(fi.Size()))
		}
		return nil
	})
	most, window, emitted, mostHeld := 0, 0, 0, 0
	aheadHook = func(ahead, w, held int) {
		most, window, emitted, mostHeld = max(most, ahead), w, emitted+1, max(mostHeld, held)
	}
	defer func() { aheadHook = nil }()
	var stdout, stderr bytes.Buffer
	run([]string{"--state-dir", filepath.Join(dir, bench.StateDir), dir}, nil, &stdout, &stderr)
	if emitted < 300 {
		t.Fatalf("%d files reported, want at least 300 (stderr: %s)", emitted, stderr.String())
	}
	if window == 0 || window >= 300 || most > window {
		t.Errorf("the workers ran %d files ahead of the report, window %d", most, window)
	}
	if most < 2 {
		t.Errorf("the workers never ran ahead (%d): the files were analysed one at a time", most)
	}
	// Each worker may finish one file past the bound before it stops.
	if limit := heldBytes + 4*largest; mostHeld > limit {
		t.Errorf("%d bytes of text analysed and waiting to be reported, past %d", mostHeld, limit)
	}
}

// TestCheckHoldsBoundedBytes: however many files the window allows, the
// text analysed and waiting to be reported stays within heldBytes and one
// file a worker.
func TestCheckHoldsBoundedBytes(t *testing.T) {
	doc := "# Notes\n\n" + strings.Repeat("A line of plain notes, none of baton's kinds.\n", 40)
	dir, _ := writeNotes(t, 300, doc)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(b int) { heldBytes = b }(heldBytes)
	heldBytes = 4 * len(doc)
	mostHeld, emitted := 0, 0
	aheadHook = func(_, _, held int) { mostHeld, emitted = max(mostHeld, held), emitted+1 }
	defer func() { aheadHook = nil }()
	var stdout, stderr bytes.Buffer
	run([]string{dir}, nil, &stdout, &stderr)
	if emitted != 300 {
		t.Fatalf("%d files reported, want 300 (stderr: %s)", emitted, stderr.String())
	}
	if limit := heldBytes + 4*len(doc); mostHeld > limit {
		t.Errorf("%d bytes analysed and waiting to be reported, past %d (%d files)", mostHeld, limit, mostHeld/len(doc))
	}
}

// TestCheckRunsPastALongFile: while one worker analyses a long file, the
// others go on with the files after it (up to the window), rather than
// waiting for it to be reported: the generated corpus's 900 KB stop packet
// took its worker 12 ms, and the other stopped after eight files.
func TestCheckRunsPastALongFile(t *testing.T) {
	dir := t.TempDir()
	if err := bench.Generate(120, 9).Write(dir); err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func(b int) { heldBytes = b }(heldBytes)
	heldBytes = 1 << 30 // the window alone (TestCheckHoldsBoundedBytes tests the bytes)
	var started atomic.Int32
	const past = 24 // files the other worker analyses while the first is held
	timedOut, got := false, int32(0)
	startHook = func(i int) {
		started.Add(1)
		if i != 0 {
			return
		}
		for deadline := time.Now().Add(10 * time.Second); started.Load() <= past; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				timedOut, got = true, started.Load()-1
				return
			}
		}
	}
	defer func() { startHook = nil }()
	var stdout, stderr bytes.Buffer
	run([]string{"--state-dir", filepath.Join(dir, bench.StateDir), dir}, nil, &stdout, &stderr)
	if timedOut {
		t.Errorf("while the first file was analysed, the other worker started only %d files (want more than %d)", got, past)
	}
}

// TestWalkSortedIsSorted: the walk gives a tree's paths in the order a sort
// of them all gives, names that sort around "/" included ("a-b.md" before
// "a/x.md", "a/x.md" before "a0.md"), every path once.
func TestWalkSortedIsSorted(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.md", "a-b.md", "a/x.md", "a/-.md", "a/b/c.md", "a0.md", "a!/z.md", "a.b/y.md", "ab/q.md", "A/up.md", "_/u.md", "a-/v.md"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var walked, want []string
	if err := walkSorted(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			walked = append(walked, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			want = append(want, p)
		}
		return nil
	})
	slices.Sort(want)
	if diff := cmp.Diff(want, walked); diff != "" {
		t.Errorf("walk order (-sorted +walked):\n%s", diff)
	}
}

// TestCheckAnalysesWhileWalking: the first files are analysed while the walk
// is still going, not once it has ended; their report keeps the walk's
// order.
func TestCheckAnalysesWhileWalking(t *testing.T) {
	_, files := writeNotes(t, 20, "# Notes\n\nNone of baton's kinds.\n")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var started atomic.Int32
	startHook = func(int) { started.Add(1) }
	defer func() { startHook = nil }()
	waited := false
	walk := func(add func(string, error)) {
		add(files[0], nil)
		for deadline := time.Now().Add(10 * time.Second); started.Load() == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				waited = true
				break
			}
		}
		for _, f := range files[1:] {
			add(f, nil)
		}
	}
	c := newChecker(engine.Registry(), FixOptions{}, "", nil)
	var got []string
	if !c.checkFiles(walk, &bytes.Buffer{}, func(r *fileResult) { got = append(got, r.path) }) {
		t.Fatal("the check failed")
	}
	if waited {
		t.Error("no file was analysed before the walk ended")
	}
	if diff := cmp.Diff(files, got); diff != "" {
		t.Errorf("report order (-walked +reported):\n%s", diff)
	}
}

// TestCheckWalkErrorsInPlace: what the walk cannot read is reported in its
// place among the files, whether or not a worker has reached it, and the
// check says it failed.
func TestCheckWalkErrorsInPlace(t *testing.T) {
	_, files := writeNotes(t, 3, "# Notes\n")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for range 50 {
		walk := func(add func(string, error)) {
			add("", errors.New("first unreadable"))
			add(files[0], nil)
			add("", errors.New("second unreadable"))
			add(files[1], nil)
			add(files[2], nil)
			add("", errors.New("last unreadable"))
		}
		c := newChecker(engine.Registry(), FixOptions{}, "", nil)
		var got []string
		var stderr bytes.Buffer
		ok := c.checkFiles(walk, &stderr, func(r *fileResult) { got = append(got, filepath.Base(r.path)) })
		if ok {
			t.Fatal("the check did not fail")
		}
		if want := []string{"n000.md", "n001.md", "n002.md"}; !slices.Equal(got, want) {
			t.Fatalf("reported %v, want %v", got, want)
		}
		if want := "baton: first unreadable\nbaton: second unreadable\nbaton: last unreadable\n"; stderr.String() != want {
			t.Fatalf("stderr %q, want %q", stderr.String(), want)
		}
	}
}

// TestCheckSlowWalk: when the report reaches files before a worker has
// taken them (a walk slower than the analyses, analysed text held to one
// file, as long files under --diff hold it), every file is reported, and
// the workers never stop for a window that nothing fills: the report counts
// a file off the window once, whoever takes it.
func TestCheckSlowWalk(t *testing.T) {
	_, files := writeNotes(t, 200, "# Notes\n\nNone of baton's kinds.\n")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func(b int) { heldBytes = b }(heldBytes)
	heldBytes = 1
	mostAhead := 0
	aheadHook = func(ahead, _, _ int) { mostAhead = max(mostAhead, ahead) }
	var counted [2]int
	endHook = func(ahead, held int) { counted = [2]int{ahead, held} }
	defer func() { aheadHook, endHook = nil, nil }()
	walk := func(add func(string, error)) {
		for i, f := range files {
			if i%50 == 25 {
				add("", fmt.Errorf("unreadable %d", i))
			}
			add(f, nil)
			time.Sleep(100 * time.Microsecond)
		}
	}
	c := newChecker(engine.Registry(), FixOptions{}, "", nil)
	reported := make(chan int, 1)
	go func() {
		n := 0
		c.checkFiles(walk, io.Discard, func(*fileResult) { n++ })
		reported <- n
	}()
	select {
	case n := <-reported:
		if n != len(files) {
			t.Errorf("%d files reported, want %d", n, len(files))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the check stopped: the workers wait for a window nothing fills")
	}
	if window := aheadFiles * 2; mostAhead > window {
		t.Errorf("%d files ahead of the report, past the window of %d", mostAhead, window)
	}
	if counted != [2]int{} {
		t.Errorf("once every file was reported, the window still counted %d files and %d bytes", counted[0], counted[1])
	}
}

// writeNotes writes n files of text, n000.md on, into a new folder, and
// returns it and the files in order.
func writeNotes(t *testing.T, n int, text string) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	for i := range n {
		f := filepath.Join(dir, fmt.Sprintf("n%03d.md", i))
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return dir, files
}

// TestCheckNamedFilesAtOnce: files named one by one on the command line (as
// a pre-commit hook names them) are analysed several at once, and reported
// in the order they were named.
func TestCheckNamedFilesAtOnce(t *testing.T) {
	_, files := writeNotes(t, 40, "# Notes\n\nNone of baton's kinds.\n")
	slices.Reverse(files)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	most := 0
	aheadHook = func(ahead, _, _ int) { most = max(most, ahead) }
	defer func() { aheadHook = nil }()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"--format", "json"}, files...), nil, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if most < 2 {
		t.Errorf("the named files were analysed one at a time (at most %d ahead of the report)", most)
	}
	var got []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if _, p, ok := strings.Cut(line, `"path": "`); ok {
			got = append(got, strings.TrimSuffix(p, `",`))
		}
	}
	if diff := cmp.Diff(files, got); diff != "" {
		t.Errorf("report order (-named +reported):\n%s", diff)
	}
}
