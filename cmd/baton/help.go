package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/internal/hostsettings"
)

// The help of every command, in one table: the top-level usage, `baton help
// CMD`, `CMD --help`, the shell completions and the man page are all made
// from it, so they cannot disagree.
//
// Adding a command (or a hook subcommand) is adding an entry: its name
// ("hook install" for a subcommand), the arguments after the flags, a
// one-line summary, what it does, reads and writes, and its exit status.
// Its flags are not written here: they are read from the command's own
// FlagSet (see command.flags), so a flag added there shows everywhere.

// command is one entry of the help table.
type command struct {
	Name     string   // "check", or "hook install" for a subcommand
	Args     string   // the arguments after the flags, as in the synopsis: "[PATH…|-]"
	Summary  string   // one line, for the command list
	Text     string   // what it does (paragraphs, wrapped at 80 columns)
	Reads    string   // what it reads: files, standard input, the environment
	Writes   string   // what it writes: standard output, standard error, files
	Exit     string   // its exit status
	Paths    bool     // its arguments are files or folders (for completion)
	ArgWords []string // the words its arguments take (for completion)

	// run is the command; with ["-h"] its FlagSet prints its flags to
	// standard error and nothing happens (the flag package's ErrHelp), which
	// is how flags reads them. Nil for a command without flags.
	run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
	// extra are flags a command reads without a FlagSet.
	extra []flagHelp
}

// flagHelp is one flag of a command.
type flagHelp struct {
	Name  string // without dashes
	Arg   string // the value's placeholder ("string", "DIR"); "" for a boolean flag
	Usage string
}

// commands is the help table, in the order the usage lists it.
var commands = withHostHooks([]*command{
	{
		Name:    "check",
		Args:    "[PATH…|-]",
		Summary: "lint files, folders (every *.md and *.markdown below them) or standard input",
		Text: `Lints the Markdown files named, every *.md and *.markdown file below the
folders named (the working folder without arguments), or with - standard
input. A folder walk skips hidden folders, node_modules and what .gitignore
and the ignore: section of .baton.yaml ignore, but in a specrew project it
reads .specrew/handover/, where specrew keeps the packets agents write, even
when .gitignore ignores it (specrew init has it ignore that folder). A quoted
glob (check 'docs/**/*.md') is expanded as markdownlint-cli2 expands one, dot
files included, less what ignore: ignores: a path that exists is taken as it
is, :PATH is literal, and a pattern starting with ! (or #) removes what it
matches from the ones before. Handoff documents are checked against their
session's read ledger, found in --state-dir, then in clio-coder's documented
state folders.

Prints path:line:column: severity rule-id: message for each finding (1-based;
the column counts bytes), or with --format the same findings as JSON
(docs/json-format.md), SARIF 2.1.0, GitHub Actions workflow commands, JUnit
XML or GitLab Code Quality JSON, each file as soon as the files before it are
done. --fix applies the safe fixes in place, --diff prints them as a unified
diff: every safe fix, those of the findings past the 1,000 a document reports
too, in at most 5 rounds (a fix may make another possible). The summary
counts every finding that remains, and says so when safe fixes are left
after the 5 rounds: running --fix again applies them.`,
		Reads: `the files and folders named, or standard input (-); the nearest .baton.yaml
above each file (or --config); .gitignore files; for handoff documents,
clio-coder's session state; NO_COLOR.`,
		Writes: `the findings on standard output; errors (an unreadable file, a broken
configuration) on standard error. With --fix, each fixed file in place (with
-, the fixed text on standard output and the findings on standard error).
With --diff, the diff on standard output and the findings on standard error;
no file. On a terminal, the text format ends with a summary line on standard
error (not with --quiet). The profiles asked for with --cpuprofile,
--memprofile, --trace.`,
		Exit:  "0 no error findings; 1 error findings (with --diff, also anything to fix); 2 usage, configuration or I/O error.",
		Paths: true,
		run:   runCheck,
	},
	{
		Name:    "serve",
		Summary: "run the language server over standard input and output",
		Text: `Runs the Language Server Protocol server that editors start: diagnostics,
hovers, code actions and fixes for the documents the editor opens, with the
configuration of the nearest .baton.yaml. --stdio, which editors' language
clients add, is accepted and changes nothing: standard input and output is the
only transport. --clientProcessId is accepted and ignored.`,
		Reads:  "LSP messages on standard input; the documents and .baton.yaml files of the workspace; GOMEMLIMIT.",
		Writes: "LSP messages on standard output; logs on standard error (warnings, and with -v debug messages).",
		Exit:   "0 after the client's shutdown and exit; 1 when the connection ends without them; 2 usage error.",
		run:    runServe,
	},
	{
		Name:    "classify",
		Args:    "[FILE|-]",
		Summary: "classify a stop message as continue, intermediate or real (JSON)",
		Text: `Classifies the stop message in FILE (standard input with - or no FILE) as
continue, intermediate or real, with specrew's precedence and reasons. A plain
message without packet headings is a stop message too, classified as the stop
hook does. Inputs the text does not decide come from the specrew workspace
(the first folder above FILE holding .specrew/) or from the flags, each true,
false or unknown. In a specrew project --in-flight and --known-terminal are
false, as specrew's stop provider passes them (it tracks no async work). When
the outcome turns on inputs still unknown (outside a specrew project, whether
the phase is authorized, for one), "outcome" is "undetermined", "depends_on"
names those inputs, "reason" says so, and "possible_outcomes" lists every
outcome with the condition under which it holds; the flags settle them. A
determined outcome has "depends_on": [].`,
		Reads:  "FILE or standard input; the specrew workspace's state; the nearest .baton.yaml (its phrases).",
		Writes: "the classification as JSON on standard output (one object, or an array for several packets); errors on standard error.",
		Exit:   "0 classified; 2 usage or I/O error, an unreadable .baton.yaml, or not a stop message.",
		Paths:  true,
		run:    runClassify,
	},
	{
		Name:    "hook",
		Args:    "SUBCOMMAND [flags]",
		Summary: "agent-host hooks: see baton help hook",
		Text: `Hooks the agent hosts run at points of a session, each with a JSON
description of the event on standard input. Every hook fails open: on its own
errors it lets the agent go on and says why on standard error.`,
		Reads:  "the host's JSON event on standard input.",
		Writes: "see each subcommand.",
		Exit:   "0 (hooks fail open); 2 usage error.",
	},
	{
		Name:    "hook install",
		Summary: "add baton's hooks to an agent host's settings (diff first; --dry-run)",
		Text: fill(`Adds baton's hooks to an agent host's settings file, keeping every hook and
setting already there (the rest of the file is left byte for byte): the stop
hook, the prompt hook that takes the turn's baseline (and where the host has
one the tool hook that says which session made a change), each on the host's
event:

` + installedHooks() + `

With --user the file is the one in your home folder ($HOME): ` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.UserSettings }) + `. It reads that file, prints the change as a unified
diff on standard output, then writes the file atomically (a temporary file
in the same folder, renamed over it; the permissions kept) and says what it
added. A hook of baton's already there is kept; with other flags, only the
policy's flags in its command line change. A command of yours that runs
baton's hook and more (baton hook HOST-stop && notify-send done) is yours:
it is neither counted nor changed. It refuses, and writes nothing, when the
file is not valid JSON, not in the host's shape, a symbolic link or not a
regular file. The edit holds a lock of the settings file (a lock file beside
it, removed after), so that installs run at once all land. What install
made (the file, its folder, the keys it added, the empty lists it filled)
is recorded in $XDG_STATE_HOME/baton/installed.json (else
~/.local/state/baton/), for uninstall to take out exactly that. DIR must
be there.

The stop hook's flags go into the command it writes: --lint (on unless
--lint=false: block a packet that breaks baton's rules; a message that is
not a packet is never blocked), --require-packet (demand the packet after
material work in any Git project; the prompt hooks get it too) and
--max-blocks N. ` + hosts.Sentences(func(h agenthost.HostHelp) string { return h.Install }) + `It then says what
the stop hook blocks and lets through in this project, and whether the
host will run it (see baton hook status).`),
		Reads:  "the host's settings file (project or user); the hosts' trust records; baton's record of what install made; $HOME, " + hosts.Env() + "$XDG_STATE_HOME.",
		Writes: "the diff and what it added on standard output; the settings file, atomically, and baton's record of what it made (not with --dry-run); errors on standard error.",
		Exit:   "0 done (or nothing to do); 2 usage error, or a settings file it refuses to edit.",
		extra:  append(hookEditFlags[:len(hookEditFlags):len(hookEditFlags)], hookInstallFlags...),
	},
	{
		Name:    "hook uninstall",
		Summary: "remove baton's hooks, and nothing else, from an agent host's settings",
		Text: fill(`Removes from an agent host's settings file every hook whose command is
exactly baton's ("baton hook ADAPTER" and the hook's own flags), and
nothing else: a group of hooks holding other commands keeps them, and a
command of yours that runs baton's and more stays. Then what install
recorded it made is put back where it is left empty: an event list or
"hooks" install added goes, an empty one that was there stays as it was,
and the file and folders install made go when nothing else is in them.
After baton hook install, the file comes back byte for byte. Without the
record (an install by an earlier baton, or on another machine) the lists
and files baton's entries were in stay. ` + hosts.Sentences(func(h agenthost.HostHelp) string { return h.Uninstall }) + `It prints
the change as a unified diff on standard output, then writes the file
atomically, under its lock, and says what it removed; it refuses, writing
nothing, a file that is not valid JSON, a symbolic link or not a regular
file.`),
		Reads:  "the host's settings file (project or user); baton's record of what install made; $HOME, " + hosts.Env() + "$XDG_STATE_HOME.",
		Writes: "the diff and what it removed on standard output; the settings file, atomically, and baton's record (not with --dry-run); errors on standard error.",
		Exit:   "0 done (or nothing to do); 2 usage error, or a settings file it refuses to edit.",
		extra:  hookEditFlags,
	},
	{
		Name:    "hook status",
		Summary: "list each agent host found, whether baton's hook is installed, and its enforcement",
		Text: fill(`Lists, for the project (the Git work tree above the current folder, or
DIR's) and for the user ($HOME), each agent host whose folder or settings
file is there (` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.ProjectFolder }) + `; in
the home folder ` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.UserFolder }) + `), whether baton's hooks are in its settings, and the
enforcement of the stop contract that gives, in the terms of specrew's
proposal 188: hard (the host lets the hook block the stop), corrective
(the hook can only send a follow-up after the stop), preventive (only
context before a turn) or cooperative only (no hook: the agent's prompt
alone). ` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.Installed }) + ` count as installed; a
file that turns hooks off (disableAllHooks, hooksConfig.enabled: false)
makes the host cooperative only. Under each host it says what the stop
hook blocks and lets through, from its flags and the project (without
--lint or --require-packet, outside a specrew project, it blocks nothing:
cooperative only), and whether the host will run it: ` + hosts.Phrases(func(h agenthost.HostHelp) string { return h.Runs }) + `; if not, what to do. When the project is the
home folder it is listed once, as the user's. It reads the settings files
and the trust records and writes nothing.`),
		Reads:  "the hosts' settings files of the project and of the user ($HOME); " + hosts.Phrases(func(h agenthost.HostHelp) string { return h.TrustRecords }) + "; " + strings.TrimSuffix(hosts.Env(), ", ") + ".",
		Writes: "the report on standard output (JSON with --json); errors on standard error. It writes no file.",
		Exit:   "0 reported; 2 usage error.",
		extra: []flagHelp{
			{Name: "json", Usage: "print the report as JSON"},
			{Name: "dir", Arg: "DIR", Usage: "the project folder, which must be there (default: the current folder's)"},
		},
	},
	{
		Name:    "audit",
		Args:    "PATH…",
		Summary: "judge every stop in agents' session transcripts as the stop hooks would",
		Text: fill(`Reads agents' session transcripts (files, or folders such as a host's
session folder, walked for *.jsonl and *.json session files) of ` + hosts.Names() + `, and judges every stop in them as
the stop hooks judge a message under --lint: each turn's last message, its
blocking findings and its stop-intent outcome, and what the host recorded of
its stop hook's answer (a block and its reason). It prints, per session and
overall, how many stops there were, how many a hook would have blocked, how
many the hook blocked, and why, by rule: as text, JSON, or one
self-contained HTML page (a timeline of stops per session, a table by
rule).`),
		Reads:  "the transcripts named; the .baton.yaml of --workspace (default: the working folder).",
		Writes: "the report on standard output; files it could not read on standard error. It writes no file.",
		Exit:   "0 reported; 2 usage error, or none of the transcripts could be read.",
		Paths:  true,
		run:    func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runAudit(args, stdout, stderr) },
	},
	{
		Name:    "ledger",
		Args:    "ID|SESSION_FOLDER",
		Summary: "print a clio-coder session's read ledger and decision board",
		Text: `Prints a clio-coder session's read ledger (every path it touched, with the
evidence) and its decision board, and where its work came from and went: the
handoff that seeded it, the handoffs that carried it on, the session it was
forked from. The session is a folder, or an ID looked for in --state-dir, then
in clio-coder's documented state folders.`,
		Reads:  "the session's files; XDG_STATE_HOME and the home folder, for the state folders.",
		Writes: "the ledger on standard output (JSON with --json); errors, and the folders looked in, on standard error.",
		Exit:   "0 printed; 2 usage error, no such session or an unreadable one.",
		Paths:  true,
		run:    func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runLedger(args, stdout, stderr) },
	},
	{
		Name:    "explain",
		Args:    "[RULE-ID | --markdown]",
		Summary: "print the documentation of a rule (every rule ID without one)",
		Text: `Prints a rule's ID, default severity, summary and documentation. Without a
rule ID it lists every rule, one a line, with its default severity and
summary; --markdown prints the whole rules reference (docs/rules.md).`,
		Reads:  "nothing: the rules are built in.",
		Writes: "the documentation on standard output; errors on standard error.",
		Exit:   "0 printed; 2 usage error or no such rule.",
		extra:  []flagHelp{{Name: "markdown", Usage: "print the rules reference as Markdown (docs/rules.md)"}},
	},
	{
		Name:    "config",
		Args:    "SUBCOMMAND",
		Summary: "configuration helpers: see baton help config",
		Text:    `Helpers for .baton.yaml, the configuration file.`,
		Reads:   "see each subcommand.",
		Writes:  "see each subcommand.",
		Exit:    "0 done; 2 usage error.",
	},
	{
		Name:    "config schema",
		Summary: "print the JSON Schema of .baton.yaml",
		Text: `Prints the JSON Schema (draft-07) of .baton.yaml, made from the rules and
keys baton knows (docs/baton.schema.json). Editors with the YAML language
server complete and check the file with it, given this first line:
  # yaml-language-server: $schema=` + config.SchemaID,
		Reads:  "nothing: the schema is built from the rules baton ships.",
		Writes: "the schema on standard output.",
		Exit:   "0 printed; 2 usage error.",
	},
	{
		Name:     "completion",
		Args:     "bash|zsh|fish",
		ArgWords: []string{"bash", "zsh", "fish"},
		Summary:  "print a shell completion script",
		Text: `Prints the completion script of a shell: commands, subcommands, flags and
their values. Load it with
  source <(baton completion bash)                 (in ~/.bashrc)
  baton completion zsh > "${fpath[1]}/_baton"     (then restart zsh)
  baton completion fish > ~/.config/fish/completions/baton.fish`,
		Reads:  "nothing.",
		Writes: "the script on standard output.",
		Exit:   "0 printed; 2 usage error or an unknown shell.",
	},
	{
		Name:    "man",
		Summary: "print baton's manual page (roff)",
		Text:    `Prints the manual page, made from this help, as roff: man -l <(baton man).`,
		Reads:   "nothing.",
		Writes:  "the page on standard output.",
		Exit:    "0 printed; 2 usage error.",
	},
	{
		Name:    "version",
		Summary: "print baton's version",
		Text: `Prints baton's version, the commit it was built from (and whether the work tree was
modified), and the Go version and platform it was built with, one a line.`,
		Reads:  "nothing.",
		Writes: "the version on standard output.",
		Exit:   "0 printed; 2 usage error.",
	},
	{
		Name:    "help",
		Args:    "[COMMAND]",
		Summary: "print the help of a command (or this usage)",
		Text:    `Prints the help of a command (baton help hook install), or the list of commands.`,
		Reads:   "nothing.",
		Writes:  "the help on standard output; an unknown command on standard error.",
		Exit:    "0 printed; 2 no such command.",
	},
})

// hookEditFlags are the flags of hook install and hook uninstall
// (hookinstall.go parses them).
var hookEditFlags = []flagHelp{
	{Name: "host", Arg: "HOST", Usage: "the agent host: " + oneOf(hosts.SettingsIDs())},
	{Name: "project", Usage: "the project's settings (default): the Git work tree above the current folder, or the current folder"},
	{Name: "user", Usage: "the user's settings, for every project"},
	{Name: "dry-run", Usage: "print the diff and write nothing"},
	{Name: "dir", Arg: "DIR", Usage: "the project folder, which must be there (default: the current folder's)"},
}

// hookInstallFlags are install's flags for the stop policy, written into
// the hooks' command lines.
var hookInstallFlags = []flagHelp{
	{Name: "lint", Usage: "the stop hook blocks a packet that breaks baton's rules (default true; --lint=false leaves it out)"},
	{Name: "require-packet", Usage: "the stop hook demands the packet after material work in any Git project"},
	{Name: "max-blocks", Arg: "N", Usage: "the stop hook blocks at most N times in a row in one session"},
}

// oneOf lists ids as "a, b or c".
func oneOf(ids []string) string {
	if len(ids) < 2 {
		return strings.Join(ids, "")
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
}

// installedHooks is hook install's table: for every host, its project
// settings file, the events of the hooks install writes there and those
// hooks, as the host's value says.
// fill refills the paragraphs of a help text whose lines do not start
// with a space (a table's do) to the help's width: a text holding the
// hosts' phrases is written before they are known.
func fill(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for i, p := range strings.Split(text, "\n\n") {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if strings.HasPrefix(p, " ") {
			b.WriteString(p)
			continue
		}
		width := 0 // of the line being written
		for _, w := range strings.Fields(p) {
			switch {
			case width == 0:
			case width+1+len(w) > 76:
				b.WriteByte('\n')
				width = 0
			default:
				b.WriteByte(' ')
				width++
			}
			b.WriteString(w)
			width += len(w)
		}
	}
	return b.String()
}

func installedHooks() string {
	var lines []string
	for _, h := range hosts.All {
		var events, subs []string
		for _, hk := range h.Settings.Hooks {
			events = append(events, hk.Event)
			subs = append(subs, hk.Sub)
		}
		file := filepath.ToSlash(h.Settings.ProjectFile(hostsettings.Env{}))
		lines = append(lines,
			fmt.Sprintf("  %-8s %-25s %s", h.ID, file, strings.Join(events, ", ")),
			fmt.Sprintf("  %-8s %-25s (baton hook %s)", "", "", strings.Join(subs, ", ")))
	}
	return strings.Join(lines, "\n")
}

// withHostHooks inserts, after baton hook, the hooks of every host, in
// the hosts' order, from the help its value carries.
func withHostHooks(cmds []*command) []*command {
	at := slices.IndexFunc(cmds, func(c *command) bool { return c.Name == "hook" }) + 1
	var hooks []*command
	for _, h := range hosts.All {
		for _, hk := range []struct {
			suffix, exit string
			help         *agenthost.HookHelp
		}{
			{"-stop", "0 always (a block is the JSON on standard output); 2 usage error.", h.StopHelp},
			{"-prompt", "0 always; 2 usage error.", h.PromptHelp},
			{"-tool", "0 always; 2 usage error.", h.ToolHelp},
		} {
			if hk.help != nil {
				hooks = append(hooks, hostHookCommand(h.ID+hk.suffix, hk.help, hk.exit))
			}
		}
	}
	return slices.Insert(cmds, at, hooks...)
}

func hostHookCommand(sub string, h *agenthost.HookHelp, exit string) *command {
	return &command{Name: "hook " + sub, Summary: h.Summary, Text: h.Text, Reads: h.Reads, Writes: h.Writes, Exit: exit, run: hookCommand(sub)}
}

// hookCommand runs one hook subcommand.
func hookCommand(sub string) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return runHook(append([]string{sub}, args...), stdin, stdout, stderr)
	}
}

// lookup returns the command named by the leading words of args, the
// longest name first ("hook install" before "hook"), and the arguments
// left; nil when none.
func lookup(args []string) (*command, []string) {
	var best *command
	n := 0
	for _, c := range commands {
		words := strings.Fields(c.Name)
		if len(words) > n && len(words) <= len(args) && slices.Equal(words, args[:len(words)]) {
			best, n = c, len(words)
		}
	}
	return best, args[n:]
}

// subcommands returns the entries below c ("hook install" for "hook").
func (c *command) subcommands() []*command {
	var subs []*command
	for _, s := range commands {
		if strings.HasPrefix(s.Name, c.Name+" ") && !strings.Contains(s.Name[len(c.Name)+1:], " ") {
			subs = append(subs, s)
		}
	}
	return subs
}

// parent is the command a subcommand belongs to, or nil.
func (c *command) parent() *command {
	i := strings.LastIndexByte(c.Name, ' ')
	if i < 0 {
		return nil
	}
	p, rest := lookup(strings.Fields(c.Name[:i]))
	if len(rest) > 0 {
		return nil
	}
	return p
}

// flagHeader and flagCont are the lines flag.PrintDefaults writes: "  -name
// placeholder" (the usage after a tab when the name is short) and the
// usage's lines, indented "    \t".
var (
	flagHeader = regexp.MustCompile(`^  -([^\s=]+)(?: (\S+))?(?:\t(.*))?$`)
	flagCont   = regexp.MustCompile(`^    \t(.*)$`)
)

// flags returns the command's flags, as its own FlagSet defines them: the
// command is run with -h, which prints them and does nothing else.
func (c *command) flags() []flagHelp {
	var out []flagHelp
	if c.run != nil {
		var stderr bytes.Buffer
		c.run([]string{"-h"}, strings.NewReader(""), io.Discard, &stderr)
		out = parseDefaults(stderr.String())
	}
	return append(out, c.extra...)
}

// parseDefaults reads the flags from what a FlagSet's usage printed: the
// longest run of flag.PrintDefaults lines that ends the text.
func parseDefaults(text string) []flagHelp {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	start := len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		if !flagHeader.MatchString(lines[i]) && !flagCont.MatchString(lines[i]) {
			break
		}
		start = i
	}
	var out []flagHelp
	for _, l := range lines[start:] {
		if m := flagHeader.FindStringSubmatch(l); m != nil {
			out = append(out, flagHelp{Name: m[1], Arg: m[2], Usage: m[3]})
			continue
		}
		if len(out) == 0 {
			continue // a continuation line before any flag: not PrintDefaults
		}
		m := flagCont.FindStringSubmatch(l)
		f := &out[len(out)-1]
		if f.Usage != "" {
			f.Usage += "\n"
		}
		f.Usage += m[1]
	}
	return out
}

// isBool reports whether a flag takes no value.
func (f flagHelp) isBool() bool { return f.Arg == "" }

// wantsHelp reports whether args ask for help (-h, -help, --help) where
// the command's flags are parsed: anywhere before "--" (flags may follow
// the arguments, flags.go), skipping the values of flags that take one.
func wantsHelp(args []string, flags []flagHelp) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			continue
		}
		name := strings.TrimLeft(a, "-")
		if name == "h" || name == "help" {
			return true
		}
		if strings.Contains(name, "=") {
			continue
		}
		for _, f := range flags {
			if f.Name == name && !f.isBool() {
				i++ // its value
			}
		}
	}
	return false
}

// synopsis is the command's usage line.
func (c *command) synopsis() string {
	s := "baton " + c.Name
	if c.run != nil || len(c.extra) > 0 {
		s += " [flags]"
	}
	if c.Args != "" {
		s += " " + c.Args
	}
	return s
}

// writeUsage prints the top-level usage: every command with its summary.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "usage: baton <command> [arguments]\n\ncommands:\n")
	for _, c := range commands {
		if c.parent() != nil {
			continue
		}
		name := c.Name
		if c.Args != "" && len(c.Name+" "+c.Args) < 24 && c.subcommands() == nil {
			name += " " + c.Args
		}
		fmt.Fprintf(w, "  %-22s %s\n", name, c.Summary)
		for _, s := range c.subcommands() {
			fmt.Fprintf(w, "  %-22s %s\n", s.Name, s.Summary)
		}
	}
	fmt.Fprint(w, "\nRun baton help COMMAND (or baton COMMAND --help) for what a command reads and writes.\n")
}

// writeHelp prints a command's full help.
func writeHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.synopsis(), c.Text)
	if subs := c.subcommands(); len(subs) > 0 {
		fmt.Fprint(w, "\nsubcommands:\n")
		for _, s := range subs {
			fmt.Fprintf(w, "  %-18s %s\n", strings.TrimPrefix(s.Name, c.Name+" "), s.Summary)
		}
	}
	section := func(title, text string) {
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, l := range strings.Split(text, "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	section("reads", c.Reads)
	section("writes", c.Writes)
	section("exit status", c.Exit)
	if fs := c.flags(); len(fs) > 0 {
		fmt.Fprint(w, "\nflags:\n")
		for _, f := range fs {
			head := "  --" + f.Name
			if f.Arg != "" {
				head += " " + f.Arg
			}
			fmt.Fprintln(w, head)
			for _, l := range strings.Split(f.Usage, "\n") {
				fmt.Fprintf(w, "        %s\n", l)
			}
		}
	}
}

// runHelp is `baton help [COMMAND…]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stdout)
		return exitOK
	}
	c, rest := lookup(args)
	if c == nil || len(rest) > 0 {
		fmt.Fprintf(stderr, "baton: no command %q\n\n", strings.Join(args, " "))
		writeUsage(stderr)
		return exitUsage
	}
	writeHelp(stdout, c)
	return exitOK
}
