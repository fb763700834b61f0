package conformance_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/baton-md/baton/stoppolicy"
)

// fixture is one line of EXPECTED.jsonl: a packet fixture of specrew's
// Pester tests and the verdict the test expects.
type fixture struct {
	ID, File, Kind, Source, Test string
	Specrew                      struct {
		// validator
		Exit     *int
		Present  []string
		Absent   []string
		Boundary *string
		// design-gate
		Valid *bool
		Rule  string
		// marker
		Want *string
		// evidence
		Packet *bool
	}
}

// invocation says how specrew's test runs the validator where EXPECTED.jsonl's
// boundary field does not: the boundary baton is told, and why.
var invocation = map[string]struct{ boundary, why string }{
	"substantive-thin-barepath": {"retro-boundary", "its test passes -IterationPath, whose state.md resolves the retro-boundary (tests/integration/substantive-interaction-model-handoff-test.ps1:67)"},
	"substantive-pass-retro":    {"retro-boundary", "its test passes -IterationPath, whose state.md resolves the retro-boundary (tests/integration/substantive-interaction-model-handoff-test.ps1:111)"},
}

// needsState names the fixtures whose verdict rests on state besides the
// message, and which state the test gives baton for it.
var needsState = map[string]string{
	"provider-real-boundary-packet": "the pending clarify -> plan crossing its marker names",
	"provider-material-packet":      "a Git project with a changed file since the turn began (material work)",
	"capture-six-section-packet":    "the pending tasks -> before-implement crossing the captured marker names",
}

// designGateRules maps the corpus's labels for the design gate's refusals
// (specrew throws a sentence, not a code) to baton's rules.
var designGateRules = map[string]string{
	"missing-section":    "packet/missing-section",
	"bare-artifact-path": "packet/gate-bare-path",
}

// TestSpecrewPesterFixtures runs every packet fixture of specrew's own tests
// through baton and asserts specrew's verdict.
func TestSpecrewPesterFixtures(t *testing.T) {
	dir := corpus.Dir(t, "specrew/pester-fixtures")
	fixtures := readExpected(t, filepath.Join(dir, "EXPECTED.jsonl"))
	if len(fixtures) < 45 {
		t.Errorf("%d fixtures in EXPECTED.jsonl, want the 45 of specrew's tests", len(fixtures))
	}
	reg := engine.Registry()
	for _, fx := range fixtures {
		t.Run(fx.ID, func(t *testing.T) {
			if why, ok := needsState[fx.ID]; ok {
				t.Logf("needs state the message alone does not give: %s", why)
			}
			root := t.TempDir()
			text := workspace(t, dir, root, fx.File)
			switch fx.Kind {
			case "validator":
				checkValidator(t, reg, root, text, fx)
			case "design-gate":
				checkDesignGate(t, reg, root, text, fx)
			case "marker":
				res := analyze(t, reg, root, text, "")
				intent := ""
				if m, _ := res.Model(stopintent.Analyzer).(*stopintent.Model); m != nil && len(m.Stops) > 0 {
					intent = string(m.Stops[len(m.Stops)-1].Intent)
				}
				if intent != *fx.Specrew.Want {
					t.Errorf("intent %q, specrew reads %q", intent, *fx.Specrew.Want)
				}
			case "evidence":
				doc := markdown.Parse("response.md", text)
				if got := doc.Kind == markdown.KindPacket; got != *fx.Specrew.Packet {
					t.Errorf("a packet: %v (kind %s), specrew: %v", got, doc.Kind, *fx.Specrew.Packet)
				}
			case "provider":
				checkProvider(t, root, text, fx)
			case "capture":
				c := &stopintent.Crossing{From: "tasks", To: "before-implement"}
				if !stoppolicy.CarriesVerdict(text, c) {
					t.Errorf("the packet does not carry the %s -> %s verdict as specrew's capture reads it", c.From, c.To)
				}
			default:
				t.Fatalf("unknown kind %q", fx.Kind)
			}
		})
	}
}

func readExpected(t *testing.T, path string) []fixture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fixture
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var fx fixture
		if err := json.Unmarshal(sc.Bytes(), &fx); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, fx)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// workspace lays out the fixture's workspace under root as specrew's test
// does (its specs/ stand-ins; the root a Git repository), and returns the
// fixture's text with the root put where the test substitutes it.
func workspace(t *testing.T, dir, root, file string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specs := filepath.Join(dir, "specs")
	err := filepath.WalkDir(specs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.ToSlash(root)
	if !strings.HasPrefix(filepath.ToSlash(root), "/") {
		uri = "file:///" + filepath.ToSlash(root)
	}
	text := strings.ReplaceAll(string(data), "__REPO_ROOT_URI__", uri)
	return strings.ReplaceAll(text, "__REPO_ROOT__", root)
}

func analyze(t *testing.T, reg *analysis.Registry, root, text, boundary string) *analysis.Result {
	t.Helper()
	path := filepath.Join(root, "response.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Sources{Registry: reg})
	env, err := eng.Env(engine.Request{Path: path, Boundary: boundary})
	if err != nil {
		t.Fatal(err)
	}
	return eng.Analyze(env, "response.md", text)
}

// codes are the specrew checks a finding stands for: those its rule
// follows, narrowed by its severity where the rule follows a hard fail and
// a soft warning of one check.
func codes(reg *analysis.Registry, f analysis.Finding) []string {
	r := reg.Rule(f.Rule)
	if r == nil {
		return nil
	}
	var all, bySeverity []string
	for _, fl := range r.Follows {
		code, ok := strings.CutPrefix(fl, "specrew ")
		if !ok {
			continue
		}
		all = append(all, code)
		if f.Severity == analysis.Error && strings.HasPrefix(code, "validation-fail.") ||
			f.Severity == analysis.Warning && strings.HasPrefix(code, "soft-warning.") {
			bySeverity = append(bySeverity, code)
		}
	}
	if len(bySeverity) > 0 {
		return bySeverity
	}
	return all
}

// reported says whether a code specrew's test names was reported: a code
// without its prefix matches either severity, "soft-warning.*" any soft
// warning.
func reported(reg *analysis.Registry, res *analysis.Result, want string) []analysis.Finding {
	var out []analysis.Finding
	for _, f := range res.Findings {
		for _, c := range codes(reg, f) {
			_, name, _ := strings.Cut(c, ".")
			switch {
			case want == "soft-warning.*" && strings.HasPrefix(c, "soft-warning."),
				!strings.Contains(want, ".") && name == want,
				strings.HasSuffix(want, ".bare-path-in-boundary-handoff") && name == "bare-path-in-boundary-handoff",
				c == want:
				out = append(out, f)
			}
		}
	}
	return out
}

func checkValidator(t *testing.T, reg *analysis.Registry, root, text string, fx fixture) {
	t.Helper()
	boundary := ""
	if b := fx.Specrew.Boundary; b != nil {
		boundary = *b
	}
	if inv, ok := invocation[fx.ID]; ok {
		boundary = inv.boundary
		t.Logf("checked at the %s boundary: %s", boundary, inv.why)
	}
	res := analyze(t, reg, root, text, boundary)
	var errs []string
	for _, f := range res.Findings {
		if f.Severity == analysis.Error {
			errs = append(errs, fmt.Sprintf("%s: %s", f.Rule, f.Message))
		}
	}
	if exit := *fx.Specrew.Exit; (exit != 0) != (len(errs) > 0) {
		t.Errorf("specrew's validator exits %d; baton's errors: %q\nall findings: %s", exit, errs, list(res))
	}
	for _, code := range fx.Specrew.Present {
		fs := reported(reg, res, code)
		if len(fs) == 0 {
			t.Errorf("specrew reports %s; baton does not\nfindings: %s", code, list(res))
			continue
		}
		want := analysis.Warning
		if strings.HasPrefix(code, "validation-fail.") {
			want = analysis.Error
		}
		if !slices.ContainsFunc(fs, func(f analysis.Finding) bool { return f.Severity == want }) {
			t.Errorf("specrew reports %s; baton reports it at %s", code, fs[0].Severity)
		}
	}
	for _, code := range fx.Specrew.Absent {
		if fs := reported(reg, res, code); len(fs) > 0 {
			t.Errorf("specrew does not report %s; baton does: %s: %s", code, fs[0].Rule, fs[0].Message)
		}
	}
}

func checkDesignGate(t *testing.T, reg *analysis.Registry, root, text string, fx fixture) {
	t.Helper()
	res := analyze(t, reg, root, text, "")
	var errs []analysis.Finding
	for _, f := range res.Findings {
		if f.Severity == analysis.Error {
			errs = append(errs, f)
		}
	}
	if *fx.Specrew.Valid {
		if len(errs) > 0 {
			t.Errorf("specrew's gate takes the packet; baton errs: %s", list(res))
		}
		return
	}
	rule := designGateRules[fx.Specrew.Rule]
	if !slices.ContainsFunc(errs, func(f analysis.Finding) bool { return f.Rule == rule }) {
		t.Errorf("specrew's gate refuses the packet (%s); baton reports no %s error: %s", fx.Specrew.Rule, rule, list(res))
	}
}

// checkProvider asks baton's stop hook about the packet, in the state the
// provider's test sets up: the stop goes through.
func checkProvider(t *testing.T, root, text string, fx fixture) {
	t.Helper()
	switch fx.ID {
	case "provider-real-boundary-packet":
		// At a pending boundary specrew's provider lets a stop through that
		// carries the pending crossing's marker in a packet of substance
		// ($markerForPendingCrossing); the stage-evidence lane, which needs
		// a bound Git tree, is stoppolicy's own tests'.
		c := &stopintent.Crossing{From: "clarify", To: "plan"}
		if !stoppolicy.CarriesVerdict(text, c) || !stoppolicy.PacketPresent(text) {
			t.Errorf("specrew's provider takes the packet at the pending %s -> %s boundary; baton does not (marker read: %v, packet: %v)", c.From, c.To, stoppolicy.CarriesVerdict(text, c), stoppolicy.PacketPresent(text))
		}
		bare := strings.ReplaceAll(text, "SPECREW-VERDICT-BOUNDARY", "NO-MARKER")
		if stoppolicy.CarriesVerdict(bare, c) {
			t.Errorf("without its marker the packet still carries the verdict")
		}
	case "provider-material-packet":
		git := func(args ...string) {
			t.Helper()
			cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
			t.Fatal(err)
		}
		git("init", "-q")
		git("add", ".")
		git("commit", "-q", "-m", "base")
		o := stoppolicy.Options{StateDir: t.TempDir(), RequirePacket: true}
		first := stoppolicy.Evaluate(stoppolicy.Stop{Host: "claude", SessionID: "s1", Cwd: root, Message: "Done."}, o)
		if err := os.WriteFile(filepath.Join(root, "provider.ps1"), []byte("changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out := stoppolicy.Evaluate(stoppolicy.Stop{Host: "claude", SessionID: "s1", Cwd: root, Message: text}, o)
		if out.Reason != "" {
			t.Errorf("specrew's provider lets the packet through after material work; baton blocks: %s (first stop: %+v)", out.Reason, first)
		}
		if out := stoppolicy.Evaluate(stoppolicy.Stop{Host: "claude", SessionID: "s1", Cwd: root, Message: "I changed the provider."}, o); out.Reason == "" {
			t.Log("a stop without the packet after the same change was let through (the turn's baseline moved with the packet)")
		}
	default:
		t.Fatalf("no state for provider fixture %s", fx.ID)
	}
}

func list(res *analysis.Result) string {
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "\n  %s %s: %s", f.Severity, f.Rule, f.Message)
	}
	return b.String()
}
