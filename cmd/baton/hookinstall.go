package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/baton-md/baton/internal/hostsettings"
)

// baton hook install | uninstall | status: baton's stop hooks in the agent
// hosts' settings files. The editing, the hosts' file locations and shapes
// and their enforcement postures are internal/hostsettings'. What each
// command does, reads and writes is its entry in the help table (help.go).

const hookInstallUsage = `usage: baton hook install --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help hook install says what it reads, writes and exits with)
`

const hookUninstallUsage = `usage: baton hook uninstall --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help hook uninstall says what it reads, writes and exits with)
`

const hookStatusUsage = `usage: baton hook status [--json] [--dir DIR]
(baton help hook status says what it reads, writes and exits with)
`

// parseFlags parses a subcommand's flags: --help prints its usage on
// standard output (exit 0), a bad flag its usage line on standard error.
func parseFlags(fl *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (int, bool) {
	fl.SetOutput(stderr)
	fl.Usage = func() {}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitOK, false
		}
		fmt.Fprintln(stderr, strings.SplitN(usage, "\n", 2)[0])
		return exitUsage, false
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "baton: unexpected argument %q\n%s\n", fl.Arg(0), strings.SplitN(usage, "\n", 2)[0])
		return exitUsage, false
	}
	return 0, true
}

type hookEdit struct {
	host   *hostsettings.Host
	scope  hostsettings.Scope
	env    hostsettings.Env
	dryRun bool
}

func parseHookEdit(name string, args []string, usage string, stdout, stderr io.Writer) (*hookEdit, int, bool) {
	fl := flag.NewFlagSet("hook "+name, flag.ContinueOnError)
	host := fl.String("host", "", "")
	project := fl.Bool("project", false, "")
	user := fl.Bool("user", false, "")
	dryRun := fl.Bool("dry-run", false, "")
	dir := fl.String("dir", ".", "")
	if code, ok := parseFlags(fl, args, usage, stdout, stderr); !ok {
		return nil, code, false
	}
	h := hostsettings.Lookup(*host)
	if h == nil {
		if *host == "" {
			fmt.Fprintf(stderr, "baton: hook %s needs --host: one of %s\n", name, strings.Join(hostsettings.Names(), ", "))
		} else {
			fmt.Fprintf(stderr, "baton: unknown host %q: want one of %s\n", *host, strings.Join(hostsettings.Names(), ", "))
		}
		return nil, exitUsage, false
	}
	if *project && *user {
		fmt.Fprintln(stderr, "baton: --project and --user: choose one")
		return nil, exitUsage, false
	}
	env, err := hostsettings.DefaultEnv(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return nil, exitUsage, false
	}
	scope := hostsettings.Project
	if *user {
		scope = hostsettings.User
	}
	return &hookEdit{host: h, scope: scope, env: env, dryRun: *dryRun}, 0, true
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

// apply prints the change's diff, then writes it unless this is a dry run.
func (e *hookEdit) apply(c *hostsettings.Change, stdout, stderr io.Writer) bool {
	if err := c.Writable(); err != nil && !e.dryRun {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return false
	}
	stdout.Write(c.Diff(e.display(c.Path)))
	if e.dryRun {
		return true
	}
	if err := c.Apply(); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return false
	}
	return true
}

func runHookInstall(args []string, stdout, stderr io.Writer) int {
	e, code, ok := parseHookEdit("install", args, hookInstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	path := e.host.File(e.env, e.scope)
	if r, found := e.host.Status(e.env, e.scope); found && r.Installed == "installed" && len(r.Files) > 1 {
		// Copilot reads every file of its hooks folder: baton's hook in
		// another of them is installed already.
		fmt.Fprintf(stdout, "baton: %s's hooks are already in %s: nothing to change\n", e.host.Title, e.display(filepath.Dir(path)))
		return exitOK
	}
	c, err := e.host.PlanInstall(path)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	name := e.display(path)
	if !c.Changed() {
		fmt.Fprintf(stdout, "baton: %s's hooks are already in %s: nothing to change\n", e.host.Title, name)
		return exitOK
	}
	if !e.apply(c, stdout, stderr) {
		return exitUsage
	}
	verb := "added"
	if e.dryRun {
		verb = "would add (--dry-run: nothing written)"
	}
	for _, hk := range c.Added {
		fmt.Fprintf(stdout, "baton: %s to %s: %s → %s\n", verb, name, hk.Event, hk.Command())
	}
	for _, hk := range c.Already {
		fmt.Fprintf(stdout, "baton: already in %s: %s → %s\n", name, hk.Event, hk.Command())
	}
	for _, hk := range c.Added {
		// The host will run the command at every stop: say so if this
		// baton cannot.
		if runHook([]string{hk.Sub, "--help"}, strings.NewReader(""), io.Discard, io.Discard) != exitOK {
			fmt.Fprintf(stderr, "baton: warning: this baton has no working `%s`; update baton before %s runs it\n", hk.Command(), e.host.Title)
		}
	}
	if !e.dryRun {
		fmt.Fprintf(stdout, "baton: %s now enforces the stop contract: %s (%s)\n", e.host.Title, e.host.Posture, e.host.Why)
		if e.host.Note != "" {
			fmt.Fprintf(stdout, "baton: %s\n", e.host.Note)
		}
	}
	return exitOK
}

func runHookUninstall(args []string, stdout, stderr io.Writer) int {
	e, code, ok := parseHookEdit("uninstall", args, hookUninstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	paths := e.host.Files(e.env, e.scope)
	var changes []*hostsettings.Change
	for _, p := range paths {
		c, err := e.host.PlanUninstall(p)
		if err != nil && p != e.host.File(e.env, e.scope) {
			// Another hooks file beside baton's (Copilot's folder): say so
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
			fmt.Fprintf(stdout, "baton: %s %s: nothing else was in it\n", what, e.display(c.Path))
		}
	}
	return exitOK
}

func runHookStatus(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hook status", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "")
	dir := fl.String("dir", ".", "")
	if code, ok := parseFlags(fl, args, hookStatusUsage, stdout, stderr); !ok {
		return code
	}
	env, err := hostsettings.DefaultEnv(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	scopes := []hostsettings.Scope{hostsettings.Project, hostsettings.User}
	if env.Project == env.Home {
		scopes = scopes[1:]
	}
	reports := []hostsettings.Report{}
	for _, scope := range scopes {
		for _, h := range hostsettings.Hosts {
			if r, found := h.Status(env, scope); found {
				reports = append(reports, r)
			}
		}
	}
	if *asJSON {
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
		tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
		n := 0
		for _, r := range reports {
			if r.Scope != scope {
				continue
			}
			n++
			files := make([]string, 0, len(r.Files))
			for _, f := range r.Files {
				files = append(files, displayPath(env, scope, f))
			}
			where := strings.Join(files, ", ")
			if where == "" {
				where = displayPath(env, scope, r.Dir) + "/ (no settings file)"
			}
			posture := string(r.Posture)
			if r.Posture != r.Capable {
				posture += fmt.Sprintf(" (%s with baton's hook)", r.Capable)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Title, where, r.Installed, posture)
			if r.Installed == "partly" {
				var missing []string
				for _, hs := range r.Hooks {
					if !hs.Installed {
						missing = append(missing, hs.Event+" → "+hs.Command)
					}
				}
				fmt.Fprintf(tw, "  \t  missing: %s\t\t\n", strings.Join(missing, ", "))
			}
			if r.Off != "" {
				fmt.Fprintf(tw, "  \t  hooks turned off: %s\t\t\n", r.Off)
			}
			if r.Error != "" {
				fmt.Fprintf(tw, "  \t  cannot read: %s\t\t\n", r.Error)
			}
		}
		tw.Flush()
		if n == 0 {
			fmt.Fprintln(stdout, "  no agent host found")
		}
	}
	return exitOK
}
