package hostsettings_test

import (
	. "github.com/baton-md/baton/internal/hostsettings"
	"path/filepath"
	"strings"
	"testing"
)

// Install writes the policy's flags into the command lines: the stop
// hook takes them all, the prompt and tool hooks --require-packet, which
// decides whether they keep a baseline outside a specrew project.
func TestInstallWritesTheFlags(t *testing.T) {
	o := Options{Lint: true, RequirePacket: true, MaxBlocks: 5}
	for _, h := range Hosts {
		path := filepath.Join(t.TempDir(), "hooks.json")
		c, err := h.PlanInstall(tenv(t), path, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, hk := range h.Hooks {
			want := "baton hook " + hk.Sub + " --require-packet"
			if hk.Stop() {
				want = "baton hook " + hk.Sub + " --lint --require-packet --max-blocks 5"
			}
			if hk.Line(o) != want || !strings.Contains(string(c.New), Quote(want)) {
				t.Errorf("%s: line %q; want %q in\n%s", h.Name, hk.Line(o), want, c.New)
			}
			if got := ParseArgs(hk.Line(o)); hk.Stop() && got != o {
				t.Errorf("%s: ParseArgs(%q) = %+v", h.Name, hk.Line(o), got)
			}
		}
		if Lookup("copilot") == h && strings.Count(string(c.New), `"baton hook copilot-stop --lint --require-packet --max-blocks 5"`) != 2 {
			t.Errorf("copilot: bash and powershell should both run the flags:\n%s", c.New)
		}
	}
}

func TestParseArgs(t *testing.T) {
	for line, want := range map[string]Options{
		"baton hook claude-stop":                               {},
		"baton hook claude-stop --lint":                        {Lint: true},
		"/usr/bin/baton hook codex-stop -lint --lint=false":    {},
		"baton hook codex-stop --require-packet=true":          {RequirePacket: true},
		"baton hook codex-stop --state-dir /s --max-blocks 4":  {MaxBlocks: 4},
		"baton hook codex-stop --max-blocks=2 --lint --future": {Lint: true, MaxBlocks: 2},
	} {
		if got := ParseArgs(line); got != want {
			t.Errorf("ParseArgs(%q) = %+v, want %+v", line, got, want)
		}
	}
}

// Installing again with other flags changes the command lines of baton's
// hooks, and nothing else: the program's path and the flags install does
// not write stay; the same flags change nothing.
func TestInstallUpdatesTheFlags(t *testing.T) {
	h := Lookup("claude")
	env := tenv(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	before := `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "/opt/bin/baton hook claude-stop --state-dir /s", "timeout": 9 } ] }
    ]
  }
}
`
	writeFile(t, path, before, 0o644)
	c, err := h.PlanInstall(env, path, Options{Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Updated) != 1 || c.Updated[0].Old != "/opt/bin/baton hook claude-stop --state-dir /s" || c.Updated[0].New != "/opt/bin/baton hook claude-stop --lint --state-dir /s" {
		t.Fatalf("updated %+v", c.Updated)
	}
	want := "{\n  \"hooks\": {\n    \"Stop\": [\n      { \"hooks\": [ { \"type\": \"command\", \"command\": \"/opt/bin/baton hook claude-stop --lint --state-dir /s\", \"timeout\": 9 } ] }\n    ],"
	if !strings.HasPrefix(string(c.New), want) {
		t.Errorf("the update changed more than the command line:\n%s", c.New)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	again, err := h.PlanInstall(env, path, Options{Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed() || len(again.Already) != 3 {
		t.Errorf("the same flags again: changed %v, already %d", again.Changed(), len(again.Already))
	}
	// Uninstall still takes every line of baton's out.
	u, err := h.PlanUninstall(env, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Removed) != 3 {
		t.Errorf("uninstall removed %q", u.Removed)
	}
}
