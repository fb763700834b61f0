package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// baton hook install | uninstall | status: baton's stop hooks in the agent
// hosts' settings files. The editing, the hosts' file locations and shapes
// and their enforcement postures are internal/hostsettings'. What each
// command does, reads and writes is its entry in the help table (help.go).

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

type hookEdit struct {
	host   *hostsettings.Host
	scope  hostsettings.Scope
	env    hostsettings.Env
	dryRun bool
	opts   hostsettings.Options // install's flags for the hooks
}

// editTarget is the flags hook and mcp install and uninstall share: the
// host, the scope, the folder, a dry run.
type editTarget struct {
	host                  string
	project, user, dryRun bool
	dir                   string
}

func (t *editTarget) define(fl *flag.FlagSet) {
	fl.StringVar(&t.host, "host", "", "")
	fl.BoolVar(&t.project, "project", false, "")
	fl.BoolVar(&t.user, "user", false, "")
	fl.BoolVar(&t.dryRun, "dry-run", false, "")
	fl.StringVar(&t.dir, "dir", ".", "")
}

// resolve checks that the host is one of ids and one scope is asked
// for, and gives the scope and the environment; cmd names the command in
// the errors ("hook install").
func (t *editTarget) resolve(cmd string, ids []string, stderr io.Writer) (hostsettings.Scope, hostsettings.Env, bool) {
	if !slices.Contains(ids, t.host) {
		if t.host == "" {
			fmt.Fprintf(stderr, "baton: %s needs --host: one of %s\n", cmd, strings.Join(ids, ", "))
		} else {
			fmt.Fprintf(stderr, "baton: unknown host %q: want one of %s\n", t.host, strings.Join(ids, ", "))
		}
		return "", hostsettings.Env{}, false
	}
	if t.project && t.user {
		fmt.Fprintln(stderr, "baton: --project and --user: choose one")
		return "", hostsettings.Env{}, false
	}
	env, err := projectEnv(t.dir)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return "", hostsettings.Env{}, false
	}
	if t.user {
		return hostsettings.User, env, true
	}
	return hostsettings.Project, env, true
}

// projectEnv is the environment of the project folder --dir names,
// which must be there: a mistyped --dir would otherwise be made by the
// write, or inside a Git work tree name that work tree's root, and the
// settings land where nobody asked for them.
func projectEnv(dir string) (hostsettings.Env, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return hostsettings.Env{}, fmt.Errorf("--dir %s: no such folder", dir)
	case err != nil:
		return hostsettings.Env{}, fmt.Errorf("--dir %s: %v", dir, err)
	case !fi.IsDir():
		return hostsettings.Env{}, fmt.Errorf("--dir %s: not a folder", dir)
	}
	return hostsettings.DefaultEnv(dir)
}

func parseHookEdit(name string, args []string, usage string, stdout, stderr io.Writer) (*hookEdit, int, bool) {
	fl := flag.NewFlagSet("hook "+name, flag.ContinueOnError)
	var target editTarget
	target.define(fl)
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
		return nil, code, false
	}
	if opts.MaxBlocks < 0 {
		fmt.Fprintln(stderr, "baton: --max-blocks must be 1 or more")
		return nil, exitUsage, false
	}
	scope, env, ok := target.resolve("hook "+name, hosts.SettingsIDs(), stderr)
	if !ok {
		return nil, exitUsage, false
	}
	return &hookEdit{host: hosts.SettingsOf(target.host), scope: scope, env: env, dryRun: target.dryRun, opts: opts}, 0, true
}

// display names a settings file as people read it: relative to the
// project, or under ~ for the home folder.
func (e *hookEdit) display(path string) string { return displayPath(e.env, e.scope, path) }

func displayPath(env hostsettings.Env, scope hostsettings.Scope, path string) string {
	base := env.Project
	prefix := ""
	if scope == hostsettings.User {
		base, prefix = env.Home, "~/"
	}
	if rel, err := filepath.Rel(base, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return prefix + filepath.ToSlash(rel)
	}
	return path
}

// apply makes the change, unless this is a dry run, and prints its diff.
// Apply plans the change again under the settings file's lock, on the
// file as it is then: the diff printed is of what was written.
func (e *hookEdit) apply(c *hostsettings.Change, stdout, stderr io.Writer) bool {
	if !e.dryRun {
		if err := c.Apply(); err != nil {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			return false
		}
	}
	stdout.Write(c.Diff(e.display(c.Path)))
	return true
}

func runHookInstall(args []string, stdout, stderr io.Writer) int {
	e, code, ok := parseHookEdit("install", args, hookInstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	path := e.host.File(e.env, e.scope)
	if r, found := e.host.Status(e.env, e.scope); found && r.Installed == "installed" && len(r.Files) > 1 {
		// A host that reads every file of its hooks folder
		// (FolderOfFiles): baton's hook in another of them is installed
		// already.
		fmt.Fprintf(stdout, "baton: %s's hooks are already in %s: nothing to change (their flags are as that file has them)\n", e.host.Title, e.display(filepath.Dir(path)))
		printEnforcement(stdout, e.host, r)
		return exitOK
	}
	program, note, warn := hookProgram(lookPath, executable)
	e.opts.Program = program
	c, err := e.host.PlanInstall(e.env, path, e.opts)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	name := e.display(path)
	if warn != "" {
		fmt.Fprintf(stderr, "baton: warning: %s\n", warn)
	} else if program != "" && len(c.Already)+len(c.Updated) > 0 {
		// Hooks already there keep the program they name: one that runs
		// `baton` will not start while none is on PATH.
		if r, found := e.host.Status(e.env, e.scope); found {
			for _, h := range r.Hooks {
				if h.Installed && strings.HasPrefix(h.Command, "baton ") {
					fmt.Fprintf(stderr, "baton: warning: %s runs `%s`, and no baton is on PATH: %s will fail to start it; put baton on PATH, or run hook uninstall, then hook install, to have it run %s\n", name, h.Command, e.host.Title, program)
				}
			}
		}
	}
	if c.Changed() && !e.apply(c, stdout, stderr) {
		return exitUsage
	}
	if !c.Changed() {
		fmt.Fprintf(stdout, "baton: %s's hooks are already in %s: nothing to change\n", e.host.Title, name)
		if r, found := e.host.Status(e.env, e.scope); found {
			printEnforcement(stdout, e.host, r)
		}
		return exitOK
	}
	verb, changed := "added", "changed"
	if e.dryRun {
		verb, changed = "would add (--dry-run: nothing written)", "would change (--dry-run: nothing written)"
	}
	for _, hk := range c.Added {
		fmt.Fprintf(stdout, "baton: %s to %s: %s → %s\n", verb, name, hk.Event, hk.Line(e.opts))
	}
	for _, u := range c.Updated {
		fmt.Fprintf(stdout, "baton: %s in %s: %s → %s (was %s)\n", changed, name, u.Event, u.New, u.Old)
	}
	for _, hk := range c.Already {
		fmt.Fprintf(stdout, "baton: already in %s: %s → %s\n", name, hk.Event, hk.Line(e.opts))
	}
	if note != "" && len(c.Added) > 0 {
		fmt.Fprintf(stdout, "baton: %s\n", note)
	}
	for _, hk := range c.Added {
		// The host will run the command at every stop: say so if this
		// baton cannot.
		if runHook(append([]string{hk.Sub}, append(e.opts.Args(hk.Stop()), "--help")...), strings.NewReader(""), io.Discard, io.Discard) != exitOK {
			fmt.Fprintf(stderr, "baton: warning: this baton has no working `%s`; update baton before %s runs it\n", hk.Line(e.opts), e.host.Title)
		}
	}
	if !e.dryRun {
		if r, found := e.host.Status(e.env, e.scope); found {
			printEnforcement(stdout, e.host, r)
		}
	}
	return exitOK
}

// lookPath and executable find baton on PATH and this program's path
// (a test gives its own).
var (
	lookPath   = exec.LookPath
	executable = os.Executable
)

// hookProgram is the program the installed hooks run, as
// hostsettings.Options.Program takes it: "" for `baton` when one is on
// PATH (the host runs the hook with the user's PATH); else the absolute
// path of this baton, with a note saying so. When this baton cannot be
// named either (its name is not baton, its path holds a space, or it is
// a temporary build of go run), the hooks run `baton`, and warn says the
// host will not find it until one is on PATH.
func hookProgram(lookPath func(string) (string, error), executable func() (string, error)) (program, note, warn string) {
	if _, err := lookPath("baton"); err == nil {
		return "", "", ""
	}
	const fix = "put baton on PATH (README: Build from source) and run hook install again"
	exe, err := executable()
	if err == nil {
		if resolved, rerr := filepath.EvalSymlinks(exe); rerr == nil {
			exe = resolved
		}
	}
	switch base := filepath.Base(exe); {
	case err != nil:
		return "", "", "no baton on PATH, and this baton's own path is unknown (" + err.Error() + "): the host will fail to start the hooks; " + fix
	case base != "baton" && base != "baton.exe":
		return "", "", "no baton on PATH, and this program is named " + base + ", not baton: the host will fail to start `baton hook …`; " + fix
	case strings.ContainsAny(exe, " \t\"'$`"):
		return "", "", "no baton on PATH, and this baton's path (" + exe + ") holds a space or a quote, which a hook's command line cannot: " + fix
	case strings.Contains(filepath.ToSlash(exe), "/go-build"):
		return "", "", "no baton on PATH, and this baton is go run's temporary build (" + exe + "), gone when it exits: " + fix
	}
	return exe, "no baton on PATH: the hooks run this baton by its absolute path, " + exe + "; with baton on PATH, hook install again writes plain `baton`", ""
}

// printEnforcement says, after an install, what the host will enforce
// now: what its stop hook blocks and lets through where it is, and
// whether the host will run it at all (its trust records).
func printEnforcement(w io.Writer, h *hostsettings.Host, r hostsettings.Report) {
	en := r.Enforcement
	switch {
	case en == nil:
		return
	case en.Nothing():
		fmt.Fprintf(w, "baton: %s enforces nothing here: %s blocks nothing in this project (not a specrew project; no --lint, no --require-packet)\n", h.Title, en.Command)
	default:
		fmt.Fprintf(w, "baton: %s now enforces the stop contract: %s (%s)\n", h.Title, r.Capable, r.Why)
		fmt.Fprintf(w, "baton: %s blocks: %s\n", en.Command, strings.Join(en.Blocks, "; "))
	}
	if len(en.Passes) > 0 {
		fmt.Fprintf(w, "baton: it lets through: %s\n", strings.Join(en.Passes, "; "))
	}
	if t := r.Trust; t != nil && !t.Runs {
		fmt.Fprintf(w, "baton: %s will not run the hook yet: %s\n", h.Title, t.Detail)
		fmt.Fprintf(w, "baton: to have it run: %s\n", t.Fix)
	} else if t != nil && t.State != "trusted" && t.State != "not required" {
		fmt.Fprintf(w, "baton: note: %s\n", t.Detail)
		if t.Fix != "" {
			fmt.Fprintf(w, "baton: to fix: %s\n", t.Fix)
		}
	}
	if h.Note != "" {
		fmt.Fprintf(w, "baton: %s\n", h.Note)
	}
}

func runHookUninstall(args []string, stdout, stderr io.Writer) int {
	e, code, ok := parseHookEdit("uninstall", args, hookUninstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	paths := e.host.Files(e.env, e.scope)
	var changes []*hostsettings.Change
	for _, p := range paths {
		c, err := e.host.PlanUninstall(e.env, p)
		if err != nil && p != e.host.File(e.env, e.scope) {
			// Another hooks file beside baton's (a FolderOfFiles host): say so
			// and go on with the others.
			fmt.Fprintf(stderr, "baton: %v; if it holds a hook of baton's, take it out by hand\n", err)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			return exitUsage
		}
		if c.Changed() {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		fmt.Fprintf(stdout, "baton: no hook of baton's in %s: nothing to change\n", e.display(e.host.File(e.env, e.scope)))
		return exitOK
	}
	for _, c := range changes {
		if !e.apply(c, stdout, stderr) {
			return exitUsage
		}
		if !c.Changed() {
			// Another baton took them out meanwhile.
			printRemovedDirs(stdout, e, c)
			continue
		}
		verb := "removed"
		if e.dryRun {
			verb = "would remove (--dry-run: nothing written)"
		}
		for _, r := range c.Removed {
			fmt.Fprintf(stdout, "baton: %s from %s: %s\n", verb, e.display(c.Path), r)
		}
		if c.Delete {
			what := "removed"
			if e.dryRun {
				what = "would remove"
			}
			fmt.Fprintf(stdout, "baton: %s %s: install made it, and nothing else is in it\n", what, e.display(c.Path))
		}
		printRemovedDirs(stdout, e, c)
	}
	return exitOK
}

// printRemovedDirs says which folders install had made the uninstall
// removed with the file.
func printRemovedDirs(w io.Writer, e *hookEdit, c *hostsettings.Change) {
	for _, d := range c.RemovedDirs {
		fmt.Fprintf(w, "baton: removed the folder %s/: install made it, and nothing else is in it\n", e.display(d))
	}
}

// parseStatus reads the flags hook status and mcp status share: --json
// and --dir; and gives the environment and the scopes to report (the
// project's, unless it is the home folder, and the user's).
func parseStatus(name string, args []string, usage string, stdout, stderr io.Writer) (env hostsettings.Env, scopes []hostsettings.Scope, asJSON bool, code int, ok bool) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.BoolVar(&asJSON, "json", false, "")
	dir := fl.String("dir", ".", "")
	if code, ok := parseFlags(fl, args, usage, stdout, stderr); !ok {
		return env, nil, false, code, false
	}
	env, err := projectEnv(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return env, nil, false, exitUsage, false
	}
	scopes = []hostsettings.Scope{hostsettings.Project, hostsettings.User}
	if env.Project == env.Home {
		scopes = scopes[1:]
	}
	return env, scopes, asJSON, 0, true
}

func runHookStatus(args []string, stdout, stderr io.Writer) int {
	env, scopes, asJSON, code, ok := parseStatus("hook status", args, hookStatusUsage, stdout, stderr)
	if !ok {
		return code
	}
	reports := []hostsettings.Report{}
	for _, scope := range scopes {
		for _, h := range hosts.Settings() {
			if r, found := h.Status(env, scope); found {
				reports = append(reports, r)
			}
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Project string                `json:"project"`
			Home    string                `json:"home"`
			Hosts   []hostsettings.Report `json:"hosts"`
		}{env.Project, env.Home, reports}); err != nil {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	for _, scope := range scopes {
		root := env.Project
		if scope == hostsettings.User {
			root = env.Home
		}
		fmt.Fprintf(stdout, "%s (%s):\n", scope, root)
		// The hosts' rows are aligned as a table; each row's details
		// follow it, indented, outside the table, so that a long detail
		// does not widen the columns.
		var rows bytes.Buffer
		tw := tabwriter.NewWriter(&rows, 2, 8, 2, ' ', 0)
		var details [][]string
		for _, r := range reports {
			if r.Scope != scope {
				continue
			}
			files := make([]string, 0, len(r.Files))
			for _, f := range r.Files {
				files = append(files, displayPath(env, scope, f))
			}
			where := strings.Join(files, ", ")
			if where == "" {
				where = displayPath(env, scope, r.Dir) + "/ (no settings file)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Title, where, r.Installed, statusPosture(r))
			details = append(details, statusDetails(r))
		}
		tw.Flush()
		if len(details) == 0 {
			fmt.Fprintln(stdout, "  no agent host found")
			continue
		}
		for i, row := range strings.SplitAfter(strings.TrimSuffix(rows.String(), "\n"), "\n") {
			fmt.Fprintln(stdout, strings.TrimSuffix(row, "\n"))
			for _, d := range details[i] {
				fmt.Fprintf(stdout, "      %s\n", d)
			}
		}
	}
	return exitOK
}

// statusDetails are the lines status prints under a host's row: what its
// stop hook blocks and lets through, whether the host will run it, and
// what keeps it from running.
func statusDetails(r hostsettings.Report) []string {
	var d []string
	if en := r.Enforcement; en != nil && r.Off == "" {
		blocks := "nothing here (not a specrew project; no --lint, no --require-packet)"
		if !en.Nothing() {
			blocks = strings.Join(en.Blocks, "; ")
		}
		d = append(d, en.Command+" blocks: "+blocks)
		if len(en.Passes) > 0 {
			d = append(d, "lets through: "+strings.Join(en.Passes, "; "))
		}
	}
	if t := r.Trust; t != nil && !t.Runs {
		d = append(d, "not run: "+t.Detail, "to have it run: "+t.Fix)
	} else if t != nil && t.State != "trusted" && t.State != "not required" {
		d = append(d, "trust: "+t.Detail)
	}
	if r.Installed == "partly" {
		var missing []string
		for _, hs := range r.Hooks {
			if !hs.Installed {
				missing = append(missing, hs.Event+" → "+hs.Command)
			}
		}
		d = append(d, "missing: "+strings.Join(missing, ", "))
	}
	if r.Off != "" {
		d = append(d, "hooks turned off: "+r.Off)
	}
	if r.Error != "" {
		d = append(d, "cannot read: "+r.Error)
	}
	return d
}

// statusPosture is a report's posture as status prints it: the posture
// now and, when that is less than the host can give, what would give it.
func statusPosture(r hostsettings.Report) string {
	p := string(r.Posture)
	if r.Posture == r.Capable {
		return p
	}
	switch {
	case r.Installed == "not installed" || r.Installed == "partly":
		return p + fmt.Sprintf(" (%s with baton's hook)", r.Capable)
	case r.Off != "":
		return p + fmt.Sprintf(" (%s with hooks on)", r.Capable)
	case r.Trust != nil && !r.Trust.Runs:
		return p + fmt.Sprintf(" (%s once trusted)", r.Capable)
	case r.Enforcement != nil && r.Enforcement.Nothing():
		return p + fmt.Sprintf(" (%s with --lint or --require-packet)", r.Capable)
	}
	return p
}
