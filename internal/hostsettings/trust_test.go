package hostsettings_test

import (
	"fmt"
	. "github.com/baton-md/baton/internal/hostsettings"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func trustEnv(t *testing.T) Env {
	t.Helper()
	env := Env{Project: t.TempDir(), Home: t.TempDir(), Getenv: func(string) string { return "" }}
	return env
}

func install(t *testing.T, host string, env Env, s Scope, o Options) {
	t.Helper()
	h := Lookup(host)
	c, err := h.PlanInstall(env, h.File(env, s), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
}

// Codex runs a project's hooks only in a trusted project, and each hook
// only while config.toml holds its current hash: status reads both.
func TestCodexTrust(t *testing.T) {
	env := trustEnv(t)
	install(t, "codex", env, Project, Options{Lint: true})
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
				writeFile(t, cfg, c.config, 0o644)
			} else {
				os.Remove(cfg)
			}
			r, _ := Lookup("codex").Status(env, Project)
			tr := r.Trust
			if tr == nil || tr.Runs != c.runs || tr.State != c.state || !strings.Contains(tr.Detail, c.detail) || tr.File != cfg {
				t.Fatalf("trust %+v; want runs %v, state %q, detail with %q", tr, c.runs, c.state, c.detail)
			}
			if want := map[bool]Posture{true: Hard, false: Cooperative}[c.runs]; r.Posture != want {
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
	uenv := trustEnv(t)
	install(t, "codex", uenv, User, Options{Lint: true})
	ufile := filepath.Join(uenv.Home, ".codex", "hooks.json")
	writeFile(t, filepath.Join(uenv.Home, ".codex", "config.toml"), state(ufile+":stop:0:0", "trusted_hash = \""+stopHash+"\"")+state(ufile+":user_prompt_submit:0:0", "trusted_hash = \""+promptHash+"\""), 0o644)
	if r, _ := Lookup("codex").Status(uenv, User); r.Trust == nil || !r.Trust.Runs || r.Trust.State != "trusted" || r.Posture != Hard {
		t.Errorf("user scope: trust %+v, posture %q", r.Trust, r.Posture)
	}
	// A config.toml Codex could not read either: unknown, not a claim.
	writeFile(t, filepath.Join(uenv.Home, ".codex", "config.toml"), "[projects\n", 0o644)
	if r, _ := Lookup("codex").Status(uenv, User); r.Trust == nil || r.Trust.State != "unknown" || !r.Trust.Runs {
		t.Errorf("broken config.toml: trust %+v", r.Trust)
	}
}

// Gemini CLI trusts a folder by the longest rule of trustedFolders.json
// that covers it; untrusted, it runs none of the folder's hooks, and -p
// refuses to start.
func TestGeminiTrust(t *testing.T) {
	env := trustEnv(t)
	install(t, "gemini", env, Project, Options{Lint: true})
	install(t, "gemini", env, User, Options{Lint: true})
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
				writeFile(t, file, c.rules, 0o644)
			} else {
				os.Remove(file)
			}
			r, _ := Lookup("gemini").Status(env, Project)
			if r.Trust == nil || r.Trust.State != c.state || r.Trust.Runs != (c.state == "trusted") || r.Trust.File != file {
				t.Fatalf("project: trust %+v; want %s", r.Trust, c.state)
			}
			if c.state != "trusted" && (r.Posture != Cooperative || !strings.Contains(r.Trust.Fix, "TRUST_FOLDER")) {
				t.Errorf("project: posture %q, fix %q", r.Posture, r.Trust.Fix)
			}
			// The user's hooks run in an interactive session anyway.
			u, _ := Lookup("gemini").Status(env, User)
			if u.Trust == nil || !u.Trust.Runs || u.Trust.State != c.state || u.Posture != Hard {
				t.Errorf("user: trust %+v, posture %q", u.Trust, u.Posture)
			}
		})
	}
	// $GEMINI_CLI_TRUSTED_FOLDERS_PATH names the file.
	other := filepath.Join(t.TempDir(), "trusted.json")
	writeFile(t, other, fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, env.Project), 0o644)
	oenv := env
	oenv.Getenv = func(k string) string { return map[string]string{"GEMINI_CLI_TRUSTED_FOLDERS_PATH": other}[k] }
	if r, _ := Lookup("gemini").Status(oenv, Project); r.Trust == nil || r.Trust.State != "trusted" || r.Trust.File != other {
		t.Errorf("GEMINI_CLI_TRUSTED_FOLDERS_PATH: trust %+v", r.Trust)
	}
	// Folder trust turned off in the user's settings: nothing to trust.
	writeFile(t, filepath.Join(env.Home, ".gemini", "settings.json"), `{"security": {"folderTrust": {"enabled": false}}}`, 0o644)
	if r, _ := Lookup("gemini").Status(env, Project); r.Trust == nil || r.Trust.State != "not required" || !r.Trust.Runs || r.Posture != Hard {
		t.Errorf("folder trust off: trust %+v, posture %q", r.Trust, r.Posture)
	}
}

// Copilot CLI runs a repository's hooks once its config.json lists the
// folder, or one above it, as trusted.
func TestCopilotTrust(t *testing.T) {
	env := trustEnv(t)
	install(t, "copilot", env, Project, Options{Lint: true})
	file := filepath.Join(env.Home, ".copilot", "config.json")
	for _, c := range []struct {
		name, config string
		trusted      bool
	}{
		{"no file", "", false},
		// As the CLI writes it: comments above the object.
		{"the folder", fmt.Sprintf("// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    %q\n  ]\n}\n", env.Project), true},
		{"a folder above, the older key", fmt.Sprintf(`{"trusted_folders": [%q]}`, filepath.Dir(env.Project)), true},
		{"a sibling", fmt.Sprintf(`{"trustedFolders": [%q]}`, env.Project+"-other"), false},
		{"a folder below", fmt.Sprintf(`{"trustedFolders": [%q]}`, filepath.Join(env.Project, "src")), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.config != "" {
				writeFile(t, file, c.config, 0o644)
			} else {
				os.Remove(file)
			}
			r, _ := Lookup("copilot").Status(env, Project)
			if r.Trust == nil || r.Trust.Runs != c.trusted || r.Trust.File != file {
				t.Fatalf("trust %+v; want trusted %v", r.Trust, c.trusted)
			}
			if want := map[bool]Posture{true: Hard, false: Cooperative}[c.trusted]; r.Posture != want {
				t.Errorf("posture %q, want %q", r.Posture, want)
			}
		})
	}
	// $COPILOT_HOME holds config.json.
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "config.json"), fmt.Sprintf(`{"trustedFolders": [%q]}`, env.Project), 0o644)
	cenv := env
	cenv.Getenv = func(k string) string { return map[string]string{"COPILOT_HOME": home}[k] }
	if r, _ := Lookup("copilot").Status(cenv, Project); r.Trust == nil || !r.Trust.Runs {
		t.Errorf("COPILOT_HOME: trust %+v", r.Trust)
	}
	// Claude Code and Cursor ask for no trust baton can read.
	for _, h := range []string{"claude", "cursor"} {
		install(t, h, env, Project, Options{Lint: true})
		if r, _ := Lookup(h).Status(env, Project); r.Trust != nil {
			t.Errorf("%s: trust %+v", h, r.Trust)
		}
	}
}
