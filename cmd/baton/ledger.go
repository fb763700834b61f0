package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff/session"
)

func runLedger(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("ledger", flag.ContinueOnError)
	fl.SetOutput(stderr)
	asJSON := fl.Bool("json", false, "print JSON")
	stateDir := fl.String("state-dir", "", "clio-coder's state folder, looked in first")
	// Asked for, help is printed on standard output from the help table
	// (help.go); -h reaching here prints the flags on standard error.
	fl.Usage = func() {
		writeUsageLine(stderr, "ledger")
		fmt.Fprintln(stderr, "\nflags:")
		fl.PrintDefaults()
	}
	rest, code, ok := parseCommand("ledger", fl, args, stderr)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		msg := "name one session: its ID, or its folder"
		if len(rest) > 1 {
			msg = fmt.Sprintf("one session at a time (%d named)", len(rest))
		}
		usageError(stderr, "ledger", msg)
		return exitUsage
	}
	arg := rest[0]
	dir := arg
	if fi, err := os.Stat(arg); err != nil || !fi.IsDir() {
		var looked []string
		dir, looked, err = session.Find(engine.StateDirs(*stateDir), arg)
		if errors.Is(err, session.ErrNotFound) {
			// Said once: which session, where it was looked for, then
			// any folder that could not be read while looking.
			lines := strings.Split(err.Error(), "\n")
			lines[0] = fmt.Sprintf("no session %s (looked in %s)", arg, strings.Join(looked, ", "))
			err = errors.New(strings.Join(lines, "\n"))
		}
		if err != nil {
			printErr(stderr, err)
			return exitUsage
		}
	}
	l, err := session.NewStore().Ledger(dir)
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	if *asJSON {
		if err := session.WriteLedgerJSON(stdout, l); err != nil {
			printErr(stderr, err)
			return exitUsage
		}
		return exitOK
	}
	for _, w := range l.Warnings {
		fmt.Fprintf(stderr, "baton: session %s: warning: %s\n", l.SessionID, w)
	}
	session.WriteLedger(stdout, l)
	return exitOK
}
