package hosts

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/analysis/stopintent"
)

// What every host's scenarios share: the scripted packets, and the checks
// of the model's requests and of baton audit.

// The stop packets the scripted model sends: examples/bad/review-auto-continue.md
// (a review request, "I'll proceed", "Nothing blocking"), and the same
// packet fixed (the work held, the exact response asked for).
const (
	packetPrompt = "Migrate the session store to SQLite."
	fixedPacket  = `## What I Just Did

Moved the session store from JSON files to SQLite and migrated the existing sessions.

## Why I Stopped

The migration deletes the JSON files once it has copied them.

## What Needs Your Review

- Do you approve deleting the JSON files after migration, or should they be kept as a backup?

## What Happens Next

I will wait for your answer before deleting anything.

## What I Need From You

Reply "delete" to remove the JSON files, or "keep" to keep them as a backup.
`
	// blockReason is the start of every reason baton's stop hook gives.
	blockReason = "baton: this stop does not meet the stop contract"
)

func badPacket(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "bad", "review-auto-continue.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// turnHas reports whether any message of the request contains s.
func turnHas(r recordedRequest, s string) bool {
	for _, msg := range r.Messages {
		if strings.Contains(msg.Text, s) {
			return true
		}
	}
	return false
}

// auditCounts is what `baton audit` must count in one session: its stops,
// those baton would block (judged as under --lint), and those the host
// recorded its hook blocking.
type auditCounts struct {
	Stops       int `json:"stops"`
	Blocked     int `json:"blocked"`
	HookBlocked int `json:"hook_blocked"`
}

// checkAudit runs `baton audit --format json` on the session file a host
// wrote and compares its counts with want; when baton would block a stop,
// the bad packet's rule must be named.
func checkAudit(t *testing.T, s *scratch, session string, want auditCounts) {
	t.Helper()
	out, err := s.exec(s.repo, nil, time.Minute, s.baton, "audit", "--format", "json", session)
	if err != nil {
		t.Fatalf("baton audit: %v\n%s", err, out)
	}
	var rep struct {
		auditCounts
		ByRule []struct {
			Rule string `json:"rule"`
		} `json:"by_rule"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("baton audit --format json: %v\n%s", err, out)
	}
	if rep.auditCounts != want {
		t.Errorf("baton audit counts %+v, want %+v\n%s", rep.auditCounts, want, out)
	}
	if want.Blocked == 0 {
		return
	}
	if !slices.ContainsFunc(rep.ByRule, func(r struct {
		Rule string `json:"rule"`
	}) bool {
		return r.Rule == "packet/review-auto-continue"
	}) {
		t.Errorf("baton audit names no packet/review-auto-continue:\n%s", out)
	}
}

// hostStatus is what `baton hook status --json` says of a host's hooks in
// the scratch repository.
type hostStatus struct {
	Installed string `json:"installed"`
	Posture   string `json:"posture"`
	// Trust is what the host needs before it runs the hook (none for
	// Claude Code).
	Trust struct {
		Runs  bool   `json:"runs"`
		State string `json:"state"`
	} `json:"trust"`
}

func hookStatus(t *testing.T, s *scratch, host string) hostStatus {
	t.Helper()
	out := s.run(t, s.repo, s.baton, "hook", "status", "--json")
	var st struct {
		Hosts []struct {
			Host  string `json:"host"`
			Scope string `json:"scope"`
			hostStatus
		} `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("baton hook status --json: %v\n%s", err, out)
	}
	for _, h := range st.Hosts {
		if h.Host == host && h.Scope == "project" {
			return h.hostStatus
		}
	}
	t.Fatalf("baton hook status --json lists no %s project hooks:\n%s", host, out)
	return hostStatus{}
}

// specrewProject makes the scratch repository a specrew project, its
// .specrew/start-context.json as specrew's own fixtures write it
// (New-Fixture), enforcement on: at rest in authorised plan work, or
// with the clarify -> plan crossing pending, its stage evidence committed
// and the crossing bound to that commit (New-BoundaryStageEvidence,
// Set-FixtureBoundCrossing). A stop there must carry the crossing's
// verdict marker.
func specrewProject(t *testing.T, s *scratch, pending bool) {
	t.Helper()
	context := func(crossing map[string]any) {
		last := "clarify"
		if !pending {
			last = "plan" // the plan work authorised: nothing to cross
		}
		be := map[string]any{"enabled": true, "last_authorized_boundary": last, "pending_next_boundary": nil, "verdict_history": []any{}, "bypass_history": []any{}}
		if crossing != nil {
			be["pending_crossing"] = crossing
		}
		b, _ := json.MarshalIndent(map[string]any{
			"schema": "v2", "feature_path": filepath.Join(s.repo, "specs", "010-export"),
			"session_state":        map[string]any{"active": true, "boundary_type": "plan", "feature_ref": "010-export", "iteration_number": "001"},
			"boundary_enforcement": be,
		}, "", "  ")
		writeFile(t, filepath.Join(s.repo, ".specrew", "start-context.json"), string(b))
	}
	context(nil)
	if !pending {
		return
	}
	for _, f := range []string{"plan.md", "state.md", "review.md", "retro.md", "quality/hardening-gate.md"} {
		writeFile(t, filepath.Join(s.repo, "specs", "010-export", "iterations", "001", f), "# "+f+"\n")
	}
	writeFile(t, filepath.Join(s.repo, "specs", "010-export", "spec.md"), "# Feature Specification: Export\n\n## Clarifications\n\n### Session 2026-06-20 (clarify)\n\n- Q: CSV only? -> A (human): yes.\n")
	s.run(t, s.repo, "git", "add", "--", "specs")
	s.run(t, s.repo, "git", "commit", "-q", "-m", "stage evidence")
	c := stopintent.NewWorkspace(s.repo).State("").Crossing
	if c == nil {
		t.Fatal("no crossing pending after the stage evidence")
	}
	commit := strings.TrimSpace(s.run(t, s.repo, "git", "rev-parse", "HEAD"))
	tree := strings.TrimSpace(s.run(t, s.repo, "git", "rev-parse", "HEAD^{tree}"))
	sum := sha256.Sum256([]byte(strings.Join([]string{c.From, c.To, c.Working, commit, tree}, "\x1f")))
	context(map[string]any{
		"crossing_id": "crossing-" + hex.EncodeToString(sum[:]), "from_boundary": c.From, "to_boundary": c.To, "working_boundary": c.Working,
		"boundary_commit_hash": commit, "artifact_state_kind": "git-tree", "artifact_state_id": tree, "recorded_at": "2026-06-20T00:00:00Z",
	})
	if st := stopintent.NewWorkspace(s.repo).State(""); st.Integrity != "scoped-verified" {
		t.Fatalf("the bound crossing does not verify: %s (%s)", st.Integrity, st.BoundaryPending.Note)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The packets of a stop at the pending clarify -> plan crossing: without
// its verdict marker, and with it.
const (
	crossingMarker = "<!-- SPECREW-VERDICT-BOUNDARY: clarify -> plan -->"
	markerless     = `## What I Just Did

Finished the clarify work for the export feature and recorded it in ` + "`specs/010-export/spec.md`" + `.

## Why I Stopped

This is the clarify -> plan boundary; the next phase builds on these decisions, so a person decides first.

## What Needs Your Review

The scope of the export format and the two open questions in the spec.

## What Happens Next

On approval, I will write the plan artifacts from the approved scope.

## Discussion Prompts

1. Because the plan builds on the export format, is CSV enough for the first release? Recommended default: CSV only.

## What I Need From You

Approve it as it stands, approve it with instructions, send it back, or discuss prompt #N.
`
	marked = markerless + "\n" + crossingMarker + "\n"
)

// checkCrossing checks a run at the pending crossing: the markerless
// packet blocked for its marker, the reason reaching the model, the
// marked packet ending the turn.
func checkCrossing(t *testing.T, m *modelMock, result string) {
	t.Helper()
	turns := m.Turns()
	if len(turns) != 2 {
		t.Fatalf("the model was asked %d times, want 2 (the markerless packet, then the marked one)", len(turns))
	}
	if turnHas(turns[0], blockReason) {
		t.Errorf("the first request already holds the hook's reason")
	}
	// Codex hands the reason to the model inside a <hook_prompt> element,
	// its text XML-escaped.
	if !turnHas(turns[1], crossingMarker) && !turnHas(turns[1], html.EscapeString(crossingMarker)) {
		t.Errorf("the request after the block does not name the marker %q", crossingMarker)
	}
	if !strings.Contains(result, "Approve it as it stands") {
		t.Errorf("the turn ended with %q, want the marked packet", result)
	}
}

// checkBlockedUntilFixed checks a run whose model sent the bad packet,
// then the fixed one: the first request holds no block, the second holds
// baton's reason and the rules it names, and the fixed packet ended the
// turn (result: what the host printed).
func checkBlockedUntilFixed(t *testing.T, m *modelMock, result string) {
	t.Helper()
	turns := m.Turns()
	if len(turns) != 2 {
		t.Fatalf("the model was asked %d times, want 2 (the bad packet, then the fixed one)", len(turns))
	}
	if turnHas(turns[0], blockReason) {
		t.Errorf("the first request already holds the hook's reason")
	}
	for _, want := range []string{blockReason, "packet/review-auto-continue", "packet/review-not-held"} {
		if !turnHas(turns[1], want) {
			t.Errorf("the request after the block does not hold %q: the hook's reason did not reach the model", want)
		}
	}
	if !strings.Contains(result, strings.TrimSpace(fixedPacket)) {
		t.Errorf("the turn ended with %q, want the fixed packet", result)
	}
}

// checkLoopReleased checks a run whose model sent the bad packet forever:
// three blocks in a row (--max-blocks' default), each reason reaching the
// model, then the fourth stop let through.
func checkLoopReleased(t *testing.T, m *modelMock, result string) {
	t.Helper()
	turns := m.Turns()
	if len(turns) != 4 {
		t.Errorf("the model was asked %d times, want 4 (three blocks, then released)", len(turns))
	}
	for i, r := range turns[1:] {
		if !turnHas(r, blockReason) {
			t.Errorf("request %d does not hold the hook's reason", i+2)
		}
	}
	if !strings.Contains(result, "I'll proceed with deleting them tonight") {
		t.Errorf("the turn ended with %q, want the bad packet, released", result)
	}
}

// checkPacketRequired checks a run under --require-packet whose model
// called a tool that wrote a file, stopped with a plain line, then sent
// the packet: the plain stop blocked for the material work, the packet
// ending the turn.
func checkPacketRequired(t *testing.T, m *modelMock, result string) {
	t.Helper()
	turns := m.Turns()
	if len(turns) != 3 {
		t.Fatalf("the model was asked %d times, want 3 (the tool call, the stop without a packet, the packet)", len(turns))
	}
	if turnHas(turns[1], blockReason) {
		t.Errorf("the request after the tool call already holds the hook's reason")
	}
	for _, want := range []string{blockReason, "material work", "## What I Just Did"} {
		if !turnHas(turns[2], want) {
			t.Errorf("the request after the block does not hold %q: the hook's reason did not reach the model", want)
		}
	}
	if !strings.Contains(result, strings.TrimSpace(fixedPacket)) {
		t.Errorf("the turn ended with %q, want the packet", result)
	}
}

// shortTurns runs n short exchanges of one session (turn runs the i-th
// prompt, resuming the session after the first, and returns what the host
// printed), each ending with its scripted reply, and checks that the model
// was asked once a prompt: nothing blocked.
func shortTurns(t *testing.T, m *modelMock, replies []string, turn func(i int, prompt string) (string, time.Duration)) {
	t.Helper()
	var took time.Duration
	for i, reply := range replies {
		got, d := turn(i, fmt.Sprintf("Question %d: is that right?", i+1))
		took += d
		if strings.TrimSpace(got) != reply {
			t.Fatalf("turn %d ended with %q, want %q", i+1, got, reply)
		}
	}
	t.Logf("%d turns took %v", len(replies), took.Round(time.Millisecond))
	if got := len(m.Turns()); got != len(replies) {
		t.Errorf("the model was asked %d times, want %d (one per prompt, nothing blocked)", got, len(replies))
	}
}

// shortReplies are the scripted replies of twenty short exchanges.
func shortReplies() []string {
	var out []string
	for i := range 20 {
		out = append(out, fmt.Sprintf("Reply %d: yes, that is right.", i+1))
	}
	return out
}
