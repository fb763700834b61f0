package session

import "bytes"

// kind is an entry's kind, as far as the session rules tell kinds apart.
type kind uint8

const (
	kindOther kind = iota
	kindMessage
	kindFileEntry
	kindDecisionLedger
	kindLabel
	kindCompaction
	kindSessionInfo
)

func kindOf(f strField) kind {
	s, _ := f.str()
	switch s {
	case "message":
		return kindMessage
	case "fileEntry":
		return kindFileEntry
	case "decisionLedger":
		return kindDecisionLedger
	case "label":
		return kindLabel
	case "compactionSummary":
		return kindCompaction
	case "sessionInfo":
		return kindSessionInfo
	}
	return kindOther
}

// touch is one path an entry put in the read ledger, before normalization.
type touch struct {
	tool string // a ledger tool, or "fileEntry"
	raw  string // trimmed; "." for grep/find/ls without a path
}

// entry is what the session rules need of one line of current.jsonl. It is
// kept small, since a Store holds every entry of a session: the members of
// the rarer kinds live in x.
type entry struct {
	line      int
	kind      kind
	hasParent bool       // parentTurnId is a string (null, absent or anything else counts as null)
	target    fieldState // targetTurnId: absent, isNull, isString or isOther
	turnID    string     // "" when not a string
	parent    string
	timestamp string
	touches   []touch // read-ledger contributions
	x         *extra  // nil when every member of it is empty
}

// extra holds the members few entries have.
type extra struct {
	targetID             string     // targetTurnId when a string
	firstKept            string     // firstKeptTurnId when a string
	operation            string     // a fileEntry's operation
	interviewID, endedAt string     // a decisionLedger's
	decisions            []Decision // its active decisions
	handoff              handoffKind
	other, goal          string // a handoff entry's other session and goal
}

// handoffKind tells the custom entries clio's /handoff writes
// (HANDOFF_SEED_CUSTOM_TYPE and HANDOFF_NOTE_CUSTOM_TYPE in
// src/domains/session/handoff.ts) from any other entry.
type handoffKind uint8

const (
	notHandoff handoffKind = iota
	handoffSeed
	handoffNote
)

var noExtra extra

// ext returns e's extra members (zero when it has none).
func (e *entry) ext() *extra {
	if e.x == nil {
		return &noExtra
	}
	return e.x
}

// setExtra stores x in e unless it is empty.
func (e *entry) setExtra(x extra) {
	if x.targetID != "" || x.firstKept != "" || x.operation != "" || x.interviewID != "" || x.endedAt != "" || len(x.decisions) > 0 || x.handoff != notHandoff {
		e.x = &x
	}
}

// ledgerTool interns the tools whose calls count in the read ledger; any
// other name gives "". clio compares names exactly.
func ledgerTool(name string) string {
	switch name {
	case "read":
		return "read"
	case "edit":
		return "edit"
	case "write":
		return "write"
	case "ls":
		return "ls"
	case "find":
		return "find"
	case "grep":
		return "grep"
	case "artifact":
		return "artifact"
	}
	return ""
}

// firstText is clio's stringField: the first member that is a string with
// something left after trimming, trimmed.
func firstText(fs []strField) string {
	for _, f := range fs {
		if v, ok := f.str(); ok {
			if t := jsTrim(v); t != "" {
				return t
			}
		}
	}
	return ""
}

// callTouch is clio's pathFromCall: the path a call to a ledger tool names.
// args are the argument members in clio's order of preference (the first
// that is present and not null is the arguments, as JavaScript's ??).
func callTouch(names []strField, args []argsField) (touch, bool) {
	tool := ledgerTool(firstText(names))
	if tool == "" {
		return touch{}, false
	}
	raw := ""
	for _, a := range args {
		if a.st == absent || a.st == isNull {
			continue
		}
		if a.st == isObject {
			raw = firstText(a.paths[:])
		}
		break
	}
	if raw == "" && (tool == "grep" || tool == "find" || tool == "ls") {
		raw = "."
	}
	if raw == "" {
		return touch{}, false
	}
	return touch{tool: tool, raw: raw}, true
}

// makeEntry turns a scanned line into an entry.
func makeEntry(line int, r *rawEntry) entry {
	e := entry{line: line, kind: kindOf(r.kind), target: r.target.st}
	var x extra
	e.turnID, _ = r.turnID.str()
	e.parent, e.hasParent = r.parent.str()
	e.timestamp, _ = r.timestamp.str()
	x.targetID, _ = r.target.str()
	x.firstKept, _ = r.firstKept.str()
	if e.target == isObject {
		e.target = isOther
	}
	switch e.kind {
	case kindMessage:
		role, _ := r.role.str()
		if r.payload != isObject {
			break
		}
		switch role {
		case "tool_call":
			if t, ok := callTouch(r.call.names[:], r.call.args[:]); ok {
				e.touches = []touch{t}
			}
		case "assistant":
			if !r.contentIsArray {
				break
			}
			for i := range r.blocks {
				b := &r.blocks[i]
				if typ, _ := b.typ.str(); typ != "toolCall" {
					continue
				}
				if t, ok := callTouch(b.names[:2], b.args[:]); ok {
					e.touches = append(e.touches, t)
				}
			}
		}
	case kindFileEntry:
		if p, ok := r.path.str(); ok {
			if t := jsTrim(p); t != "" {
				e.touches = []touch{{tool: "fileEntry", raw: t}}
			}
		}
		x.operation, _ = r.operation.str()
	case kindOther:
		// clio's isHandoffSeedData and isHandoffNoteData: the session id
		// and the goal are strings (and a seed's document, not kept).
		k, _ := r.kind.str()
		ct, _ := r.customType.str()
		goal, hasGoal := r.data.goal.str()
		switch {
		case k != "custom" || !hasGoal:
		case ct == "handoffSeed":
			if from, ok := r.data.from.str(); ok {
				x.handoff, x.other, x.goal = handoffSeed, from, goal
			}
		case ct == "handoffNote":
			if to, ok := r.data.to.str(); ok {
				x.handoff, x.other, x.goal = handoffNote, to, goal
			}
		}
	case kindDecisionLedger:
		x.interviewID, _ = r.interviewID.str()
		x.endedAt, _ = r.endedAt.str()
		for _, d := range r.decisions {
			if st, _ := d.status.str(); st != "active" {
				continue
			}
			x.decisions = append(x.decisions, Decision{
				Key: d.key.v, Value: d.value.v, Label: d.label.v,
				InterviewID: x.interviewID, DecidedAt: d.decidedAt.v, Line: line,
				SourceQuestion: d.sourceQuestion.v, Correction: d.correction.v, Rationale: d.rationale.v,
			})
		}
	}
	e.setExtra(x)
	return e
}

// header is what line 1 says when it is the session header.
type header struct {
	found   bool
	cwd, id string
	version string // as written; "" when absent
	// parentSession and parentTurnID are a /fork-ed session's: the
	// parent's current.jsonl and the turn it was forked at.
	parentSession, parentTurnID string
}

// knownVersion names the session formats baton reads: clio-coder's
// version 3 (0.3.0 to 0.3.3) and version 4 (0.3.4 on), which only adds the
// working-set entry kinds contextEviction and contextRecall
// (src/engine/session.ts, CURRENT_SESSION_FORMAT_VERSION; clio resumes a
// version-3 ledger as it is). Eviction is a projection: the tool calls stay
// in the file, so the read ledger is folded from both alike.
const knownVersion = "3 and 4"

// unknownVersion reports whether the header names a format version baton
// does not know. A header without one is read as version 3, as before
// clio-coder wrote it.
func (h header) unknownVersion() bool { return h.version != "" && h.version != "3" && h.version != "4" }

// parser turns the bytes of current.jsonl, fed in any pieces, into entries.
// It keeps the bytes of the unfinished last line (pending) so that bytes once
// read are never read again.
type parser struct {
	lines   int // complete lines (ended by '\n') consumed
	entries []entry
	invalid []int
	long    []int // lines over MaxLineBytes, skipped (also in invalid)
	header  header
	pending []byte
	// skipping is set while the rest of a line over MaxLineBytes is read
	// and dropped: a session line is held whole only up to the bound.
	skipping bool
	raw      rawEntry // scratch
}

// MaxLineBytes is the longest line of a session file baton reads; a longer
// one is skipped as invalid, and the ledger says so.
const MaxLineBytes = 16 << 20

// feed consumes the next bytes of the file.
func (p *parser) feed(chunk []byte) {
	if p.skipping {
		nl := bytes.IndexByte(chunk, '\n')
		if nl < 0 {
			return
		}
		p.skipLong()
		chunk = chunk[nl+1:]
	}
	if len(p.pending) > 0 {
		nl := bytes.IndexByte(chunk, '\n')
		if nl < 0 {
			if len(p.pending)+len(chunk) > MaxLineBytes {
				p.pending, p.skipping = nil, true
				return
			}
			p.pending = append(p.pending, chunk...)
			return
		}
		if len(p.pending)+nl > MaxLineBytes {
			p.pending = nil
			p.skipLong()
			p.feed(chunk[nl+1:])
			return
		}
		p.pending = append(p.pending, chunk[:nl]...)
		p.line(p.pending)
		if cap(p.pending) > 1<<20 {
			p.pending = nil // do not hold on to a huge line's buffer
		} else {
			p.pending = p.pending[:0]
		}
		chunk = chunk[nl+1:]
	}
	for {
		nl := bytes.IndexByte(chunk, '\n')
		if nl < 0 {
			break
		}
		if nl > MaxLineBytes {
			p.skipLong()
		} else {
			p.line(chunk[:nl])
		}
		chunk = chunk[nl+1:]
	}
	if len(chunk) > MaxLineBytes {
		p.skipping = true
		return
	}
	p.pending = append(p.pending, chunk...)
}

// skipLong counts a line over MaxLineBytes, which is not read.
func (p *parser) skipLong() {
	p.lines++
	p.skipping = false
	p.invalid = append(p.invalid, p.lines)
	p.long = append(p.long, p.lines)
}

// readable reports whether the file holds a session header or at least
// one JSON entry: one that holds neither is not a session's ledger, and
// no path may be called invented against it. Nor may one whose header
// names a version baton does not know and that holds no entry of a kind
// baton knows: its entries may be written in a way baton cannot read.
func (p *parser) readable() bool {
	e, hdr, _ := p.tail()
	h := p.header
	if hdr != nil {
		h = *hdr
	}
	if h.found && h.unknownVersion() {
		if e != nil && e.kind != kindOther {
			return true
		}
		for i := range p.entries {
			if p.entries[i].kind != kindOther {
				return true
			}
		}
		return false
	}
	return h.found || len(p.entries) > 0 || e != nil
}

// line consumes one complete line.
func (p *parser) line(b []byte) {
	p.lines++
	if blank(b) {
		return
	}
	switch ok, hdr := p.scan(p.lines, b); {
	case !ok:
		p.invalid = append(p.invalid, p.lines)
	case hdr != nil:
		p.header = *hdr
	default:
		p.entries = append(p.entries, makeEntry(p.lines, &p.raw))
	}
}

// scan scans the non-blank line n: ok is false when it is not a JSON
// object; hdr is set when it is the session header.
func (p *parser) scan(n int, b []byte) (ok bool, hdr *header) {
	if !scanLine(b, &p.raw) {
		return false, nil
	}
	if n == 1 {
		if t, _ := p.raw.typ.str(); t == "session" {
			h := header{found: true, version: string(p.raw.version)}
			h.cwd, _ = p.raw.cwd.str()
			h.id, _ = p.raw.id.str()
			h.parentSession, _ = p.raw.parentSession.str()
			h.parentTurnID, _ = p.raw.parent.str()
			return true, &h
		}
	}
	return true, nil
}

// tail reads the unfinished last line without consuming it: torn when it
// does not parse, else it may be an entry or the header.
func (p *parser) tail() (e *entry, hdr *header, torn bool) {
	if len(p.pending) == 0 || blank(p.pending) {
		return nil, nil, false
	}
	n := p.lines + 1
	ok, hdr := p.scan(n, p.pending)
	switch {
	case !ok:
		return nil, nil, true
	case hdr != nil:
		return nil, hdr, false
	}
	t := makeEntry(n, &p.raw)
	return &t, nil, false
}

// totalLines counts the lines read, the unfinished last one included.
func (p *parser) totalLines() int {
	if len(p.pending) > 0 || p.skipping {
		return p.lines + 1
	}
	return p.lines
}

func blank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// headerVersion is the version an unknown header names, "" when the
// header is absent or of the version baton reads.
func (p *parser) headerVersion() string {
	h := p.header
	if _, hdr, _ := p.tail(); hdr != nil {
		h = *hdr
	}
	if h.found && h.unknownVersion() {
		return h.version
	}
	return ""
}
