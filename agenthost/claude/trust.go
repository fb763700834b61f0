package claude

import (
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
)

// MCPApproval reads whether Claude Code may start the baton server
// of a project's .mcp.json, as Claude Code 2.1.332 decides it (tried with
// `claude mcp list` on each arrangement): "disabledMcpjsonServers" naming
// baton refuses it wherever it is; "enabledMcpjsonServers" naming baton, or
// "enableAllProjectMcpServers": true, approves it from the user's
// ~/.claude/settings.json at once, and from the project's
// .claude/settings.local.json or .claude/settings.json only once the
// project folder is trusted (its "hasTrustDialogAccepted" in
// ~/.claude.json's "projects"; a trusted folder above it does not count).
// Claude Code moves a project entry's lists from ~/.claude.json into
// .claude/settings.local.json; they are read in either place.
func MCPApproval(e hostsettings.Env) *hostsettings.Trust {
	user := filepath.Join(e.Home, ".claude", "settings.json")
	state := filepath.Join(e.Home, ".claude.json")
	local := filepath.Join(e.Project, ".claude", "settings.local.json")
	type record struct {
		path    string
		project bool                                               // a project's record: it counts once the folder is trusted
		at      func(root *hostsettings.Value) *hostsettings.Value // the object holding the keys
	}
	self := func(root *hostsettings.Value) *hostsettings.Value { return root }
	entry := func(root *hostsettings.Value) *hostsettings.Value { return root.Get("projects").Get(e.Project) }
	records := []record{
		{user, false, self},
		{local, true, self},
		{filepath.Join(e.Project, ".claude", "settings.json"), true, self},
		{state, true, entry},
	}
	has := func(text []byte, list *hostsettings.Value) bool {
		for _, el := range list.Elements() {
			if el.Str(text) == hostsettings.ServerName {
				return true
			}
		}
		return false
	}
	trusted := false
	var approved *hostsettings.Trust
	for _, r := range records {
		text, err := hostsettings.ReadRecord(r.path)
		if err != nil {
			return hostsettings.UnknownTrust(r.path, err)
		}
		if text == nil {
			continue
		}
		root, err := hostsettings.ParseJSON(text)
		if err != nil {
			return hostsettings.UnknownTrust(r.path, err)
		}
		if r.path == state {
			if v := entry(root).Get("hasTrustDialogAccepted"); v.True() {
				trusted = true
			}
		}
		o := r.at(root)
		switch {
		case has(text, o.Get("disabledMcpjsonServers")):
			return &hostsettings.Trust{State: "disabled", File: r.path, Detail: "disabledMcpjsonServers lists baton: Claude Code does not start it",
				Fix: "take baton out of disabledMcpjsonServers in " + r.path}
		case approved != nil:
		case has(text, o.Get("enabledMcpjsonServers")):
			approved = &hostsettings.Trust{Runs: true, State: "trusted", File: r.path, Detail: "enabledMcpjsonServers in " + r.path + " lists baton"}
		case o.Get("enableAllProjectMcpServers").True():
			approved = &hostsettings.Trust{Runs: true, State: "trusted", File: r.path, Detail: "enableAllProjectMcpServers is true in " + r.path}
		}
		if approved != nil && approved.File == r.path && r.project {
			approved.Runs = false // until the folder is known to be trusted
		}
	}
	switch {
	case approved != nil && (approved.Runs || trusted):
		approved.Runs, approved.State = true, "trusted"
		return approved
	case approved != nil:
		approved.State = "untrusted"
		approved.Detail += ", but Claude Code reads a project's settings only once the folder is trusted, and " + state + " does not say it is"
		approved.Fix = "start claude in " + e.Project + " and accept its trust dialog, or approve baton in " + user + " (\"enabledMcpjsonServers\": [\"baton\"])"
		return approved
	}
	return &hostsettings.Trust{State: "untrusted", File: local,
		Detail: "Claude Code asks before it starts a server of the project's .mcp.json, and a headless run (claude -p) cannot ask",
		Fix:    "approve baton when Claude Code asks, or add \"enabledMcpjsonServers\": [\"baton\"] to " + user + " (or to " + local + " in a folder Claude Code trusts)"}
}
