package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/baton-md/baton/agenthost/hook"
)

// baton hook: the subcommands that edit and report the hosts' settings
// (hookinstall.go), and the hooks themselves, which package
// agenthost/hook runs for every host; this file parses their flags and
// calls it.

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "baton: name a hook or a subcommand (baton help hook lists them)\n\n%s", hook.Usage)
		return exitUsage
	}
	switch sub := args[0]; sub {
	case "install":
		return runHookInstall(args[1:], stdout, stderr)
	case "uninstall":
		return runHookUninstall(args[1:], stdout, stderr)
	case "status":
		return runHookStatus(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, hook.Usage)
		return exitOK
	default:
		if hook.Known(sub) {
			return runHookWithFlags(args, stdin, stdout, stderr)
		}
		fmt.Fprintf(stderr, "baton: unknown hook %q\n\n%s", sub, hook.Usage)
		return exitUsage
	}
}

// runHookWithFlags parses a hook's flags and runs it with them: a hook
// always exits 0 (it fails open), a bad flag 2.
func runHookWithFlags(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hook "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	o := hook.Flags(fl)
	// Asked for, help is printed on standard output from the help table
	// (help.go) before a hook runs; -h reaching here prints the flags on
	// standard error, which is how the table reads them.
	fl.Usage = func() {
		fmt.Fprint(stderr, hook.Usage+"\nflags:\n")
		fl.PrintDefaults()
	}
	rest, code, ok := parseCommand("hook "+args[0], fl, args[1:], stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "hook "+args[0], fmt.Sprintf("unexpected argument %q: the hook reads its input on standard input", rest[0]))
		return exitUsage
	}
	hook.Run(args, *o, stdin, stdout, stderr)
	return exitOK
}
