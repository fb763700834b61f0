package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/baton-md/baton/check"
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
	var fix check.FixOptions
	fix.Register(fl)
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
	if err := cmp.Or(out.Validate(), fix.Validate()); err != nil {
		usageError(stderr, "check", err.Error())
		return exitUsage
	}
	batchGC(os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT"))
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
	return check.Run(paths, check.Options{Registry: reg, Output: out, Fix: fix, StateDir: *stateDir, Config: explicit}, stdin, stdout, stderr)
}

// batchGCPercent is the collector's pace for one run of check: the live
// heap is a few documents in flight, and the heap budget's memory limit
// (internal/heapbudget) is what bounds the heap, so the pace is set high
// enough never to collect before the limit asks: at GOGC 300 the
// collector ran a little earlier, and the scavenger handed back pages the
// next documents faulted in again (generated corpus, 41 runs alternating:
// 114.6 -> 107.6 ms, the same peak; docs/performance.md).
const batchGCPercent = 1000

// unbudgetedGCPercent is the pace when GOMEMLIMIT in the environment turns
// the heap budget off: no limit then holds the heap to the documents in
// flight, and collecting three times less often than Go's default costs
// little memory (27 MB instead of 20 MB at peak on specrew's 3,000 files)
// and a quarter of the run's time.
const unbudgetedGCPercent = 300

// batchGC sets check's pace; GOGC set in the environment wins.
func batchGC(gogc, gomemlimit string) {
	switch {
	case gogc != "":
	case gomemlimit != "":
		debug.SetGCPercent(unbudgetedGCPercent)
	default:
		debug.SetGCPercent(batchGCPercent)
	}
}
