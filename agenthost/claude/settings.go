package claude

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/internal/safefile"
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
	PackagedHooks: pluginHooks,
	ProjectFile:   func(e hostsettings.Env) string { return filepath.Join(e.Project, ".claude", "settings.json") },
	UserFile:      func(e hostsettings.Env) string { return filepath.Join(e.Home, ".claude", "settings.json") },
	ProjectDir:    func(e hostsettings.Env) string { return filepath.Join(e.Project, ".claude") },
	UserDir:       func(e hostsettings.Env) string { return filepath.Join(e.Home, ".claude") },
}

// pluginHooks is the hooks/hooks.json of baton's plugin as Claude Code
// installed it for the scope: ~/.claude/plugins/installed_plugins.json
// (version 2) lists, by "plugin@marketplace", the installs, each with its
// scope ("user", or "project" and "local" with the project's path) and
// the folder it was copied to (installPath). The install for the scope
// is preferred, else any.
func pluginHooks(e hostsettings.Env, s hostsettings.Scope) string {
	data, err := safefile.ReadFile(filepath.Join(e.Home, ".claude", "plugins", "installed_plugins.json"), 4<<20)
	if err != nil {
		return ""
	}
	var installed struct {
		Plugins map[string][]struct {
			Scope       string `json:"scope"`
			ProjectPath string `json:"projectPath"`
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if json.Unmarshal(data, &installed) != nil {
		return ""
	}
	keys := make([]string, 0, len(installed.Plugins))
	for k := range installed.Plugins {
		if strings.HasPrefix(k, "baton@") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	other := ""
	for _, k := range keys {
		for _, in := range installed.Plugins[k] {
			if in.InstallPath == "" {
				continue
			}
			if other == "" {
				other = filepath.Join(in.InstallPath, "hooks", "hooks.json")
			}
			user := in.Scope == "user" || in.Scope == ""
			if (s == hostsettings.User) != user {
				continue
			}
			if !user && filepath.Clean(in.ProjectPath) != filepath.Clean(e.Project) {
				continue
			}
			return filepath.Join(in.InstallPath, "hooks", "hooks.json")
		}
	}
	// Enabled in this scope's settings, installed for another: the same
	// plugin's hooks.
	return other
}

// mcp is Claude Code's MCP settings (code.claude.com/docs/en/mcp): a
// project's .mcp.json, the user's ~/.claude.json, {"mcpServers": {NAME:
// {"type": "stdio", "command", "args"}}}.
var mcp = &hostsettings.MCPHost{
	Name: "claude", Title: "Claude Code",
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".mcp.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(e.Home, ".claude.json") },
	Entry:       hostsettings.Object("type", "stdio", "command", hostsettings.ServerCommand, "args", hostsettings.Args()),
	Approval:    MCPApproval,
}
