// Command baton lints the Markdown that AI coding agents and their
// operators hand each other, and serves the same checks to editors over the
// Language Server Protocol.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1 // findings at error severity
	exitUsage    = 2 // bad usage or an I/O error
)

const usage = `usage: baton <command> [arguments]

commands:
  check [PATH…|-]   lint files, folders (every *.md, recursively) or standard input
  serve             run the language server over standard input and output
  classify [FILE|-] classify a stop message as continue, intermediate or real
                    (JSON: the outcome, or every possible one, and the inputs)
  hook claude-stop  a Claude Code Stop hook: blocks the stops specrew's stop provider blocks
                    (a pending boundary without its verdict marker, material work without the packet)
  hook claude-prompt  a Claude Code UserPromptSubmit hook: takes the turn's baseline
  hook claude-tool  a Claude Code PostToolUse hook: records which session made a change
  ledger ID|FOLDER  print a clio-coder session's read ledger and decision board
  explain [ID]      print the documentation of a rule (every rule ID without one;
                    --markdown prints docs/rules.md)
  version           print baton's version
`

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
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
	case "explain":
		return runExplain(rest, stdout, stderr)
	case "version", "--version":
		if len(rest) > 0 {
			fmt.Fprintln(stderr, "usage: baton version")
			return exitUsage
		}
		printVersion(stdout)
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "baton: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
	}
}

// printErr writes an error to standard error in baton's one form: each
// line "baton: MESSAGE", so an error of several lines (a configuration with
// several problems) reads as several errors, none as a bare line.
func printErr(w io.Writer, err error) {
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(w, "baton: %s\n", line)
	}
}
