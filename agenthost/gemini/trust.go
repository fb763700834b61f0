package gemini

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
)

// Trust reads whether Gemini CLI will run baton's hooks in scope. Gemini
// CLI (packages/core/src/utils/trust.ts and
// packages/cli/src/config/trustedFolders.ts, in the bundle of
// @google/gemini-cli 0.61.0): with folder trust on (security.folderTrust
// .enabled in ~/.gemini/settings.json, true when unset) a folder is
// trusted when ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH;
// JSON, comments allowed) maps it, or a folder above it, to "TRUST_FOLDER"
// ("TRUST_PARENT": the folder above the one named); the longest path that
// matches decides, and "DO_NOT_TRUST" distrusts. In an untrusted folder
// Gemini CLI ignores the folder's .gemini/settings.json and blocks its
// project hooks ("Blocked execution of project hook in untrusted
// folder"), and `gemini -p` refuses to run; the user's hooks still run in
// an interactive session.
// GEMINI_CLI_TRUST_WORKSPACE=true in Gemini CLI's environment, or
// --skip-trust, trusts the folder for one run.
func Trust(_ *hostsettings.Host, e hostsettings.Env, s hostsettings.Scope) *hostsettings.Trust {
	settings := filepath.Join(e.Home, ".gemini", "settings.json")
	if text, err := hostsettings.ReadRecord(settings); err == nil && text != nil {
		if root, err := hostsettings.ParseJSON(hostsettings.StripJSONComments(text)); err == nil {
			if root.Get("security").Get("folderTrust").Get("enabled").False() {
				return &hostsettings.Trust{Runs: true, State: "not required", File: settings, Detail: "folder trust is off (security.folderTrust.enabled is false)"}
			}
		}
	}
	path := e.Var("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if path == "" {
		path = filepath.Join(e.Home, ".gemini", "trustedFolders.json")
	}
	text, err := hostsettings.ReadRecord(path)
	if err != nil {
		return hostsettings.UnknownTrust(path, err)
	}
	rules := map[string]string{}
	if text != nil {
		if err := json.Unmarshal(hostsettings.StripJSONComments(text), &rules); err != nil {
			return hostsettings.UnknownTrust(path, err)
		}
	}
	folder := hostsettings.RealPath(e.Project)
	best, level := -1, ""
	for rule, lv := range rules {
		eff := rule
		if lv == "TRUST_PARENT" {
			eff = filepath.Dir(rule)
		}
		if hostsettings.Within(hostsettings.RealPath(eff), folder) && len(rule) > best {
			best, level = len(rule), lv
		}
	}
	t := &hostsettings.Trust{File: path}
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		t.Runs, t.State, t.Detail = true, "trusted", e.Project+" is a trusted folder"
		return t
	case "DO_NOT_TRUST":
		t.Detail = e.Project + " is marked DO_NOT_TRUST"
	default:
		t.Detail = e.Project + " is not a trusted folder"
	}
	t.State = "untrusted"
	if s == hostsettings.User {
		// Gemini CLI runs the user's hooks in an untrusted folder; only
		// a headless run refuses to start there.
		t.Runs = true
		t.Detail += ": gemini -p refuses to run there (an interactive session runs the user's hooks)"
	} else {
		t.Detail += ": Gemini CLI does not run the folder's hooks (its .gemini/settings.json) until it is trusted, and gemini -p refuses to run there"
	}
	t.Fix = fmt.Sprintf("trust the folder when Gemini CLI asks (or map %s to \"TRUST_FOLDER\" in %s); for one headless run, GEMINI_CLI_TRUST_WORKSPACE=true or --skip-trust", hostsettings.Quote(e.Project), path)
	return t
}

// MCPTrust is Gemini CLI 0.x's (`gemini mcp list`): no MCP server starts
// in an untrusted folder, the user's own included.
func MCPTrust(e hostsettings.Env) *hostsettings.Trust {
	t := Trust(nil, e, hostsettings.Project)
	if !t.Runs {
		t.Detail = e.Project + " is not a trusted folder: Gemini CLI starts no MCP server there, the user's settings' included, until it is"
	}
	return t
}
