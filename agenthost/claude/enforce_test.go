package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// Status says what the stop hook blocks where it is, from its flags and
// the project: with no flag, outside a specrew project, it blocks nothing,
// and the host is cooperative only whatever its hook could do.
func TestStatusEnforcement(t *testing.T) {
	for _, c := range []struct {
		name    string
		o       hostsettings.Options
		specrew bool
		posture hostsettings.Posture
		blocks  []string // substrings, in order
		passes  int
	}{
		{"no flag", hostsettings.Options{}, false, hostsettings.Cooperative, nil, 2},
		{"--lint", hostsettings.Options{Lint: true}, false, hostsettings.Hard, []string{"baton's rules"}, 1},
		{"--require-packet", hostsettings.Options{RequirePacket: true}, false, hostsettings.Hard, []string{"material work without the packet (--require-packet)"}, 1},
		{"--lint --require-packet", hostsettings.Options{Lint: true, RequirePacket: true}, false, hostsettings.Hard, []string{"baton's rules", "--require-packet"}, 0},
		{"no flag, specrew", hostsettings.Options{}, true, hostsettings.Hard, []string{"specrew's stop contract"}, 1},
		{"--lint, specrew", hostsettings.Options{Lint: true}, true, hostsettings.Hard, []string{"baton's rules", "specrew's stop contract"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := hosttest.Env(t)
			if c.specrew {
				if err := os.Mkdir(filepath.Join(env.Project, ".specrew"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			hosttest.Install(t, settings, env, hostsettings.Project, c.o)
			r, _ := settings.Status(env, hostsettings.Project)
			en := r.Enforcement
			if en == nil || r.Posture != c.posture || len(en.Blocks) != len(c.blocks) || len(en.Passes) != c.passes || en.Specrew != c.specrew {
				t.Fatalf("posture %q, enforcement %+v; want %q, blocks %q, %d passes", r.Posture, en, c.posture, c.blocks, c.passes)
			}
			for i, b := range c.blocks {
				if !strings.Contains(en.Blocks[i], b) {
					t.Errorf("blocks[%d] = %q, want %q in it", i, en.Blocks[i], b)
				}
			}
			if en.Command != settings.Hooks[2].Line(c.o) {
				t.Errorf("command %q", en.Command)
			}
		})
	}
	// The user's hook, without flags: specrew projects only, and still
	// hard (it depends on the project it runs in).
	env := hosttest.Env(t)
	hosttest.Install(t, settings, env, hostsettings.User, hostsettings.Options{})
	if r, _ := settings.Status(env, hostsettings.User); r.Posture != hostsettings.Hard || r.Enforcement == nil || !slices.ContainsFunc(r.Enforcement.Blocks, func(b string) bool { return strings.Contains(b, "in specrew projects") }) {
		t.Errorf("user scope: posture %q, enforcement %+v", r.Posture, r.Enforcement)
	}
	// The plugin runs the commands without flags.
	penv := hosttest.Env(t)
	hosttest.WriteFile(t, filepath.Join(penv.Project, ".claude", "settings.json"), `{"enabledPlugins": {"baton@baton": true}}`)
	if r, _ := settings.Status(penv, hostsettings.Project); r.Posture != hostsettings.Cooperative || r.Enforcement == nil || r.Enforcement.Command != "baton hook claude-stop" {
		t.Errorf("plugin in a plain project: posture %q, enforcement %+v", r.Posture, r.Enforcement)
	}
}
