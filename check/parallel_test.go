package check

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

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
	most, window, emitted := 0, 0, 0
	aheadHook = func(ahead, w int) { most, window, emitted = max(most, ahead), w, emitted+1 }
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
}
