package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// baton mcp install | uninstall | status: baton's MCP server in the agent
// hosts' MCP settings. The hosts' files and the editing are
// internal/hostsettings' (mcp.go); what each command does, reads and
// writes is its entry in the help table (mcp.go).

const mcpInstallUsage = `usage: baton mcp install --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help mcp install says what it reads, writes and exits with)
`

const mcpUninstallUsage = `usage: baton mcp uninstall --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help mcp uninstall says what it reads, writes and exits with)
`

const mcpStatusUsage = `usage: baton mcp status [--json] [--dir DIR]
(baton help mcp status says what it reads, writes and exits with)
`

type mcpEdit struct {
	hookEdit // scope, env, dry run, display and apply
	mcpHost  *hostsettings.MCPHost
}

func parseMCPEdit(name string, args []string, usage string, stdout, stderr io.Writer) (*mcpEdit, int, bool) {
	fl := flag.NewFlagSet("mcp "+name, flag.ContinueOnError)
	var target editTarget
	target.define(fl)
	if code, ok := parseFlags(fl, args, usage, stdout, stderr); !ok {
		return nil, code, false
	}
	scope, env, ok := target.resolve("mcp "+name, hosts.MCPIDs(), stderr)
	if !ok {
		return nil, exitUsage, false
	}
	return &mcpEdit{hookEdit: hookEdit{scope: scope, env: env, dryRun: target.dryRun}, mcpHost: hosts.MCPOf(target.host)}, 0, true
}

func runMCPInstall(args []string, stdout, stderr io.Writer) int {
	e, code, ok := parseMCPEdit("install", args, mcpInstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	path := e.mcpHost.File(e.env, e.scope)
	name := e.display(path)
	c, err := e.mcpHost.PlanInstall(e.env, path)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	if c.Changed() && !e.apply(c.Change, stdout, stderr) {
		return exitUsage
	}
	switch c.Was {
	case hostsettings.Present:
		fmt.Fprintf(stdout, "baton: %s's MCP server baton is already in %s (%s): nothing to change\n", e.mcpHost.Title, name, c.Command)
		printMCPTrust(stdout, e.mcpHost, e.mcpHost.Trust(e.env, e.scope))
		return exitOK
	case hostsettings.Foreign:
		fmt.Fprintf(stderr, "baton: warning: %s already has a server named %s that runs %q, not %s; it is left as it is\n", name, hostsettings.ServerName, c.Command, hostsettings.Line())
		return exitOK
	}
	verb := "added"
	if e.dryRun {
		verb = "would add (--dry-run: nothing written)"
	}
	fmt.Fprintf(stdout, "baton: %s to %s: MCP server %s → %s\n", verb, name, hostsettings.ServerName, hostsettings.Line())
	if !e.dryRun {
		printMCPTrust(stdout, e.mcpHost, e.mcpHost.Trust(e.env, e.scope))
	}
	if runMCP([]string{"--help"}, strings.NewReader(""), io.Discard, io.Discard) != exitOK {
		fmt.Fprintf(stderr, "baton: warning: this baton has no working `%s`; update baton before %s starts it\n", hostsettings.Line(), e.mcpHost.Title)
	}
	return exitOK
}

func runMCPUninstall(args []string, stdout, stderr io.Writer) int {
	e, code, ok := parseMCPEdit("uninstall", args, mcpUninstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	path := e.mcpHost.File(e.env, e.scope)
	name := e.display(path)
	c, err := e.mcpHost.PlanUninstall(e.env, path)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	if c.Changed() && !e.apply(c.Change, stdout, stderr) {
		return exitUsage
	}
	switch c.Was {
	case hostsettings.Absent:
		fmt.Fprintf(stdout, "baton: no MCP server of baton's in %s: nothing to change\n", name)
		printRemovedDirs(stdout, &e.hookEdit, c.Change)
		return exitOK
	case hostsettings.Foreign:
		fmt.Fprintf(stdout, "baton: the server named %s in %s runs %q, not baton's server: left as it is\n", hostsettings.ServerName, name, c.Command)
		return exitOK
	}
	verb := "removed"
	if e.dryRun {
		verb = "would remove (--dry-run: nothing written)"
	}
	fmt.Fprintf(stdout, "baton: %s from %s: MCP server %s → %s\n", verb, name, hostsettings.ServerName, c.Command)
	if c.Delete {
		what := "removed"
		if e.dryRun {
			what = "would remove"
		}
		fmt.Fprintf(stdout, "baton: %s %s: install made it, and nothing else is in it\n", what, name)
	}
	printRemovedDirs(stdout, &e.hookEdit, c.Change)
	return exitOK
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

func runMCPStatus(args []string, stdout, stderr io.Writer) int {
	env, scopes, asJSON, code, ok := parseStatus("mcp status", args, mcpStatusUsage, stdout, stderr)
	if !ok {
		return code
	}
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
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Project string          `json:"project"`
			Home    string          `json:"home"`
			Hosts   []mcpStatusJSON `json:"hosts"`
		}{env.Project, env.Home, rows}); err != nil {
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
	return exitOK
}
