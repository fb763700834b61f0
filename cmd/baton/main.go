// Command baton lints the Markdown that AI coding agents and their
// operators hand each other, and serves the same checks to editors over the
// Language Server Protocol.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1 // findings at error severity
	exitUsage    = 2 // bad usage or an I/O error
)

func main() {
	// No heap profile is taken unless check's --memprofile asks for one
	// (profileOptions.start): sampling records a call stack for every
	// 512 KB allocated, in memory of its own faulted in as it grows, 1% of
	// a check run's time.
	runtime.MemProfileRate = 0
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr)
		return exitUsage
	}
	// --help, -h and -help print the command's help on standard output,
	// whatever the command, before it parses anything.
	if c, rest := lookup(args); c != nil && slices.ContainsFunc(rest, isHelpFlag) && wantsHelp(rest, c.flags()) {
		writeHelp(stdout, c)
		return exitOK
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "check":
		return runCheck(rest, stdin, stdout, stderr)
	case "serve":
		return runServe(rest, stdin, stdout, stderr)
	case "classify":
		return runClassify(rest, stdin, stdout, stderr)
	case "hook":
		return runHook(rest, stdin, stdout, stderr)
	case "ledger":
		return runLedger(rest, stdout, stderr)
	case "mcp":
		return runMCP(rest, stdin, stdout, stderr)
	case "audit":
		return runAudit(rest, stdout, stderr)
	case "explain":
		return runExplain(rest, stdout, stderr)
	case "config":
		return runConfig(rest, stdout, stderr)
	case "completion":
		return runCompletion(rest, stdout, stderr)
	case "man":
		return runMan(rest, stdout, stderr)
	case "version", "--version", "-version", "-v":
		if len(rest) > 0 {
			usageError(stderr, "version", fmt.Sprintf("unexpected argument %q", rest[0]))
			return exitUsage
		}
		printVersion(stdout)
		return exitOK
	case "help", "-h", "-help", "--help":
		return runHelp(rest, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "baton: unknown command %q\n\n", cmd)
		writeUsage(stderr)
		return exitUsage
	}
}

// isHelpFlag reports whether an argument is -h, -help or --help.
func isHelpFlag(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "--h" }

// printErr writes an error to standard error in baton's one form: each
// line "baton: MESSAGE", so an error of several lines (a configuration with
// several problems) reads as several errors, none as a bare line.
func printErr(w io.Writer, err error) {
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(w, "baton: %s\n", line)
	}
}
