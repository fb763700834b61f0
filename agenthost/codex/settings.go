package codex

import (
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
)

// settings are Codex's hooks (developers.openai.com/codex/hooks), as of
// December 2026: ~/.codex/hooks.json ($CODEX_HOME) and
// <repo>/.codex/hooks.json, of matcher groups (Grouped); Stop can answer
// {"decision": "block", "reason"}, and Codex goes on with the reason as a
// new prompt. Codex runs a project's hooks once it trusts them
// (Trust).
var settings = &hostsettings.Host{
	Name: "codex", Title: "Codex",
	Posture: hostsettings.Hard, Why: "its Stop hook reads the final message and can block, continuing with the reason",
	Hooks: []hostsettings.Hook{
		{Event: "UserPromptSubmit", Sub: "codex-prompt", Entry: hostsettings.Command(20)},
		{Event: "Stop", Sub: "codex-stop", Entry: hostsettings.Command(30)},
	},
	Grouped: true, CmdKeys: []string{"command"},
	TrustReader: Trust,
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".codex", "hooks.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(Home(e), "hooks.json") },
	ProjectDir:  func(e hostsettings.Env) string { return filepath.Join(e.Project, ".codex") },
	UserDir:     Home,
}

// mcp is Codex's MCP settings (developers.openai.com/codex/mcp):
// config.toml's [mcp_servers.NAME] tables, command and args, in
// $CODEX_HOME (default ~/.codex) or a trusted project's .codex/.
var mcp = &hostsettings.MCPHost{
	Name: "codex", Title: "Codex",
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".codex", "config.toml") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(Home(e), "config.toml") },
	Approval:    MCPTrust,
}
