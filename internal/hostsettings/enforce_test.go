package hostsettings_test

import (
	. "github.com/baton-md/baton/internal/hostsettings"
	"os"
	"path/filepath"
	"slices"
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

// Status says what the stop hook blocks where it is, from its flags and
// the project: with no flag, outside a specrew project, it blocks nothing,
// and the host is cooperative only whatever its hook could do.
func TestStatusEnforcement(t *testing.T) {
	for _, c := range []struct {
		name    string
		o       Options
		specrew bool
		posture Posture
		blocks  []string // substrings, in order
		passes  int
	}{
		{"no flag", Options{}, false, Cooperative, nil, 2},
		{"--lint", Options{Lint: true}, false, Hard, []string{"baton's rules"}, 1},
		{"--require-packet", Options{RequirePacket: true}, false, Hard, []string{"material work without the packet (--require-packet)"}, 1},
		{"--lint --require-packet", Options{Lint: true, RequirePacket: true}, false, Hard, []string{"baton's rules", "--require-packet"}, 0},
		{"no flag, specrew", Options{}, true, Hard, []string{"specrew's stop contract"}, 1},
		{"--lint, specrew", Options{Lint: true}, true, Hard, []string{"baton's rules", "specrew's stop contract"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := trustEnv(t)
			if c.specrew {
				if err := os.Mkdir(filepath.Join(env.Project, ".specrew"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			install(t, "claude", env, Project, c.o)
			r, _ := Lookup("claude").Status(env, Project)
			en := r.Enforcement
			if en == nil || r.Posture != c.posture || len(en.Blocks) != len(c.blocks) || len(en.Passes) != c.passes || en.Specrew != c.specrew {
				t.Fatalf("posture %q, enforcement %+v; want %q, blocks %q, %d passes", r.Posture, en, c.posture, c.blocks, c.passes)
			}
			for i, b := range c.blocks {
				if !strings.Contains(en.Blocks[i], b) {
					t.Errorf("blocks[%d] = %q, want %q in it", i, en.Blocks[i], b)
				}
			}
			if en.Command != Lookup("claude").Hooks[2].Line(c.o) {
				t.Errorf("command %q", en.Command)
			}
		})
	}
	// The user's hook, without flags: specrew projects only, and still
	// hard (it depends on the project it runs in).
	env := trustEnv(t)
	install(t, "claude", env, User, Options{})
	if r, _ := Lookup("claude").Status(env, User); r.Posture != Hard || r.Enforcement == nil || !slices.ContainsFunc(r.Enforcement.Blocks, func(b string) bool { return strings.Contains(b, "in specrew projects") }) {
		t.Errorf("user scope: posture %q, enforcement %+v", r.Posture, r.Enforcement)
	}
	// The plugin runs the commands without flags.
	penv := trustEnv(t)
	writeFile(t, filepath.Join(penv.Project, ".claude", "settings.json"), `{"enabledPlugins": {"baton@baton": true}}`, 0o644)
	if r, _ := Lookup("claude").Status(penv, Project); r.Posture != Cooperative || r.Enforcement == nil || r.Enforcement.Command != "baton hook claude-stop" {
		t.Errorf("plugin in a plain project: posture %q, enforcement %+v", r.Posture, r.Enforcement)
	}
}
