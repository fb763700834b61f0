package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/baton-md/baton/internal/safefile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/config"
)

// The Stop hook: Claude Code runs it when the agent is about to stop, with
// a JSON description on standard input. In a specrew project it blocks the
// stops specrew's stop provider blocks
// (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1 at
// alonf/specrew acbb4366), and no others:
//
//   - at a pending boundary (stopintent.State.Crossing), a message without
//     that crossing's exact verdict marker: the reason asks for the six
//     sections and names the marker;
//   - after material work (files changed or commits made since the turn's
//     baseline, see turn.go, or a long investigation), a message without the
//     packet (four of the six section headings): the reason asks for the
//     five-part packet. A continue marker with an authorized phase gets a
//     continuation directive instead (bounded by the loop guard), and an
//     intermediate marker, or a design workshop whose durable state shows
//     the current lens's question pending (workshop.go), lets the stop
//     through;
//   - two completed workshop lenses that recorded one decision binding
//     differently: the reason asks for the reconciliation.
//
// Conversation is never blocked. With --lint a message that breaks baton's
// rules (errors) is blocked too, in any project. It never loops (a bounded
// number of blocks per session, reset by a stop it did not cause) and fails
// open: on its own errors it lets the stop through and says why on
// standard error.

// hookInput is what Claude Code sends a Stop hook.
type hookInput struct {
	SessionID            string `json:"session_id"`
	TranscriptPath       string `json:"transcript_path"`
	Cwd                  string `json:"cwd"`
	HookEventName        string `json:"hook_event_name"`
	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
}

// hookDecision is the reply that blocks the stop.
type hookDecision struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

const defaultMaxBlocks = 3

// specrewBlockCap is specrew's provider's $SpecrewBlockCap: after that many
// blocks in a row for one advance it releases the stop.
const specrewBlockCap = 3

const hookUsage = "usage: baton hook claude-stop [--max-blocks N] [--lint] [--require-packet] [--state-dir DIR]\n       baton hook claude-prompt|claude-tool [--require-packet] [--state-dir DIR]"

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) > 0 && args[0] == "install":
		return runHookInstall(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "uninstall":
		return runHookUninstall(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "status":
		return runHookStatus(args[1:], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "claude-stop" && args[0] != "claude-prompt" && args[0] != "claude-tool") {
		fmt.Fprintln(stderr, hookUsage)
		return exitUsage
	}
	fl := flag.NewFlagSet("hook "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	maxBlocks := fl.Int("max-blocks", defaultMaxBlocks, "block at most this many times in a row in one session")
	lint := fl.Bool("lint", false, "also block a message that breaks baton's rules (errors), in any project")
	requirePacket := fl.Bool("require-packet", false, "demand the packet after material work in any Git project, not only a specrew one")
	counterDir := fl.String("state-dir", "", "where the hook keeps its per-session state (default: the user cache folder)")
	if err := fl.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	failOpen := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "baton hook: "+format+"; letting the stop through\n", a...)
		return exitOK
	}

	raw, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		return failOpen("read the hook input: %v", err)
	}
	var in hookInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return failOpen("the hook input is not JSON: %v", err)
	}
	counter := blockCounter{dir: *counterDir, session: in.SessionID}
	if args[0] == "claude-prompt" {
		// The start of a turn (UserPromptSubmit): what the tree holds now is
		// not this turn's work.
		if root := materialRoot(in.Cwd, *requirePacket); root != "" {
			if snap, err := takeSnapshot(root); err == nil {
				t := counter.loadTurn(root)
				snap.Event = "UserPromptSubmit"
				t.Baseline = snap
				if err := counter.saveTurn(root, t); err != nil {
					fmt.Fprintf(stderr, "baton hook: keep the turn baseline: %v\n", err)
				}
			}
		}
		return exitOK
	}
	if args[0] == "claude-tool" {
		// After a tool call (PostToolUse): a change it made is this
		// session's, so another session's stop is not billed for it.
		if root := materialRoot(in.Cwd, *requirePacket); root != "" && in.SessionID != "" {
			if m, err := materialStop(counter, root, "", nil); err == nil && strings.HasPrefix(m.key, "material|turn|") {
				if err := counter.claim(root, m.key); err != nil {
					fmt.Fprintf(stderr, "baton hook: record who made the change: %v\n", err)
				}
			}
		}
		return exitOK
	}
	msg := in.LastAssistantMessage
	if strings.TrimSpace(msg) == "" {
		if in.TranscriptPath == "" {
			return failOpen("no last_assistant_message and no transcript_path")
		}
		msg, err = lastAssistantMessage(in.TranscriptPath)
		if err != nil {
			return failOpen("read the transcript: %v", err)
		}
		if strings.TrimSpace(msg) == "" {
			return failOpen("the transcript has no assistant message")
		}
	}

	if !in.StopHookActive {
		counter.reset() // a stop this hook did not cause: start counting afresh
	} else if n, err := counter.count(); err != nil {
		// This stop follows a block, and how many came before cannot be
		// told: letting it through is the only way not to loop.
		counter.reset()
		return failOpen("cannot read the block count (%v)", err)
	} else if n >= *maxBlocks {
		counter.reset()
		return failOpen("already blocked %d times in a row in session %s (--max-blocks)", n, in.SessionID)
	}

	// The work tree's state is read once for the stop: the duplicate
	// check and the material-work decision both use it (four git
	// commands and a hash of every changed file).
	root := materialRoot(in.Cwd, *requirePacket)
	var snap *turnSnapshot
	if root != "" {
		snap, _ = takeSnapshot(root) // nil outside a Git work tree
	}
	if counter.duplicate(fireIdentity(in, msg, counter.get(), args, snap)) {
		return exitOK
	}
	d, err := decideStop(in, msg, counter, *lint, root, snap)
	if err != nil {
		return failOpen("%v", err)
	}
	for _, w := range d.warnings {
		fmt.Fprintf(stderr, "baton hook: %s\n", w)
	}
	if d.reason == "" {
		return exitOK
	}
	if err := counter.add(); err != nil {
		return failOpen("cannot keep the block count: %v", err)
	}
	enc := json.NewEncoder(stdout)
	if err := enc.Encode(hookDecision{Decision: "block", Reason: d.reason}); err != nil {
		return failOpen("write the decision: %v", err)
	}
	return exitOK
}

// materialRoot is the project whose Git state decides material work: the
// specrew workspace above cwd, or with --require-packet the Git work tree.
func materialRoot(cwd string, requirePacket bool) string {
	if root := specrewRootAbove(cwd); root != "" {
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
// the configuration, the lifecycle state and the work tree (snap). A
// forced re-render after a block differs in its count, so only a true
// duplicate delivery matches.
func fireIdentity(in hookInput, msg string, count int, args []string, snap *turnSnapshot) string {
	parts := append([]string{in.Cwd, in.SessionID, msg, strconv.FormatBool(in.StopHookActive), strconv.Itoa(count)}, args...)
	if path, err := config.Discover(in.Cwd); err == nil && path != "" {
		b, _ := readState(path)
		parts = append(parts, string(b))
	}
	if sr := specrewRootAbove(in.Cwd); sr != "" {
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
func crossingRendered(msg, transcript string, c *stopintent.Crossing) bool {
	text := msg
	if !verdictMarker.MatchString(text) {
		text = lastMarkedTurn(transcript)
	}
	m := verdictMarker.FindStringSubmatch(text)
	if m == nil || len(strings.TrimSpace(text)) < minPacketChars {
		return false
	}
	return stopintent.NormalizeBoundary(m[1]) == c.From && stopintent.NormalizeBoundary(m[2]) == c.To
}

// lastMarkedTurn is the text of the last assistant entry with a verdict
// marker in the transcript's last 500 lines; "" when there is none.
func lastMarkedTurn(path string) string {
	if path == "" {
		return ""
	}
	data, _, err := safefile.ReadTail(path, maxTranscriptTail)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 500 {
		lines = lines[len(lines)-500:]
	}
	found := ""
	for _, line := range lines {
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &e) != nil || (e.Type != "assistant" && e.Message.Role != "assistant") {
			continue
		}
		if t := strings.Join(contentText(e.Message.Content), "\n\n"); verdictMarker.MatchString(t) {
			found = t
		}
	}
	return found
}

const (
	sixSections  = "## What I Just Did / ## Why I Stopped / ## What Needs Your Review / ## What Happens Next / ## Discussion Prompts / ## What I Need From You"
	fiveSections = "## What I Just Did / ## Why I Stopped / ## What Needs Your Review / ## What Happens Next / ## What I Need From You"
)

// decideStop applies specrew's stop policy, and baton's rules with --lint.
// root is the project whose Git state decides material work ("" for none),
// snap its state at this stop (nil: read when needed).
func decideStop(in hookInput, msg string, counter blockCounter, lint bool, root string, snap *turnSnapshot) (stopDecision, error) {
	var d stopDecision
	specrewRoot := specrewRootAbove(in.Cwd)
	session := ""
	if in.SessionID != "" {
		session = stopintent.SessionDir("claude", in.SessionID)
	}
	env, err := newStopEnv(filepath.Join(in.Cwd, "last-message.md"), specrewRoot, session)
	if err != nil {
		return d, fmt.Errorf("read .baton.yaml: %w", err)
	}
	// Like specrew's provider, the hook tracks no async work: nothing is in
	// flight but what an intermediate marker declares.
	env.env.Overrides = map[string]stopintent.Tri{stopintent.InInFlight: stopintent.False, stopintent.InKnownTerminal: stopintent.False}
	doc, res := env.analyze("last-message.md", msg)
	var findings []string
	for _, f := range res.Findings {
		blocking := f.Severity == analysis.Error && (strings.HasPrefix(f.Rule, "packet/") || strings.HasPrefix(f.Rule, "stopintent/")) ||
			f.Rule == stopintent.RuleNearMiss.ID || f.Rule == stopintent.RuleInertContinue.ID
		if blocking {
			p := doc.Lines.Position(f.Span.Start, analysis.UTF8)
			findings = append(findings, fmt.Sprintf("line %d: %s (%s)", p.Line+1, f.Message, f.Rule))
		}
	}
	reasons := stopPolicy(env, specrewRoot, in, msg, res, counter, root, snap, &d)
	switch {
	case lint || len(reasons) > 0:
		reasons = append(reasons, findings...)
	case len(findings) > 0:
		d.warnings = append(d.warnings, "not blocking (specrew's stop provider would not), but the message breaks baton's rules:\n  "+strings.Join(findings, "\n  "))
	}
	if len(reasons) > 0 {
		d.reason = "baton: this stop does not meet the stop contract. Fix it and stop again:\n- " + strings.Join(reasons, "\n- ")
	}
	return d, nil
}

// stopPolicy is the provider's block decision ($blockKind, in its order):
// a pending boundary whose stage evidence is missing (no marker asked for),
// a pending boundary without its marker, a boundary that cannot be
// recorded, a workshop decision conflict, and material work without the
// packet (a continue stop there gets the continuation directive; an
// intermediate one, or a workshop question, passes). The reasons, or none.
func stopPolicy(env *stopEnv, specrewRoot string, in hookInput, msg string, res *analysis.Result, counter blockCounter, root string, snap *turnSnapshot, d *stopDecision) []string {
	st := env.state
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
		if crossingRendered(msg, in.TranscriptPath, st.Crossing) {
			advanceBaseline(counter, specrewRoot, nil, d)
			return nil
		}
		c := st.Crossing
		if n := specrewBlockCount(specrewRoot, env.session, c); n >= specrewBlockCap {
			d.warnings = append(d.warnings, fmt.Sprintf("specrew's provider has already blocked this %s -> %s crossing %d times in a row; not blocking again", c.From, c.To, n))
			return nil
		}
		return []string{fmt.Sprintf("a lifecycle boundary is pending (%s), and your message does not carry the verdict marker for the %s -> %s crossing. Render the six-section packet (%s), every artifact reference a file:/// URL, and make this its last line: %s",
			st.BoundaryPending.Note, c.From, c.To, sixSections, c.Marker())}
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
	material, err := materialStop(counter, root, in.TranscriptPath, snap)
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
func materialStop(counter blockCounter, root, transcript string, cur *turnSnapshot) (materialSignal, error) {
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
	if long, key := longTurn(transcript); long && key != t.Satisfied {
		m.key = key
		m.what = fmt.Sprintf("a long investigation (%d or more assistant steps since your last message)", longTurnEntries)
	}
	return m, nil
}

// advanceBaseline records that the stop discharged what was owed: the next
// delta is measured from now.
func advanceBaseline(counter blockCounter, root string, snap *turnSnapshot, d *stopDecision) {
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

// lastAssistantMessage reads a Claude Code transcript (JSONL) and returns
// the last message the agent wrote: the text of the last assistant entry
// that has text (its text blocks joined by a blank line). Earlier entries
// (text said before a tool call) are not part of it, so line numbers in a
// reason are the message's own. specrew's provider reads the same entry: the
// last assistant line with text, whatever user lines follow it (tool
// results, hook text, or a person's).
func lastAssistantMessage(path string) (string, error) {
	// From the end, in growing windows: the last message is near it, and a
	// transcript of a gigabyte must be answered within the hook's timeout.
	for window := int64(1 << 20); ; window *= 4 {
		data, whole, err := safefile.ReadTail(path, window)
		if err != nil {
			return "", err
		}
		if msg := lastAssistantIn(data); msg != "" || whole {
			return msg, nil
		}
		if window >= maxTranscriptTail {
			return "", fmt.Errorf("no assistant message in the last %d MiB of %s", maxTranscriptTail>>20, path)
		}
	}
}

// maxTranscriptTail is how much of a transcript's end the hook reads.
const maxTranscriptTail = 64 << 20

// lastAssistantIn is the text of the last assistant entry with text in
// data, JSON lines (a torn or unknown line is skipped).
func lastAssistantIn(data []byte) string {
	for len(data) > 0 {
		data = bytes.TrimRight(data, "\n")
		i := bytes.LastIndexByte(data, '\n')
		line := data[i+1:]
		data = data[:i+1]
		if i < 0 {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 || !bytes.Contains(line, []byte("assistant")) {
			continue
		}
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &e) == nil && (e.Type == "assistant" || e.Message.Role == "assistant") {
			if t := contentText(e.Message.Content); len(t) > 0 {
				return strings.Join(t, "\n\n")
			}
		}
	}
	return ""
}

// readState reads one of the small state files the hook keeps or reads
// (its counter, .specrew's records, .baton.yaml): a regular file, bounded.
func readState(path string) ([]byte, error) { return safefile.ReadFile(path, 4<<20) }

// contentText returns the text of a message's content: a string, or the
// text blocks of a block list.
func contentText(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			out = append(out, b.Text)
		}
	}
	return out
}

// blockCounter counts the hook's consecutive blocks in a session, in a
// small file of the user's cache folder.
type blockCounter struct {
	dir, session string
}

func (c blockCounter) path() string {
	dir := c.folder()
	if dir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(c.session))
	return filepath.Join(dir, hex.EncodeToString(sum[:8]))
}

// folder is where the hook keeps its state, for every session.
func (c blockCounter) folder() string {
	if c.dir != "" {
		return c.dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "baton", "stop-hook")
}

func (c blockCounter) get() int {
	n, _ := c.count()
	return n
}

// count reads the number of blocks in a row; no file is 0. A count that
// cannot be read, or is not a number from 0 to a thousand, is an error: a
// corrupt counter must not keep the hook blocking.
func (c blockCounter) count() (int, error) {
	p := c.path()
	if p == "" {
		return 0, errors.New("no user cache folder")
	}
	b, err := safefile.ReadFile(p, 64)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n < 0 || n > 1000 {
		return 0, fmt.Errorf("%s holds %q, not a count", p, strings.TrimSpace(string(b)))
	}
	return n, nil
}

// add counts a block, and fails when the count cannot be kept: a block
// that is not counted could loop for ever, so the caller lets the stop
// through instead (as specrew's provider does, 145 HANG-2).
func (c blockCounter) add() error {
	p := c.path()
	if p == "" {
		return errors.New("no user cache folder")
	}
	n, err := c.count()
	if err != nil {
		return err
	}
	n++
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(p, []byte(fmt.Sprintf("%d\n", n)), 0o600); err != nil {
		return err
	}
	if back, err := c.count(); err != nil || back != n {
		return errors.New("the count did not read back")
	}
	return nil
}

// duplicate reports whether id is the stop the hook last answered, within
// dedupWindow, and remembers id. Any error only disables the check.
func (c blockCounter) duplicate(id string) bool {
	p := c.path()
	if p == "" {
		return false
	}
	p += ".fire"
	var last struct {
		ID    string `json:"identity"`
		Epoch int64  `json:"epoch"`
	}
	now := time.Now().Unix()
	dup := false
	if b, err := readState(p); err == nil && json.Unmarshal(b, &last) == nil {
		dup = last.ID == id && now-last.Epoch >= 0 && now-last.Epoch <= int64(dedupWindow/time.Second)
	}
	if b, err := json.Marshal(map[string]any{"identity": id, "epoch": now}); err == nil {
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		_ = os.WriteFile(p, b, 0o600)
	}
	return dup
}

func (c blockCounter) reset() {
	if p := c.path(); p != "" {
		_ = os.Remove(p)
	}
}
