package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// Gemini CLI trusts a folder by the longest rule of trustedFolders.json
// that covers it; untrusted, it runs none of the folder's hooks, and -p
// refuses to start.
func TestTrust(t *testing.T) {
	env := hosttest.Env(t)
	hosttest.Install(t, settings, env, hostsettings.Project, hostsettings.Options{Lint: true})
	hosttest.Install(t, settings, env, hostsettings.User, hostsettings.Options{Lint: true})
	file := filepath.Join(env.Home, ".gemini", "trustedFolders.json")
	parent := filepath.Dir(env.Project)
	for _, c := range []struct {
		name, rules string
		state       string
	}{
		{"no file", "", "untrusted"},
		{"the folder", fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, env.Project), "trusted"},
		{"a folder above", fmt.Sprintf("{\n  // comments are allowed\n  %q: \"TRUST_FOLDER\"\n}", parent), "trusted"},
		{"a sibling's parent", fmt.Sprintf(`{%q: "TRUST_PARENT"}`, filepath.Join(parent, "sibling")), "trusted"},
		{"a sibling", fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, env.Project+"-other"), "untrusted"},
		{"distrusted nearer", fmt.Sprintf(`{%q: "TRUST_FOLDER", %q: "DO_NOT_TRUST"}`, parent, env.Project), "untrusted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.rules != "" {
				hosttest.WriteFile(t, file, c.rules)
			} else {
				os.Remove(file)
			}
			r, _ := settings.Status(env, hostsettings.Project)
			if r.Trust == nil || r.Trust.State != c.state || r.Trust.Runs != (c.state == "trusted") || r.Trust.File != file {
				t.Fatalf("project: trust %+v; want %s", r.Trust, c.state)
			}
			if c.state != "trusted" && (r.Posture != hostsettings.Cooperative || !strings.Contains(r.Trust.Fix, "TRUST_FOLDER")) {
				t.Errorf("project: posture %q, fix %q", r.Posture, r.Trust.Fix)
			}
			// The user's hooks run in an interactive session anyway.
			u, _ := settings.Status(env, hostsettings.User)
			if u.Trust == nil || !u.Trust.Runs || u.Trust.State != c.state || u.Posture != hostsettings.Hard {
				t.Errorf("user: trust %+v, posture %q", u.Trust, u.Posture)
			}
		})
	}
	// $GEMINI_CLI_TRUSTED_FOLDERS_PATH names the file.
	other := filepath.Join(t.TempDir(), "trusted.json")
	hosttest.WriteFile(t, other, fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, env.Project))
	oenv := env
	oenv.Getenv = func(k string) string { return map[string]string{"GEMINI_CLI_TRUSTED_FOLDERS_PATH": other}[k] }
	if r, _ := settings.Status(oenv, hostsettings.Project); r.Trust == nil || r.Trust.State != "trusted" || r.Trust.File != other {
		t.Errorf("GEMINI_CLI_TRUSTED_FOLDERS_PATH: trust %+v", r.Trust)
	}
	// Folder trust turned off in the user's settings: nothing to trust.
	hosttest.WriteFile(t, filepath.Join(env.Home, ".gemini", "settings.json"), `{"security": {"folderTrust": {"enabled": false}}}`)
	if r, _ := settings.Status(env, hostsettings.Project); r.Trust == nil || r.Trust.State != "not required" || !r.Trust.Runs || r.Posture != hostsettings.Hard {
		t.Errorf("folder trust off: trust %+v, posture %q", r.Trust, r.Posture)
	}
}

// Gemini CLI starts no MCP server in an untrusted folder, the user's own
// settings' included (as `gemini mcp list` answered).
func TestMCPTrust(t *testing.T) {
	e := hosttest.Env(t)
	for _, scope := range []hostsettings.Scope{hostsettings.Project, hostsettings.User} {
		if tr := mcp.Trust(e, scope); tr.Runs || !strings.Contains(tr.Detail, "starts no MCP server") {
			t.Errorf("untrusted folder, %s: %+v", scope, tr)
		}
	}
	hosttest.WriteFile(t, filepath.Join(e.Home, ".gemini", "trustedFolders.json"), `{`+hostsettings.Quote(e.Project)+`: "TRUST_FOLDER"}`)
	if tr := mcp.Trust(e, hostsettings.User); !tr.Runs {
		t.Errorf("trusted folder: %+v", tr)
	}
}
