package hostsettings_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	. "github.com/baton-md/baton/internal/hostsettings"
)

// TestConcurrentEditsAllLand: hook install and mcp install of Gemini CLI
// edit one settings file. Run at once, eight at a time (half planned
// before the others write, so that each plan is stale when it is made),
// every edit lands: the lock of the settings file makes each edit read
// what the edits before it wrote. Then eight uninstalls at once give the
// file back as it was, or remove it and the folder install made.
func TestConcurrentEditsAllLand(t *testing.T) {
	const rounds, n = 12, 8
	hooks, mcp := Lookup("gemini"), LookupMCP("gemini")
	for round := range rounds {
		env := tenv(t)
		env.Project = t.TempDir()
		path := hooks.File(env, Project)
		before := ""
		if round%2 == 1 {
			before = "{\n  \"general\": { \"vimMode\": true },\n  \"hooks\": {}\n}\n"
			writeFile(t, path, before, 0o644)
		}
		at := func(uninstall bool, i int) func() (*Change, error) {
			switch {
			case !uninstall && i%2 == 0:
				return func() (*Change, error) { return hooks.PlanInstall(env, path, Options{Lint: true}) }
			case !uninstall:
				return func() (*Change, error) {
					c, err := mcp.PlanInstall(env, path)
					if err != nil {
						return nil, err
					}
					return c.Change, nil
				}
			case i%2 == 0:
				return func() (*Change, error) { return hooks.PlanUninstall(env, path) }
			default:
				return func() (*Change, error) {
					c, err := mcp.PlanUninstall(env, path)
					if err != nil {
						return nil, err
					}
					return c.Change, nil
				}
			}
		}
		for _, uninstall := range []bool{false, true} {
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range n {
				plan := at(uninstall, i)
				var early *Change
				if i < n/2 {
					var err error
					if early, err = plan(); err != nil {
						t.Fatal(err)
					}
				}
				wg.Go(func() {
					<-start
					c := early
					if c == nil {
						var err error
						if c, err = plan(); err != nil {
							t.Error(err)
							return
						}
					}
					if err := c.Apply(); err != nil {
						t.Errorf("round %d, edit %d: %v", round, i, err)
					}
				})
			}
			close(start)
			wg.Wait()
			if !uninstall {
				if r, _ := hooks.Status(env, Project); r.Installed != "installed" {
					t.Fatalf("round %d: hooks %s after %d installs at once:\n%s", round, r.Installed, n, readFile(t, path))
				}
				if st, _, _, err := mcp.Status(path); st != Present || err != nil {
					t.Fatalf("round %d: MCP server %s (%v) after %d installs at once:\n%s", round, st, err, n, readFile(t, path))
				}
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			for _, e := range entries {
				if e.Name() != "settings.json" {
					t.Errorf("round %d: left in %s: %s", round, filepath.Dir(path), e.Name())
				}
			}
		}
		if before == "" {
			if _, err := os.Lstat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("round %d: the folder install made is still there after the uninstalls: %v", round, err)
			}
		} else if got := readFile(t, path); got != before {
			t.Errorf("round %d: after the uninstalls\n%s\nwant\n%s", round, got, before)
		}
	}
}

// TestLockIsTakenAgainAfterACrash: a lock file left by a baton that
// ended without removing it holds no lock (the kernel let go of it with
// the process); the next edit takes it, and removes it.
func TestLockIsTakenAgainAfterACrash(t *testing.T) {
	env := tenv(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	lock := filepath.Join(filepath.Dir(path), ".settings.json.baton-lock")
	writeFile(t, lock, "", 0o600)
	c, err := Lookup("claude").PlanInstall(env, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(lock); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock file is still there: %v", err)
	}
}
