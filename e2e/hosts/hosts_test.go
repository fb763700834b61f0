// Package hosts drives real agent host CLIs, headless, against a scripted
// model of its own on 127.0.0.1 (mock_test.go), with baton's stop hooks
// installed by `baton hook install`, and checks what the model got back,
// what the host wrote in its session files and what `baton audit` makes of
// them. e2e/setup-hosts.sh installs the hosts from npm at pinned versions.
package hosts

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cacheDir is where e2e/setup-hosts.sh installs the hosts:
// $BATON_E2E_CACHE/hosts, the cache defaulting to
// ${XDG_CACHE_HOME:-~/.cache}/baton-e2e.
func cacheDir(t *testing.T) string {
	t.Helper()
	cache := os.Getenv("BATON_E2E_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(dir, "baton-e2e")
	}
	return filepath.Join(cache, "hosts")
}

// hostBinary returns the host CLI installed under the cache, skipping the
// test when it is not there.
func hostBinary(t *testing.T, name, bin string) string {
	t.Helper()
	p := filepath.Join(cacheDir(t), name, "node_modules", ".bin", bin)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed (%v): run e2e/setup-hosts.sh", bin, err)
	}
	return p
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	buildOut  []byte
)

// batonBinary returns BATON_BIN_OVERRIDE if set, else ./cmd/baton built
// once for the package's tests.
func batonBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("BATON_BIN_OVERRIDE"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	buildOnce.Do(func() {
		var root string
		root, buildErr = moduleRoot()
		if buildErr != nil {
			return
		}
		buildDir, buildErr = os.MkdirTemp("", "baton-hosts-e2e-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(buildDir, "baton"), "./cmd/baton")
		cmd.Dir = root
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build ./cmd/baton: %v\n%s", buildErr, buildOut)
	}
	return filepath.Join(buildDir, "baton")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// moduleRoot walks up from the working directory to the nearest go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// scratch is a scratch home and a Git repository inside it, with baton on
// the PATH the host runs its hooks with.
type scratch struct {
	home, repo, baton string
	env               []string
}

// newScratch makes the home and the repository (one commit, so the hooks
// have a HEAD) and the environment a host runs in: nothing of the user's
// home, caches or Git configuration.
func newScratch(t *testing.T, baton string) *scratch {
	t.Helper()
	tmp := t.TempDir()
	s := &scratch{home: filepath.Join(tmp, "home"), repo: filepath.Join(tmp, "home", "repo"), baton: baton}
	bin := filepath.Join(tmp, "bin")
	for _, d := range []string{s.repo, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(baton, filepath.Join(bin, "baton")); err != nil {
		t.Fatal(err)
	}
	set := map[string]string{
		"HOME":                s.home,
		"XDG_CONFIG_HOME":     filepath.Join(s.home, ".config"),
		"XDG_CACHE_HOME":      filepath.Join(s.home, ".cache"),
		"XDG_DATA_HOME":       filepath.Join(s.home, ".local", "share"),
		"XDG_STATE_HOME":      filepath.Join(s.home, ".local", "state"),
		"PATH":                bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "e2e", "GIT_AUTHOR_EMAIL": "e2e@example.invalid",
		"GIT_COMMITTER_NAME": "e2e", "GIT_COMMITTER_EMAIL": "e2e@example.invalid",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; ok || dropEnv(k) {
			continue
		}
		s.env = append(s.env, kv)
	}
	for k, v := range set {
		s.env = append(s.env, k+"="+v)
	}
	s.run(t, s.repo, "git", "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(s.repo, "README.md"), []byte("# scratch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.run(t, s.repo, "git", "add", "README.md")
	s.run(t, s.repo, "git", "commit", "-q", "-m", "init")
	return s
}

// dropEnv says which of the test's own variables a host must not see: the
// hosts' own settings and credentials, and a parent agent's.
func dropEnv(k string) bool {
	for _, p := range []string{"ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "COPILOT_", "GH_", "GITHUB_", "BATON_", "GIT_"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// run runs a command in dir with the scratch environment, failing the test
// on error.
func (s *scratch) run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := s.exec(dir, nil, 60*time.Second, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// exec runs a command with the scratch environment plus extra, returning
// its standard output and error together.
func (s *scratch) exec(dir string, extra []string, timeout time.Duration, name string, args ...string) (string, error) {
	var out bytes.Buffer
	err := s.execTo(&out, &out, dir, extra, timeout, name, args...)
	return out.String(), err
}

// execTo is exec writing standard output and error where it is told.
func (s *scratch) execTo(stdout, stderr io.Writer, dir string, extra []string, timeout time.Duration, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), s.env...), extra...)
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		err = errors.Join(err, ctx.Err())
	}
	return err
}
