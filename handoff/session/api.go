// Package session reads clio-coder's session store: where sessions live,
// the append-only JSONL of a session, its active path, and what it yields
// for a handoff document: the read ledger (every path the session touched,
// with evidence) and the decision board. It reads files; it never writes.
//
// The rules are those of spec/handoff.md §3–5 (clio-coder 0.3.7's
// handoff.ts, tree/active-path.ts and decision-board.ts):
//
//   - Sessions live at <stateDir>/sessions/<cwdHash>/<id>/ (see
//     [DefaultStateDirs], [Find], [CwdHash], [ValidID]).
//   - current.jsonl is read as a stream; line 1 is the header
//     {"type":"session",…,"cwd":…}. A blank line is skipped silently, a line
//     that is not a JSON object is counted in [Ledger.InvalidLines], and a
//     last line with no newline that does not parse is skipped and reported
//     as [Ledger.TornLastLine]. A last line with no newline that does parse
//     is an entry (the writer may yet append its newline).
//   - The active path is clio's filterEntriesToActivePath (see activePath).
//   - The read ledger and the decision board are folded from the entries on
//     the active path.
//
// A [Store] caches what it read and, when current.jsonl only grew, reads
// just the appended bytes.
package session

// Evidence says how a path entered the ledger.
type Evidence struct {
	Tool      string // read, edit, write, ls, find, grep, artifact; "fileEntry" for a fileEntry record
	Operation string // a fileEntry's operation ("read", …), "" otherwise
	TurnID    string
	Timestamp string
	Line      int    // 1-based line of current.jsonl
	Raw       string // the path as the session wrote it, trimmed ("." for grep/find/ls without one)
}

// Decision is an active decision on the board.
type Decision struct {
	Key, Value, Label string
	InterviewID       string
	DecidedAt         string
	Line              int // the line of the decisionLedger snapshot it comes from

	// SourceQuestion, Correction and Rationale are the record's
	// source_question, correction and rationale ("" when absent): clio takes
	// a settled decision's rationale from source_question, else correction.
	SourceQuestion, Correction, Rationale string
}

// Ledger is what a session yields for its handoff document. A Ledger
// returned by a [Store] is shared between callers: treat it as read-only.
type Ledger struct {
	SessionID string // the header's id, else the session folder's name
	Dir       string // the session folder
	File      string // its current.jsonl
	Cwd       string // the session's working directory (header, else meta.json); "" when neither gives an absolute one

	// Paths maps each normalized path to the evidence that put it there,
	// in file order.
	Paths map[string][]Evidence
	Board []Decision // active decisions, in board order (newest interview first)

	InvalidLines []int // 1-based lines that are not valid JSON entries (skipped)
	TornLastLine bool  // the last line has no newline and does not parse (skipped)
	Lines        int   // lines read (a last line without a newline counts)

	// Leaf is the turnId of the active path's leaf message ("" when the
	// session has no message): meta.json's pinnedLeafTurnId resolved to a
	// message, else the last message in file order.
	Leaf string
	// SeededFrom is the handoffSeed the session opens with when clio's
	// /handoff minted it: where its work came from. HandedOffTo are the
	// handoffNote entries clio appended when the session was handed off:
	// where its work went. Both are read from every entry, on the active
	// path or not (clio appends the note with no parent).
	SeededFrom  *Handoff
	HandedOffTo []Handoff
	// ForkedFrom is the session this one was /fork-ed from, nil when it
	// was not.
	ForkedFrom *Fork

	// Warnings says what was odd but not fatal: no session header, an
	// unreadable meta.json, a pinned leaf that resolves to no message.
	Warnings []string
}

// Handoff is an entry clio's /handoff wrote (commitHandoff in clio-coder's
// interactive layer; the shapes are HandoffSeedData and HandoffNoteData of
// src/domains/session/handoff.ts).
type Handoff struct {
	Session   string // the other session: a seed's fromSessionId, a note's toSessionId
	Goal      string
	TurnID    string
	Timestamp string
	Line      int
}

// Fork is where a /fork-ed session came from: clio's forkFromState
// (src/domains/session/tree/fork.ts) writes the parent's current.jsonl and
// the fork turn into the new session's header, and the parent's id into its
// meta.json (enrichForkMeta, src/domains/session/history.ts).
type Fork struct {
	Session string // the parent's id (meta.json's parentSessionId), "" when unknown
	File    string // the parent's current.jsonl as the header names it, "" when absent
	TurnID  string // the turn forked at
}
