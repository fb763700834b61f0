package main

import (
	"flag"
	"io"
	"strings"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/agenthost/setup"
	"github.com/baton-md/baton/internal/hostsettings"
)

// baton mcp install | uninstall | status: their flags (hookinstall.go
// parses the ones they share with hook's); what they do is package
// agenthost/setup's, and what each reads and writes is its entry in the
// help table (mcp.go).

const mcpInstallUsage = `usage: baton mcp install --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help mcp install says what it reads, writes and exits with)
`

const mcpUninstallUsage = `usage: baton mcp uninstall --host HOST [--project | --user] [--dry-run] [--dir DIR]
(baton help mcp uninstall says what it reads, writes and exits with)
`

const mcpStatusUsage = `usage: baton mcp status [--json] [--dir DIR]
(baton help mcp status says what it reads, writes and exits with)
`

func parseMCPEdit(name string, args []string, usage string, stdout, stderr io.Writer) (setup.Edit, *hostsettings.MCPHost, int, bool) {
	fl := flag.NewFlagSet("mcp "+name, flag.ContinueOnError)
	var target setup.Target
	target.Define(fl)
	if code, ok := parseFlags(fl, args, usage, stdout, stderr); !ok {
		return setup.Edit{}, nil, code, false
	}
	e, ok := target.Resolve("mcp "+name, hosts.MCPIDs(), stderr)
	if !ok {
		return e, nil, exitUsage, false
	}
	return e, hosts.MCPOf(target.Host), 0, true
}

func runMCPInstall(args []string, stdout, stderr io.Writer) int {
	e, h, code, ok := parseMCPEdit("install", args, mcpInstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	works := func() bool {
		return runMCP([]string{"--help"}, strings.NewReader(""), io.Discard, io.Discard) == exitOK
	}
	return setup.MCPInstall(e, h, works, stdout, stderr)
}

func runMCPUninstall(args []string, stdout, stderr io.Writer) int {
	e, h, code, ok := parseMCPEdit("uninstall", args, mcpUninstallUsage, stdout, stderr)
	if !ok {
		return code
	}
	return setup.MCPUninstall(e, h, stdout, stderr)
}

func runMCPStatus(args []string, stdout, stderr io.Writer) int {
	env, asJSON, code, ok := parseStatus("mcp status", args, mcpStatusUsage, stdout, stderr)
	if !ok {
		return code
	}
	return setup.MCPStatus(env, asJSON, stdout, stderr)
}
