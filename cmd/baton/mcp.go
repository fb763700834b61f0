package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/mcpserver"
)

// The MCP server's commands join the help table after the hooks' (the
// table is help.go's; these entries are kept beside their command).
func init() {
	at := slices.IndexFunc(commands, func(c *command) bool { return c.Name == "audit" })
	if at < 0 {
		at = len(commands)
	}
	commands = slices.Insert(commands, at, mcpCommands...)
	helpTable = commands // flags.go's init may have run first, with the table before this
}

var mcpCommands = []*command{
	{
		Name:    "mcp",
		Summary: "run the MCP server agents call to check their stop message and handoff",
		Text: `Runs baton's Model Context Protocol server over standard input and output, as
an agent host starts it (baton mcp install registers it). Its tools check, in
the same environment as baton check and the stop hooks, so with the same
findings: check_stop (a stop message before the agent stops: findings, the
stop intent and why, in a specrew project the pending crossing and its exact
marker), check_document (a packet, handoff or workflow, by path or text),
check_handoff_files (a handoff's files against its session's read ledger)
and explain_rule. The workspace is the project the host starts it in: the
nearest folder above the working folder holding .git or .baton.yaml (or
--root); paths outside it are refused. Each line from the client is one
message; a line that is not one (not JSON, not a request, over ` + fmt.Sprint(mcpserver.MaxFrameBytes>>20) + ` MiB)
gets a JSON-RPC error, and the server reads on. A text over 16 MiB gets
baton/document-too-large, as a file does. docs/mcp.md has each tool and
the line each host needs.`,
		Reads:  "MCP messages on standard input; the documents named, inside the workspace; .baton.yaml files, specrew state and workflow components there; the sessions handoff documents name (--state-dir, then clio-coder's folders).",
		Writes: "MCP messages on standard output; errors on standard error. It writes no file.",
		Exit:   "0 when the client disconnects; 1 when the connection fails; 2 usage error.",
		run:    runMCP,
	},
	{
		Name:    "mcp install",
		Summary: "register baton's MCP server in an agent host's MCP settings (diff first; --dry-run)",
		Text: fill(`Registers baton's MCP server (the command "baton mcp") in an agent host's MCP
settings, keeping every other server and setting there byte for byte:

` + mcpFiles() + `

The project's file is the default (--project); ` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.HomeEnv }) + `
move the user's. It prints the change as a unified diff on standard output,
then writes the file atomically and says what it added. An entry named
baton already there is kept as it is when it runs baton mcp, and left alone
(with a warning) when it runs something else. It refuses, writing nothing,
a file that is not valid JSON or TOML, a symbolic link or not a regular
file. The edit holds the settings file's lock (a host's settings file may
hold baton's hooks too), and what install made is recorded, as for baton
hook install, for uninstall. It then says whether the host will start the
server, from the host's own records (read, never written): ` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.MCPStarts }) + `.`),
		Reads:  "the host's MCP settings file (project or user); the hosts' approval and trust records; baton's record of what install made; $HOME, " + hosts.Env() + "$XDG_STATE_HOME.",
		Writes: "the diff and what it added on standard output; the settings file, atomically, and baton's record of what it made (not with --dry-run); errors on standard error.",
		Exit:   "0 done (or nothing to do); 2 usage error, or a settings file it refuses to edit.",
		extra:  mcpEditFlags,
	},
	{
		Name:    "mcp uninstall",
		Summary: "remove baton's MCP server, and nothing else, from an agent host's MCP settings",
		Text: `Removes the server entry named baton that runs baton mcp from an agent host's
MCP settings file, and nothing else. Then what install recorded it made is
put back: an "mcpServers" it added goes when left empty (an empty one that
was there stays as it was), and the file and folders it made go when nothing
else is in them. After baton mcp install the file comes back byte for byte.
It prints the change as a unified diff, then writes the file atomically,
under its lock.`,
		Reads:  "the host's MCP settings file (project or user); baton's record of what install made; $HOME, " + hosts.Env() + "$XDG_STATE_HOME.",
		Writes: "the diff and what it removed on standard output; the settings file, atomically, and baton's record (not with --dry-run); errors on standard error.",
		Exit:   "0 done (or nothing to do); 2 usage error, or a settings file it refuses to edit.",
		extra:  mcpEditFlags,
	},
	{
		Name:    "mcp status",
		Summary: "say, for each agent host, whether baton's MCP server is registered",
		Text: `Lists, for the project (the Git work tree above the current folder, or DIR's)
and for the user, each agent host's MCP settings file, whether baton's MCP
server is registered there (and with what command), and for one the host will
not start yet (not approved, or in a folder it does not trust), what to do.
It writes nothing.`,
		Reads:  "the hosts' MCP settings files of the project and of the user; the hosts' approval and trust records; $HOME, " + strings.TrimSuffix(hosts.Env(), ", ") + ".",
		Writes: "the report on standard output (JSON with --json); errors on standard error. It writes no file.",
		Exit:   "0 reported; 2 usage error.",
		extra: []flagHelp{
			{Name: "json", Usage: "print the report as JSON"},
			{Name: "dir", Arg: "DIR", Usage: "the project folder, which must be there (default: the current folder's)"},
		},
	},
}

// mcpEditFlags are the flags of mcp install and mcp uninstall
// (mcpinstall.go parses them).
var mcpEditFlags = []flagHelp{
	{Name: "host", Arg: "HOST", Usage: "the agent host: " + oneOf(hosts.MCPIDs())},
	{Name: "project", Usage: "the project's MCP settings (default)"},
	{Name: "user", Usage: "the user's MCP settings, for every project"},
	{Name: "dry-run", Usage: "print the diff and write nothing"},
	{Name: "dir", Arg: "DIR", Usage: "the project folder, which must be there (default: the current folder's)"},
}

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "install":
			return runMCPInstall(args[1:], stdout, stderr)
		case "uninstall":
			return runMCPUninstall(args[1:], stdout, stderr)
		case "status":
			return runMCPStatus(args[1:], stdout, stderr)
		}
	}
	fl := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", "", "the workspace (default: the nearest folder above the working folder holding .git or .baton.yaml, else the working folder)")
	stateDir := fl.String("state-dir", "", "clio-coder's state folder, looked in first for the sessions of handoff documents")
	fl.Usage = func() {
		writeUsageLine(stderr, "mcp")
		fmt.Fprintln(stderr, "\nflags:")
		fl.PrintDefaults()
	}
	rest, code, ok := parseCommand("mcp", fl, args, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "mcp", fmt.Sprintf("unexpected argument %q: baton mcp takes flags only (or install, uninstall, status)", rest[0]))
		return exitUsage
	}
	s, err := mcpserver.New(mcpserver.Options{Root: *root, StateDir: *stateDir, Version: versionString()})
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		// A person ran it by hand: it waits for a host's messages.
		fmt.Fprintf(stderr, "baton mcp: serving the workspace %s over standard input and output, as an agent host starts it (baton mcp install registers it; docs/mcp.md)\n", s.Root())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t := &mcpserver.Transport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	if err := s.Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		printErr(stderr, fmt.Errorf("mcp: %w", err))
		return exitFindings
	}
	return exitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpFiles is mcp install's table: for every host with MCP settings, its
// project file, its user file and where in it the server goes.
func mcpFiles() string {
	var lines []string
	for _, h := range hosts.MCP() {
		where := "mcpServers.baton"
		if h.Entry == nil {
			where = "[mcp_servers.baton]"
		}
		home := hostsettings.Env{Home: "~"}
		lines = append(lines, fmt.Sprintf("  %-8s %-22s %-30s %s", h.Name, filepath.ToSlash(h.ProjectFile(hostsettings.Env{})), "(--user: "+filepath.ToSlash(h.UserFile(home))+")", where))
	}
	return strings.Join(lines, "\n")
}

// isTerminal reports whether f is a terminal: a person, not an agent host,
// at the other end.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
