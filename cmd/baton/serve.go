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
// and one more when that one queued finalizers: an object with a finalizer
// (a recycled text buffer, server/texts.go) outlives the collection that
// finds it unreachable, and only the next one frees it.
func returnMemoryWhenIdle(ctx context.Context, period time.Duration) {
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/finalizers/queued:finalizers"}}
	read := func() (allocs, finalizers uint64) {
		metrics.Read(samples)
		for i, v := range []*uint64{&allocs, &finalizers} {
			if samples[i].Value.Kind() == metrics.KindUint64 {
				*v = samples[i].Value.Uint64()
			}
		}
		return allocs, finalizers
	}
	last, _ := read()
	returned := true
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		switch now, _ := read(); {
		case now != last:
			last, returned = now, false
		case !returned:
			_, before := read()
			debug.FreeOSMemory()
			var after uint64
			last, after = read()
			// What this collection found to finalize is freed by the next.
			returned = after == before
		}
	}
}
