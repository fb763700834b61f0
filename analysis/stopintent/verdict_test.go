package stopintent_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/stopintent"
)

// enforcement writes a start-context.json of the shape specrew's tests build
// (New-Fixture in tests/integration/conformance-detection.tests.ps1): a
// working boundary, a last authorized one, and enforcement on or off.
func enforcement(working, lastAuth string, enabled bool, extra map[string]any) string {
	var ss any
	if working != "" {
		ss = map[string]any{"active": true, "boundary_type": working, "feature_ref": "050-host-neutral-gate", "iteration_number": "001"}
	}
	var la any
	if lastAuth != "" {
		la = lastAuth
	}
	be := map[string]any{"enabled": enabled, "last_authorized_boundary": la, "pending_next_boundary": nil, "verdict_history": []any{}, "bypass_history": []any{}}
	for k, v := range extra {
		be[k] = v
	}
	b, _ := json.Marshal(map[string]any{"schema": "v2", "session_state": ss, "boundary_enforcement": be})
	return string(b)
}

// The pending-verdict cases of Get-SpecrewPendingVerdictState and
// Get-SpecrewPendingBoundaryCrossing, on start contexts of our own writing.
func TestPendingVerdict(t *testing.T) {
	tests := []struct {
		name, ctx      string
		pending        bool
		marker         string // the crossing's marker when pending
		integrity      string
		authorized     stopintent.Tri
		problemContain string
	}{
		{name: "working ahead of authorized: the next crossing", ctx: enforcement("plan", "clarify", true, nil), pending: true, marker: "<!-- SPECREW-VERDICT-BOUNDARY: clarify -> plan -->", integrity: "legacy-unscoped", authorized: stopintent.False},
		{name: "caught up: nothing pending, the phase is authorized", ctx: enforcement("plan", "plan", true, nil), integrity: "legacy-unscoped", authorized: stopintent.True},
		{name: "two gates ahead: the contiguous crossing, not the jump", ctx: enforcement("tasks", "clarify", true, nil), pending: true, marker: "<!-- SPECREW-VERDICT-BOUNDARY: clarify -> plan -->", integrity: "legacy-unscoped", authorized: stopintent.False},
		{name: "first boundary: from intake", ctx: enforcement("clarify", "", true, nil), pending: true, marker: "<!-- SPECREW-VERDICT-BOUNDARY: intake -> specify -->", integrity: "legacy-unscoped", authorized: stopintent.False},
		{name: "aliases normalize: planning is behind task(s)", ctx: enforcement("Planning", "task", true, nil), integrity: "legacy-unscoped", authorized: stopintent.True},
		{name: "a last authorized boundary that is no boundary is an invalid state", ctx: enforcement("plan", "lunch", true, nil), integrity: "state-invalid", authorized: stopintent.True, problemContain: "not canonical"},
		{name: "alias working boundary", ctx: enforcement("Planning", "clarify", true, nil), pending: true, marker: "<!-- SPECREW-VERDICT-BOUNDARY: clarify -> plan -->", integrity: "legacy-unscoped", authorized: stopintent.False},
		{name: "behind the cursor: nothing pending", ctx: enforcement("plan", "tasks", true, nil), integrity: "legacy-unscoped", authorized: stopintent.True},
		{name: "a new iteration after iteration-closeout: the cycle's plan", ctx: enforcement("tasks", "iteration-closeout", true, nil), pending: true, marker: "<!-- SPECREW-VERDICT-BOUNDARY: iteration-closeout -> plan -->", integrity: "legacy-unscoped", authorized: stopintent.False},
		{name: "unknown working boundary: nothing pending", ctx: enforcement("lunch", "clarify", true, nil), integrity: "legacy-unscoped", authorized: stopintent.True},
		{name: "no working boundary", ctx: enforcement("", "clarify", true, nil), integrity: "legacy-unscoped", authorized: stopintent.False},
		{name: "enforcement disabled never pends", ctx: enforcement("plan", "clarify", false, nil), integrity: "unreadable", authorized: stopintent.True},
		{name: "a missing required key is an invalid state, not pending", ctx: `{"session_state":{"boundary_type":"plan"},"boundary_enforcement":{"enabled":true,"last_authorized_boundary":"clarify"}}`, integrity: "state-invalid", authorized: stopintent.True, problemContain: "pending_next_boundary is missing"},
		{name: "pending_crossing null: scoped clean, the session state is no authority", ctx: enforcement("plan", "clarify", true, map[string]any{"pending_crossing": nil}), integrity: "scoped-clean", authorized: stopintent.True},
		{name: "a scope of another kind is invalid", ctx: enforcement("plan", "clarify", true, map[string]any{"pending_crossing": map[string]any{"artifact_state_kind": "files"}}), integrity: "scope-invalid", authorized: stopintent.True},
		{name: "a scope whose commit does not resolve is not pending", ctx: enforcement("plan", "clarify", true, map[string]any{"pending_crossing": map[string]any{"artifact_state_kind": "git-tree", "boundary_commit_hash": "0000000000000000000000000000000000000000", "artifact_state_id": "x"}}), integrity: "unreadable", authorized: stopintent.True},
		{name: "schema v1 without a ledger: unrecordable, not pending", ctx: `{"schema":"v1","session_state":{"boundary_type":"plan"}}`, integrity: "boundary-unrecordable", authorized: stopintent.False},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{contextRel: tt.ctx}, nil)
			st := stopintent.NewWorkspace(root).State("")
			if got := st.BoundaryPending.Value == stopintent.True; got != tt.pending {
				t.Errorf("pending = %v (%s), want %v", st.BoundaryPending.Value, st.BoundaryPending.Note, tt.pending)
			}
			if st.BoundaryPending.Value == stopintent.Unknown {
				t.Errorf("pending is unknown (%s); the start context decides it", st.BoundaryPending.Note)
			}
			switch {
			case tt.pending && (st.Crossing == nil || st.Crossing.Marker() != tt.marker):
				t.Errorf("crossing = %+v, want marker %s", st.Crossing, tt.marker)
			case !tt.pending && st.Crossing != nil:
				t.Errorf("crossing = %+v, want none", st.Crossing)
			}
			if st.Integrity != tt.integrity {
				t.Errorf("integrity = %q, want %q", st.Integrity, tt.integrity)
			}
			// An unscoped crossing is bound to no tree: its evidence cannot be
			// verified, so the gate suppresses the demand (not the pending state).
			if tt.pending && (st.Evidence == nil || !st.Evidence.Unverifiable) {
				t.Errorf("evidence = %+v, want unverifiable", st.Evidence)
			}
			if st.Authorized.Value != tt.authorized {
				t.Errorf("authorized = %v (%s), want %v", st.Authorized.Value, st.Authorized.Note, tt.authorized)
			}
			if tt.problemContain != "" && !strings.Contains(strings.Join(st.Problems, "\n"), tt.problemContain) {
				t.Errorf("problems = %q, want one containing %q", st.Problems, tt.problemContain)
			}
		})
	}
}

// A scoped crossing (boundary_enforcement.pending_crossing) is pending only
// when it verifies: its commit's tree, its identity hash, and the cursor.
func TestPendingVerdictScoped(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "--quiet")
	writeTree(t, root, map[string]string{"README.md": "x\n"}, nil)
	git("add", "README.md")
	git("commit", "--quiet", "-m", "base")
	commit := git("rev-parse", "HEAD")
	tree := git("rev-parse", "HEAD^{tree}")
	id := func(from, to, working, tree string) string {
		sum := sha256.Sum256([]byte(strings.Join([]string{from, to, working, commit, tree}, "\x1f")))
		return "crossing-" + hex.EncodeToString(sum[:])
	}
	scope := func(from, to, working, tree, crossingID string) map[string]any {
		return map[string]any{"pending_crossing": map[string]any{
			"crossing_id": crossingID, "from_boundary": from, "to_boundary": to, "working_boundary": working,
			"boundary_commit_hash": commit, "artifact_state_kind": "git-tree", "artifact_state_id": tree, "recorded_at": "2026-06-20T00:00:00Z",
		}}
	}
	tests := []struct {
		name, ctx, integrity string
		pending              bool
	}{
		{"a verified scope is pending, whatever session_state says", enforcement("plan", "plan", true, scope("plan", "tasks", "tasks", tree, id("plan", "tasks", "tasks", tree))), "scoped-verified", true},
		{"a scope the cursor is not at", enforcement("plan", "clarify", true, scope("plan", "tasks", "tasks", tree, id("plan", "tasks", "tasks", tree))), "scope-state-mismatch", false},
		{"verified and at the cursor", enforcement("plan", "clarify", true, scope("clarify", "plan", "plan", tree, id("clarify", "plan", "plan", tree))), "scoped-verified", true},
		{"another tree", enforcement("plan", "clarify", true, scope("clarify", "plan", "plan", strings.Repeat("a", 40), id("clarify", "plan", "plan", strings.Repeat("a", 40)))), "artifact-state-mismatch", false},
		{"a forged identity", enforcement("plan", "clarify", true, scope("clarify", "plan", "plan", tree, "crossing-0")), "crossing-id-mismatch", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeTree(t, root, map[string]string{contextRel: tt.ctx}, nil)
			st := stopintent.NewWorkspace(root).State("")
			if got := st.BoundaryPending.Value == stopintent.True; got != tt.pending || st.Integrity != tt.integrity {
				t.Errorf("pending = %v, integrity %q (%s); want %v, %q", st.BoundaryPending.Value, st.Integrity, st.BoundaryPending.Note, tt.pending, tt.integrity)
			}
			// The start context records no feature_path: the evidence cannot
			// be located.
			if tt.pending && (st.Evidence == nil || !strings.Contains(strings.Join(st.Evidence.Missing, " "), "active feature")) {
				t.Errorf("evidence = %+v, want unverifiable for want of the feature", st.Evidence)
			}
		})
	}
}
