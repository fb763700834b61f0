package copilot

import (
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
)

// settings are GitHub Copilot's hooks
// (docs.github.com/en/copilot/reference/hooks-reference), as of December
// 2026: the CLI loads .github/hooks/*.json and ~/.copilot/hooks/*.json
// ($COPILOT_HOME/hooks), {"version": 1, "hooks": {"agentStop": [{"type":
// "command", "bash", "powershell", "timeoutSec"}]}}; agentStop can answer
// {"decision": "block", "reason"}, and the reason is enqueued as the next
// prompt. The cloud agent runs a subset of the events in its own sandbox.
var settings = &hostsettings.Host{
	Name: "copilot", Title: "GitHub Copilot CLI",
	Posture: hostsettings.Hard, Why: "the CLI's agentStop hook can block the stop, the reason becoming the next prompt (the cloud agent is not covered)",
	Note: "Copilot CLI loads .github/hooks/*.json from the folder it runs in; commit the file for others to get it",
	Hooks: []hostsettings.Hook{
		{Event: "userPromptSubmitted", Sub: "copilot-prompt", Entry: command(20)},
		{Event: "agentStop", Sub: "copilot-stop", Entry: command(30)},
	},
	CmdKeys: []string{"bash", "powershell"}, Version: true, FolderOfFiles: true,
	TrustReader: Trust,
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".github", "hooks", "baton.json") },
	UserFile: func(e hostsettings.Env) string {
		return filepath.Join(Home(e), "hooks", "baton.json")
	},
	ProjectDir: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".github", "hooks") },
	UserDir:    Home,
}

func command(timeout int) func(string) hostsettings.Obj {
	return func(line string) hostsettings.Obj {
		return hostsettings.Object("type", "command", "bash", line, "powershell", line, "timeoutSec", timeout)
	}
}

// mcp is Copilot CLI's MCP settings (docs.github.com/en/copilot/how-tos/
// copilot-cli/customize-copilot/add-mcp-servers): ~/.copilot/
// mcp-config.json ($COPILOT_HOME), and a repository's .github/mcp.json
// (its .mcp.json too, another host's file), {"mcpServers": {NAME:
// {"type": "local", "command", "args", "tools": ["*"]}}}.
var mcp = &hostsettings.MCPHost{
	Name: "copilot", Title: "GitHub Copilot CLI",
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".github", "mcp.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(Home(e), "mcp-config.json") },
	Entry:       hostsettings.Object("type", "local", "command", hostsettings.ServerCommand, "args", hostsettings.Args(), "tools", []any{"*"}),
	Approval:    MCPTrust,
}
