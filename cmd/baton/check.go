package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
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
	var out outputOptions
	out.register(fl)
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
	if err := cmp.Or(out.validate(), fix.validate()); err != nil {
		usageError(stderr, "check", err.Error())
		return exitUsage
	}
	batchGC(os.Getenv("GOGC"))
	batchMemory(os.Getenv("GOMEMLIMIT"))
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
			defer admitDocument(len(text))()
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
	out.summarize(stderr)
	// What was fixed, as ruff ends a fixing run: in the text format only,
	// where a line of prose cannot break what a program reads.
	if fix.fixing() && !out.quiet && out.format == formatText {
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

// The heap one run of check may grow to before the collector runs, when
// GOMEMLIMIT does not say: a soft limit (runtime/debug.SetMemoryLimit) of
// baseHeapLimit, plus half the heap the last collection found live, plus
// room for the documents being analysed at the moment. At the batch pace
// alone the heap of a run over small documents grew to four times what was
// live (53 MiB peak on the generated corpus of 1,000 documents); under the
// limit it stays nearer what is live (41 MiB), at the same speed. A run
// whose live heap is larger (10,000 documents: 10-25 MB) collects more
// often, not all the time (7% more CPU, 30% less memory), and a large
// document gets the heap it needs while it is analysed.
const (
	baseHeapLimit = 32 << 20 // bytes
	// heapPerByte is the room a document gets per byte of its text while
	// it is analysed: a 16 MB document of stop packets holds about 7 bytes
	// a byte at its peak (108 MB live), so with 8 the collector runs near
	// the peak rather than at four times it (GOGC=300): check's peak RSS on
	// it 263 -> 170 MiB (goldmark's own parse: 98 MiB) for 4% more time,
	// --fix's 414 -> 175 MiB.
	heapPerByte = 8
)

var heapBudget struct {
	mu       sync.Mutex
	on       bool
	inFlight int64 // bytes of the documents being analysed
	live     [1]metrics.Sample
}

// batchMemory sets the soft limit, unless GOMEMLIMIT is set.
func batchMemory(gomemlimit string) {
	heapBudget.mu.Lock()
	defer heapBudget.mu.Unlock()
	heapBudget.on = gomemlimit == ""
	heapBudget.inFlight = 0
	heapBudget.live[0].Name = "/gc/heap/live:bytes"
	if heapBudget.on {
		setHeapLimit()
	}
}

// setHeapLimit sets the limit for the documents in flight and the heap
// live now; heapBudget.mu is held.
func setHeapLimit() {
	metrics.Read(heapBudget.live[:])
	var live int64
	if v := heapBudget.live[0].Value; v.Kind() == metrics.KindUint64 {
		live = int64(min(v.Uint64(), 1<<40))
	}
	debug.SetMemoryLimit(baseHeapLimit + live/2 + heapBudget.inFlight*heapPerByte)
}

// admitDocument makes room under the soft limit for a document of n bytes
// while it is analysed; the function it returns gives the room back.
func admitDocument(n int) (release func()) {
	heapBudget.mu.Lock()
	defer heapBudget.mu.Unlock()
	if !heapBudget.on {
		return func() {}
	}
	heapBudget.inFlight += int64(n)
	setHeapLimit()
	return func() {
		heapBudget.mu.Lock()
		defer heapBudget.mu.Unlock()
		if heapBudget.on {
			heapBudget.inFlight -= int64(n)
			setHeapLimit()
		}
	}
}
