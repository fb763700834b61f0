package cursor

import (
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// Cursor asks for no trust of a hook that baton can read.
func TestHooksAskNoTrust(t *testing.T) {
	env := hosttest.Env(t)
	hosttest.Install(t, settings, env, hostsettings.Project, hostsettings.Options{Lint: true})
	if r, _ := settings.Status(env, hostsettings.Project); r.Trust != nil || r.Installed != "installed" {
		t.Errorf("trust %+v, installed %q", r.Trust, r.Installed)
	}
}
