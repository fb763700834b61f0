package main

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/agenthost/setup"
	"github.com/baton-md/baton/internal/hostsettings"
)

// TestHookInstallDirMustExist: a --dir that is not there is an error
// naming it, and nothing is made: not the folder (which the write used to
// make), and not the settings of the Git work tree around it (which a
// mistyped folder inside a repository used to resolve to).
func TestHookInstallDirMustExist(t *testing.T) {
	repo := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", "")
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(repo, "README.md")
	if err := os.WriteFile(file, []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	typo := filepath.Join(repo, "sub-projetc")
	for _, args := range [][]string{
		{"hook", "install", "--host", "claude"},
		{"hook", "uninstall", "--host", "gemini"},
		{"hook", "status"},
		{"mcp", "install", "--host", "codex"},
		{"mcp", "uninstall", "--host", "claude"},
		{"mcp", "status"},
	} {
		code, stdout, stderr := runBaton(t, "", "", append(args, "--dir", typo)...)
		if code != exitUsage || stdout != "" || stderr != "baton: --dir "+typo+": no such folder\n" {
			t.Errorf("%v: exit %d\nstdout: %q\nstderr: %q", args, code, stdout, stderr)
		}
		if _, err := os.Lstat(typo); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v made the folder it was given: %v", args, err)
		}
		entries, _ := os.ReadDir(repo)
		if len(entries) != 2 {
			t.Fatalf("%v wrote into the repository: %v", args, entries)
		}
	}
	code, _, stderr := runBaton(t, "", "", "hook", "install", "--host", "claude", "--dir", file)
	if code != exitUsage || !strings.Contains(stderr, "--dir "+file+": not a folder") {
		t.Errorf("a file as --dir: exit %d, %q", code, stderr)
	}
}

// TestHookUninstallLeavesWhatWasThere: what the hostile run found
// deleted, for every host, through the commands: a settings file holding
// "{}", an empty event list or an empty "hooks", and an empty folder,
// there before hook install (and mcp install), are there after the
// uninstalls byte for byte; the files and folders install made are gone.
func TestHookUninstallLeavesWhatWasThere(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "")
	oldLook := setup.LookPath
	t.Cleanup(func() { setup.LookPath = oldLook })
	setup.LookPath = func(string) (string, error) { return "/usr/bin/baton", nil }
	for _, h := range hosts.Settings() {
		var mcp *hostsettings.MCPHost
		if slices.Contains(hosts.MCPIDs(), h.Name) {
			mcp = hosts.MCPOf(h.Name)
		}
		stop := h.Hooks[len(h.Hooks)-1].Event
		for _, before := range []string{"", "/", "{}", "{}\n", "{\n}\n", `{"hooks": {}}`, "{\n  \"hooks\": {\n    \"" + stop + "\": [\n    ]\n  }\n}\n"} {
			t.Run(h.Name+"/"+before, func(t *testing.T) {
				project, home := t.TempDir(), t.TempDir()
				t.Setenv("HOME", home)
				if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
				env := hostsettings.Env{Project: project, Home: home}
				file := h.File(env, hostsettings.Project)
				switch before {
				case "":
				case "/": // the folder, empty
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
				default:
					putFile(t, file, before)
					if mcp != nil && mcp.File(env, hostsettings.Project) != file && !strings.HasSuffix(mcp.File(env, hostsettings.Project), ".toml") {
						putFile(t, mcp.File(env, hostsettings.Project), before)
					}
				}
				was := snapshotDir(t, project)
				steps := [][]string{{"hook", "install"}, {"hook", "uninstall"}}
				if mcp != nil {
					steps = [][]string{{"hook", "install"}, {"mcp", "install"}, {"hook", "uninstall"}, {"mcp", "uninstall"}}
				}
				for _, step := range steps {
					if code, stdout, stderr := runBaton(t, "", "", append(step, "--host", h.Name, "--dir", project)...); code != exitOK {
						t.Fatalf("%v: exit %d\n%s%s", step, code, stdout, stderr)
					}
				}
				if now := snapshotDir(t, project); !maps.Equal(was, now) {
					t.Errorf("before %v\nafter  %v", was, now)
				}
			})
		}
	}
}

// snapshotDir is every folder ("/") and file (its bytes) below dir.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// installChildEnv makes the test binary one baton command, its arguments
// in the variable: TestHookAndMCPInstallAtOnce starts it.
const installChildEnv = "BATON_INSTALL_CHILD"

// TestHookAndMCPInstallAtOnce: hook install and mcp install of Gemini
// CLI write one settings file. Eight baton processes at once, half of each,
// in every round: every edit lands. Then eight uninstalls at once remove
// the file and the folder install made.
func TestHookAndMCPInstallAtOnce(t *testing.T) {
	if os.Getenv(installChildEnv) != "" {
		t.Skip("a child process")
	}
	const rounds, procs = 4, 8
	home := t.TempDir()
	for round := range rounds {
		project := t.TempDir()
		if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, verb := range []string{"install", "uninstall"} {
			var wg sync.WaitGroup
			for i := range procs {
				what := []string{"hook", "mcp"}[i%2]
				wg.Go(func() {
					cmd := exec.Command(os.Args[0], "-test.run=^TestInstallChild$", "-test.count=1")
					cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME=", "PATH=",
						installChildEnv+"="+strings.Join([]string{what, verb, "--host", "gemini", "--dir", project}, "\n"))
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("round %d: %s %s: %v\n%s", round, what, verb, err, out)
					}
				})
			}
			wg.Wait()
			settings := filepath.Join(project, ".gemini", "settings.json")
			if verb == "uninstall" {
				if _, err := os.Lstat(filepath.Dir(settings)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("round %d: .gemini/ install made is left after the uninstalls: %v", round, err)
				}
				continue
			}
			b, err := os.ReadFile(settings)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"command": "baton hook gemini-prompt"`, `"command": "baton hook gemini-stop --lint"`, `"mcpServers": {`} {
				if strings.Count(string(b), want) != 1 {
					t.Errorf("round %d: %d installs at once: %s is not there once:\n%s", round, procs, want, b)
				}
			}
		}
	}
}

// TestInstallChild is one baton command of TestHookAndMCPInstallAtOnce.
func TestInstallChild(t *testing.T) {
	args := os.Getenv(installChildEnv)
	if args == "" {
		t.Skip("run by TestHookAndMCPInstallAtOnce")
	}
	var stdout, stderr strings.Builder
	if code := run(strings.Split(args, "\n"), strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("baton %s: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
	}
}
