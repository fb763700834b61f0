package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/internal/safefile"
)

// settings are Gemini CLI's hooks (docs/hooks/reference.md in
// google-gemini/gemini-cli), as of December 2026: ~/.gemini/settings.json
// and .gemini/settings.json, "hooks" by event, groups of {"type":
// "command", "command", "name", "timeout" (milliseconds)}; AfterAgent can
// deny the response, and the reason goes to the agent as a new prompt to
// retry.
var settings = &hostsettings.Host{
	Name: "gemini", Title: "Gemini CLI",
	Posture: hostsettings.Hard, Why: "its AfterAgent hook reads the final response and can deny it, making the agent retry with the reason",
	Hooks: []hostsettings.Hook{
		{Event: "BeforeAgent", Sub: "gemini-prompt", Entry: func(line string) hostsettings.Obj {
			return hostsettings.Group(hostsettings.Object("name", "baton-turn", "type", "command", "command", line, "timeout", 20000))
		}},
		{Event: "AfterAgent", Sub: "gemini-stop", Entry: func(line string) hostsettings.Obj {
			return hostsettings.Group(hostsettings.Object("name", "baton", "type", "command", "command", line, "timeout", 30000))
		}},
	},
	Grouped: true, CmdKeys: []string{"command"},
	// An installed extension is a folder of ~/.gemini/extensions named as
	// it is (the extension reference, "Extension format"); a linked one
	// (gemini extensions link DIR) is that folder holding only
	// .gemini-extension-install.json, {"type": "link", "source": DIR},
	// and Gemini CLI reads the extension from DIR (as of 0.61).
	Packaged: func(e hostsettings.Env, s hostsettings.Scope, _ []byte, _ *hostsettings.Value) string {
		if s != hostsettings.User {
			return ""
		}
		dir, linked := extensionDir(e)
		if dir == "" {
			return ""
		}
		if linked {
			return "the extension linked from " + dir
		}
		return "the extension in " + dir
	},
	PackagedHooks: func(e hostsettings.Env, s hostsettings.Scope) string {
		if s != hostsettings.User {
			return ""
		}
		if dir, _ := extensionDir(e); dir != "" {
			return filepath.Join(dir, "hooks", "hooks.json")
		}
		return ""
	},
	Off: func(_ []byte, root *hostsettings.Value) string {
		// hooksConfig.enabled, and hooks.enabled in releases before it.
		for _, k := range []string{"hooksConfig", "hooks"} {
			if root.Get(k).Get("enabled").False() {
				return k + ".enabled is false"
			}
		}
		return ""
	},
	TrustReader: Trust,
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".gemini", "settings.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
	ProjectDir:  func(e hostsettings.Env) string { return filepath.Join(e.Project, ".gemini") },
	UserDir:     func(e hostsettings.Env) string { return filepath.Join(e.Home, ".gemini") },
}

// mcp is Gemini CLI's MCP settings (docs/tools/mcp-server.md in
// google-gemini/gemini-cli): settings.json's "mcpServers", {NAME:
// {"command", "args"}}, in ~/.gemini/ or the project's .gemini/.
var mcp = &hostsettings.MCPHost{
	Name: "gemini", Title: "Gemini CLI",
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".gemini", "settings.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
	Entry:       hostsettings.Object("command", hostsettings.ServerCommand, "args", hostsettings.Args()),
	Approval:    MCPTrust,
	UserToo:     true,
}

// extensionDir is the folder Gemini CLI reads baton's extension from, and
// whether it is linked there, or "" when the extension is not installed:
// ~/.gemini/extensions/baton, or the source its install record names
// when the record says the extension is linked.
func extensionDir(e hostsettings.Env) (dir string, linked bool) {
	dir = filepath.Join(e.Home, ".gemini", "extensions", "baton")
	if data, err := safefile.ReadFile(filepath.Join(dir, ".gemini-extension-install.json"), 1<<20); err == nil {
		var meta struct {
			Type   string `json:"type"`
			Source string `json:"source"`
		}
		if json.Unmarshal(data, &meta) == nil && meta.Type == "link" && meta.Source != "" {
			dir, linked = meta.Source, true
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gemini-extension.json")); err != nil {
		return "", false
	}
	return dir, linked
}
