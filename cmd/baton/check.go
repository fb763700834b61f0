package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/heapbudget"
	"github.com/baton-md/baton/report"
)

// checkUsage goes with the flags on standard error after a usage error;
// the whole help is the help table's (help.go: baton help check).
const checkUsage = `usage: baton check [flags] [PATH…|-]
(baton help check says what it reads, writes and exits with)

flags:`

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	stateDir := fl.String("state-dir", "", "clio-coder's state folder, looked in first for the sessions of handoff documents")
	configPath := fl.String("config", "", "the configuration file (default: the nearest .baton.yaml above each file)")
	out := report.Options{Version: versionString()}
	out.Register(fl)
	var fix fixOptions
	fix.register(fl)
	var prof profileOptions
	prof.register(fl)
	fl.Usage = func() {
		fmt.Fprintln(stderr, checkUsage)
		fl.PrintDefaults()
	}
	paths, code, ok := parseCommand("check", fl, args, stderr)
	if !ok {
		return code
	}
	if err := cmp.Or(out.Validate(), fix.validate()); err != nil {
		usageError(stderr, "check", err.Error())
		return exitUsage
	}
	batchGC(os.Getenv("GOGC"))
	heapbudget.Enable()
	stopProfiles, err := prof.start()
	defer func() {
		if err := stopProfiles(); err != nil {
			printErr(stderr, err)
		}
	}()
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if paths, err = expandPaths(paths); err != nil { // quoted globs, as markdownlint-cli2 expands them
		printErr(stderr, err)
		return exitUsage
	}
	reg := engine.Registry().WithLogger(newLineLogger(stderr))
	var explicit *config.File
	if *configPath != "" {
		f, err := engine.LoadConfig(*configPath, reg)
		if err != nil {
			printErr(stderr, err)
			return exitUsage
		}
		explicit = f
	}
	c := newChecker(reg, fix, *stateDir, explicit)
	rep := c.newReporter(out, slices.Contains(paths, "-"), stdout, stderr)
	var fixes fixCount
	emit := func(r *fileResult) {
		fixes.add(r)
		rep.file(c, r)
	}
	failed := false
	for _, p := range paths {
		if p == "-" {
			text, err := io.ReadAll(stdin)
			if err != nil {
				fmt.Fprintf(stderr, "baton: read standard input: %v\n", err)
				failed = true
				continue
			}
			defer heapbudget.Admit(len(text))()
			if _, err := c.configFor("<stdin>"); err != nil {
				printErr(stderr, err)
				return exitUsage
			}
			emit(c.check("<stdin>", "", string(text)))
			continue
		}
		files, errs := c.markdownFiles(p, stderr)
		for _, err := range errs {
			printErr(stderr, err)
			failed = true
		}
		// Every file's configuration is read first, so that the files
		// before a broken one are checked (and fixed) as they would be one
		// by one, and none after it.
		var cfgErr error
		for i, f := range files {
			if _, err := c.configFor(f); err != nil {
				files, cfgErr = files[:i], err
				break
			}
		}
		if !c.checkFiles(files, stderr, emit) {
			failed = true
		}
		if cfgErr != nil {
			rep.end()
			printErr(stderr, cfgErr) // a broken configuration is never silently ignored
			return exitUsage
		}
	}
	code, ok = rep.end()
	out.Summarize(stderr)
	// What was fixed, as ruff ends a fixing run: in the text format only,
	// where a line of prose cannot break what a program reads.
	if fix.fixing() && !out.Quiet && out.Format == report.FormatText {
		fmt.Fprintln(stderr, fixes.line(fix.diff))
	}
	if failed || !ok {
		return exitUsage
	}
	return code
}

// batchGCPercent is the collector's pace for one run of check: the live
// heap is a few documents in flight, so collecting three times less often
// costs little memory (27 MB instead of 20 MB at peak on specrew's 3,000
// files) and a quarter of the run's time (docs/performance.md). GOGC set
// in the environment wins.
const batchGCPercent = 300

func batchGC(gogc string) {
	if gogc == "" {
		debug.SetGCPercent(batchGCPercent)
	}
}
