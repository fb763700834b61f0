package stopintent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"
)

// The reading of a pending verdict follows specrew's Get-SpecrewPendingVerdictState
// and Get-SpecrewPendingBoundaryCrossing
// (extensions/specrew-speckit/scripts/shared-governance.ps1 at alonf/specrew
// acbb4366): the session's working boundary ahead of the last human-authorized
// one, scoped by boundary_enforcement.pending_crossing once that field exists.
// Like specrew, it never fabricates a pending verdict: a state it cannot read
// or verify is not pending.

// boundaryOrder is specrew's canonical lifecycle order
// (Get-SpecrewCanonicalBoundaryTypes). "intake" is marker-only: the from side
// of the first verdict marker, never a recorded boundary.
var boundaryOrder = []string{"specify", "clarify", "plan", "tasks", "before-implement", "review-signoff", "retro", "iteration-closeout", "feature-closeout"}

var (
	nonName   = lazyre.New(`[^a-z0-9\-]+`)
	spaceRuns = lazyre.New(`\s+`)
	aliases   = []struct {
		re   *lazyre.Regexp
		name string
	}{
		{lazyre.New(`^specify(?:-boundary)?$`), "specify"},
		{lazyre.New(`^clarify(?:-boundary)?$`), "clarify"},
		{lazyre.New(`^plan(?:ning)?(?:-boundary)?$`), "plan"},
		{lazyre.New(`^tasks?(?:-boundary(?:-entry)?)?$`), "tasks"},
		{lazyre.New(`^before-implement(?:-boundary(?:-entry)?)?$`), "before-implement"},
		{lazyre.New(`^implementation(?:-boundary(?:-entry)?)?$`), "before-implement"},
		{lazyre.New(`^review(?:-boundary)?$`), "review-signoff"},
		{lazyre.New(`^review-signoff(?:-boundary)?$`), "review-signoff"},
		{lazyre.New(`^retro(?:spective)?(?:-boundary)?$`), "retro"},
		{lazyre.New(`^iteration-closeout(?:-boundary)?$`), "iteration-closeout"},
		{lazyre.New(`^feature-closeout(?:-boundary)?$`), "feature-closeout"},
	}
)

// NormalizeBoundary is specrew's Normalize-SpecrewCanonicalBoundaryType: a
// boundary name lower-cased and hyphenated, with its aliases ("planning",
// "review", "task") mapped to the canonical name.
func NormalizeBoundary(b string) string {
	n := strings.ToLower(strings.TrimSpace(b))
	n = spaceRuns.ReplaceAllString(n, "-")
	n = nonName.ReplaceAllString(n, "-")
	n = strings.Trim(n, "-")
	for _, a := range aliases {
		if a.re.MatchString(n) {
			return a.name
		}
	}
	return n
}

// Crossing is the one boundary crossing a human verdict is due for.
type Crossing struct {
	// From and To are the verdict marker's two sides (From is "intake" at
	// the first boundary).
	From, To string
	// Working is the session's working boundary; LastAuthorized the last
	// human-authorized one ("" when none is recorded).
	Working, LastAuthorized string
	// MultiGap: the working boundary is more than one crossing ahead.
	MultiGap bool
}

// Marker is the verdict marker that captures this crossing's verdict.
func (c Crossing) Marker() string {
	return "<!-- SPECREW-VERDICT-BOUNDARY: " + c.From + " -> " + c.To + " -->"
}

// pendingCrossing is Get-SpecrewPendingBoundaryCrossing: the crossing the
// human can authorize next, or nil when the working boundary is not ahead
// of the last authorized one.
func pendingCrossing(lastAuth, working string) *Crossing {
	if strings.TrimSpace(working) == "" {
		return nil
	}
	w := NormalizeBoundary(working)
	a := ""
	if strings.TrimSpace(lastAuth) != "" {
		a = NormalizeBoundary(lastAuth)
	}
	wi := slices.Index(boundaryOrder, w)
	ai := -1
	if a != "" {
		ai = slices.Index(boundaryOrder, a)
	}
	if wi < 0 {
		return nil
	}
	// After an authorized iteration-closeout the next iteration re-enters at
	// an earlier boundary: the ask is the new cycle's plan.
	planIdx := slices.Index(boundaryOrder, "plan")
	if a == "iteration-closeout" && wi <= ai && wi >= planIdx {
		return &Crossing{From: "iteration-closeout", To: "plan", Working: w, LastAuthorized: a, MultiGap: wi > planIdx}
	}
	if wi <= ai {
		return nil
	}
	to := ai + 1
	if to >= len(boundaryOrder) {
		return nil
	}
	from := "intake"
	if ai >= 0 {
		from = boundaryOrder[ai]
	}
	return &Crossing{From: from, To: boundaryOrder[to], Working: w, LastAuthorized: a, MultiGap: wi-ai > 1}
}

// verdictState is what start-context.json says about a pending verdict.
type verdictState struct {
	// decided: the file has a boundary_enforcement object, so it is the
	// authority (else the rendered pending-verdict file is the only signal).
	decided   bool
	pending   bool
	crossing  *Crossing
	integrity string // specrew's IntegrityStatus
	note      string
	problem   string // a state specrew reads as not pending because it is invalid
	// activeBoundary: session_state.boundary_type is non-empty;
	// authorization: boundary_enforcement has a last authorized boundary or
	// a verdict history (the provider's $hasBoundaryAuthorization).
	activeBoundary, authorization bool
	tree                          string // the verified crossing's tree
	evidence                      *Evidence
}

// repo is the workspace's Git repository, as the reading needs it: a
// scoped crossing is verified against its commit's tree, and the stage
// evidence is read from that tree.
type repo interface {
	Tree(commit string) (string, error)     // the tree id of a commit
	Files(tree string) ([]string, error)    // every path in a tree, slash-separated
	Show(tree, path string) ([]byte, error) // a file of a tree
}

// readVerdict reads a pending verdict from a parsed start-context.json.
func readVerdict(top map[string]any, root string, git repo) verdictState {
	var v verdictState
	working, _ := field(top, "session_state", "boundary_type").(string)
	v.activeBoundary = strings.TrimSpace(working) != ""
	be, ok := top["boundary_enforcement"].(map[string]any)
	if !ok {
		schema, _ := top["schema"].(string)
		if (schema == "v0" || schema == "v1") && v.activeBoundary {
			// specrew: the boundary was reached before its ledger existed; it
			// cannot be recorded, so nothing is pending.
			v.decided, v.integrity = true, "boundary-unrecordable"
			v.note = fmt.Sprintf("boundary %q was reached before the boundary ledger existed (schema %s): it cannot be recorded, so no verdict is pending", working, schema)
		}
		return v
	}
	v.decided = true
	lastAuth, _ := be["last_authorized_boundary"].(string)
	if h, _ := be["verdict_history"].([]any); strings.TrimSpace(lastAuth) != "" || len(h) > 0 {
		v.authorization = true
	}
	if enabled, _ := be["enabled"].(bool); !enabled {
		v.integrity, v.note = "unreadable", "boundary enforcement is not enabled (boundary_enforcement.enabled is not true)"
		return v
	}
	if issues := shapeIssues(be); len(issues) > 0 {
		v.integrity = "state-invalid"
		v.problem = strings.Join(issues, "; ")
		v.note = "boundary_enforcement is invalid (" + v.problem + "), so specrew reads no pending verdict"
		return v
	}
	if raw, ok := be["pending_crossing"]; ok {
		scope, _ := raw.(map[string]any)
		if scope == nil {
			v.integrity, v.note = "scoped-clean", "boundary_enforcement.pending_crossing is null: no crossing is pending"
			return v
		}
		v = scoped(v, scope, lastAuth, git)
		if v.pending {
			v.evidence = stageEvidence(top, root, v.crossing.To, v.tree, git)
		}
		return v
	}
	v.integrity = "legacy-unscoped"
	c := pendingCrossing(lastAuth, working)
	if c == nil {
		v.note = fmt.Sprintf("working boundary %q is not ahead of the last authorized boundary %q", working, lastAuth)
		return v
	}
	v.pending, v.crossing = true, c
	v.note = fmt.Sprintf("working boundary %q is ahead of the last authorized boundary %s: the %s -> %s verdict is due", c.Working, authLabel(c), c.From, c.To)
	// An unscoped crossing is bound to no tree, so its evidence cannot be
	// verified: specrew suppresses the demand for its marker.
	v.evidence = stageEvidence(top, root, c.To, "", git)
	return v
}

func authLabel(c *Crossing) string {
	if c.LastAuthorized == "" {
		return "(none recorded yet)"
	}
	return fmt.Sprintf("%q", c.LastAuthorized)
}

// scoped verifies a pending_crossing record as specrew does: its Git tree,
// its identity hash, and its agreement with the authorization cursor. A
// record that fails is not pending.
func scoped(v verdictState, scope map[string]any, lastAuth string, git repo) verdictState {
	str := func(k string) string { s, _ := scope[k].(string); return s }
	fail := func(integrity, why string) verdictState {
		v.integrity = integrity
		v.note = "boundary_enforcement.pending_crossing does not verify (" + why + "), so specrew reads no pending verdict"
		return v
	}
	if str("artifact_state_kind") != "git-tree" {
		return fail("scope-invalid", "artifact_state_kind is not git-tree")
	}
	commit := strings.TrimSpace(str("boundary_commit_hash"))
	if commit == "" || git == nil {
		return fail("unreadable", "no boundary commit to verify")
	}
	t, err := git.Tree(commit)
	if err != nil {
		return fail("unreadable", fmt.Sprintf("commit %s does not resolve to a Git tree: %v", commit, err))
	}
	if t != str("artifact_state_id") {
		return fail("artifact-state-mismatch", fmt.Sprintf("the tree of %s is %s, not %s", commit, t, str("artifact_state_id")))
	}
	from := NormalizeBoundary(str("from_boundary"))
	to := NormalizeBoundary(str("to_boundary"))
	working := str("working_boundary")
	if strings.TrimSpace(working) == "" {
		working = to
	}
	working = NormalizeBoundary(working)
	sum := sha256.Sum256([]byte(strings.Join([]string{from, to, working, strings.ToLower(commit), strings.ToLower(strings.TrimSpace(t))}, "\x1f")))
	if id := "crossing-" + hex.EncodeToString(sum[:]); id != str("crossing_id") {
		return fail("crossing-id-mismatch", "crossing_id is not the hash of the crossing's fields")
	}
	c := pendingCrossing(lastAuth, str("working_boundary"))
	if c == nil || c.From != str("from_boundary") || c.To != str("to_boundary") {
		return fail("scope-state-mismatch", "the recorded crossing is not the one the authorization cursor is at")
	}
	v.integrity, v.pending, v.crossing, v.tree = "scoped-verified", true, c, t
	v.note = fmt.Sprintf("crossing %s (%s -> %s) at commit %s is not human-authorized (last authorized: %s)", str("crossing_id"), c.From, c.To, commit, authLabel(c))
	return v
}

// shapeIssues is specrew's Test-SpecrewBoundaryEnforcementStateShape.
func shapeIssues(be map[string]any) []string {
	var issues []string
	for _, k := range []string{"enabled", "last_authorized_boundary", "pending_next_boundary", "verdict_history", "bypass_history"} {
		if _, ok := be[k]; !ok {
			issues = append(issues, "boundary_enforcement."+k+" is missing")
		}
	}
	if len(issues) > 0 {
		return issues
	}
	for _, k := range []string{"last_authorized_boundary", "pending_next_boundary"} {
		if s, _ := be[k].(string); strings.TrimSpace(s) != "" && !slices.Contains(boundaryOrder, NormalizeBoundary(s)) {
			issues = append(issues, fmt.Sprintf("boundary_enforcement.%s value %q is not canonical", k, s))
		}
	}
	for _, k := range []string{"verdict_history", "bypass_history"} {
		if _, ok := be[k].([]any); !ok {
			issues = append(issues, "boundary_enforcement."+k+" is not a list")
		}
	}
	return issues
}

var unsafeSession = lazyre.New(`[^a-zA-Z0-9-]+`)

// SessionDir is the name of the folder under
// .specrew/runtime/conformance-sessions/ where specrew's stop provider keeps
// a host session's state (Get-SpecrewMaterialRuntimeState): the SHA-256 of
// "<host>|<session id>", each sanitized. "" when the id sanitizes to nothing.
func SessionDir(host, id string) string {
	h := strings.ToLower(strings.Trim(unsafeSession.ReplaceAllString(host, "-"), "-"))
	if strings.TrimSpace(host) == "" {
		h = "unknown"
	}
	s := strings.Trim(unsafeSession.ReplaceAllString(id, "-"), "-")
	if s == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(h + "|" + s))
	return hex.EncodeToString(sum[:])
}

// Evidence is what specrew's stage-evidence gate (FR-068,
// Set-SpecrewStageEvidenceGate over Get-SpecrewBoundaryStageEvidence) found
// for a pending crossing: when the stage's evidence is not in the tree the
// crossing is bound to, or cannot be checked there, the crossing stays
// pending but no verdict is asked for (no approval options, no marker).
type Evidence struct {
	// Unverifiable: it could not be checked (an unscoped crossing has no
	// tree); else it was checked and is absent.
	Unverifiable bool
	Missing      []string
}

// evidenceContract is Get-SpecrewBoundaryStageEvidenceContract: what each
// stage owes, by the boundary it crosses into.
var evidenceContract = map[string]struct {
	kind  string // "iteration-file", "feature-file", "content"
	paths []string
}{
	"specify":            {"feature-file", []string{"spec.md"}},
	"clarify":            {"content", []string{"spec.md"}},
	"plan":               {"iteration-file", []string{"plan.md"}},
	"tasks":              {"iteration-file", []string{"plan.md"}},
	"before-implement":   {"iteration-file", []string{"quality/hardening-gate.md", "plan.md"}},
	"review-signoff":     {"iteration-file", []string{"review.md"}},
	"retro":              {"iteration-file", []string{"retro.md"}},
	"iteration-closeout": {"iteration-file", []string{"state.md"}},
}

// The clarify boundary owes content in spec.md: a dated session block
// under its Clarifications section, or a recorded skip with reasons.
var (
	clarificationsHeading = lazyre.New(`(?m)^##[ \t]+Clarifications[ \t]*\r?$`)
	nextSection           = lazyre.New(`(?m)^##[ \t]`)
	sessionBlock          = lazyre.New(`(?m)^###[ \t]+Session[ \t]+\d{4}-\d{2}-\d{2}`)
	clarifySkip           = lazyre.New(`(?im)^[ \t]*[-*][ \t]+\*\*Clarify Disposition\*\*[ \t]*:[ \t]*skip\b[^\r\n]{20,}`)
)

// clarified is specrew's two patterns; the first may not cross into the
// next "## " section (a lookahead there, a search within the section here).
func clarified(text []byte) bool {
	if clarifySkip.Match(text) {
		return true
	}
	for _, loc := range clarificationsHeading.FindAllIndex(text, -1) {
		rest := text[loc[1]:]
		if end := nextSection.FindIndex(rest); end != nil {
			rest = rest[:end[0]]
		}
		if sessionBlock.Match(rest) {
			return true
		}
	}
	return false
}

var treeID = lazyre.New(`^[0-9a-fA-F]{40,64}$`)

// stageEvidence checks the evidence the crossing into target owes in tree;
// nil when it is there or the stage owes nothing checkable.
func stageEvidence(top map[string]any, root, target, tree string, git repo) *Evidence {
	row, ok := evidenceContract[target]
	if !ok {
		return nil
	}
	unverifiable := func(why string) *Evidence { return &Evidence{Unverifiable: true, Missing: []string{why}} }
	if !treeID.MatchString(tree) || git == nil {
		return unverifiable("the crossing carries no readable bound tree id, so its evidence cannot be verified")
	}
	fp, _ := top["feature_path"].(string)
	featureRel := ""
	if fp != "" && root != "" {
		if rel, err := filepath.Rel(root, filepath.Clean(filepath.FromSlash(strings.ReplaceAll(fp, `\`, "/")))); err == nil && filepath.IsLocal(rel) {
			featureRel = filepath.ToSlash(rel)
		}
	}
	if featureRel == "" {
		return unverifiable("the active feature could not be resolved inside this project, so its evidence cannot be verified")
	}
	files, err := git.Files(tree)
	if err != nil || len(files) == 0 {
		return unverifiable(fmt.Sprintf("the bound tree %.12s could not be read, so the evidence cannot be verified", tree))
	}
	iteration, _ := field(top, "session_state", "iteration_number").(string)
	var missing []string
	for _, rel := range row.paths {
		p := featureRel + "/" + rel
		if row.kind == "iteration-file" {
			if strings.TrimSpace(iteration) == "" {
				return unverifiable("the iteration identity is missing, so the stage evidence cannot be located in the bound tree")
			}
			p = featureRel + "/iterations/" + iteration + "/" + rel
		}
		if !slices.Contains(files, p) {
			missing = append(missing, rel)
			continue
		}
		if row.kind == "content" {
			text, err := git.Show(tree, p)
			if err != nil {
				return unverifiable(fmt.Sprintf("%q could not be read from the bound tree, so its content cannot be verified", rel))
			}
			if !clarified(text) {
				missing = append(missing, rel+" (a Clarifications session block or a recorded clarify skip-with-rationale)")
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &Evidence{Missing: missing}
}
