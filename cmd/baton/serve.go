package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

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
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return exitUsage
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: past it the collector works harder, so an editor's
		// language server returns memory instead of sitting on garbage (the
		// live heap with 1,000 open documents is about 22 MB).
		debug.SetMemoryLimit(40 << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stdin, restore := pollable(stdin)
	defer restore()
	return server.Run(ctx, stdin, stdout, server.Options{
		Registry: engine.Registry(),
		Version:  versionString(),
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	})
}
