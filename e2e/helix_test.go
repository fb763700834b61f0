package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// helixBinary is where e2e/setup-helix.sh puts Helix:
// $BATON_E2E_CACHE/helix/hx, by default
// ${XDG_CACHE_HOME:-~/.cache}/baton-e2e/helix/hx.
func helixBinary() string {
	cache := os.Getenv("BATON_E2E_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "baton-e2e")
	}
	return filepath.Join(cache, "helix", "hx")
}

// helixSession is Helix running in a detached tmux session on a private
// tmux server (its own socket), killed when the test ends.
type helixSession struct {
	t      *testing.T
	socket string
	env    []string
	log    string
}

func (h *helixSession) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", h.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = h.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (h *helixSession) keys(keys ...string) {
	h.t.Helper()
	if out, err := h.tmux(append([]string{"send-keys", "-t", "hx"}, keys...)...); err != nil {
		h.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

func (h *helixSession) screen() string {
	out, _ := h.tmux("capture-pane", "-p", "-t", "hx")
	return out
}

// waitFor polls the screen until ok holds or the deadline passes; it
// returns the last screen.
func (h *helixSession) waitFor(what string, timeout time.Duration, ok func(screen string) bool) string {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := h.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			logText, _ := os.ReadFile(h.log)
			h.t.Fatalf("timed out after %s waiting for %s; screen:\n%s\nhelix log:\n%s", timeout, what, s, logText)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startHelix opens file (copied into a fresh workspace) in Helix with the
// project's editors/helix/languages.toml and baton on PATH.
func startHelix(t *testing.T, hx, baton, file string) *helixSession {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "ws")
	bin := filepath.Join(tmp, "bin")
	cfg := filepath.Join(tmp, "xdg", "config", "helix")
	for _, d := range []string{ws, bin, cfg, filepath.Join(tmp, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(baton, filepath.Join(bin, "baton")); err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(file)
	if err := os.WriteFile(filepath.Join(ws, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	// The project's file, verbatim, as the user config; plus a config that
	// shows diagnostics inline.
	for from, to := range map[string]string{
		filepath.Join("..", "editors", "helix", "languages.toml"): filepath.Join(cfg, "languages.toml"),
		filepath.Join("helix", "config.toml"):                     filepath.Join(cfg, "config.toml"),
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A short folder for the tmux socket (sun_path is ~108 bytes).
	sockDir, err := os.MkdirTemp("", "baton-tmux")
	if err != nil {
		t.Fatal(err)
	}
	h := &helixSession{
		t:      t,
		socket: filepath.Join(sockDir, "s"),
		log:    filepath.Join(tmp, "hx.log"),
	}
	// A fresh tmux server per test: the session inherits this environment.
	h.env = mergeEnv(os.Environ(), map[string]string{
		"HOME":            filepath.Join(tmp, "home"),
		"XDG_CONFIG_HOME": filepath.Join(tmp, "xdg", "config"),
		"XDG_DATA_HOME":   filepath.Join(tmp, "xdg", "data"),
		"XDG_STATE_HOME":  filepath.Join(tmp, "xdg", "state"),
		"XDG_CACHE_HOME":  filepath.Join(tmp, "xdg", "cache"),
		"PATH":            bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TERM":            "xterm-256color",
		"TMUX":            "",
	})
	t.Cleanup(func() {
		h.tmux("kill-server")
		os.RemoveAll(sockDir)
	})
	if out, err := h.tmux("new-session", "-d", "-s", "hx", "-x", "160", "-y", "45", "-c", ws,
		hx, "-vvv", "--log", h.log, name); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// Helix is up once its status line names the file.
	h.waitFor("Helix to open "+name, 20*time.Second, func(s string) bool {
		return strings.Contains(s, "NOR") && strings.Contains(s, name)
	})
	return h
}

func requireHelix(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux not found on PATH (%v): run e2e/setup-helix.sh", err)
	}
	hx := helixBinary()
	if out, err := exec.Command(hx, "--version").CombinedOutput(); err != nil {
		t.Fatalf("Helix not runnable at %s (%v, %s): run e2e/setup-helix.sh", hx, err, strings.TrimSpace(string(out)))
	}
	return hx
}

func TestHelixShowsBatonDiagnostic(t *testing.T) {
	hx := requireHelix(t)
	baton := batonBinary(t)
	h := startHelix(t, hx, baton, "../examples/bad/missing-why-stopped.md")

	// The message inline under line 5 ...
	h.waitFor("the inline diagnostic", 20*time.Second, func(s string) bool {
		return strings.Contains(s, `this packet has no "Why I Stopped" section`)
	})
	// ... and its rule ID in the diagnostics picker (space d).
	h.keys("Space", "d")
	row := regexp.MustCompile(`ERROR\s+packet/missing-section\s+this packet has no`)
	h.waitFor("packet/missing-section in the diagnostics picker", 10*time.Second, row.MatchString)
	h.keys("Escape")
}

func TestHelixHoverStopIntent(t *testing.T) {
	hx := requireHelix(t)
	baton := batonBinary(t)
	h := startHelix(t, hx, baton, "../examples/good/continue.md")

	// Hover (space k) asks the server before it has started; wait until it
	// has: the log says so once baton answers initialize.
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(h.log)
		if strings.Contains(string(b), `"name":"baton"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("baton never answered initialize; helix log:\n%s", b)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Line 3 is <!-- SPECREW-STOP-INTENT: continue -->: go there, on the marker.
	h.keys("3", "g", "g", "5", "l")
	h.waitFor("the cursor on 3:6", 5*time.Second, func(s string) bool {
		return strings.Contains(s, " 3:6")
	})
	h.keys("Space", "k")
	h.waitFor("the hover popup", 15*time.Second, func(s string) bool {
		return strings.Contains(s, "Stop intent:")
	})
	h.keys("Escape")
}
