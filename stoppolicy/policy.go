package stoppolicy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/safefile"
)

// materialRoot is the project whose Git state decides material work: the
// specrew workspace above cwd, or with --require-packet the Git work tree.
func materialRoot(cwd string, requirePacket bool) string {
	if root := engine.SpecrewRoot(cwd); root != "" {
		return root
	}
	if requirePacket && cwd != "" {
		if top, err := gitOut(cwd, "rev-parse", "--show-toplevel"); err == nil {
			return strings.TrimSpace(top)
		}
	}
	return ""
}

// dedupWindow is how long a fire is remembered: a second delivery of the
// same stop within it is answered once, as specrew's provider does
// ($SpecrewFireDedupWindowSec, 145 IDEMP-1).
const dedupWindow = 60 * time.Second

// fireIdentity names one observable stop: the hook's arguments, the
// message, the session's block count and whether this hook caused the stop,
// the turn (the host's name for it, the prompt hook's mark, the
// transcript's last person message), the configuration, the lifecycle
// state and the work tree (snap). A forced re-render after a block differs
// in its count, and the same message in the next turn in its turn, so only
// a true duplicate delivery matches.
func fireIdentity(in Stop, count int, turnMark string, snap *turnSnapshot) string {
	anchor := ""
	if in.History != nil {
		_, anchor = in.History.StepsSincePerson()
	}
	parts := append([]string{in.Cwd, in.SessionID, in.Message, strconv.FormatBool(in.Active), strconv.Itoa(count), in.Turn, turnMark, anchor}, in.Args...)
	if path, err := config.Discover(in.Cwd); err == nil && path != "" {
		b, _ := readState(path)
		parts = append(parts, string(b))
	}
	if sr := engine.SpecrewRoot(in.Cwd); sr != "" {
		ctx, _ := readState(filepath.Join(sr, ".specrew", "start-context.json"))
		parts = append(parts, string(ctx))
	}
	if snap != nil {
		parts = append(parts, snap.Key)
	}
	return hashText(strings.Join(parts, "\x00"))
}

// specrewBlockCount is how many times in a row specrew's own provider has
// blocked for this crossing (its conformance-stop-block.json, keyed
// "<working>|<last authorized>"), so that baton releases the stop when
// specrew's cap does.
func specrewBlockCount(root, sessionDir string, c *stopintent.Crossing) int {
	paths := []string{filepath.Join(root, ".specrew", "runtime", "conformance-stop-block.json")}
	if sessionDir != "" {
		paths = append(paths, filepath.Join(root, ".specrew", "runtime", "conformance-sessions", sessionDir, "stop-block.json"))
	}
	most := 0
	for _, p := range paths {
		b, err := readState(p)
		if err != nil {
			continue
		}
		var rec struct {
			Key   string `json:"key"`
			Count int    `json:"count"`
		}
		if json.Unmarshal(bytes.TrimPrefix(b, []byte("\uFEFF")), &rec) == nil && rec.Key == c.Working+"|"+c.LastAuthorized {
			most = max(most, rec.Count)
		}
	}
	return most
}

// stopDecision is the hook's answer: a reason to block ("" lets the stop
// through), and what to say on standard error.
type stopDecision struct {
	reason   string
	warnings []string
}

// The section headings specrew's provider looks for
// ($SpecrewReentryHeaders): four of them anywhere in the message are a
// rendered packet (Test-SpecrewReentryPacketPresent).
var reentryHeadings = []string{"What I Just Did", "Why I Stopped", "What Needs Your Review", "What Happens Next", "Discussion Prompts", "What I Need From You"}

func packetPresent(msg string) bool {
	hits := 0
	low := strings.ToLower(msg)
	for _, h := range reentryHeadings {
		if strings.Contains(low, strings.ToLower(h)) {
			hits++
		}
	}
	return hits >= 4
}

// intakeQuestion is specrew's provider's intake-question pattern
// (specrew-conformance-provider.ps1, #1): asking the person what to build.
var intakeQuestion = regexp.MustCompile(`(?i)\bwhat\b[^.?!]{0,60}\b(?:do you want|would you like|are you looking|should we|are we|can i help you)\b[^.?!]{0,40}\b(?:build|create|make|work on)\b|\bwhat\b[^.?!]{0,40}\b(?:feature|app|project|product)\b[^.?!]{0,40}\b(?:build|create|want|like)\b|\bwhat (?:do you want|would you like) to build\b`)

// activeSpec is the first specs/*/spec.md of a specrew project (a feature
// in flight), or "".
func activeSpec(root string) string {
	m, _ := filepath.Glob(filepath.Join(root, "specs", "*", "spec.md"))
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

// verdictMarker is the marker as specrew's capture reads it
// (Get-SpecrewCapturedBoundaryPacket): case-insensitive, anywhere in the
// text; the first one of a message counts.
var verdictMarker = regexp.MustCompile(`(?i)SPECREW-VERDICT-BOUNDARY:\s*([a-z-]+)\s*(?:->|→|to)\s*([a-z-]+)`)

// minPacketChars is specrew's -MinPacketChars: a marker in a shorter
// message is a marker without substance, not a rendered packet.
const minPacketChars = 200

// crossingRendered reports whether the verdict for this crossing has been
// asked for, as specrew's provider decides it: the last assistant message
// carrying a verdict marker (this one, else the last such in the
// transcript's last 500 lines) names exactly this crossing and is a packet
// of some substance. So a follow-up answer after the packet does not owe it
// again, a packet for another crossing does not count, and neither does a
// bare marker.
func crossingRendered(msg string, h History, c *stopintent.Crossing) bool {
	text := msg
	if !verdictMarker.MatchString(text) && h != nil {
		text = h.LastMarked(verdictMarker.MatchString)
	}
	m := verdictMarker.FindStringSubmatch(text)
	if m == nil || len(strings.TrimSpace(text)) < minPacketChars {
		return false
	}
	return stopintent.NormalizeBoundary(m[1]) == c.From && stopintent.NormalizeBoundary(m[2]) == c.To
}

const (
	sixSections  = "## What I Just Did / ## Why I Stopped / ## What Needs Your Review / ## What Happens Next / ## Discussion Prompts / ## What I Need From You"
	fiveSections = "## What I Just Did / ## Why I Stopped / ## What Needs Your Review / ## What Happens Next / ## What I Need From You"
)

// decide applies specrew's stop policy, and baton's rules with lint.
// root is the project whose Git state decides material work ("" for none),
// snap its state at this stop (nil: read when needed).
func decide(in Stop, counter Counter, lint bool, root string, snap *turnSnapshot) (stopDecision, error) {
	var d stopDecision
	specrewRoot := engine.SpecrewRoot(in.Cwd)
	env, err := NewEnv(filepath.Join(in.Cwd, "last-message.md"), specrewRoot, in.sessionDir())
	if err != nil {
		return d, fmt.Errorf("read .baton.yaml: %w", err)
	}
	j := env.Judge(in.Message)
	if n := j.Result.Doc.TooLarge; n > 0 {
		// Never silent: a message past the limit is not checked against
		// baton's rules, whatever the severity of baton/document-too-large
		// (an error blocks with --lint, as any error does).
		d.warnings = append(d.warnings, fmt.Sprintf("the message is %.1f MiB, over the %d MiB baton checks: its text was not checked against baton's rules (baton/document-too-large)", float64(n)/(1<<20), analysis.MaxDocumentBytes>>20))
	}
	var findings []string
	for _, f := range j.Findings {
		findings = append(findings, f.String())
	}
	reasons := stopPolicy(env, specrewRoot, in, j.Result, counter, root, snap, &d)
	if specrewRoot != "" && intakeQuestion.MatchString(in.Message) {
		if spec := activeSpec(specrewRoot); spec != "" {
			// specrew's provider (#1, FR-011): asking what to build while a
			// feature is in flight restarts intake. It says so with a block
			// that fires anyway, and as a nudge otherwise.
			if len(reasons) > 0 {
				reasons = append(reasons, "Also: an active feature already exists - do NOT ask what to build; continue it.")
			} else {
				d.warnings = append(d.warnings, fmt.Sprintf("intake question while an active feature exists (specrew FR-011 #1): you asked the person what to build, but a feature is already in flight (spec exists at %s). Do not restart intake: read it and continue the active feature.", spec))
			}
		}
	}
	switch {
	case lint || len(reasons) > 0:
		reasons = append(reasons, findings...)
	case len(findings) > 0:
		d.warnings = append(d.warnings, "not blocking (specrew's stop provider would not), but the message breaks baton's rules:\n  "+strings.Join(findings, "\n  "))
	}
	if len(reasons) > 0 {
		d.reason = ReasonPrefix + strings.Join(reasons, "\n- ")
	}
	return d, nil
}

// reasonOpening is the first sentence of every reason the policy gives.
const reasonOpening = "baton: this stop does not meet the stop contract."

// ReasonPrefix opens every reason the policy gives.
const ReasonPrefix = reasonOpening + " Fix it and stop again:\n- "

// stopPolicy is the provider's block decision ($blockKind, in its order):
// a pending boundary whose stage evidence is missing (no marker asked for),
// a pending boundary without its marker, a boundary that cannot be
// recorded, a workshop decision conflict, and material work without the
// packet (a continue stop there gets the continuation directive; an
// intermediate one, or a workshop question, passes). The reasons, or none.
func stopPolicy(env *Env, specrewRoot string, in Stop, res *analysis.Result, counter Counter, root string, snap *turnSnapshot, d *stopDecision) []string {
	st, msg := env.State, in.Message
	if specrewRoot != "" && st.BoundaryPending.Value == stopintent.True && st.Crossing != nil && st.Evidence != nil {
		// FR-068: the crossing is pending, but its stage owes evidence the
		// bound tree lacks (or cannot show): report that, and ask for no
		// verdict, whatever marker the message already carries.
		c, ev := st.Crossing, st.Evidence
		what := "the stage evidence is missing from the tree the crossing is bound to: " + strings.Join(ev.Missing, ", ") + ". Produce the missing artifact(s), commit them, and stop again so the crossing rebinds to a tree that holds them"
		if ev.Unverifiable {
			what = "its stage evidence cannot be checked against the tree the crossing is bound to (" + strings.Join(ev.Missing, "; ") + "). Fix the recorded state, then stop for the verdict"
		}
		return []string{fmt.Sprintf("the %s -> %s boundary is pending, but it is not ready for a verdict: %s. Say so plainly and name what is missing; present no approval options and write no SPECREW-VERDICT-BOUNDARY marker, since a verdict now would approve an increment that does not hold the work.", c.From, c.To, what)}
	}
	if specrewRoot != "" && st.BoundaryPending.Value == stopintent.True && st.Crossing != nil {
		if crossingRendered(msg, in.History, st.Crossing) {
			advanceBaseline(counter, specrewRoot, nil, d)
			return nil
		}
		c := st.Crossing
		if n := specrewBlockCount(specrewRoot, env.Session, c); n >= specrewBlockCap {
			d.warnings = append(d.warnings, fmt.Sprintf("specrew's provider has already blocked this %s -> %s crossing %d times in a row; not blocking again", c.From, c.To, n))
			return nil
		}
		reason := fmt.Sprintf("a lifecycle boundary is pending (%s), and your message does not carry the verdict marker for the %s -> %s crossing. Render the six-section packet (%s), every artifact reference a file:/// URL, and make this its last line: %s",
			st.BoundaryPending.Note, c.From, c.To, sixSections, c.Marker())
		if escapedMarker(msg) {
			// Codex hands the reason to the model XML-escaped: a model that
			// copies it writes the marker as text, which no host reads.
			reason += ". Your message has the marker HTML-escaped (&lt;!-- … --&gt;), which is text, not the marker: write it with the characters < and >"
		}
		return []string{reason}
	}
	if specrewRoot != "" && st.Integrity == "boundary-unrecordable" {
		// FR-066: a boundary reached before the project's approval ledger
		// existed. Nothing can be approved, but the person must hear of it.
		return []string{fmt.Sprintf("a lifecycle boundary was reached but cannot be recorded: %s. Tell the person plainly that the boundary was reached, that it could not be recorded, and what is missing (the project's boundary-enforcement state: run the specrew start/bootstrap path). Present no approval options and write no SPECREW-VERDICT-BOUNDARY marker: there is no recorded crossing to approve.", st.BoundaryPending.Note)}
	}
	var ws workshopState
	if specrewRoot != "" {
		ws = workshopPause(specrewRoot, st.BoundaryPending.Value == stopintent.True)
		if c := ws.conflict; c != nil && ws.reason == "workshop-decision-binding-conflict" {
			return []string{fmt.Sprintf("workshop decision conflict: the durable binding %q was %q in lens %q but is %q in lens %q. Do not move to another lens or render the five-part packet. If the later value was a delegated or default choice, restore the earlier human-confirmed value and continue; if the person changed the decision on purpose, ask one short reconciliation question and bring every affected lens record to the same value first.",
				c.binding, c.priorValue, c.priorLens, c.value, c.lens)}
		}
	}
	if root == "" {
		return nil
	}
	material, err := materialStop(counter, root, in.History, snap)
	if err != nil {
		d.warnings = append(d.warnings, "no material-work check: "+err.Error())
		return nil
	}
	if material.key == "" {
		advanceBaseline(counter, root, material.snap, d)
		return nil
	}
	if packetPresent(msg) {
		t := counter.loadTurn(root)
		t.Satisfied = material.key
		t.Baseline = material.snap
		t.Continue.Key, t.Continue.Count = "", 0
		if err := counter.saveTurn(root, t); err != nil {
			d.warnings = append(d.warnings, "keep the turn baseline: "+err.Error())
		}
		return nil
	}
	if strings.HasPrefix(material.key, "material|turn|") && in.SessionID != "" {
		// The provider records the session a demanded surface belongs to.
		_ = counter.claim(root, material.key)
	}
	if ws.active {
		// The current lens's question is the expected pause (specrew's
		// workshop-intermediate): the packet would bury it.
		return nil
	}
	outcome := stopintent.Real
	if si, _ := res.Model(stopintent.Analyzer).(*stopintent.Model); si != nil && len(si.Stops) > 0 {
		outcome = si.Stops[len(si.Stops)-1].Class.Outcome
	}
	switch outcome {
	case stopintent.Intermediate:
		return nil // owned async work is in flight: the turn ends and resumes when it completes
	case stopintent.Continue:
		t := counter.loadTurn(root)
		if key := "continue|" + material.key; t.Continue.Key != key {
			t.Continue.Key, t.Continue.Count = key, 0
		}
		if t.Continue.Count < stopintent.LoopGuardLimit {
			t.Continue.Count++
			if err := counter.saveTurn(root, t); err != nil {
				d.warnings = append(d.warnings, "cannot count the continues ("+err.Error()+"), so no continuation directive")
				return nil
			}
			return []string{"continuation directive: your last message declared the continue marker while an already-authorized in-phase workflow still has remaining work. Perform the next authorized action now, then stop again. Do not render a status packet; this is an internal continuation, not a hand-back."}
		}
	}
	return []string{fmt.Sprintf("this stop followed %s, but your message does not render the non-boundary context packet. Render the five-part packet (%s), every artifact reference a file:/// URL, then stop again. This is not a boundary stop: write no SPECREW-VERDICT-BOUNDARY marker.", material.what, fiveSections)}
}

type materialSignal struct {
	key  string // the material surface; "" when the stop owes nothing
	what string // what made it material, for the reason
	snap *turnSnapshot
}

// materialStop decides whether the stop followed material work since the
// baseline, as the provider's material and long-turn lanes do.
func materialStop(counter Counter, root string, h History, cur *turnSnapshot) (materialSignal, error) {
	var m materialSignal
	if cur == nil {
		var err error
		if cur, err = takeSnapshot(root); err != nil {
			return m, err
		}
	}
	m.snap = cur
	t := counter.loadTurn(root)
	base := t.Baseline
	if base == nil {
		base = degradedBaseline(cur)
	}
	delta := compareSnapshots(root, base, cur)
	if delta.Material && delta.Key != t.Satisfied && !counter.foreign(root, delta.Key) {
		m.key = delta.Key
		m.what = fmt.Sprintf("material work (%d changed file(s), %d new commit(s))", len(delta.Paths), delta.Commits)
		return m, nil
	}
	if h == nil {
		return m, nil
	}
	if steps, anchor := h.StepsSincePerson(); steps >= longTurnEntries && "material|longturn|"+hashText(anchor) != t.Satisfied {
		key := "material|longturn|" + hashText(anchor)
		m.key = key
		m.what = fmt.Sprintf("a long investigation (%d or more assistant steps since your last message)", longTurnEntries)
	}
	return m, nil
}

// advanceBaseline records that the stop discharged what was owed: the next
// delta is measured from now.
func advanceBaseline(counter Counter, root string, snap *turnSnapshot, d *stopDecision) {
	if snap == nil {
		var err error
		if snap, err = takeSnapshot(root); err != nil {
			return
		}
	}
	t := counter.loadTurn(root)
	snap.Event = "Stop"
	t.Baseline = snap
	t.Continue.Key, t.Continue.Count = "", 0
	if err := counter.saveTurn(root, t); err != nil {
		d.warnings = append(d.warnings, "keep the turn baseline: "+err.Error())
	}
}

// readState reads one of the small state files the hook keeps or reads
// (its counter, .specrew's records, .baton.yaml): a regular file, bounded.
func readState(path string) ([]byte, error) { return safefile.ReadFile(path, 4<<20) }

// escapedMarker reports a verdict marker written HTML-escaped.
func escapedMarker(msg string) bool {
	i := strings.Index(msg, "&lt;!--")
	return i >= 0 && strings.Contains(msg[i:], "SPECREW-VERDICT-BOUNDARY")
}
