package copilot

import (
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
)

// A Copilot entry whose bash line is baton's but whose powershell line is
// the person's is theirs, whole: uninstall leaves it.
func TestEntryWithAPersonsLine(t *testing.T) {
	text := `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "baton hook copilot-stop", "powershell": "baton hook copilot-stop; Write-Host done"}]}}`
	path := filepath.Join(t.TempDir(), "baton.json")
	hosttest.WriteFile(t, path, text)
	u, err := settings.PlanUninstall(hosttest.Env(t), path)
	if err != nil || u.Changed() {
		t.Errorf("uninstall: %v, changed %v:\n%s", err, u.Changed(), u.New)
	}
}
