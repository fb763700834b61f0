package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/agenthost/setup"
	"github.com/baton-md/baton/internal/hostsettings"
)

// baton hook install | uninstall | status and baton mcp install |
// uninstall | status: their flags. What they do is package
// agenthost/setup's; what each reads and writes is its entry in the help
// table (help.go).

const hookInstallUsage = `usage: baton hook install --host HOST [--project | --user] [--lint=false] [--require-packet] [--max-blocks N] [--dry-run] [--dir DIR]
(baton help hook install says what it reads, writes and exits with)
`

const hookUninstallUsage = `usage: baton hook uninstall --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help hook uninstall says what it reads, writes and exits with)
`

const hookStatusUsage = `usage: baton hook status [--json] [--dir DIR]
(baton help hook status says what it reads, writes and exits with)
`

// parseFlags parses a subcommand's flags, wherever they stand: --help
// prints its usage on standard output (exit 0), a bad flag is an error
// with its usage line on standard error.
func parseFlags(fl *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (int, bool) {
	fl.Usage = func() { fmt.Fprint(stdout, usage) }
	rest, code, ok := parseCommand(fl.Name(), fl, args, stderr)
	if !ok {
		return code, false
	}
	if len(rest) > 0 {
		usageError(stderr, fl.Name(), fmt.Sprintf("unexpected argument %q", rest[0]))
		return exitUsage, false
	}
	return 0, true
}

func parseHookEdit(name string, args []string, usage string, stdout, stderr io.Writer) (setup.Edit, *hostsettings.Host, hostsettings.Options, int, bool) {
	fl := flag.NewFlagSet("hook "+name, flag.ContinueOnError)
	var target setup.Target
	target.Define(fl)
	var opts hostsettings.Options
	if name == "install" {
		// --lint by default: without it the stop hook blocks nothing
		// outside a specrew project, and a packet is the contract install
		// promises. It never blocks a message that is not a packet.
		fl.BoolVar(&opts.Lint, "lint", true, "")
		fl.BoolVar(&opts.RequirePacket, "require-packet", false, "")
		fl.IntVar(&opts.MaxBlocks, "max-blocks", 0, "")
	}
	if code, ok := parseFlags(fl, args, usage, stdout, stderr); !ok {
		return setup.Edit{}, nil, opts, code, false
	}
	if opts.MaxBlocks < 0 {
		fmt.Fprintln(stderr, "baton: --max-blocks must be 1 or more")
		return setup.Edit{}, nil, opts, exitUsage, false
	}
	e, ok := target.Resolve("hook "+name, hosts.SettingsIDs(), stderr)
	if !ok {
		return e, nil, opts, exitUsage, false
	}
	return e, hosts.SettingsOf(target.Host), opts, 0, true
}

func runHookInstall(args []string, stdout, stderr io.Writer) int {
	e, h, opts, code, ok := parseHookEdit("install", args, hookInstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	works := func(args []string) bool {
		return runHook(append(args, "--help"), strings.NewReader(""), io.Discard, io.Discard) == exitOK
	}
	return setup.HookInstall(e, h, opts, works, stdout, stderr)
}

func runHookUninstall(args []string, stdout, stderr io.Writer) int {
	e, h, _, code, ok := parseHookEdit("uninstall", args, hookUninstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	return setup.HookUninstall(e, h, stdout, stderr)
}

// parseStatus reads the flags hook status and mcp status share: --json
// and --dir; and gives the environment.
func parseStatus(name string, args []string, usage string, stdout, stderr io.Writer) (env hostsettings.Env, asJSON bool, code int, ok bool) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.BoolVar(&asJSON, "json", false, "")
	dir := fl.String("dir", ".", "")
	if code, ok := parseFlags(fl, args, usage, stdout, stderr); !ok {
		return env, false, code, false
	}
	env, err := setup.ProjectEnv(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return env, false, exitUsage, false
	}
	return env, asJSON, 0, true
}

func runHookStatus(args []string, stdout, stderr io.Writer) int {
	env, asJSON, code, ok := parseStatus("hook status", args, hookStatusUsage, stdout, stderr)
	if !ok {
		return code
	}
	return setup.HookStatus(env, asJSON, stdout, stderr)
}
