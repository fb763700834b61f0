package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// main turns heap sampling off; check's --memprofile turns it back on, so
// that its profile holds samples of the run. Without the flag a run adds
// no sample.
func TestHeapSamplingOnlyWhenAsked(t *testing.T) {
	was := runtime.MemProfileRate
	t.Cleanup(func() { runtime.MemProfileRate = was })

	dir := t.TempDir()
	doc := "# Notes\n\n" + strings.Repeat("Some prose about the work, and more of it.\n\n", 2000)
	for _, name := range []string{"a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md", "h.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(args ...string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(append([]string{"check"}, append(args, dir)...), nil, &out, &errOut); code != exitOK {
			t.Fatalf("check %v: exit %d, stderr %s", args, code, errOut.String())
		}
	}

	runtime.MemProfileRate = 0 // as main sets it
	// Each CPU's allocator samples once more when its count to the next
	// sample, drawn at the old rate, runs out: a first run spends them.
	check()
	before := checkSamples()
	check()
	if runtime.MemProfileRate != 0 {
		t.Fatalf("check without --memprofile: heap sampling rate %d, want 0", runtime.MemProfileRate)
	}
	if n := checkSamples(); n != before {
		t.Errorf("check without --memprofile: %d heap samples of check's code, want none", n-before)
	}

	prof := filepath.Join(t.TempDir(), "heap.prof")
	check("--memprofile", prof)
	if runtime.MemProfileRate != defaultMemProfileRate {
		t.Errorf("check --memprofile: heap sampling rate %d, want %d", runtime.MemProfileRate, defaultMemProfileRate)
	}
	if n := checkSamples(); n == before {
		t.Error("check --memprofile: no heap sample of check's code")
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gzip.NewReader(bytes.NewReader(data)); err != nil {
		t.Errorf("heap profile is not a gzip-compressed profile: %v", err)
	}
}

// checkSamples counts the heap samples so far whose call stack passes
// through package check (the runtime publishes a sample two collections
// after it is taken).
func checkSamples() int64 {
	runtime.GC()
	runtime.GC()
	var records []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	for {
		records = make([]runtime.MemProfileRecord, n+16)
		var ok bool
		if n, ok = runtime.MemProfile(records, true); ok {
			records = records[:n]
			break
		}
	}
	var total int64
	for _, r := range records {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, "github.com/baton-md/baton/check.") {
				total += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	return total
}
