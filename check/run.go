// Package check is `baton check`'s driver: it expands the paths it is given
// (quoted globs, as markdownlint-cli2 expands them), walks folders for
// Markdown files as Git and the configuration's ignores say, checks the
// files on the one engine every entry point uses (engine.ForFiles),
// several at once, writes --fix's fixes atomically, and prints the results
// through package report as they arrive. cmd/baton parses its flags and
// calls Run.
package check

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/internal/heapbudget"
	"github.com/baton-md/baton/report"
)

// Exit statuses of a run.
const (
	ExitOK       = 0
	ExitFindings = 1 // findings at error severity, or a diff to show
	ExitUsage    = 2 // bad usage, an I/O error or a configuration that cannot be read
)

// Options are what a run of check is given besides its paths.
type Options struct {
	Registry *analysis.Registry
	Output   report.Options
	Fix      FixOptions
	// StateDir is --state-dir: clio-coder's state folder, looked in first
	// for the sessions of handoff documents.
	StateDir string
	// Config is the --config file, or nil for the nearest .baton.yaml
	// above each file.
	Config *config.File
}

// Run checks paths ("-" is standard input; globs expanded), printing the
// findings on stdout (or stderr, where stdout carries fixed text or a diff)
// and errors on stderr, and returns the run's exit status.
func Run(paths []string, o Options, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	paths, err := ExpandPaths(paths)
	if err != nil {
		printErr(stderr, err)
		return ExitUsage
	}
	c := newChecker(o.Registry, o.Fix, o.StateDir, o.Config)
	rep := c.newReporter(o.Output, slices.Contains(paths, "-"), stdout, stderr)
	var fixes fixCount
	emit := func(r *fileResult) {
		fixes.add(r)
		rep.file(c, r)
	}
	failed := false
	for len(paths) > 0 {
		if paths[0] == "-" {
			paths = paths[1:]
			text, err := io.ReadAll(stdin)
			if err != nil {
				fmt.Fprintf(stderr, "baton: read standard input: %v\n", err)
				failed = true
				continue
			}
			defer heapbudget.Admit(len(text))()
			if _, err := c.configFor("<stdin>"); err != nil {
				printErr(stderr, err)
				return ExitUsage
			}
			emit(c.check("<stdin>", "", string(text)))
			continue
		}
		// The paths up to standard input (or the end) are one run of files,
		// checked together: a pre-commit hook names its files one by one.
		group := paths
		if i := slices.Index(paths, "-"); i >= 0 {
			group = paths[:i]
		}
		paths = paths[len(group):]
		// Each file's configuration is read as the walk finds it, so that
		// the files before a broken one are checked (and fixed) as they
		// would be one by one, and none after it.
		var cfgErr error
		walk := func(add func(file string, err error)) {
			for _, p := range group {
				if cfgErr != nil {
					return
				}
				c.markdownFiles(p, func(f string) {
					if cfgErr != nil {
						return
					}
					if _, err := c.configFor(f); err != nil {
						cfgErr = err
						return
					}
					add(f, nil)
				}, func(err error) {
					if cfgErr == nil {
						add("", err)
					}
				})
			}
		}
		if !c.checkFiles(walk, stderr, emit) {
			failed = true
		}
		if cfgErr != nil {
			rep.end()
			printErr(stderr, cfgErr) // a broken configuration is never silently ignored
			return ExitUsage
		}
	}
	code, ok := rep.end()
	o.Output.Summarize(stderr)
	// What was fixed, as ruff ends a fixing run: in the text format only,
	// where a line of prose cannot break what a program reads.
	if o.Fix.fixing() && !o.Output.Quiet && o.Output.Format == report.FormatText {
		fmt.Fprintln(stderr, fixes.line(o.Fix.diff))
	}
	if failed || !ok {
		return ExitUsage
	}
	return code
}

// printErr prints err on w, a "baton: " line for each of its lines.
func printErr(w io.Writer, err error) {
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(w, "baton: %s\n", line)
	}
}
