package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// Codex runs a project's hooks only in a trusted project, and each hook
// only while config.toml holds its current hash: status reads both.
func TestTrust(t *testing.T) {
	env := hosttest.Env(t)
	hosttest.Install(t, settings, env, hostsettings.Project, hostsettings.Options{Lint: true})
	hooksFile := filepath.Join(env.Project, ".codex", "hooks.json")
	stopKey := hooksFile + ":stop:0:0"
	promptKey := hooksFile + ":user_prompt_submit:0:0"
	stopHash := "sha256:7de2a8b17dd9a0d6bc2853d38c29de9f797c18c0762b6e816ab29fddcd5449c2"
	promptHash := "sha256:f2c5fe904845d6c25f3093c0e812e04d0666d7c844fe4556813723492065d49b"
	project := fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", env.Project)
	state := func(key, body string) string { return fmt.Sprintf("\n[hooks.state.%q]\n%s\n", key, body) }
	cfg := filepath.Join(env.Home, ".codex", "config.toml")

	for _, c := range []struct {
		name, config string
		runs         bool
		state        string
		detail       string
	}{
		{"no config.toml", "", false, "untrusted", "does not list " + env.Project + " as a trusted project"},
		{"an untrusted project", fmt.Sprintf("[projects.%q]\ntrust_level = \"untrusted\"\n", env.Project), false, "untrusted", `trust_level = "untrusted"`},
		{"a trusted project, hooks not trusted", project, false, "untrusted", "installed, not yet trusted by Codex: baton hook codex-prompt, baton hook codex-stop --lint"},
		{"every hook trusted", project + state(stopKey, "trusted_hash = \""+stopHash+"\"") + state(promptKey, "trusted_hash = \""+promptHash+"\""), true, "trusted", "trusted"},
		// The hash of the command before --lint went in: changed since.
		{"the stop hook modified", project + state(stopKey, `trusted_hash = "sha256:90d07e60372405caea42511b17b124ae9eeed3d96f08b0db68df9781d12952ab"`) + state(promptKey, "trusted_hash = \""+promptHash+"\""), false, "modified", "changed since Codex trusted it: baton hook codex-stop --lint"},
		{"the stop hook turned off", project + state(stopKey, "trusted_hash = \""+stopHash+"\"\nenabled = false") + state(promptKey, "trusted_hash = \""+promptHash+"\""), false, "disabled", "turned off in Codex: baton hook codex-stop --lint"},
		// Only the prompt hook untrusted: the stop hook runs, without the baseline.
		{"the prompt hook untrusted", project + state(stopKey, "trusted_hash = \""+stopHash+"\""), true, "untrusted", "without the turn's baseline"},
		// The same records written as dotted keys and an inline table.
		{"dotted keys", fmt.Sprintf("projects.%q.trust_level = 'trusted' # the person said so\nhooks.state.%q = { trusted_hash = %q }\n[hooks.state]\n%q.trusted_hash = %q\n", env.Project, stopKey, stopHash, promptKey, promptHash), true, "trusted", "trusted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.config != "" {
				hosttest.WriteFile(t, cfg, c.config)
			} else {
				os.Remove(cfg)
			}
			r, _ := settings.Status(env, hostsettings.Project)
			tr := r.Trust
			if tr == nil || tr.Runs != c.runs || tr.State != c.state || !strings.Contains(tr.Detail, c.detail) || tr.File != cfg {
				t.Fatalf("trust %+v; want runs %v, state %q, detail with %q", tr, c.runs, c.state, c.detail)
			}
			if want := map[bool]hostsettings.Posture{true: hostsettings.Hard, false: hostsettings.Cooperative}[c.runs]; r.Posture != want {
				t.Errorf("posture %q, want %q", r.Posture, want)
			}
			// A hook never trusted is not one changed since it was.
			if c.state == "untrusted" && (strings.Contains(tr.Detail, "modified") || strings.Contains(tr.Detail, "changed since")) {
				t.Errorf("untrusted hooks described as modified: %q", tr.Detail)
			}
			if !c.runs && !strings.Contains(tr.Fix, "/hooks") {
				t.Errorf("fix %q names no way to trust the hook", tr.Fix)
			}
		})
	}

	// The user's hooks need no project trust, only their hashes.
	uenv := hosttest.Env(t)
	hosttest.Install(t, settings, uenv, hostsettings.User, hostsettings.Options{Lint: true})
	ufile := filepath.Join(uenv.Home, ".codex", "hooks.json")
	hosttest.WriteFile(t, filepath.Join(uenv.Home, ".codex", "config.toml"), state(ufile+":stop:0:0", "trusted_hash = \""+stopHash+"\"")+state(ufile+":user_prompt_submit:0:0", "trusted_hash = \""+promptHash+"\""))
	if r, _ := settings.Status(uenv, hostsettings.User); r.Trust == nil || !r.Trust.Runs || r.Trust.State != "trusted" || r.Posture != hostsettings.Hard {
		t.Errorf("user scope: trust %+v, posture %q", r.Trust, r.Posture)
	}
	// A config.toml Codex could not read either: unknown, not a claim.
	hosttest.WriteFile(t, filepath.Join(uenv.Home, ".codex", "config.toml"), "[projects\n")
	if r, _ := settings.Status(uenv, hostsettings.User); r.Trust == nil || r.Trust.State != "unknown" || !r.Trust.Runs {
		t.Errorf("broken config.toml: trust %+v", r.Trust)
	}
}

// Codex starts the server of a project's config.toml only in a trusted
// project.
func TestMCPTrust(t *testing.T) {
	e := hosttest.Env(t)
	if tr := mcp.Trust(e, hostsettings.Project); tr.Runs || !strings.Contains(tr.Fix, "trust_level") {
		t.Errorf("untrusted project: %+v", tr)
	}
	hosttest.WriteFile(t, filepath.Join(e.Home, ".codex", "config.toml"), "[projects."+hostsettings.Quote(e.Project)+"]\ntrust_level = \"trusted\"\n")
	if tr := mcp.Trust(e, hostsettings.Project); !tr.Runs {
		t.Errorf("trusted project: %+v", tr)
	}
	if tr := mcp.Trust(e, hostsettings.User); !tr.Runs || tr.State != "not required" {
		t.Errorf("the user's settings: %+v", tr)
	}
}
