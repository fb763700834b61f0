package hooktest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/stopintent"
)

// MarkerCP is specrew's verdict marker of the clarify -> plan boundary.
const MarkerCP = "<!-- SPECREW-VERDICT-BOUNDARY: clarify -> plan -->"

// BoundaryPacket is a boundary stop's packet, with its verdict marker:
// our message, in the shape of specrew's tests' $realPacket.
func BoundaryPacket(from, to string) string {
	return `## What I Just Did

Finished the ` + from + ` work for the export feature and recorded it in file:///work/specs/010-export/spec.md.

## Why I Stopped

This is the ` + from + ` -> ` + to + ` boundary; the next phase builds on these decisions, so a person decides first.

## What Needs Your Review

The scope of the export format and the two open questions in the spec.

## What Happens Next

I will write the ` + to + ` artifacts from the approved scope.

## Discussion Prompts

1. Is CSV enough for the first release? You may approve with the defaults.

## What I Need From You

Approve it as it stands, approve it with instructions, send it back, or discuss prompt #N.

<!-- SPECREW-VERDICT-BOUNDARY: ` + from + ` -> ` + to + ` -->
`
}

// Project is a specrew project as specrew's stop-provider tests build
// it (tests/integration/conformance-detection.tests.ps1 at alonf/specrew
// acbb4366, New-Fixture): a Git project with .specrew/start-context.json,
// and a folder for the hook's state.
type Project struct {
	T           testing.TB
	Root, State string
	Session     string
}

// NewProject is a project whose specrew state is working at boundary
// working, lastAuth the last one authorized; enabled turns boundary
// enforcement on. The test is skipped without git.
func NewProject(t testing.TB, working, lastAuth string, enabled bool) *Project {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	p := &Project{T: t, Root: t.TempDir(), State: t.TempDir(), Session: "s1"}
	p.Git("init", "--quiet")
	p.Write(".fixture-base", "fixture\n")
	p.Git("add", ".fixture-base")
	p.Git("commit", "--quiet", "-m", "fixture baseline")
	p.Context(working, lastAuth, enabled, nil)
	return p
}

// Git runs git in the project.
func (p *Project) Git(args ...string) string {
	p.T.Helper()
	cmd := exec.Command("git", append([]string{"-C", p.Root, "-c", "user.name=Fixture", "-c", "user.email=fixture@example.invalid", "-c", "core.autocrlf=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.T.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes a file of the project.
func (p *Project) Write(rel, content string) {
	p.T.Helper()
	path := filepath.Join(p.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.T.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.T.Fatal(err)
	}
}

// Context writes .specrew/start-context.json as New-Fixture does.
func (p *Project) Context(working, lastAuth string, enabled bool, scope map[string]any) {
	var ss any
	if working != "" {
		ss = map[string]any{"active": true, "boundary_type": working, "feature_ref": "010-export", "iteration_number": "001"}
	}
	var la any
	if lastAuth != "" {
		la = lastAuth
	}
	be := map[string]any{"enabled": enabled, "last_authorized_boundary": la, "pending_next_boundary": nil, "verdict_history": []any{}, "bypass_history": []any{}}
	if scope != nil {
		be["pending_crossing"] = scope
	}
	b, _ := json.MarshalIndent(map[string]any{"schema": "v2", "feature_path": filepath.Join(p.Root, "specs", "010-export"), "session_state": ss, "boundary_enforcement": be}, "", "  ")
	p.Write(".specrew/start-context.json", string(b))
}

// Spec commits a feature spec (New-Spec).
func (p *Project) Spec() {
	p.Write("specs/010-export/spec.md", "# Feature Specification: Export\n")
	p.Git("add", "--", "specs")
	p.Git("commit", "--quiet", "-m", "fixture spec")
}

// Evidence commits the stage evidence and binds the pending crossing to
// HEAD (New-BoundaryStageEvidence, Set-FixtureBoundCrossing).
func (p *Project) Evidence(working, lastAuth string) {
	for _, f := range []string{"plan.md", "state.md", "review.md", "retro.md", "quality/hardening-gate.md"} {
		p.Write("specs/010-export/iterations/001/"+f, "# "+f+"\n")
	}
	if working == "clarify" {
		// clarify owns no file: a dated session block in spec.md.
		p.Write("specs/010-export/spec.md", "# Feature Specification: Export\n\n## Clarifications\n\n### Session 2026-06-20 (clarify)\n\n- Q: CSV only? -> A (human): yes.\n")
	}
	p.Git("add", "--", "specs")
	p.Git("commit", "--quiet", "-m", "fixture stage evidence")
	st := stopintent.NewWorkspace(p.Root).State("")
	c := st.Crossing
	if c == nil {
		return // nothing pending: a fixture at rest stays at rest
	}
	commit := p.Git("rev-parse", "HEAD")
	tree := p.Git("rev-parse", "HEAD^{tree}")
	sum := sha256.Sum256([]byte(strings.Join([]string{c.From, c.To, c.Working, commit, tree}, "\x1f")))
	p.Context(working, lastAuth, true, map[string]any{
		"crossing_id": "crossing-" + hex.EncodeToString(sum[:]), "from_boundary": c.From, "to_boundary": c.To, "working_boundary": c.Working,
		"boundary_commit_hash": commit, "artifact_state_kind": "git-tree", "artifact_state_id": tree, "recorded_at": "2026-06-20T00:00:00Z",
	})
	if st := stopintent.NewWorkspace(p.Root).State(""); st.Integrity != "scoped-verified" {
		p.T.Fatalf("the bound crossing does not verify: %s (%s)", st.Integrity, st.BoundaryPending.Note)
	}
}

// Dirty writes user files that are not committed.
func (p *Project) Dirty(files ...string) {
	for _, f := range files {
		p.Write(f, "material: "+f+"\n")
	}
}

// CommitFile commits a new file (New-HandoverSnapshot -NewCommits).
func (p *Project) CommitFile(name string) {
	p.Write(name, "commit "+name+"\n")
	p.Git("add", "--", name)
	p.Git("commit", "--quiet", "-m", "material commit "+name)
}
