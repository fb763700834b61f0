package cursor

import (
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
)

// settings are Cursor's hooks (cursor.com/docs/agent/hooks), as of
// December 2026: ~/.cursor/hooks.json and .cursor/hooks.json,
// {"version": 1, "hooks": {"stop": [{"command", "loop_limit"}]}}; stop
// runs once the agent has finished and can only answer a
// followup_message, sent as the next user message.
var settings = &hostsettings.Host{
	Name: "cursor", Title: "Cursor",
	Posture: hostsettings.Corrective, Why: "its stop hook runs after the agent has finished and cannot block; it can only send a follow-up message",
	Note: "Cursor reads hooks.json when it starts: restart it; loop_limit bounds the follow-ups baton sends",
	Hooks: []hostsettings.Hook{
		{Event: "beforeSubmitPrompt", Sub: "cursor-prompt", Entry: func(line string) hostsettings.Obj { return hostsettings.Object("command", line) }},
		{Event: "stop", Sub: "cursor-stop", Entry: func(line string) hostsettings.Obj {
			return hostsettings.Object("command", line, "loop_limit", 3)
		}},
	},
	CmdKeys: []string{"command"}, Version: true,
	ProjectFile: func(e hostsettings.Env) string { return filepath.Join(e.Project, ".cursor", "hooks.json") },
	UserFile:    func(e hostsettings.Env) string { return filepath.Join(e.Home, ".cursor", "hooks.json") },
	ProjectDir:  func(e hostsettings.Env) string { return filepath.Join(e.Project, ".cursor") },
	UserDir:     func(e hostsettings.Env) string { return filepath.Join(e.Home, ".cursor") },
}
