package check

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/baton-md/baton/bench"
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
	dir := t.TempDir()
	doc := "# Notes\n\n" + strings.Repeat("A line of plain notes, none of baton's kinds.\n", 40)
	for i := range 300 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%03d.md", i)), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
