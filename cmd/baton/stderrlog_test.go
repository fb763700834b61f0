package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// baton check's registry logs an analyzer's panic to standard error as one
// "baton: internal error …" line with the stack.
func TestInternalErrorOnStderr(t *testing.T) {
	crash := &analysis.Analyzer{Name: "crash", Kind: markdown.KindOther, Run: func(*analysis.Pass) any { panic("boom") }}
	reg, err := analysis.NewRegistry(crash, analysis.InternalErrorAnalyzer)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	res := reg.WithLogger(newLineLogger(&stderr)).Analyze(markdown.Parse("f.md", "text\n"), nil)
	if len(res.Findings) != 1 || res.Findings[0].Rule != analysis.RuleInternalError.ID {
		t.Fatalf("findings = %v", res.Findings)
	}
	got := stderr.String()
	if want := "baton: internal error in analyzer crash: boom document=f.md (stack:\ngoroutine "; !strings.HasPrefix(got, want) {
		t.Errorf("stderr = %q, want it to start with %q", got, want)
	}
	if !strings.Contains(got, "stderrlog_test.go") || !strings.HasSuffix(got, ")\n") || strings.Count(got, "baton: ") != 1 {
		t.Errorf("stderr has no stack, or not as one entry:\n%s", got)
	}
}
