// Package stoppolicy is baton's one stop policy, shared by every agent
// host's stop hook: what blocks a stop, and the reason an agent can act on
// (with the lines of its message). In a specrew project it blocks the stops
// specrew's stop provider blocks
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
// Conversation is never blocked. With Lint a message that breaks baton's
// rules (errors) is blocked too, in any project. It never loops (a bounded
// number of blocks per session, reset by a stop it did not cause) and fails
// open: on its own errors it lets the stop through and says why.
//
// The package knows no host's wire format: each host's adapter (in
// cmd/baton) reads the host's input into a Stop and writes Evaluate's
// Outcome in the host's output contract.
package stoppolicy

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/analysis/stopintent"
)

// Stop is one stop, as a host's adapter read it.
type Stop struct {
	Host      string // the host's ID (agenthost.Host.ID): names the session's specrew state
	SessionID string
	Cwd       string
	Message   string // the agent's last message
	// Active says the host reports that this stop follows a block
	// (stop_hook_active, or a loop count above 0).
	Active bool
	// NoActiveFlag says the host cannot tell whether a stop follows a
	// block: baton's own count decides, and a stop let through resets it.
	NoActiveFlag bool
	// Turn names the turn the stop ends, where the host names it (a
	// turn_id); "" when it does not. With the prompt hook's mark and the
	// transcript's last person message it keeps two turns' identical stops
	// apart in the duplicate check.
	Turn    string
	History History  // the session's transcript; nil when there is none
	Args    []string // the adapter's arguments: part of a stop's identity
	// Inputs are the stop-intent inputs the caller knows (baton classify's
	// flags); nil gives a hook's: it tracks no async work, so in-flight
	// and known-terminal are false.
	Inputs map[string]stopintent.Tri
}

func (s Stop) sessionDir() string {
	if s.SessionID == "" {
		return ""
	}
	return stopintent.SessionDir(s.Host, s.SessionID)
}

// History is what the policy reads of a session's transcript, in the
// host's format (package transcript reads them).
type History interface {
	// StepsSincePerson counts the agent's steps since the person's last
	// message, and names that message (the long-investigation lane).
	StepsSincePerson() (steps int, anchor string)
	// LastMarked is the last assistant message marked accepts, or "".
	LastMarked(marked func(text string) bool) string
}

// Options are the hook's settings.
type Options struct {
	MaxBlocks     int  // blocks in a row in one session before a stop is let through
	Lint          bool // also block a message that breaks baton's rules
	RequirePacket bool // demand the packet after material work in any Git project
	StateDir      string
}

// DefaultMaxBlocks is the default of Options.MaxBlocks.
const DefaultMaxBlocks = 3

// specrewBlockCap is specrew's provider's $SpecrewBlockCap: after that many
// blocks in a row for one advance it releases the stop.
const specrewBlockCap = 3

// longTurnEntries is specrew's $SpecrewLongTurnAssistantEntries: a read-only
// turn with at least this many assistant responses since the person's last
// message is a long investigation and owes the packet too.
const longTurnEntries = 15

// Outcome is the answer to a stop.
type Outcome struct {
	Reason   string   // why the stop is blocked; "" lets it through
	Warnings []string // what to say on standard error
	// Released says why the stop was let through without a judgement
	// (the loop bound, the hook's own error); "" when it was judged.
	Released string
	// Duplicate: the same stop was answered already (a second delivery).
	Duplicate bool
}

// Evaluate answers a stop as the stop hooks do: the state read
// (ReadState), the decision (Decide: the loop bound, the duplicate check,
// the policy) and what it writes (Apply: the count of blocks, a block that
// cannot be counted let through, since it could loop for ever).
func Evaluate(in Stop, o Options) Outcome {
	st := ReadState(in, o)
	return st.Apply(Decide(in, st))
}

// IsBlockReason reports whether text is (or quotes) a reason this policy
// gave: some hosts send a block's reason to the agent as a new prompt,
// and run the prompt hook on it.
func IsBlockReason(text string) bool {
	return strings.Contains(text, reasonOpening)
}

// TurnStart takes the turn's baseline at the start of a turn (a person's
// prompt, the text prompt; "" when the host does not say): what the tree
// holds now is not this turn's work. A prompt that is the host's retry
// after a block is no new turn: the work that caused the block is still
// owed, so the baseline is kept, and kept says why ("" when it was taken).
// So is an unknown prompt while a block is pending in the session.
func TurnStart(cwd, sessionID, prompt string, o Options) (kept string, err error) {
	counter := Counter{Dir: o.StateDir, Session: sessionID}
	switch {
	case IsBlockReason(prompt):
		return "the prompt is baton's block reason (the host's retry), not a new turn", nil
	case strings.TrimSpace(prompt) == "" && counter.get() > 0:
		return "a block is pending in this session and the prompt is not given", nil
	}
	counter.markTurn()
	root := materialRoot(cwd, o.RequirePacket)
	if root == "" {
		return "", nil
	}
	snap, err := takeSnapshot(root)
	if err != nil {
		return "", nil // not a Git work tree: nothing to measure
	}
	t := counter.loadTurn(root)
	snap.Event = "UserPromptSubmit"
	t.Baseline = snap
	if err := counter.saveTurn(root, t); err != nil {
		return "", fmt.Errorf("keep the turn baseline: %w", err)
	}
	return "", nil
}

// ToolDone records, after a tool call, that a change it made is this
// session's, so another session's stop is not billed for it.
func ToolDone(cwd, sessionID string, o Options) error {
	root := materialRoot(cwd, o.RequirePacket)
	if root == "" || sessionID == "" {
		return nil
	}
	counter := Counter{Dir: o.StateDir, Session: sessionID}
	if key, _, err := readWork(counter, root).material(nil); err == nil && strings.HasPrefix(key, "material|turn|") {
		if err := counter.claim(root, key); err != nil {
			return fmt.Errorf("record who made the change: %w", err)
		}
	}
	return nil
}
