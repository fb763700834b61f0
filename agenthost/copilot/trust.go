package copilot

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/baton-md/baton/internal/hostsettings"
)

// Home is Copilot CLI's folder: $COPILOT_HOME, else ~/.copilot.
func Home(e hostsettings.Env) string {
	if h := e.Var("COPILOT_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".copilot")
}

// Trust reads whether GitHub Copilot CLI will run the repository's hooks
// (the folder-trust checks of @github/copilot 1.0.102, its runtime's
// folderTrustIsTrusted, tried on files of this kind; and
// docs.github.com, "Configure GitHub Copilot CLI"): a folder is trusted
// when $COPILOT_HOME/config.json (~/.copilot/config.json; JSON with
// comments, which the CLI writes) lists it, or a folder above it, in
// "trustedFolders" ("trusted_folders" in older files). Until then the
// CLI does not run the repository's .github/hooks/, and says nothing.
func Trust(_ *hostsettings.Host, e hostsettings.Env, s hostsettings.Scope) *hostsettings.Trust {
	if s != hostsettings.Project {
		return nil
	}
	path := filepath.Join(Home(e), "config.json")
	text, err := hostsettings.ReadRecord(path)
	if err != nil {
		return hostsettings.UnknownTrust(path, err)
	}
	var cfg struct {
		Trusted    []string `json:"trustedFolders"`
		OldTrusted []string `json:"trusted_folders"`
	}
	if text != nil {
		if err := json.Unmarshal(hostsettings.StripJSONComments(text), &cfg); err != nil {
			return hostsettings.UnknownTrust(path, err)
		}
	}
	folder := hostsettings.RealPath(e.Project)
	for _, f := range append(cfg.Trusted, cfg.OldTrusted...) {
		if hostsettings.Within(hostsettings.RealPath(f), folder) {
			return &hostsettings.Trust{Runs: true, State: "trusted", File: path, Detail: e.Project + " is a trusted folder"}
		}
	}
	return &hostsettings.Trust{State: "untrusted", File: path,
		Detail: e.Project + " is not a trusted folder: Copilot CLI skips the repository's hooks (.github/hooks/) until it is, and says nothing",
		Fix:    fmt.Sprintf("start copilot in the folder and trust it for future sessions (or add %s to \"trustedFolders\" in %s)", hostsettings.Quote(e.Project), path)}
}

// MCPTrust is Copilot CLI's: it ignores an untrusted folder's MCP files.
func MCPTrust(e hostsettings.Env) *hostsettings.Trust {
	t := Trust(nil, e, hostsettings.Project)
	if t != nil && !t.Runs {
		t.Detail = e.Project + " is not a trusted folder: Copilot CLI does not load the repository's MCP servers until it is"
	}
	return t
}
