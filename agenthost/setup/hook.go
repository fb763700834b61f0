// Package setup is what `baton hook install | uninstall | status` and
// `baton mcp install | uninstall | status` do, for every agent host: plan
// the edit of the host's settings (each host describes its files and
// entries in its own package; internal/hostsettings edits them, under the
// file's lock, recording what install made so that uninstall takes out
// that and nothing else), apply it unless it is a dry run, and say what
// changed and what the host will enforce or start now. cmd/baton parses
// the flags and calls it.
package setup

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

// Exit statuses.
const (
	ExitOK    = 0
	ExitUsage = 2 // bad usage, or a settings file that cannot be edited
)

// An Edit is where an install or uninstall writes: the scope, the
// environment it is in, and whether it is a dry run.
type Edit struct {
	Scope  hostsettings.Scope
	Env    hostsettings.Env
	DryRun bool
}

// A Target is the flags hook and mcp install and uninstall share: the
// host, the scope, the folder, a dry run.
type Target struct {
	Host                  string
	Project, User, DryRun bool
	Dir                   string
}

// Define defines the target's flags on fl (their help is the help
// table's).
func (t *Target) Define(fl *flag.FlagSet) {
	fl.StringVar(&t.Host, "host", "", "")
	fl.BoolVar(&t.Project, "project", false, "")
	fl.BoolVar(&t.User, "user", false, "")
	fl.BoolVar(&t.DryRun, "dry-run", false, "")
	fl.StringVar(&t.Dir, "dir", ".", "")
}

// Resolve checks that the host is one of ids and one scope is asked for,
// and gives the edit; cmd names the command in the errors ("hook
// install").
func (t *Target) Resolve(cmd string, ids []string, stderr io.Writer) (Edit, bool) {
	if !slices.Contains(ids, t.Host) {
		if t.Host == "" {
			fmt.Fprintf(stderr, "baton: %s needs --host: one of %s\n", cmd, strings.Join(ids, ", "))
		} else {
			fmt.Fprintf(stderr, "baton: unknown host %q: want one of %s\n", t.Host, strings.Join(ids, ", "))
		}
		return Edit{}, false
	}
	if t.Project && t.User {
		fmt.Fprintln(stderr, "baton: --project and --user: choose one")
		return Edit{}, false
	}
	env, err := ProjectEnv(t.Dir)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return Edit{}, false
	}
	if t.User {
		return Edit{Scope: hostsettings.User, Env: env, DryRun: t.DryRun}, true
	}
	return Edit{Scope: hostsettings.Project, Env: env, DryRun: t.DryRun}, true
}

// ProjectEnv is the environment of the project folder --dir names,
// which must be there: a mistyped --dir would otherwise be made by the
// write, or inside a Git work tree name that work tree's root, and the
// settings land where nobody asked for them.
func ProjectEnv(dir string) (hostsettings.Env, error) {
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

// display names a settings file as people read it: relative to the
// project, or under ~ for the home folder.
func (e *Edit) display(path string) string { return displayPath(e.Env, e.Scope, path) }

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
func (e *Edit) apply(c *hostsettings.Change, stdout, stderr io.Writer) bool {
	if !e.DryRun {
		if err := c.Apply(); err != nil {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			return false
		}
	}
	stdout.Write(c.Diff(e.display(c.Path)))
	return true
}

// HookInstall adds baton's hooks to host h's settings where e says, with
// install's flags opts, and says what it changed and what the host will
// enforce now; works reports whether this baton runs a hook's command
// line (its arguments with --help), so that a hook the host would fail to
// run is warned of. It returns the exit status.
func HookInstall(e Edit, h *hostsettings.Host, opts hostsettings.Options, works func(args []string) bool, stdout, stderr io.Writer) int {
	path := h.File(e.Env, e.Scope)
	if r, found := h.Status(e.Env, e.Scope); found && r.Installed == "installed" && len(r.Files) > 1 {
		// A host that reads every file of its hooks folder
		// (FolderOfFiles): baton's hook in another of them is installed
		// already.
		fmt.Fprintf(stdout, "baton: %s's hooks are already in %s: nothing to change (their flags are as that file has them)\n", h.Title, e.display(filepath.Dir(path)))
		printEnforcement(stdout, h, r)
		return ExitOK
	}
	program, note, warn := HookProgram(LookPath, Executable)
	opts.Program = program
	c, err := h.PlanInstall(e.Env, path, opts)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return ExitUsage
	}
	name := e.display(path)
	if warn != "" {
		fmt.Fprintf(stderr, "baton: warning: %s\n", warn)
	} else if program != "" && len(c.Already)+len(c.Updated) > 0 {
		// Hooks already there keep the program they name: one that runs
		// `baton` will not start while none is on PATH.
		if r, found := h.Status(e.Env, e.Scope); found {
			for _, hs := range r.Hooks {
				if hs.Installed && strings.HasPrefix(hs.Command, "baton ") {
					fmt.Fprintf(stderr, "baton: warning: %s runs `%s`, and no baton is on PATH: %s will fail to start it; put baton on PATH, or run hook uninstall, then hook install, to have it run %s\n", name, hs.Command, h.Title, program)
				}
			}
		}
	}
	if c.Changed() && !e.apply(c, stdout, stderr) {
		return ExitUsage
	}
	if !c.Changed() {
		fmt.Fprintf(stdout, "baton: %s's hooks are already in %s: nothing to change\n", h.Title, name)
		if r, found := h.Status(e.Env, e.Scope); found {
			printEnforcement(stdout, h, r)
		}
		return ExitOK
	}
	verb, changed := "added", "changed"
	if e.DryRun {
		verb, changed = "would add (--dry-run: nothing written)", "would change (--dry-run: nothing written)"
	}
	for _, hk := range c.Added {
		fmt.Fprintf(stdout, "baton: %s to %s: %s → %s\n", verb, name, hk.Event, hk.Line(opts))
	}
	for _, u := range c.Updated {
		fmt.Fprintf(stdout, "baton: %s in %s: %s → %s (was %s)\n", changed, name, u.Event, u.New, u.Old)
	}
	for _, hk := range c.Already {
		fmt.Fprintf(stdout, "baton: already in %s: %s → %s\n", name, hk.Event, hk.Line(opts))
	}
	if note != "" && len(c.Added) > 0 {
		fmt.Fprintf(stdout, "baton: %s\n", note)
	}
	for _, hk := range c.Added {
		// The host will run the command at every stop: say so if this
		// baton cannot.
		if !works(append([]string{hk.Sub}, opts.Args(hk.Stop())...)) {
			fmt.Fprintf(stderr, "baton: warning: this baton has no working `%s`; update baton before %s runs it\n", hk.Line(opts), h.Title)
		}
	}
	if !e.DryRun {
		if r, found := h.Status(e.Env, e.Scope); found {
			printEnforcement(stdout, h, r)
		}
	}
	return ExitOK
}

// LookPath and Executable find baton on PATH and this program's path
// (a test gives its own).
var (
	LookPath   = exec.LookPath
	Executable = os.Executable
)

// HookProgram is the program the installed hooks run, as
// hostsettings.Options.Program takes it: "" for `baton` when one is on
// PATH (the host runs the hook with the user's PATH); else the absolute
// path of this baton, with a note saying so. When this baton cannot be
// named either (its name is not baton, its path holds a space, or it is
// a temporary build of go run), the hooks run `baton`, and warn says the
// host will not find it until one is on PATH.
func HookProgram(lookPath func(string) (string, error), executable func() (string, error)) (program, note, warn string) {
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

// HookUninstall takes baton's hooks out of host h's settings where e
// says, and nothing else, and says what it removed. It returns the exit
// status.
func HookUninstall(e Edit, h *hostsettings.Host, stdout, stderr io.Writer) int {
	paths := h.Files(e.Env, e.Scope)
	var changes []*hostsettings.Change
	for _, p := range paths {
		c, err := h.PlanUninstall(e.Env, p)
		if err != nil && p != h.File(e.Env, e.Scope) {
			// Another hooks file beside baton's (a FolderOfFiles host): say so
			// and go on with the others.
			fmt.Fprintf(stderr, "baton: %v; if it holds a hook of baton's, take it out by hand\n", err)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			return ExitUsage
		}
		if c.Changed() {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		fmt.Fprintf(stdout, "baton: no hook of baton's in %s: nothing to change\n", e.display(h.File(e.Env, e.Scope)))
		return ExitOK
	}
	for _, c := range changes {
		if !e.apply(c, stdout, stderr) {
			return ExitUsage
		}
		if !c.Changed() {
			// Another baton took them out meanwhile.
			printRemovedDirs(stdout, &e, c)
			continue
		}
		verb := "removed"
		if e.DryRun {
			verb = "would remove (--dry-run: nothing written)"
		}
		for _, r := range c.Removed {
			fmt.Fprintf(stdout, "baton: %s from %s: %s\n", verb, e.display(c.Path), r)
		}
		if c.Delete {
			what := "removed"
			if e.DryRun {
				what = "would remove"
			}
			fmt.Fprintf(stdout, "baton: %s %s: install made it, and nothing else is in it\n", what, e.display(c.Path))
		}
		printRemovedDirs(stdout, &e, c)
	}
	return ExitOK
}

// printRemovedDirs says which folders install had made the uninstall
// removed with the file.
func printRemovedDirs(w io.Writer, e *Edit, c *hostsettings.Change) {
	for _, d := range c.RemovedDirs {
		fmt.Fprintf(w, "baton: removed the folder %s/: install made it, and nothing else is in it\n", e.display(d))
	}
}

// Scopes are the scopes status reports in env: the project's, unless it
// is the home folder, and the user's.
func Scopes(env hostsettings.Env) []hostsettings.Scope {
	if env.Project == env.Home {
		return []hostsettings.Scope{hostsettings.User}
	}
	return []hostsettings.Scope{hostsettings.Project, hostsettings.User}
}

// HookStatus reports every host's hooks in env, in each of its scopes
// (Scopes), as a table or as JSON. It returns the exit status.
func HookStatus(env hostsettings.Env, asJSON bool, stdout, stderr io.Writer) int {
	scopes := Scopes(env)
	reports := []hostsettings.Report{}
	for _, scope := range scopes {
		for _, h := range hosts.Settings() {
			if r, found := h.Status(env, scope); found {
				reports = append(reports, r)
			}
		}
	}
	if asJSON {
		return writeStatusJSON(env, reports, stdout, stderr)
	}
	for _, scope := range scopes {
		fmt.Fprintf(stdout, "%s (%s):\n", scope, scopeRoot(env, scope))
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
	return ExitOK
}

// writeStatusJSON prints a status report, the hosts' rows in hosts, as
// JSON on stdout, and returns the exit status.
func writeStatusJSON[R any](env hostsettings.Env, hosts []R, stdout, stderr io.Writer) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Project string `json:"project"`
		Home    string `json:"home"`
		Hosts   []R    `json:"hosts"`
	}{env.Project, env.Home, hosts}); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return ExitUsage
	}
	return ExitOK
}

// scopeRoot is the folder a scope's settings are under: the project's, or
// the home folder.
func scopeRoot(env hostsettings.Env, scope hostsettings.Scope) string {
	if scope == hostsettings.User {
		return env.Home
	}
	return env.Project
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
