package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/baton-md/baton/analysis"
)

// checker lints documents for `baton check`.
type checker struct {
	reg *analysis.Registry
	cfg *analysis.Config // nil: the rules' defaults
	env analysis.Env
	fix fixOptions
}

func (c *checker) analyze(name, text string) *analysis.Result {
	return c.reg.AnalyzeEnv(analysis.Parse(name, text), c.cfg, c.env)
}

// check analyses one document; with --fix or --diff, the text its safe fixes
// make of it.
func (c *checker) check(name, path, text string) *fileResult {
	if c.fix.fixing() {
		return newResult(name, path, text, applySafeFixes(func(t string) *analysis.Result { return c.analyze(name, t) }, text))
	}
	return newResult(name, path, text, c.analyze(name, text))
}

// report prints what check found: the fixed standard input (--fix) or the
// diff (--diff) on stdout, and the findings in the chosen format, on stdout
// unless stdout carries text. It returns the exit status the findings and
// fixes call for, and false when printing failed.
func (c *checker) report(results []*fileResult, out outputOptions, stdout, stderr io.Writer) (code int, ok bool) {
	code = exitOK
	findingsTo := stdout
	var text bytes.Buffer // what stdout carries instead of the findings
	for _, r := range results {
		switch {
		case c.fix.diff:
			findingsTo = stderr
			if d := unifiedDiff(r.name, r.original, r.doc.Text); d != nil {
				text.Write(d)
				code = exitFindings
			}
		case c.fix.fix && r.path == "":
			findingsTo = stderr
			text.WriteString(r.doc.Text)
		}
		if slices.ContainsFunc(r.findings, func(f analysis.Finding) bool { return f.Severity == analysis.Error }) {
			code = exitFindings
		}
	}
	if _, err := stdout.Write(text.Bytes()); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return code, false
	}
	if err := writeFindings(findingsTo, results, c.reg, out); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return code, false
	}
	return code, true
}
