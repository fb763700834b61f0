// Package actiontest runs scripts/action.sh, the steps of baton's GitHub
// Action, the way Actions runs them: the runner's variables (RUNNER_OS,
// RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT), the inputs as
// INPUT_*, and a release made by scripts/release.sh served over HTTP laid
// out as GitHub serves releases. It also holds release.sh to its refusals.
package actiontest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"
)

const version = "v9.9.9"

var (
	root = func() string { r, _ := filepath.Abs(filepath.Join("..", "..")); return r }()

	releaseOnce sync.Once
	releaseDir  string
	releaseErr  string
)

// release builds this platform's archive with scripts/release.sh (which
// checks it with scripts/releasecheck) once for the tests.
func release(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a release")
	}
	releaseOnce.Do(func() {
		dir, err := os.MkdirTemp("", "baton-release")
		if err != nil {
			releaseErr = err.Error()
			return
		}
		releaseDir = filepath.Join(dir, "release")
		cmd := exec.Command(filepath.Join(root, "scripts", "release.sh"))
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "VERSION="+version, "COMMIT=0123abcd", "OUT="+releaseDir, "VSIX=0",
			"PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH)
		if out, err := cmd.CombinedOutput(); err != nil {
			releaseErr = err.Error() + "\n" + string(out)
		}
	})
	if releaseErr != "" {
		t.Fatalf("scripts/release.sh: %s", releaseErr)
	}
	return releaseDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if releaseDir != "" {
		os.RemoveAll(filepath.Dir(releaseDir))
	}
	os.Exit(code)
}

// releases serves dir as GitHub serves a repository's releases: the
// files of tag under /releases/download/TAG/, and /releases/latest
// redirecting to /releases/tag/TAG. corrupt, when set, is served in place
// of every archive.
func releases(t *testing.T, dir, tag string, corrupt []byte) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/releases/latest", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/releases/tag/"+tag, http.StatusFound)
	})
	mux.HandleFunc("/releases/tag/", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("a release page\n")) })
	mux.HandleFunc("/releases/download/"+tag+"/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/releases/download/"+tag+"/")
		if strings.ContainsAny(name, `/\`) {
			http.NotFound(w, r)
			return
		}
		if corrupt != nil && name != "SHA256SUMS" {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				w.Write(corrupt)
				return
			}
		}
		http.ServeFile(w, r, filepath.Join(dir, name))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/releases"
}

// runner is one job's runner: its temporary folder and the files Actions
// reads a step's outputs and PATH additions from.
type runner struct {
	temp, path, output, workspace string
}

func newRunner(t *testing.T) runner {
	t.Helper()
	dir := t.TempDir()
	r := runner{temp: filepath.Join(dir, "_temp"), path: filepath.Join(dir, "path.txt"),
		output: filepath.Join(dir, "output.txt"), workspace: filepath.Join(dir, "workspace")}
	for _, d := range []string{r.temp, r.workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{r.path, r.output} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// runnerOS and runnerArch are what Actions calls this machine.
func runnerOS() string {
	return map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
}

func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
}

// step runs `action.sh STEP` as a composite action's bash step runs it.
func (r runner) step(t *testing.T, step string, pathDirs []string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "action.sh"), step)
	cmd.Dir = r.workspace
	base := []string{
		"HOME=" + os.Getenv("HOME"),
		"PATH=" + strings.Join(append(pathDirs, "/usr/bin", "/bin"), string(os.PathListSeparator)),
		"RUNNER_OS=" + runnerOS(), "RUNNER_ARCH=" + runnerArch(), "RUNNER_TEMP=" + r.temp,
		"GITHUB_PATH=" + r.path, "GITHUB_OUTPUT=" + r.output, "GITHUB_WORKSPACE=" + r.workspace,
		"GITHUB_ACTION_PATH=" + root, "GITHUB_ACTIONS=true", "CI=true",
	}
	cmd.Env = append(base, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// outputs reads the step outputs written so far.
func (r runner) outputs(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(r.output)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

func (r runner) pathAdded(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(data))
}

func copyExample(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestActionInstallAndCheck: with no version input and the action used at
// a branch, install resolves the latest release, checks the archive
// against SHA256SUMS and adds baton to PATH; check writes SARIF, prints
// annotations, and reports exit status 1 as an output without failing.
func TestActionInstallAndCheck(t *testing.T) {
	url := releases(t, release(t), version, nil)
	r := newRunner(t)
	out, err := r.step(t, "install", nil, "BATON_RELEASES="+url, "INPUT_VERSION=", "INPUT_INSTALL=release", "ACTION_REF=main")
	if err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if !strings.Contains(out, "baton: installed baton_9.9.9_"+runtime.GOOS+"_"+runtime.GOARCH) {
		t.Errorf("install said:\n%s", out)
	}
	path := r.pathAdded(t)
	if len(path) != 1 {
		t.Fatalf("GITHUB_PATH holds %q, want one folder", path)
	}
	outs := r.outputs(t)
	if outs["version"] != version || outs["path"] != filepath.Join(path[0], "baton") {
		t.Errorf("install outputs %v", outs)
	}

	copyExample(t, "examples/bad/missing-why-stopped.md", filepath.Join(r.workspace, "bad.md"))
	copyExample(t, "examples/good/continue.md", filepath.Join(r.workspace, "good.md"))
	out, err = r.step(t, "check", path, "INPUT_PATHS=bad.md\ngood.md", "INPUT_CONFIG=", "INPUT_FORMAT=github", "INPUT_SARIF_FILE=baton.sarif")
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	if !strings.Contains(out, "::error file=bad.md,") {
		t.Errorf("check printed no annotation for bad.md:\n%s", out)
	}
	outs = r.outputs(t)
	if outs["exit-code"] != "1" || outs["sarif-file"] != "baton.sarif" {
		t.Errorf("check outputs %v, want exit-code 1 and sarif-file baton.sarif", outs)
	}
	data, err := os.ReadFile(filepath.Join(r.workspace, "baton.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Version string }
			}
			Results []json.RawMessage
		}
	}
	if err := json.Unmarshal(data, &sarif); err != nil {
		t.Fatalf("SARIF: %v", err)
	}
	// SARIF carries the version without its "v" (the Multitool's SARIF2005).
	if len(sarif.Runs) != 1 || sarif.Runs[0].Tool.Driver.Version != strings.TrimPrefix(version, "v") || len(sarif.Runs[0].Results) == 0 {
		t.Errorf("SARIF runs %+v, want one run by baton %s with results", sarif.Runs, version)
	}
}

// TestActionVersionFromRef: used at a release tag, the action installs
// that release.
func TestActionVersionFromRef(t *testing.T) {
	url := releases(t, release(t), version, nil)
	r := newRunner(t)
	if out, err := r.step(t, "install", nil, "BATON_RELEASES="+url, "ACTION_REF="+version); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if got := r.outputs(t)["version"]; got != version {
		t.Errorf("version output %q, want %s", got, version)
	}
}

// TestActionChecksumMismatch: an archive that does not match SHA256SUMS
// is not installed, and nothing is added to PATH.
func TestActionChecksumMismatch(t *testing.T) {
	url := releases(t, release(t), version, []byte("not the archive"))
	r := newRunner(t)
	out, err := r.step(t, "install", nil, "BATON_RELEASES="+url, "INPUT_VERSION="+version)
	if err == nil {
		t.Fatalf("install succeeded with a corrupt archive:\n%s", out)
	}
	if !strings.Contains(out, "::error title=baton::") || !strings.Contains(out, "but SHA256SUMS says") {
		t.Errorf("install said:\n%s", out)
	}
	if p := r.pathAdded(t); len(p) != 0 {
		t.Errorf("GITHUB_PATH holds %q after a failed install", p)
	}
}

// TestActionNoArchiveNoGo: a release without this runner's archive falls
// back to go install, and says what to add when Go is not on PATH.
func TestActionNoArchiveNoGo(t *testing.T) {
	url := releases(t, release(t), "v9.9.8", nil)
	r := newRunner(t)
	out, err := r.step(t, "install", nil, "BATON_RELEASES="+url, "INPUT_VERSION=9.9.8")
	if err == nil {
		t.Fatalf("install succeeded without an archive or go:\n%s", out)
	}
	if !strings.Contains(out, "release v9.9.8 has no baton_9.9.8_") || !strings.Contains(out, "go is not on PATH") {
		t.Errorf("install said:\n%s", out)
	}
}

// TestActionBadInputs: a version that is not one, and an unknown install
// method, fail with the input named.
func TestActionBadInputs(t *testing.T) {
	r := newRunner(t)
	for _, tc := range []struct{ env, want string }{
		{"INPUT_VERSION=main; rm -rf /", `version "main; rm -rf /"`},
		{"INPUT_INSTALL=brew", `install "brew": want release or go`},
	} {
		out, err := r.step(t, "install", nil, "BATON_RELEASES=http://127.0.0.1:1/releases", tc.env)
		if err == nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s: err %v, output:\n%s", tc.env, err, out)
		}
	}
}

// TestActionCheckUsageError: a configuration baton cannot read fails the
// check step itself (exit status 2 is not a finding).
func TestActionCheckUsageError(t *testing.T) {
	path := []string{filepath.Dir(installed(t))}
	r := newRunner(t)
	copyExample(t, "examples/good/continue.md", filepath.Join(r.workspace, "good.md"))
	out, err := r.step(t, "check", path, "INPUT_PATHS=good.md", "INPUT_CONFIG=missing.yaml", "INPUT_SARIF_FILE=")
	if err == nil || !strings.Contains(out, "::error title=baton::baton check exited 2") {
		t.Errorf("check with a missing configuration: err %v, output:\n%s", err, out)
	}
	if got := r.outputs(t)["exit-code"]; got != "2" {
		t.Errorf("exit-code output %q, want 2", got)
	}
}

// installed extracts the release's baton for the tests that only check.
func installed(t *testing.T) string {
	t.Helper()
	url := releases(t, release(t), version, nil)
	r := newRunner(t)
	if out, err := r.step(t, "install", nil, "BATON_RELEASES="+url, "INPUT_VERSION="+version); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	return r.outputs(t)["path"]
}

// TestReleaseRefuses: scripts/release.sh builds nothing for a release tag
// the extension's package.json disagrees with, nor for a version that is
// not one.
func TestReleaseRefuses(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"v99.0.0", "VERSION is v99.0.0 but editors/vscode/package.json says"},
		{"v1.0.0;rm", "only letters, digits and . _ + - may appear"},
	} {
		out := filepath.Join(t.TempDir(), "release")
		cmd := exec.Command(filepath.Join(root, "scripts", "release.sh"))
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "VERSION="+tc.version, "OUT="+out, "VSIX=1")
		got, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(got), tc.want) {
			t.Errorf("VERSION=%s: err %v, output:\n%s", tc.version, err, got)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("VERSION=%s: %s was made", tc.version, out)
		}
	}
}

// TestActionYAML holds action.yml to the script the other tests run: a
// composite action whose bash steps run scripts/action.sh install and
// check, each input used (passed as INPUT_* the way the tests pass it, or
// read by a step's condition), and the SARIF uploaded by codeql-action.
func TestActionYAML(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID    string            `yaml:"id"`
				If    string            `yaml:"if"`
				Shell string            `yaml:"shell"`
				Run   string            `yaml:"run"`
				Uses  string            `yaml:"uses"`
				Env   map[string]string `yaml:"env"`
				With  map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using %q, want composite", action.Runs.Using)
	}
	used := map[string]bool{}
	runs := map[string]bool{}
	var uploads bool
	for _, s := range action.Runs.Steps {
		if s.Run != "" && s.Shell != "bash" {
			t.Errorf("step %q runs in shell %q, want bash", s.ID, s.Shell)
		}
		for _, sub := range []string{"install", "check"} {
			if s.Run == `bash "$GITHUB_ACTION_PATH/scripts/action.sh" `+sub {
				runs[sub] = true
			}
		}
		for k, v := range s.Env {
			if name, ok := strings.CutPrefix(v, "${{ inputs."); ok {
				name = strings.TrimSuffix(name, " }}")
				if want := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")); k != want {
					t.Errorf("input %s passed as %s, want %s", name, k, want)
				}
				used[name] = true
			}
		}
		for name := range action.Inputs {
			if strings.Contains(s.If, "inputs."+name+" ") {
				used[name] = true
			}
		}
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") && s.With["sarif_file"] == "${{ steps.check.outputs.sarif-file }}" {
			uploads = true
		}
	}
	for name, in := range action.Inputs {
		if !used[name] {
			t.Errorf("input %s is used by no step", name)
		}
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	if !runs["install"] || !runs["check"] {
		t.Errorf("steps run action.sh %v, want install and check", runs)
	}
	if !uploads {
		t.Error("no step uploads the SARIF with github/codeql-action/upload-sarif")
	}
}

// TestVersionScript: scripts/version.sh prints git describe of the
// checkout it sits in (the tag, then -dirty when the tree has changes),
// and nothing outside a checkout or inside some other repository, where
// the build links no version.
func TestVersionScript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(root, "scripts", "version.sh"))
	if err != nil {
		t.Fatal(err)
	}
	place := func(dir string) string {
		t.Helper()
		p := filepath.Join(dir, "scripts", "version.sh")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, script, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	version := func(script string, args ...string) string {
		t.Helper()
		cmd := exec.Command(script, args...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		return strings.TrimSpace(string(out))
	}

	if got := version(place(t.TempDir())); got != "" {
		t.Errorf("outside a checkout: %q, want nothing", got)
	}

	repo := t.TempDir()
	s := place(repo)
	git(repo, "init", "-q")
	git(repo, "add", ".")
	git(repo, "commit", "-qm", "first")
	git(repo, "tag", "v1.2.3")
	if got := version(s); got != "v1.2.3" {
		t.Errorf("at the tag: %q, want v1.2.3", got)
	}
	if got := version(s, "--commit"); len(got) != 40 {
		t.Errorf("--commit: %q, want a full commit", got)
	}
	if err := os.WriteFile(filepath.Join(repo, "new.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(repo, "add", "new.txt")
	if got := version(s); got != "v1.2.3-dirty" {
		t.Errorf("with a change: %q, want v1.2.3-dirty", got)
	}

	// A copy of baton unpacked inside another repository.
	nested := filepath.Join(repo, "vendor", "baton")
	if got := version(place(nested)); got != "" {
		t.Errorf("inside another repository: %q, want nothing", got)
	}
}
