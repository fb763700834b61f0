package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// emacsCases drive editors/emacs/baton.el in Emacs (batch mode, eglot)
// through e2e/emacs/check.el. Paths are relative to this directory.
var emacsCases = []struct {
	name     string
	file     string
	markdown bool   // load the stand-in markdown-mode (else baton.el's text-mode fallback)
	settings string // baton-settings, an Emacs Lisp plist
	env      map[string]string
	want     []string // lines (prefixes) the report must hold
}{
	{
		name: "diagnostic-and-explain",
		file: "../examples/bad/missing-why-stopped.md",
		env:  map[string]string{"WANT_CODE": "packet/missing-section", "EXPLAIN": "1"},
		want: []string{
			"server baton language-id=markdown",
			"diag code=packet/missing-section type=eglot-error line=5 ",
			"explain packet/missing-section (default severity: error)",
		},
	},
	{
		name:     "diagnostic-markdown-mode",
		file:     "../examples/bad/missing-why-stopped.md",
		markdown: true,
		env:      map[string]string{"WANT_CODE": "packet/missing-section"},
		want:     []string{"diag code=packet/missing-section type=eglot-error "},
	},
	{
		name:     "hover-stop-intent",
		file:     "../examples/good/continue.md",
		markdown: true,
		env:      map[string]string{"HOVER_LINE": "2", "HOVER_COL": "5"}, // <!-- SPECREW-STOP-INTENT: continue -->
		want:     []string{"hover **Stop intent:"},
	},
	{
		name: "code-action-insert-continue-marker",
		file: "../examples/bad/missing-why-stopped.md",
		env: map[string]string{
			"WANT_CODE": "packet/missing-section",
			"ACTION":    "Insert the continue stop-intent marker",
		},
		want: []string{
			"action-offered Insert the continue stop-intent marker",
			`buffer-after-action ## What I Just Did\n`,
			"buffer-modified yes",
		},
	},
	{
		name:     "settings-under-baton",
		file:     "../examples/bad/missing-why-stopped.md",
		markdown: true,
		settings: `(:severity (:packet/missing-section "warning"))`,
		env:      map[string]string{"WANT_CODE": "packet/missing-section"},
		want:     []string{"diag code=packet/missing-section type=eglot-warning "},
	},
}

func TestEmacsEglot(t *testing.T) {
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		t.Fatalf("emacs not found on PATH (%v): run e2e/setup-emacs.sh to install Emacs and eglot", err)
	}
	batonEl, err := filepath.Abs(filepath.Join("..", "editors", "emacs", "baton.el"))
	if err != nil {
		t.Fatal(err)
	}
	check, _ := filepath.Abs(filepath.Join("emacs", "check.el"))
	stub, _ := filepath.Abs(filepath.Join("emacs", "stub"))
	baton := batonBinary(t)

	for _, tc := range emacsCases {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			ws := filepath.Join(tmp, "ws")
			bin := filepath.Join(tmp, "bin")
			for _, d := range []string{ws, bin, filepath.Join(tmp, "home")} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// baton.el runs "baton" from PATH, as a user's setup would.
			if err := os.Symlink(baton, filepath.Join(bin, "baton")); err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(tc.file)
			if err := os.WriteFile(filepath.Join(ws, name), src, 0o644); err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(tmp, "report.txt")
			env := map[string]string{
				// Keep ~/.emacs.d, elpa and any user config out of $HOME.
				"HOME":            filepath.Join(tmp, "home"),
				"XDG_CONFIG_HOME": filepath.Join(tmp, "xdg", "config"),
				"XDG_DATA_HOME":   filepath.Join(tmp, "xdg", "data"),
				"XDG_STATE_HOME":  filepath.Join(tmp, "xdg", "state"),
				"XDG_CACHE_HOME":  filepath.Join(tmp, "xdg", "cache"),
				"PATH":            bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				"BATON_EL":        batonEl,
				"OUT":             report,
				"STEP_TIMEOUT":    "20",
			}
			if tc.markdown {
				env["STUB_DIR"] = stub
			}
			if tc.settings != "" {
				env["SETTINGS"] = tc.settings
			}
			for k, v := range tc.env {
				env[k] = v
			}

			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", check, name)
			cmd.Dir = ws // the eglot project root (a transient project: no VCS here)
			cmd.Env = mergeEnv(os.Environ(), env)
			cmd.WaitDelay = 5 * time.Second
			start := time.Now()
			out, runErr := cmd.CombinedOutput()
			got, _ := os.ReadFile(report)
			dump := func() {
				t.Logf("report:\n%s", got)
				t.Logf("emacs output:\n%s", out)
			}
			if strings.Contains(string(out), "Cannot open load file") && strings.Contains(string(out), "eglot") {
				dump()
				t.Fatalf("eglot is not installed: run e2e/setup-emacs.sh")
			}
			if runErr != nil {
				dump()
				if ctx.Err() != nil {
					t.Fatalf("emacs did not exit before the deadline: %v", runErr)
				}
				t.Fatalf("emacs check failed: %v", runErr)
			}
			lines := strings.Split(string(got), "\n")
			for _, w := range tc.want {
				if !hasLinePrefix(lines, w) {
					dump()
					t.Errorf("report has no line starting with %q", w)
				}
			}
			if testing.Verbose() {
				t.Logf("emacs took %s", time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

func hasLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
