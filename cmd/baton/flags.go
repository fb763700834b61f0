package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// parseCommand parses the flags of the command named name (as in the help
// table: "check", "hook install") wherever they stand among its
// arguments, and returns the arguments that are not flags, in order.
//
// Flags may come before, between and after the arguments, as ruff,
// golangci-lint and markdownlint-cli2 take them: `baton check FILE
// --format json` is `baton check --format json FILE`. An argument "--"
// ends the flags: every argument after it is an argument, even one that
// starts with a dash; "-" alone is an argument (standard input).
//
// This is the flag package's own parser, run again after each argument
// that is not a flag. baton keeps the flag package, rather than taking a
// parser with interspersed flags built in (spf13/pflag), because pflag
// reads -format as the six one-letter flags -f -o -r -m -a -t and would break
// every command line already written with one dash, which the flag package
// accepts as it does two.
//
// A bad flag is an error in baton's one form, "baton: MESSAGE", followed by
// the command's usage line (exit 2). -h, -help and --help print the flags
// through the FlagSet's Usage, which is how the help table reads them
// (help.go: command.flags), and return exit 0 with ok false.
func parseCommand(name string, fl *flag.FlagSet, args []string, stderr io.Writer) (rest []string, code int, ok bool) {
	usage, out := fl.Usage, fl.Output()
	fl.Usage = func() {}
	fl.SetOutput(io.Discard)
	rest, err := interspersed(fl, args)
	fl.Usage = usage
	fl.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if fl.Usage != nil {
			fl.Usage()
		}
		return nil, exitOK, false
	case err != nil:
		usageError(stderr, name, err.Error())
		return nil, exitUsage, false
	}
	return rest, 0, true
}

// interspersed parses flags before, between and after the arguments,
// and returns the arguments; after "--" every argument is one.
func interspersed(fl *flag.FlagSet, args []string) ([]string, error) {
	rest := []string{}
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		left := fl.Args()
		if len(left) == 0 {
			return rest, nil
		}
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// usageError writes a usage error in baton's one form, then the command's
// usage line and where its help is.
func usageError(stderr io.Writer, name, msg string) {
	fmt.Fprintf(stderr, "baton: %s\n", msg)
	writeUsageLine(stderr, name)
}

// writeUsageLine writes the command's synopsis, from the help table, and
// the command that prints its help.
func writeUsageLine(w io.Writer, name string) {
	if c := commandNamed(name); c != nil {
		fmt.Fprintf(w, "usage: %s\n(baton help %s says more)\n", c.synopsis(), c.Name)
	}
}

// helpTable is commands, set once they are made: the commands' own code
// reaches the table through it (commands refers to the commands).
var helpTable []*command

func init() { helpTable = commands }

// commandNamed is the help table's entry for a command name, or nil.
func commandNamed(name string) *command {
	for _, c := range helpTable {
		if c.Name == name {
			return c
		}
	}
	return nil
}
