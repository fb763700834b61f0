package hostsettings_test

import (
	"encoding/json"
	"errors"
	. "github.com/baton-md/baton/internal/hostsettings"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Settings files as users keep them, written for these tests from each
// host's documented format (the sources are above each host's settings,
// agenthost/<host>/settings.go): other keys, the user's own hooks, several indentations, CRLF
// line ends, a file on one line.
var realistic = []struct {
	name, host, text string
}{
	{"claude settings with permissions and hooks", "claude", `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)"]
  },
  "env": { "FOO": "bar" },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "~/.claude/check-bash.sh" }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send 'Claude stopped'",
            "timeout": 5
          }
        ]
      }
    ]
  },
  "model": "opus"
}
`},
	{"claude settings, four spaces, CRLF, no hooks", "claude", "{\r\n    \"permissions\": {\r\n        \"allow\": [\r\n            \"Bash(go test:*)\"\r\n        ]\r\n    },\r\n    \"includeCoAuthoredBy\": false\r\n}\r\n"},
	{"claude settings on one line", "claude", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]},"model":"sonnet"}`},
	{"claude settings, hooks in a shared group", "claude", `{
	"hooks": {
		"UserPromptSubmit": [
			{
				"hooks": [
					{"type": "command", "command": "python3 log_prompt.py"}
				]
			}
		],
		"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write ."}]}]
	}
}
`},
	{"codex hooks.json", "codex", `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume",
        "hooks": [
          {
            "type": "command",
            "command": "python3 ~/.codex/hooks/session_start.py",
            "statusMessage": "Loading notes"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "python3 ~/.codex/hooks/stop.py",
            "timeout": 30
          }
        ]
      }
    ]
  }
}
`},
	{"gemini settings.json", "gemini", `{
  "general": {
    "vimMode": true
  },
  "ui": { "theme": "GitHub" },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [
          {
            "name": "secret-scanner",
            "type": "command",
            "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/block-secrets.sh",
            "timeout": 5000
          }
        ]
      }
    ]
  }
}
`},
	{"cursor hooks.json", "cursor", `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": "./hooks/format.sh" }],
    "stop": [{ "command": "./hooks/audit.sh" }]
  }
}
`},
	{"copilot hooks file", "copilot", `{
  "version": 1,
  "hooks": {
    "sessionStart": [
      {
        "type": "command",
        "bash": "echo \"Session started: $(date)\" >> logs/session.log",
        "powershell": "Add-Content -Path logs/session.log -Value \"Session started: $(Get-Date)\"",
        "cwd": ".",
        "timeoutSec": 10
      }
    ]
  }
}
`},
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInstallUninstallRoundTrip installs each host's hooks into a settings
// file holding other hooks, checks the result is the host's shape with
// every old entry kept, then uninstalls: the file is the original byte for
// byte, and its mode is kept throughout.
func TestInstallUninstallRoundTrip(t *testing.T) {
	type variant struct{ name, host, text string }
	var cases []variant
	for _, tc := range realistic {
		cases = append(cases, variant{tc.name, tc.host, tc.text})
		if !strings.Contains(tc.text, "\n") || strings.Contains(tc.text, "\r") {
			continue
		}
		// The same file with CRLF line ends, indented with tabs, with a byte
		// order mark, without its last line break.
		cases = append(cases,
			variant{tc.name + ", CRLF", tc.host, strings.ReplaceAll(tc.text, "\n", "\r\n")},
			variant{tc.name + ", tabs", tc.host, strings.ReplaceAll(tc.text, "  ", "\t")},
			variant{tc.name + ", BOM", tc.host, "\uFEFF" + tc.text},
			variant{tc.name + ", no last line break", tc.host, strings.TrimSuffix(tc.text, "\n")},
		)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := Lookup(tc.host)
			env := tenv(t)
			path := filepath.Join(t.TempDir(), "settings.json")
			writeFile(t, path, tc.text, 0o600)

			c, err := h.PlanInstall(env, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Added) != len(h.Hooks) || !c.Changed() {
				t.Fatalf("install added %v, want every hook of %s", c.Added, h.Name)
			}
			if err := c.Apply(); err != nil {
				t.Fatal(err)
			}
			installed := readFile(t, path)
			checkShape(t, h, tc.text, installed)
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode after install = %v, want 0600 kept", fi.Mode().Perm())
			}

			again, err := h.PlanInstall(env, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if again.Changed() || len(again.Already) != len(h.Hooks) {
				t.Errorf("a second install changes the file (added %v, already %v)", again.Added, again.Already)
			}

			u, err := h.PlanUninstall(env, path)
			if err != nil {
				t.Fatal(err)
			}
			if len(u.Removed) != len(h.Hooks) || u.Delete {
				t.Errorf("uninstall removed %v (delete %v), want %d entries and the file kept", u.Removed, u.Delete, len(h.Hooks))
			}
			if err := u.Apply(); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != tc.text {
				t.Errorf("install then uninstall changed the file:\n--- before\n%s\n--- installed\n%s\n--- after\n%s", tc.text, installed, got)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode after uninstall = %v, want 0600 kept", fi.Mode().Perm())
			}
		})
	}
}

// checkShape decodes the installed file as the host reads it: every key
// of the original is there, every event list holds what it held first,
// and baton's entries are at the end, in the host's documented shape.
func checkShape(t *testing.T, h *Host, before, after string) {
	t.Helper()
	before, after = strings.TrimPrefix(before, "\uFEFF"), strings.TrimPrefix(after, "\uFEFF")
	var old, now map[string]any
	if err := json.Unmarshal([]byte(before), &old); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(after), &now); err != nil {
		t.Fatalf("the installed file is not JSON: %v\n%s", err, after)
	}
	for k, v := range old {
		if k == "hooks" {
			continue
		}
		if b1, b2 := mustJSON(t, v), mustJSON(t, now[k]); b1 != b2 {
			t.Errorf("key %q changed: %s, now %s", k, b1, b2)
		}
	}
	oldHooks, _ := old["hooks"].(map[string]any)
	nowHooks, ok := now["hooks"].(map[string]any)
	if !ok {
		t.Fatalf("no hooks object after install:\n%s", after)
	}
	for ev, list := range oldHooks {
		was, _ := list.([]any)
		is, _ := nowHooks[ev].([]any)
		if len(is) < len(was) || mustJSON(t, is[:len(was)]) != mustJSON(t, was) {
			t.Errorf("the user's %s hooks changed: %s, now %s", ev, mustJSON(t, was), mustJSON(t, is))
		}
	}
	for _, hk := range h.Hooks {
		list, _ := nowHooks[hk.Event].([]any)
		if len(list) == 0 {
			t.Errorf("no %s list after install", hk.Event)
			continue
		}
		last, _ := list[len(list)-1].(map[string]any)
		cmd := last
		if h.Grouped {
			inner, _ := last["hooks"].([]any)
			if len(inner) != 1 {
				t.Errorf("%s: baton's group holds %d commands, want 1", hk.Event, len(inner))
				continue
			}
			cmd, _ = inner[0].(map[string]any)
		}
		if h.Name != "cursor" && cmd["type"] != "command" {
			t.Errorf("%s: type = %v, want command", hk.Event, cmd["type"])
		}
		if got := cmd[h.CmdKeys[0]]; got != hk.Command() {
			t.Errorf("%s: %s = %v, want %q", hk.Event, h.CmdKeys[0], got, hk.Command())
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInstallNewFile: with no settings file, install writes one in the
// host's shape (0644, its folder made), and uninstall removes it again.
func TestInstallNewFile(t *testing.T) {
	for _, h := range Hosts {
		t.Run(h.Name, func(t *testing.T) {
			env := Env{Project: t.TempDir(), Home: t.TempDir()}
			path := h.File(env, Project)
			c, err := h.PlanInstall(env, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Apply(); err != nil {
				t.Fatal(err)
			}
			got := readFile(t, path)
			var v map[string]any
			if err := json.Unmarshal([]byte(got), &v); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, got)
			}
			if h.Version && v["version"] != float64(1) {
				t.Errorf("version = %v, want 1", v["version"])
			}
			if !strings.HasSuffix(got, "}\n") || !strings.Contains(got, "\n  \"hooks\": {\n    \""+h.Hooks[0].Event+"\": [\n      {") {
				t.Errorf("not laid out as a settings file is:\n%s", got)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
				t.Errorf("mode = %v, want 0644", fi.Mode().Perm())
			}
			u, err := h.PlanUninstall(env, path)
			if err != nil {
				t.Fatal(err)
			}
			if !u.Delete {
				t.Fatalf("uninstall keeps a file holding only the skeleton:\n%s", u.New)
			}
			if err := u.Apply(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the file baton made is still there after uninstall: %v", err)
			}
		})
	}
}

// TestEmptyObjectRoundTrip: files that were there holding an empty
// object, "hooks" or event list, with whatever white space inside, come
// back as they were: the "{}" install would have made a file from too.
func TestEmptyObjectRoundTrip(t *testing.T) {
	for _, text := range []string{
		"{}", "{}\n", "{ }\n", "{\n}\n", "{\r\n\r\n}\r\n", "\t{\t}\t",
		"{\n  \"model\": \"opus\"\n}",
		"{\"hooks\": {}}", "{\n  \"hooks\": {\n  }\n}\n", "{\n  \"hooks\": {\n\n  }\n}\n",
		"{\"hooks\": {\"Stop\": []}}", "{\n  \"hooks\": {\n    \"Stop\": [\n    ]\n  }\n}\n",
		"{\n  \"hooks\": {\n    \"Stop\": [ ],\n    \"PostToolUse\": [\n\n    ]\n  }\n}\n",
	} {
		h := Lookup("claude")
		env := tenv(t)
		path := filepath.Join(t.TempDir(), "settings.json")
		writeFile(t, path, text, 0o644)
		c, err := h.PlanInstall(env, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Apply(); err != nil {
			t.Fatal(err)
		}
		u, err := h.PlanUninstall(env, path)
		if err != nil {
			t.Fatal(err)
		}
		if u.Delete || string(u.New) != text {
			t.Errorf("%q: uninstall gives %q (delete %v)", text, u.New, u.Delete)
		}
	}
}

// TestUninstallTakesOnlyBatons: a baton command the user put in a group of
// their own goes, the group and its other commands stay; commands that
// merely mention baton stay; baton run by a path counts as baton.
func TestUninstallTakesOnlyBatons(t *testing.T) {
	text := `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "./notify.sh" },
          { "type": "command", "command": "/usr/local/bin/baton hook claude-stop --lint" }
        ]
      },
      { "hooks": [ { "type": "command", "command": "echo baton hook claude-stop" } ] },
      { "hooks": [ { "type": "command", "command": "batonizer hook claude-stop" } ] }
    ]
  }
}
`
	want := `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "./notify.sh" }
        ]
      },
      { "hooks": [ { "type": "command", "command": "echo baton hook claude-stop" } ] },
      { "hooks": [ { "type": "command", "command": "batonizer hook claude-stop" } ] }
    ]
  }
}
`
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, text, 0o644)
	h := Lookup("claude")
	// The install sees the Stop hook there already (run by a path, with a flag).
	c, err := h.PlanInstall(tenv(t), path, Options{Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Already) != 1 || c.Already[0].Event != "Stop" || len(c.Added) != 2 {
		t.Errorf("install: already %v, added %v; want Stop already there, the other two added", c.Already, c.Added)
	}
	u, err := h.PlanUninstall(tenv(t), path)
	if err != nil {
		t.Fatal(err)
	}
	if string(u.New) != want {
		t.Errorf("uninstall gives\n%s\nwant\n%s", u.New, want)
	}
	if len(u.Removed) != 1 || u.Removed[0] != "Stop: /usr/local/bin/baton hook claude-stop --lint" {
		t.Errorf("removed %q", u.Removed)
	}
}

func TestBatonSub(t *testing.T) {
	for cmd, want := range map[string]string{
		"baton hook claude-stop":                   "claude-stop",
		"  baton   hook codex-stop --max-blocks 2": "codex-stop",
		"/opt/bin/baton hook gemini-stop":          "gemini-stop",
		`C:\tools\baton.exe hook copilot-stop`:     "copilot-stop",
		"baton check .":                            "-",
		"echo baton hook claude-stop":              "-",
		"notbaton hook claude-stop":                "-",
		"":                                         "-",
		// Baton's own flags, as the hook's flag parser takes them, quoted
		// values included.
		"'baton' hook claude-stop": "claude-stop",
		"baton hook claude-stop -lint --require-packet=true --max-blocks=3":   "claude-stop",
		`baton hook claude-stop --state-dir "/tmp/my   state" --max-blocks 2`: "claude-stop",
		"baton hook claude-stop --state-dir '/tmp/$HOME'":                     "claude-stop",
		"baton hook claude-stop --state-dir ~/.cache/baton":                   "claude-stop",
		// A person's command that runs baton and more is theirs.
		"baton hook claude-stop && notify-send done":            "-",
		`baton hook claude-stop && notify-send "Claude   done"`: "-",
		"baton hook claude-stop || true":                        "-",
		"baton hook claude-stop | tee -a hook.log":              "-",
		"baton hook claude-stop; echo done":                     "-",
		"baton hook claude-stop > /tmp/out":                     "-",
		"baton hook claude-stop 2>/dev/null":                    "-",
		"baton hook claude-stop &":                              "-",
		"(baton hook claude-stop)":                              "-",
		"baton hook claude-stop --state-dir $HOME/s":            "-",
		`baton hook claude-stop --state-dir "$HOME/s"`:          "-",
		"baton hook claude-stop --state-dir `pwd`":              "-",
		"baton hook claude-stop # mine":                         "-",
		"baton hook claude-stop\necho":                          "-",
		"baton hook claude-stop\nrm -rf x":                      "-",
		"FOO=1 baton hook claude-stop":                          "-",
		"baton hook claude-stop extra":                          "-",
		"baton hook claude-stop --verbose":                      "-",
		"baton hook claude-stop --lint=maybe":                   "-",
		"baton hook claude-stop --max-blocks":                   "-",
		"baton hook claude-stop --max-blocks two":               "-",
		"baton hook claude-stop -- --lint":                      "-",
		"baton hook claude-stop 'unclosed":                      "-",
		"baton hook claude-stop --state-dir /tmp/*":             "-",
		"baton hook":        "-",
		"baton hook --lint": "-",
	} {
		sub, ok := BatonSub(cmd)
		if !ok {
			sub = "-"
		}
		if sub != want {
			t.Errorf("BatonSub(%q) = %q, want %q", cmd, sub, want)
		}
	}
}

// TestRefusals: baton never writes a settings file that is not JSON, not
// in the documented shape, a link or not a regular file; the error says
// which file and why, and the file is as it was.
func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	h := Lookup("claude")
	cases := map[string]string{
		"trailing comma":   "{\n  \"model\": \"opus\",\n}\n",
		"comment":          "{\n  // mine\n  \"model\": \"opus\"\n}\n",
		"truncated":        "{\n  \"hooks\": {\n",
		"duplicate hooks":  `{"hooks": {}, "hooks": {}}`,
		"array":            `[]`,
		"hooks not object": `{"hooks": []}`,
		"event not list":   `{"hooks": {"Stop": {"hooks": []}}}`,
		"two values":       `{} {}`,
	}
	for name, text := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		writeFile(t, path, text, 0o644)
		for op, plan := range map[string]func(string) (*Change, error){
			"install":   func(p string) (*Change, error) { return h.PlanInstall(tenv(t), p, Options{}) },
			"uninstall": func(p string) (*Change, error) { return h.PlanUninstall(tenv(t), p) },
		} {
			_, err := plan(path)
			var ne *NotEditable
			if name == "event not list" && op == "uninstall" {
				if err != nil {
					t.Errorf("%s: uninstall refused a file it need not edit: %v", name, err)
				}
				continue
			}
			if !errors.As(err, &ne) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %s error = %v, want a refusal naming the file", name, op, err)
			}
		}
		if readFile(t, path) != text {
			t.Errorf("%s: the file changed", name)
		}
	}
	_, err := h.PlanInstall(tenv(t), filepath.Join(dir, "trailing-comma.json"), Options{})
	if !strings.Contains(err.Error(), "line 3, column 1") {
		t.Errorf("the JSON error does not say where: %v", err)
	}

	target := filepath.Join(dir, "real.json")
	writeFile(t, target, "{}\n", 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := h.PlanInstall(tenv(t), link, Options{}); err == nil || !strings.Contains(err.Error(), "symbolic link (to "+target+")") {
		t.Errorf("install through a link: %v", err)
	}
	if _, err := h.PlanInstall(tenv(t), dir, Options{}); err == nil || !strings.Contains(err.Error(), "a folder, not a regular file") {
		t.Errorf("install into a folder: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := h.PlanInstall(tenv(t), fifo, Options{}); err == nil || !strings.Contains(err.Error(), "a named pipe") {
			t.Errorf("install into a named pipe: %v", err)
		}
	}
}

// TestApplyRefusesAReadOnlyFile: a settings file no one may write is
// left as it is.
func TestApplyRefusesAReadOnlyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, "{}\n", 0o444)
	c, err := Lookup("claude").PlanInstall(tenv(t), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err == nil || !strings.Contains(err.Error(), "read-only (mode 0444)") {
		t.Errorf("Apply over a read-only file: %v", err)
	}
	if readFile(t, path) != "{}\n" {
		t.Error("the read-only file was replaced")
	}
}

// TestApplyBuildsOnAChangedFile: a settings file saved between the plan
// and the write is not overwritten: Apply plans again on what it holds
// now, and the change says what was written.
func TestApplyBuildsOnAChangedFile(t *testing.T) {
	env := tenv(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, "{}\n", 0o644)
	c, err := Lookup("claude").PlanInstall(env, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	saved := "{\"model\": \"opus\"}\n"
	writeFile(t, path, saved, 0o644)
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if !strings.HasPrefix(got, "{\"model\": \"opus\", \"hooks\": {") || string(c.Old) != saved || string(c.New) != got {
		t.Errorf("Apply over a changed file wrote\n%s\n(old %q)", got, c.Old)
	}
	u, err := Lookup("claude").PlanUninstall(env, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Apply(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != saved {
		t.Errorf("uninstall gives %q, want the save %q", got, saved)
	}
}

// TestStatus reports, per host and scope, whether baton's hooks are in
// and the posture that gives.
func TestStatus(t *testing.T) {
	env := Env{Project: t.TempDir(), Home: t.TempDir(), Getenv: func(string) string { return "" }}
	if _, found := Lookup("codex").Status(env, User); found {
		t.Error("codex reported found with no ~/.codex")
	}
	for _, name := range []string{"claude", "cursor"} {
		c, err := Lookup(name).PlanInstall(env, Lookup(name).File(env, Project), Options{Lint: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(env.Home, ".gemini", "settings.json"), `{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]}}`, 0o644)
	writeFile(t, filepath.Join(env.Project, ".codex", "hooks.json"), `{"hooks": {"Stop": [`, 0o644)
	writeFile(t, filepath.Join(env.Home, ".claude", "settings.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "baton hook claude-stop"}]}]}}`, 0o644)
	writeFile(t, filepath.Join(env.Project, ".gemini", "settings.json"), `{"hooksConfig": {"enabled": false}, "hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "baton hook gemini-prompt"}]}], "AfterAgent": [{"hooks": [{"type": "command", "command": "baton hook gemini-stop"}]}]}}`, 0o644)

	// The plugin, enabled in the user's Claude Code settings, and the
	// extension, installed in the user's Gemini CLI folder.
	writeFile(t, filepath.Join(env.Home, ".gemini", "extensions", "baton", "gemini-extension.json"), `{"name": "baton", "version": "0.1.0"}`, 0o644)
	plugEnv := Env{Project: t.TempDir(), Home: t.TempDir()}
	writeFile(t, filepath.Join(plugEnv.Home, ".claude", "settings.json"), `{"enabledPlugins": {"formatter@tools": true, "baton@baton": true}}`, 0o644)
	if r, _ := Lookup("claude").Status(plugEnv, User); r.Installed != "installed as the plugin baton@baton" || r.Posture != Hard {
		t.Errorf("claude with the plugin: installed %q, posture %q", r.Installed, r.Posture)
	}
	writeFile(t, filepath.Join(plugEnv.Home, ".claude", "settings.json"), `{"enabledPlugins": {"baton@baton": false}}`, 0o644)
	if r, _ := Lookup("claude").Status(plugEnv, User); r.Installed != "not installed" {
		t.Errorf("claude with the plugin disabled: installed %q", r.Installed)
	}

	for _, want := range []struct {
		host      string
		scope     Scope
		installed string
		posture   Posture
		err       bool
	}{
		{"claude", Project, "installed", Hard, false},
		{"cursor", Project, "installed", Corrective, false},
		{"gemini", User, "installed as the extension in " + filepath.Join(env.Home, ".gemini", "extensions", "baton"), Hard, false},
		{"codex", Project, "not installed", Cooperative, true},
		{"claude", User, "partly", Hard, false},
		// Installed, but the settings turn every hook off.
		{"gemini", Project, "installed", Cooperative, false},
	} {
		r, found := Lookup(want.host).Status(env, want.scope)
		if !found {
			t.Errorf("%s %s: not found", want.host, want.scope)
			continue
		}
		if r.Installed != want.installed || r.Posture != want.posture || (r.Error != "") != want.err {
			t.Errorf("%s %s: installed %q, posture %q, error %q; want %q, %q, error %v", want.host, want.scope, r.Installed, r.Posture, r.Error, want.installed, want.posture, want.err)
		}
		if off := r.Off != ""; off != (want.host == "gemini" && want.scope == Project) || (off && !strings.Contains(r.Off, "hooksConfig.enabled is false")) {
			t.Errorf("%s %s: off = %q", want.host, want.scope, r.Off)
		}
	}
}

// TestUninstallAfterTheUserAddedHooks: hooks the user added after
// baton's install stay, and the rest of the file is the original.
func TestUninstallAfterTheUserAddedHooks(t *testing.T) {
	h := Lookup("claude")
	env := tenv(t)
	orig := []byte(realistic[0].text)
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, string(orig), 0o644)
	c, err := h.PlanInstall(env, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	addMine := func(text []byte) []byte {
		return AppendToStop(text, Object("hooks", []any{Object("type", "command", "command", "./after.sh")}))
	}
	writeFile(t, path, string(addMine(c.New)), 0o644)
	u, err := h.PlanUninstall(env, path)
	if err != nil {
		t.Fatal(err)
	}
	if want := addMine(orig); string(u.New) != string(want) {
		t.Errorf("uninstall gives\n%s\nwant\n%s", u.New, want)
	}
}

// TestUninstallKeepsWhatThePersonPutInBatons: a list install added, into
// which the person put a hook of their own, stays with it; a file install
// made, to which the person added a key, stays with the key; the folder
// holding it stays.
func TestUninstallKeepsWhatThePersonPutInBatons(t *testing.T) {
	h := Lookup("claude")
	env := tenv(t)
	env.Project = t.TempDir()
	path := h.File(env, Project)
	c, err := h.PlanInstall(env, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	text := AppendToStop([]byte(readFile(t, path)), Object("hooks", []any{Object("type", "command", "command", "./after.sh")}))
	text = []byte(strings.Replace(string(text), "{\n", "{\n  \"model\": \"opus\",\n", 1))
	writeFile(t, path, string(text), 0o644)
	u, err := h.PlanUninstall(env, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Apply(); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./after.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	if got := readFile(t, path); got != want || u.Delete || len(u.RemovedDirs) != 0 {
		t.Errorf("uninstall gives (delete %v, folders removed %v)\n%s\nwant\n%s", u.Delete, u.RemovedDirs, got, want)
	}
}
