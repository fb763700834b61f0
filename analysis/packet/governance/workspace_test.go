package governance_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet/governance"
	"github.com/baton-md/baton/analysistest"
)

// analyze writes text as root/stop.md and analyses it as check does, at
// boundary when one is given.
func analyze(t *testing.T, root, text, boundary string) *analysis.Result {
	t.Helper()
	path := filepath.Join(root, "stop.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return analysistest.AnalyzeAt(t, path, "stop.md", text, boundary)
}

func workspace(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range append([]string{".git/HEAD"}, files...) {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func of(res *analysis.Result, rule string) []analysis.Finding {
	return slices.DeleteFunc(slices.Clone(res.Findings), func(f analysis.Finding) bool { return f.Rule != rule })
}

const material = "## What I Just Did\n\nI updated the plan, see %s.\n\n## Why I Stopped\n\nThe change is complete.\n\n" +
	"## What Needs Your Review\n\n- The plan.\n\n## What Happens Next\n\nOn approval, I derive the tasks.\n\n## What I Need From You\n\nReply \"approve\" or \"send back\".\n"

// A file:/// URL into the workspace that names nothing is broken (once,
// however often it is written); one to a file or a folder that exists is
// not, and one outside the workspace is not judged.
func TestBrokenFileURL(t *testing.T) {
	root := workspace(t, "specs/012/plan.md")
	u := "file://" + filepath.ToSlash(root)
	refs := u + "/specs/012/plan.md, " + u + "/specs/012, " + u + "/specs/012/missing.md, " + u + "/specs/012/missing.md again, and file:///elsewhere/x.md"
	res := analyze(t, root, strings.Replace(material, "%s", refs, 1), "")
	fs := of(res, "packet/broken-file-url")
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "specs/012/missing.md") || fs[0].Severity != analysis.Warning {
		t.Fatalf("broken-file-url findings = %+v, want one warning for missing.md", fs)
	}
	if got := res.Doc.String(fs[0].Span); got != u+"/specs/012/missing.md" {
		t.Errorf("the finding spans %q", got)
	}
	// From standard input there is no workspace: nothing is called broken.
	if fs := of(analysistest.AnalyzeAt(t, "", "<stdin>", strings.Replace(material, "%s", refs, 1), ""), "packet/broken-file-url"); len(fs) != 0 {
		t.Errorf("from standard input: %+v", fs)
	}
}

// A bare path in a boundary packet is an error; its fix writes the file's
// file:/// URL when the file exists, and offers nothing when it does not.
func TestBarePathFix(t *testing.T) {
	root := workspace(t, "specs/012/plan.md")
	text := strings.Replace(material, "%s", "specs/012/plan.md and specs/012/gone.md", 1)
	res := analyze(t, root, text, "tasks")
	fs := of(res, "packet/bare-path")
	if len(fs) != 2 {
		t.Fatalf("bare-path findings = %+v, want two", fs)
	}
	for _, f := range fs {
		if f.Severity != analysis.Error {
			t.Errorf("%s at a boundary: %s, want error", res.Doc.String(f.Span), f.Severity)
		}
	}
	if len(fs[0].Fixes) != 1 || !fs[0].Fixes[0].Safe {
		t.Fatalf("the existing file's finding has fixes %+v, want one safe fix", fs[0].Fixes)
	}
	fixed, err := analysis.ApplyEdits(text, fs[0].Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "file://" + filepath.ToSlash(root) + "/specs/012/plan.md and specs/012/gone.md"
	if !strings.Contains(fixed, want) {
		t.Errorf("fixed text:\n%s\nwant it to hold %q", fixed, want)
	}
	if len(fs[1].Fixes) != 0 {
		t.Errorf("a path to no file is offered %+v", fs[1].Fixes)
	}
	// The same packet, no boundary: the validator's scope is the stop
	// format's boundary handoff without a boundary, and reports no path.
	if fs := of(analyze(t, root, text, ""), "packet/bare-path"); len(fs) != 0 {
		t.Errorf("without a boundary: %+v", fs)
	}
}

// The boundary the caller names decides: the boundary's checks run, for
// that boundary's name.
func TestCheckedAtBoundary(t *testing.T) {
	root := workspace(t)
	text := strings.Replace(material, "%s", "the plan", 1)
	res := analyze(t, root, text, "implementation")
	var rules []string
	for _, f := range res.Findings {
		rules = append(rules, f.Rule)
	}
	for _, want := range []string{"packet/thin-what-i-just-did", "packet/unnamed-boundary", "packet/unactionable-request"} {
		if !slices.Contains(rules, want) {
			t.Errorf("at the implementation boundary: no %s in %q", want, rules)
		}
	}
	if fs := of(res, "packet/unnamed-boundary"); len(fs) == 1 && !strings.Contains(fs[0].Message, "implementation") {
		t.Errorf("unnamed-boundary: %s", fs[0].Message)
	}
	if fs := of(analyze(t, root, text, ""), "packet/thin-what-i-just-did"); len(fs) != 0 {
		t.Errorf("no boundary, yet %+v", fs)
	}
}

// NormalizeBoundary is specrew's Normalize-InteractionModelBoundaryName.
func TestNormalizeBoundary(t *testing.T) {
	for in, want := range map[string]string{
		"Planning": "planning", "hardening gate": "hardening-gate-and-implementation-auth", "hardening-gate-sign-off": "hardening-gate-signoff",
		"Implementation Authorization": "implementation", "review": "review-boundary", "Retrospective": "retro-boundary",
		"iteration closeout": "iteration-closeout", "plan": "plan", " before implement ": "before-implement", "": "",
	} {
		if got := governance.NormalizeBoundary(in); got != want {
			t.Errorf("NormalizeBoundary(%q) = %q, want %q", in, got, want)
		}
	}
}

// In a specrew project whose active feature defines the ids, the opaque
// references finding offers to say what each names, from its spec and
// tasks; the fixed paragraph is described inline.
func TestNameReferencesFix(t *testing.T) {
	root := workspace(t)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".specrew/start-context.json", `{"feature_path":"specs/012-retry"}`)
	write("specs/012-retry/spec.md", "## Requirements\n\n- **FR-008**: System MUST wait for `Retry-After` on a 429.\n")
	write("specs/012-retry/tasks.md", "- [X] T009 [P] [US1] Update the retry loop in `client/retry.go`\n- [ ] T010 Add the client tests\n")
	text := strings.Replace(material, "I updated the plan, see %s.", "Completed T009, T010 and FR-008.", 1)
	res := analyze(t, root, text, "")
	fs := of(res, "packet/opaque-references")
	if len(fs) != 1 || len(fs[0].Fixes) != 1 || fs[0].Fixes[0].Safe {
		t.Fatalf("opaque-references = %+v, want one finding with one unsafe fix", fs)
	}
	fixed, err := analysis.ApplyEdits(text, fs[0].Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "Completed T009, update the retry loop in client/retry.go, T010, add the client tests, and FR-008, system MUST wait for Retry-After on a 429."
	if !strings.Contains(fixed, want) {
		t.Errorf("fixed:\n%s\nwant it to hold:\n%s", fixed, want)
	}
	if fs := of(analyze(t, root, fixed, ""), "packet/opaque-references"); len(fs) != 0 {
		t.Errorf("the fixed paragraph still reads as opaque: %+v", fs)
	}
}
