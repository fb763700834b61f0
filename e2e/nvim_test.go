// Package e2e drives real editors against the baton language server.
// Run e2e/setup.sh first to install the editors.
package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nvimCases are the files opened in Neovim and what it must show for them.
// Paths are relative to this directory. Hover is requested only when
// hoverContains is set.
var nvimCases = []struct {
	name          string
	file          string
	wantCode      string
	hoverLine     int // 0-based
	hoverCol      int // 0-based, UTF-16 units
	hoverContains string
}{
	{
		name:          "missing-why-stopped",
		file:          "../examples/bad/missing-why-stopped.md",
		wantCode:      "packet/missing-section",
		hoverLine:     0,
		hoverCol:      3,
		hoverContains: "What I Just Did",
	},
	{
		name:          "hover-on-finding",
		file:          "../examples/bad/missing-why-stopped.md",
		wantCode:      "packet/missing-section",
		hoverLine:     4, // "## What Needs Your Review", where the missing section belongs
		hoverCol:      5,
		hoverContains: "A stop packet hands control back to a person",
	},
	{
		name:          "verdict-marker-misplaced",
		file:          "../examples/bad/marker-misplaced.md",
		wantCode:      "packet/verdict-marker-position",
		hoverLine:     0,
		hoverCol:      10,
		hoverContains: "packet/verdict-marker-position",
	},
}

func TestNeovimShowsBatonDiagnostic(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim not found on PATH (%v): run e2e/setup.sh to install it", err)
	}
	initLua, err := filepath.Abs(filepath.Join("nvim", "init.lua"))
	if err != nil {
		t.Fatal(err)
	}
	checkLua := filepath.Join(filepath.Dir(initLua), "check.lua")
	baton := batonBinary(t)

	for _, tc := range nvimCases {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			ws := filepath.Join(tmp, "ws")
			if err := os.Mkdir(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(tc.file)
			if err := os.WriteFile(filepath.Join(ws, name), src, 0o644); err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(tmp, "report.txt")

			env := map[string]string{
				// Keep editor state, logs and any user config out of $HOME.
				"XDG_CONFIG_HOME": filepath.Join(tmp, "xdg", "config"),
				"XDG_DATA_HOME":   filepath.Join(tmp, "xdg", "data"),
				"XDG_STATE_HOME":  filepath.Join(tmp, "xdg", "state"),
				"XDG_CACHE_HOME":  filepath.Join(tmp, "xdg", "cache"),
				"BATON_BIN":       baton,
				"WANT_CODE":       tc.wantCode,
				"OUT":             report,
			}
			if tc.hoverContains != "" {
				env["HOVER_LINE"] = strconv.Itoa(tc.hoverLine)
				env["HOVER_COL"] = strconv.Itoa(tc.hoverCol)
			}

			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", initLua, name,
				"-c", "luafile "+vimEscape(checkLua))
			cmd.Dir = ws // init.lua uses the cwd as the LSP root.
			cmd.Env = mergeEnv(os.Environ(), env)
			// baton inherits nvim's pipes; don't hang on them if nvim is killed.
			cmd.WaitDelay = 5 * time.Second
			out, runErr := cmd.CombinedOutput()

			got, _ := os.ReadFile(report)
			dump := func() {
				t.Logf("report:\n%s", got)
				t.Logf("nvim output:\n%s", out)
				logs, _ := filepath.Glob(filepath.Join(tmp, "xdg", "*", "nvim", "lsp.log"))
				for _, l := range logs {
					b, _ := os.ReadFile(l)
					t.Logf("%s:\n%s", l, b)
				}
			}
			if runErr != nil {
				dump()
				if ctx.Err() != nil {
					t.Fatalf("nvim did not exit before the deadline: %v", runErr)
				}
				t.Fatalf("nvim failed (the wanted diagnostic never appeared?): %v", runErr)
			}

			lines := strings.Split(string(got), "\n")
			if !hasDiag(lines, tc.wantCode) {
				dump()
				t.Errorf("report has no diag line with code=%s and source=baton", tc.wantCode)
			}
			if tc.hoverContains != "" {
				hover, ok := findPrefix(lines, "hover ")
				if !ok || !strings.Contains(hover, tc.hoverContains) {
					dump()
					t.Errorf("hover at %d:%d = %q, want it to contain %q",
						tc.hoverLine, tc.hoverCol, hover, tc.hoverContains)
				}
			}
		})
	}
}

// batonBinary returns BATON_BIN_OVERRIDE if set (a prebuilt or stand-in
// server), else builds ./cmd/baton into a temp dir.
func batonBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("BATON_BIN_OVERRIDE"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "baton")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/baton")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/baton: %v\n%s", err, out)
	}
	return bin
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

// mergeEnv overrides base with set and drops variables that would make nvim
// load a user config or talk to a parent editor.
func mergeEnv(base []string, set map[string]string) []string {
	drop := map[string]bool{"VIMINIT": true, "MYVIMRC": true, "NVIM": true, "NVIM_APPNAME": true, "NVIM_LISTEN_ADDRESS": true}
	var env []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; ok || drop[k] {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// vimEscape escapes a file name for an Ex command argument.
func vimEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, " ", `\ `, "|", `\|`, `"`, `\"`).Replace(s)
}

func hasDiag(lines []string, code string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "diag ") {
			continue
		}
		head, _, _ := strings.Cut(l, " msg=") // the message is free text
		var src, c bool
		for _, f := range strings.Fields(head) {
			src = src || f == "source=baton"
			c = c || f == "code="+code
		}
		if src && c {
			return true
		}
	}
	return false
}

func findPrefix(lines []string, prefix string) (string, bool) {
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest, true
		}
	}
	return "", false
}
