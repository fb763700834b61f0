package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
	"time"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/server"
)

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	verbose := fl.Bool("v", false, "log debug messages to standard error")
	// What editors' language clients add (vscode-languageclient adds
	// --stdio for a stdio transport, and --clientProcessId=N when it
	// starts a Node module): standard input and output is baton's only
	// transport, so both are accepted and change nothing.
	fl.Bool("stdio", false, "talk LSP over standard input and output (the default and only transport)")
	fl.Int("clientProcessId", 0, "the editor's process ID (accepted and ignored)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: baton serve [-v] [--stdio]\n\nRuns the language server over standard input and output; logs go to standard error.")
		fl.PrintDefaults()
	}
	rest, code, ok := parseCommand("serve", fl, args, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "serve", fmt.Sprintf("unexpected argument %q: the server talks over standard input and output", rest[0]))
		return exitUsage
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	// No heap profile is ever taken of a server: its sampling records kept
	// 1.4 MB of call stacks beside 1,000 open documents.
	runtime.MemProfileRate = 0
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The collector runs at its default pace while the editor is busy (a
	// tight memory limit made every edit beside 1,000 open documents pay for
	// a collection: 45-52 ms instead of 15-17 ms for a 1 MB packet), and
	// the heap grown meanwhile is returned once the server is idle.
	go returnMemoryWhenIdle(ctx, idleAfter)
	stdin, restore := pollable(stdin)
	defer restore()
	return server.Run(ctx, stdin, stdout, server.Options{
		Registry: engine.Registry(),
		Version:  versionString(),
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	})
}

// idleAfter is how long the server must have allocated nothing before the
// memory it no longer uses is returned to the system.
const idleAfter = time.Second

// returnMemoryWhenIdle returns the freed heap to the system once the
// process has allocated nothing for one period after allocating: a burst of
// work (opening 1,000 documents, a run of edits) grows the heap to about
// twice what is live, and an idle editor's language server should hold
// only what is live. One collection per burst, when nothing waits on it,
// and more while finalizers are pending: an object with a finalizer (a
// recycled text buffer, server/texts.go) outlives the collection that
// finds it unreachable, and only a collection after its finalizer has run
// frees it; on a loaded machine the finalizers may run a period late.
func returnMemoryWhenIdle(ctx context.Context, period time.Duration) {
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/finalizers/queued:finalizers"}, {Name: "/gc/finalizers/executed:finalizers"}}
	// read gives the bytes allocated so far, the finalizers queued so far
	// and those queued that have not run yet.
	read := func() (allocs, queued, pending uint64) {
		metrics.Read(samples)
		var v [3]uint64
		for i := range samples {
			if samples[i].Value.Kind() == metrics.KindUint64 {
				v[i] = samples[i].Value.Uint64()
			}
		}
		return v[0], v[1], v[1] - min(v[2], v[1])
	}
	// maxRounds bounds the collections of one idle spell that wait on
	// finalizers: one that never runs does not keep the collector busy.
	const maxRounds = 8
	last, _, _ := read()
	returned, rounds := true, 0
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		switch now, _, _ := read(); {
		case now != last:
			last, returned, rounds = now, false, 0
		case !returned:
			_, before, _ := read()
			debug.FreeOSMemory()
			rounds++
			var after, pending uint64
			last, after, pending = read()
			// What this collection found to finalize (after > before), or
			// what waits for its finalizer yet, the next one frees.
			returned = after == before && pending == 0 || rounds >= maxRounds
		}
	}
}
