package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/baton-md/baton/agenthost/hook"
	"github.com/baton-md/baton/stoppolicy"
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
		if h, ok := hook.Lookup(sub, "-stop"); ok {
			return withHookFlags(args, stderr, func(o stoppolicy.Options) { hook.Stop(h, o, args, stdin, stdout, stderr) })
		}
		if h, ok := hook.Lookup(sub, "-prompt"); ok {
			return withHookFlags(args, stderr, func(o stoppolicy.Options) { hook.Prompt(h, o, stdin, stdout, stderr) })
		}
		if h, ok := hook.Lookup(sub, "-tool"); ok {
			return withHookFlags(args, stderr, func(o stoppolicy.Options) { hook.Tool(h, o, stdin, stdout, stderr) })
		}
		fmt.Fprintf(stderr, "baton: unknown hook %q\n\n%s", sub, hook.Usage)
		return exitUsage
	}
}

// withHookFlags parses a hook's flags and runs it with them: a hook
// always exits 0 (it fails open), a bad flag 2.
func withHookFlags(args []string, stderr io.Writer, run func(stoppolicy.Options)) int {
	var o stoppolicy.Options
	fl := flag.NewFlagSet("hook "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.IntVar(&o.MaxBlocks, "max-blocks", stoppolicy.DefaultMaxBlocks, "block at most this many times in a row in one session")
	fl.BoolVar(&o.Lint, "lint", false, "also block a message that breaks baton's rules (errors), in any project")
	fl.BoolVar(&o.RequirePacket, "require-packet", false, "demand the packet after material work in any Git project, not only a specrew one")
	fl.StringVar(&o.StateDir, "state-dir", "", "where the hook keeps its per-session state (default: the user cache folder)")
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
	run(o)
	return exitOK
}
