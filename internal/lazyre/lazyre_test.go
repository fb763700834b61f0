package lazyre

import (
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestCompiledOnFirstUse: a pattern is compiled when first used, once,
// however many goroutines ask; it matches as regexp's own does.
func TestCompiledOnFirstUse(t *testing.T) {
	r := New(`(?i)\bstop(ped)?\b`)
	if r.re != nil {
		t.Fatal("compiled when made")
	}
	var wg sync.WaitGroup
	res := make([]*regexp.Regexp, 8)
	for i := range res {
		wg.Go(func() { res[i] = r.Re() })
	}
	wg.Wait()
	for _, re := range res {
		if re != res[0] {
			t.Fatal("compiled more than once")
		}
	}
	if !r.MatchString("I STOPPED here") || r.MatchString("nonstop") {
		t.Error("matches differ from the pattern's")
	}
	if got := r.FindAllStringSubmatchIndex("stop, stopped", -1); len(got) != 2 || got[1][2] != 10 {
		t.Errorf("FindAllStringSubmatchIndex = %v", got)
	}
	if Of(regexp.MustCompile(`x`)).String() != "x" {
		t.Error("Of lost its pattern")
	}
}

// TestCompileAllFindsAnInvalidPattern: CompileAll reports a pattern that
// would panic at its first use.
func TestCompileAllFindsAnInvalidPattern(t *testing.T) {
	n := Count()
	if err := CompileAll(); err != nil {
		t.Fatalf("before: %v", err)
	}
	New(`(unclosed`)
	if Count() != n+1 {
		t.Errorf("Count = %d, want %d", Count(), n+1)
	}
	if err := CompileAll(); err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Errorf("CompileAll = %v, want the invalid pattern's error", err)
	}
}
