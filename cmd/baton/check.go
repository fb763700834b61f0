package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/suite"
	"github.com/baton-md/baton/handoff"
)

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	stateDir := fl.String("state-dir", "", "clio-coder's state folder, looked in first for the sessions of handoff documents")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: baton check [--state-dir DIR] [PATH…|-]\n\nLints files, folders (every *.md below them) or, with -, standard input.\nHandoff documents are checked against their session's read ledger, found in\n--state-dir, then in clio-coder's documented state folders.\nPrints path:line:column: severity rule-id: message (1-based; the column counts bytes).\nExit status: 0 no error findings, 1 error findings, 2 usage or I/O error.")
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	paths := fl.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	reg := suite.Registry()
	env := analysis.Env{handoff.EnvLedger: sessionResolver(*stateDir)}
	code := exitOK
	failed := false
	for _, p := range paths {
		var files []string
		if p == "-" {
			text, err := io.ReadAll(stdin)
			if err != nil {
				fmt.Fprintf(stderr, "baton: read standard input: %v\n", err)
				failed = true
				continue
			}
			if lint(reg, env, "<stdin>", string(text), stdout) {
				code = exitFindings
			}
			continue
		}
		files, errs := markdownFiles(p)
		for _, err := range errs {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			failed = true
		}
		for _, f := range files {
			text, err := os.ReadFile(f)
			if err != nil {
				fmt.Fprintf(stderr, "baton: %v\n", err)
				failed = true
				continue
			}
			if lint(reg, env, f, string(text), stdout) {
				code = exitFindings
			}
		}
	}
	if failed {
		return exitUsage
	}
	return code
}

// lint prints the findings for one document and reports whether any is an
// error.
func lint(reg *analysis.Registry, env analysis.Env, name, text string, w io.Writer) (errs bool) {
	doc := analysis.Parse(name, text)
	for _, f := range reg.AnalyzeEnv(doc, nil, env).Findings {
		p := doc.Lines.Position(f.Span.Start, analysis.UTF8)
		fmt.Fprintf(w, "%s:%d:%d: %s %s: %s\n", name, p.Line+1, p.Character+1, f.Severity, f.Rule, f.Message)
		errs = errs || f.Severity == analysis.Error
	}
	return errs
}

// markdownFiles expands a path: a file is itself, a folder every *.md file
// below it (hidden folders and node_modules skipped), sorted. A folder that
// cannot be read is reported and the walk goes on.
func markdownFiles(path string) (files []string, errs []error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, []error{err}
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil // WalkDir skips what it could not read
		}
		if d.IsDir() && p != path && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".md") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return files, errs
}
