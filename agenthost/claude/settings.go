package claude

import (
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/internal/hostsettings"
)

// settings are Claude Code's hooks, per the hooks reference
// (code.claude.com/docs/en/hooks), as of December 2026: settings in
// ~/.claude/settings.json and .claude/settings.json, each event a list of
// matcher groups of {"type": "command", "command", "timeout" (seconds)};
// Stop can block with {"decision": "block"}.
var settings = &hostsettings.Host{
	Name: "claude", Title: "Claude Code",
	Posture: hostsettings.Hard, Why: "its Stop hook reads the final message and can block the stop",
	Hooks: []hostsettings.Hook{
		{Event: "UserPromptSubmit", Sub: "claude-prompt", Entry: hostsettings.Command(20)},
		{Event: "PostToolUse", Sub: "claude-tool", Entry: hostsettings.Command(20)},
		{Event: "Stop", Sub: "claude-stop", Entry: hostsettings.Command(20)},
	},
	Grouped: true, CmdKeys: []string{"command"},
	Off: func(_ []byte, root *hostsettings.Value) string {
		if root.Get("disableAllHooks").True() {
			return "disableAllHooks is true"
		}
		return ""
	},
	// The settings' enabledPlugins holds "plugin@marketplace": true for an
	// installed plugin (Claude Code's settings reference).
	Packaged: func(_ hostsettings.Env, _ hostsettings.Scope, text []byte, root *hostsettings.Value) string {
		for _, m := range root.Get("enabledPlugins").Members() {
			if strings.HasPrefix(m.Key, "baton@") && m.Value.True() {
				return "the plugin " + m.Key
			}
		}
		return ""
	},
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".claude", "settings.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(e.Home, ".claude", "settings.json") },
	ProjectDir:  func(e hostsettings.Env) string { return filepath.Join(e.Project, ".claude") },
	UserDir:     func(e hostsettings.Env) string { return filepath.Join(e.Home, ".claude") },
}

// mcp is Claude Code's MCP settings (code.claude.com/docs/en/mcp): a
// project's .mcp.json, the user's ~/.claude.json, {"mcpServers": {NAME:
// {"type": "stdio", "command", "args"}}}.
var mcp = &hostsettings.MCPHost{
	Name: "claude", Title: "Claude Code",
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".mcp.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(e.Home, ".claude.json") },
	Entry:       hostsettings.Object("type", "stdio", "command", hostsettings.ServerCommand, "args", hostsettings.Args()),
	Approval:    hostsettings.ClaudeMCPApproval,
}
