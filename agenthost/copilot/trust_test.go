package copilot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// Copilot CLI runs a repository's hooks once its config.json lists the
// folder, or one above it, as trusted.
func TestTrust(t *testing.T) {
	env := hosttest.Env(t)
	hosttest.Install(t, settings, env, hostsettings.Project, hostsettings.Options{Lint: true})
	file := filepath.Join(env.Home, ".copilot", "config.json")
	for _, c := range []struct {
		name, config string
		trusted      bool
	}{
		{"no file", "", false},
		// As the CLI writes it: comments above the object.
		{"the folder", fmt.Sprintf("// hostsettings.User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    %q\n  ]\n}\n", env.Project), true},
		{"a folder above, the older key", fmt.Sprintf(`{"trusted_folders": [%q]}`, filepath.Dir(env.Project)), true},
		{"a sibling", fmt.Sprintf(`{"trustedFolders": [%q]}`, env.Project+"-other"), false},
		{"a folder below", fmt.Sprintf(`{"trustedFolders": [%q]}`, filepath.Join(env.Project, "src")), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.config != "" {
				hosttest.WriteFile(t, file, c.config)
			} else {
				os.Remove(file)
			}
			r, _ := settings.Status(env, hostsettings.Project)
			if r.Trust == nil || r.Trust.Runs != c.trusted || r.Trust.File != file {
				t.Fatalf("trust %+v; want trusted %v", r.Trust, c.trusted)
			}
			if want := map[bool]hostsettings.Posture{true: hostsettings.Hard, false: hostsettings.Cooperative}[c.trusted]; r.Posture != want {
				t.Errorf("posture %q, want %q", r.Posture, want)
			}
		})
	}
	// $COPILOT_HOME holds config.json.
	home := t.TempDir()
	hosttest.WriteFile(t, filepath.Join(home, "config.json"), fmt.Sprintf(`{"trustedFolders": [%q]}`, env.Project))
	cenv := env
	cenv.Getenv = func(k string) string { return map[string]string{"COPILOT_HOME": home}[k] }
	if r, _ := settings.Status(cenv, hostsettings.Project); r.Trust == nil || !r.Trust.Runs {
		t.Errorf("COPILOT_HOME: trust %+v", r.Trust)
	}
}

// Copilot CLI does not load an untrusted folder's MCP servers.
func TestMCPTrust(t *testing.T) {
	e := hosttest.Env(t)
	if tr := mcp.Trust(e, hostsettings.Project); tr.Runs || !strings.Contains(tr.Detail, "MCP servers") {
		t.Errorf("untrusted folder: %+v", tr)
	}
	hosttest.WriteFile(t, filepath.Join(e.Home, ".copilot", "config.json"), `{"trustedFolders": [`+hostsettings.Quote(e.Project)+`]}`)
	if tr := mcp.Trust(e, hostsettings.Project); !tr.Runs {
		t.Errorf("trusted folder: %+v", tr)
	}
}
