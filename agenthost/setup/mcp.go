package setup

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// MCPInstall registers baton's MCP server in host h's MCP settings where
// e says, and says what it changed and whether the host will start it;
// works reports whether this baton serves MCP at all. It returns the exit
// status.
func MCPInstall(e Edit, h *hostsettings.MCPHost, works func() bool, stdout, stderr io.Writer) int {
	c, name, ok := e.planMCP(h, h.PlanInstall, stdout, stderr)
	if !ok {
		return ExitUsage
	}
	switch c.Was {
	case hostsettings.Present:
		fmt.Fprintf(stdout, "baton: %s's MCP server baton is already in %s (%s): nothing to change\n", h.Title, name, c.Command)
		printMCPTrust(stdout, h, h.Trust(e.Env, e.Scope))
		return ExitOK
	case hostsettings.Foreign:
		fmt.Fprintf(stderr, "baton: warning: %s already has a server named %s that runs %q, not %s; it is left as it is\n", name, hostsettings.ServerName, c.Command, hostsettings.Line())
		return ExitOK
	}
	verb := "added"
	if e.DryRun {
		verb = "would add (--dry-run: nothing written)"
	}
	fmt.Fprintf(stdout, "baton: %s to %s: MCP server %s → %s\n", verb, name, hostsettings.ServerName, hostsettings.Line())
	if !e.DryRun {
		printMCPTrust(stdout, h, h.Trust(e.Env, e.Scope))
	}
	if !works() {
		fmt.Fprintf(stderr, "baton: warning: this baton has no working `%s`; update baton before %s starts it\n", hostsettings.Line(), h.Title)
	}
	return ExitOK
}

// planMCP plans a change of h's MCP settings file where e says, and
// applies it (unless e is a dry run); name is the file as messages show
// it. ok is false when the plan or the write failed, said on stderr.
func (e *Edit) planMCP(h *hostsettings.MCPHost, plan func(hostsettings.Env, string) (*hostsettings.ServerChange, error), stdout, stderr io.Writer) (c *hostsettings.ServerChange, name string, ok bool) {
	path := h.File(e.Env, e.Scope)
	name = e.display(path)
	c, err := plan(e.Env, path)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return nil, name, false
	}
	if c.Changed() && !e.apply(c.Change, stdout, stderr) {
		return nil, name, false
	}
	return c, name, true
}

// MCPUninstall takes baton's MCP server out of host h's MCP settings
// where e says, and nothing else. It returns the exit status.
func MCPUninstall(e Edit, h *hostsettings.MCPHost, stdout, stderr io.Writer) int {
	c, name, ok := e.planMCP(h, h.PlanUninstall, stdout, stderr)
	if !ok {
		return ExitUsage
	}
	switch c.Was {
	case hostsettings.Absent:
		fmt.Fprintf(stdout, "baton: no MCP server of baton's in %s: nothing to change\n", name)
		printRemovedDirs(stdout, &e, c.Change)
		return ExitOK
	case hostsettings.Foreign:
		fmt.Fprintf(stdout, "baton: the server named %s in %s runs %q, not baton's server: left as it is\n", hostsettings.ServerName, name, c.Command)
		return ExitOK
	}
	verb := "removed"
	if e.DryRun {
		verb = "would remove (--dry-run: nothing written)"
	}
	fmt.Fprintf(stdout, "baton: %s from %s: MCP server %s → %s\n", verb, name, hostsettings.ServerName, c.Command)
	if c.Delete {
		what := "removed"
		if e.DryRun {
			what = "would remove"
		}
		fmt.Fprintf(stdout, "baton: %s %s: install made it, and nothing else is in it\n", what, name)
	}
	printRemovedDirs(stdout, &e, c.Change)
	return ExitOK
}

// printMCPTrust says whether the host will start the server it now has
// registered, and if not, what the person does about it.
func printMCPTrust(w io.Writer, h *hostsettings.MCPHost, t *hostsettings.Trust) {
	switch {
	case t == nil:
	case t.Runs:
		fmt.Fprintf(w, "baton: %s will start it (%s)\n", h.Title, t.Detail)
	default:
		fmt.Fprintf(w, "baton: %s will not start it yet: %s\n  to have it start: %s\n", h.Title, t.Detail, t.Fix)
	}
}

// mcpStatusJSON is one host's MCP settings file in one scope.
type mcpStatusJSON struct {
	Host    string `json:"host"`
	Title   string `json:"title"`
	Scope   string `json:"scope"`
	File    string `json:"file"`
	Exists  bool   `json:"exists"`
	State   string `json:"state"` // absent, present (baton mcp), foreign (another command named baton)
	Command string `json:"command"`
	// Trust is whether the host will start the server registered there
	// (only when it is).
	Trust *hostsettings.Trust `json:"trust,omitempty"`
	Error string              `json:"error,omitempty"`
}

// MCPStatus reports every host's MCP registration in env, in each of its
// scopes (Scopes), as a table or as JSON. It returns the exit status.
func MCPStatus(env hostsettings.Env, asJSON bool, stdout, stderr io.Writer) int {
	scopes := Scopes(env)
	rows := []mcpStatusJSON{}
	for _, scope := range scopes {
		for _, h := range hosts.MCP() {
			path := h.File(env, scope)
			st, line, exists, err := h.Status(path)
			r := mcpStatusJSON{Host: h.Name, Title: h.Title, Scope: string(scope), File: path, Exists: exists, State: string(st), Command: line}
			if err != nil {
				r.Error = err.Error()
			}
			if st == hostsettings.Present {
				r.Trust = h.Trust(env, scope)
			}
			rows = append(rows, r)
		}
	}
	if asJSON {
		return writeStatusJSON(env, rows, stdout, stderr)
	}
	for _, scope := range scopes {
		fmt.Fprintf(stdout, "%s (%s):\n", scope, scopeRoot(env, scope))
		tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
		for _, r := range rows {
			if r.Scope != string(scope) {
				continue
			}
			what := "not registered"
			switch {
			case r.Error != "":
				what = "cannot read: " + r.Error
			case !r.Exists:
				what = "not registered (no file)"
			case r.State == string(hostsettings.Present):
				what = "registered: " + r.Command
			case r.State == string(hostsettings.Foreign):
				what = "another server named baton: " + r.Command
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Title, displayPath(env, scope, r.File), what)
		}
		tw.Flush()
		for _, r := range rows {
			if r.Scope == string(scope) && r.Trust != nil && !r.Trust.Runs {
				fmt.Fprintf(stdout, "  %s will not start it: %s\n      to have it start: %s\n", r.Title, r.Trust.Detail, r.Trust.Fix)
			}
		}
	}
	return ExitOK
}
