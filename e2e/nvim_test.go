// Package e2e drives real editors against the baton language server.
// Run e2e/setup-nvim.sh first to provide the editors: Debian's nvim on
// PATH and Debian sid's Neovim in the cache folder it names.
package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nvimCase is a file opened in Neovim and what it must show for it. The
// path is relative to this directory. wantCode, when set, is a diagnostic
// code that must appear; hover is requested only when hoverContains is set
// (at hoverLine, or on the first line containing hoverOn); the code action
// titled actionTitle, when set, is requested at actionLine and applied, and
// the buffer must then contain wantBuffer.
type nvimCase struct {
	name          string
	file          string
	wantCode      string
	hoverLine     int    // 0-based
	hoverOn       string // overrides hoverLine
	hoverCol      int    // 0-based, UTF-16 units
	hoverContains string
	actionLine    int // 0-based
	actionTitle   string
	wantBuffer    string
}

// nvimCases are run in every Neovim.
var nvimCases = []nvimCase{
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
	{
		name:          "stop-intent-hover",
		file:          "../examples/good/continue.md",
		hoverOn:       "<!-- SPECREW-STOP-INTENT: continue -->",
		hoverCol:      5,
		hoverContains: "Stop intent:",
	},
	{
		name:        "insert-marker-action",
		file:        "../examples/bad/missing-why-stopped.md",
		wantCode:    "packet/missing-section",
		actionLine:  0,
		actionTitle: "Insert the continue stop-intent marker",
		wantBuffer:  "<!-- SPECREW-STOP-INTENT: continue -->",
	},
}

// A Neovim the tests drive, and the way e2e/nvim/init.lua attaches baton
// in it (the "api" line of the report).
type nvimEditor struct {
	name, path, wantAPI string
}

// sidNvimPath is where e2e/setup-nvim.sh puts Debian sid's Neovim:
// $BATON_E2E_CACHE/nvim-sid/nvim, the cache defaulting to
// ${XDG_CACHE_HOME:-~/.cache}/baton-e2e.
func sidNvimPath() (string, error) {
	cache := os.Getenv("BATON_E2E_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(dir, "baton-e2e")
	}
	return filepath.Join(cache, "nvim-sid", "nvim"), nil
}

// nvimEditors finds both Neovims, failing the test (never skipping it) when
// one is missing.
func nvimEditors(t *testing.T) []nvimEditor {
	t.Helper()
	var eds []nvimEditor
	// Debian's own nvim (0.7.2 on bookworm): the plugin, require('baton').setup{}.
	if p, err := exec.LookPath("nvim"); err != nil {
		t.Errorf("nvim not found on PATH (%v): run e2e/setup-nvim.sh to install Debian's neovim", err)
	} else {
		eds = append(eds, nvimEditor{"debian", p, `require("baton").setup`})
	}
	// Debian sid's Neovim (0.11+): lsp/baton.lua through vim.lsp.enable('baton').
	p, err := sidNvimPath()
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		t.Errorf("Debian sid's Neovim not found (%v): run e2e/setup-nvim.sh to fetch it", err)
	} else {
		eds = append(eds, nvimEditor{"sid", p, "vim.lsp.enable"})
	}
	if t.Failed() {
		t.FailNow()
	}
	return eds
}

func TestNeovimShowsBatonDiagnostic(t *testing.T) {
	editors := nvimEditors(t)
	initLua, err := filepath.Abs(filepath.Join("nvim", "init.lua"))
	if err != nil {
		t.Fatal(err)
	}
	checkLua := filepath.Join(filepath.Dir(initLua), "check.lua")
	baton := batonBinary(t)
	// init.lua uses the project's Neovim configuration as a user would, with
	// `baton` on PATH.
	binDir := t.TempDir()
	if err := os.Symlink(baton, filepath.Join(binDir, "baton")); err != nil {
		t.Fatal(err)
	}
	path := binDir + string(os.PathListSeparator) + os.Getenv("PATH")

	for _, ed := range editors {
		t.Run(ed.name, func(t *testing.T) {
			for _, tc := range nvimCases {
				t.Run(tc.name, func(t *testing.T) {
					runNvimCase(t, ed, initLua, checkLua, path, tc)
				})
			}
		})
	}
}

// runNvimCase opens tc.file in ed with init.lua and check.lua and checks
// the report check.lua writes.
func runNvimCase(t *testing.T, ed nvimEditor, initLua, checkLua, path string, tc nvimCase) {
	file, wantCode, hoverLine, hoverOn, hoverCol, hoverContains := tc.file, tc.wantCode, tc.hoverLine, tc.hoverOn, tc.hoverCol, tc.hoverContains
	actionLine, actionTitle, wantBuffer := tc.actionLine, tc.actionTitle, tc.wantBuffer
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if hoverOn != "" {
		i := strings.Index(string(src), hoverOn)
		if i < 0 {
			t.Fatalf("%s has no line containing %q", file, hoverOn)
		}
		hoverLine = strings.Count(string(src[:i]), "\n")
	}
	if wantBuffer != "" && strings.Contains(string(src), wantBuffer) {
		t.Fatalf("%s already contains %q", file, wantBuffer)
	}
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "ws")
	// .git makes ws the workspace root through the configuration's root markers.
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(file)
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
		"PATH":            path,
		"WANT_CODE":       wantCode,
		"OUT":             report,
	}
	if hoverContains != "" {
		env["HOVER_LINE"] = strconv.Itoa(hoverLine)
		env["HOVER_COL"] = strconv.Itoa(hoverCol)
		env["HOVER_WANT"] = hoverContains
	}
	if actionTitle != "" {
		env["ACTION_LINE"] = strconv.Itoa(actionLine)
		env["ACTION_TITLE"] = actionTitle
	}

	// A hang guard only: a case takes well under a second.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, ed.path, "--headless", "-u", initLua, name,
		"-c", "luafile "+vimEscape(checkLua))
	cmd.Dir = ws
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
			t.Fatalf("%s did not exit before the deadline: %v", ed.path, runErr)
		}
		t.Fatalf("%s failed (baton never attached, or the wanted diagnostic never appeared?): %v", ed.path, runErr)
	}

	lines := strings.Split(string(got), "\n")
	fail := func(format string, args ...any) {
		t.Helper()
		dump()
		t.Errorf(format, args...)
	}
	if api, _ := findPrefix(lines, "api "); api != ed.wantAPI {
		fail("%s attached baton with %q, want %q (the %s Neovim runs the other configuration path)", ed.path, api, ed.wantAPI, ed.name)
	}
	if !nvimHasClient(lines, ws) {
		fail("report has no baton client attached with root %s", ws)
	}
	if wantCode != "" && !hasDiag(lines, wantCode) {
		fail("report has no diag line with code=%s and source=baton", wantCode)
	}
	if hoverContains != "" {
		hover, ok := findPrefix(lines, "hover ")
		if !ok || !strings.Contains(hover, hoverContains) {
			fail("hover at %d:%d = %q, want it to contain %q", hoverLine, hoverCol, hover, hoverContains)
		}
	}
	if actionTitle != "" {
		if !slices.Contains(lines, "action "+actionTitle) {
			fail("code action %q not offered at line %d", actionTitle, actionLine)
		} else if !slices.Contains(lines, "applied "+actionTitle) {
			fail("code action %q not applied", actionTitle)
		}
		var buf []string
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, "buffer "); ok {
				_, text, _ := strings.Cut(rest, " ")
				buf = append(buf, text)
			}
		}
		if !strings.Contains(strings.Join(buf, "\n"), wantBuffer) {
			fail("after %q the buffer does not contain %q:\n%s", actionTitle, wantBuffer, strings.Join(buf, "\n"))
		}
	}
}

// nvimHasClient reports whether a baton client is attached with root ws.
func nvimHasClient(lines []string, ws string) bool {
	want, err := filepath.EvalSymlinks(ws)
	if err != nil {
		want = ws
	}
	for _, l := range lines {
		rest, ok := strings.CutPrefix(l, "client baton ")
		if !ok {
			continue
		}
		var attached, root bool
		for _, f := range strings.Fields(rest) {
			attached = attached || f == "attached=true"
			if r, ok := strings.CutPrefix(f, "root="); ok {
				if rr, err := filepath.EvalSymlinks(r); err == nil {
					r = rr
				}
				root = root || r == want
			}
		}
		if attached && root {
			return true
		}
	}
	return false
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
