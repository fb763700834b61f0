// Package governance makes the checks specrew's handoff-governance
// validator makes on a stop message
// (extensions/specrew-speckit/validators/handoff-governance-validator.ps1 in
// alonf/specrew, with its helpers in scripts/shared-governance.ps1), and the
// checks its design-analysis gate makes on a saved gate packet
// (scripts/internal/design-analysis-gate.ps1), each as a rule of its own with
// specrew's severity: its hard fails are errors, its soft warnings warnings.
//
// The validator is told by its caller whether the message is a boundary
// handoff and which boundary (-ResponseScope, -BoundaryName): baton reads
// that from the packet (a Discussion Prompts section, front matter naming
// the boundary, a verdict marker), or is told it (packet.EnvBoundary: the
// stop hook tells it the specrew project's pending crossing). docs/conformance-specrew.md lists every check beside its rule.
package governance

import (
	"io/fs"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"
	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// EnvFS holds the workspace as an fs.FS (opened beneath its root) and
// EnvRoot its absolute path: file:/// references are checked in it. Without
// them no reference is called broken.
// The boundary the message is checked at, when a caller knows it, is
// packet.EnvBoundary.
const (
	EnvFS   = "governance.fs"
	EnvRoot = "governance.root"
)

// Analyzer makes specrew's validator checks on each packet of a stop
// message, and its design gate's on a saved design-analysis gate packet.
var Analyzer = &analysis.Analyzer{
	Name:     "governance",
	Kind:     markdown.KindPacket,
	Rules:    Rules,
	Requires: []*analysis.Analyzer{packet.Analyzer},
	Run:      run,
}

// message is one packet as specrew's validator reads a response.
type message struct {
	pass *analysis.Pass
	p    *packet.Packet
	// text is the packet's text with every CR made a space (the offsets
	// are the document's, from base), as the validator's CRLF → LF
	// normalisation reads it.
	text string
	base int
	// stopFormat: What I just did, Why I stopped and What I need from you
	// are there (Test-UsesStopMessageFormat), which makes the scope a
	// boundary handoff rather than narration.
	stopFormat bool
	// boundary: the validator would be told it reads a boundary handoff
	// (a boundary name, an iteration), and name is that boundary ("" when
	// nothing says which).
	boundary bool
	name     string
	why      string // what says it is a boundary handoff
	nameFrom string // what names the boundary
	settings settings
	names    map[string]string // the active feature's ids, read for a fix (nil: not yet)
}

// has reports whether the message holds lower (lower-case) in any case:
// the quick test before a scan that needs it.
//
// Without lowering the whole text, which copied every message: the needles
// are ASCII, and none holds a letter whose case folds outside ASCII (k, s),
// so an ASCII fold finds what strings.ToLower would.
func (m *message) has(lower string) bool {
	return indexFoldASCII(m.text, lower) >= 0
}

// indexFoldASCII is the first index of lower (ASCII, lower-case) in s in
// any ASCII case, or -1. It steps from one occurrence of lower's first
// byte that is not a letter to the next with strings.IndexByte.
func indexFoldASCII(s, lower string) int {
	o := strings.IndexFunc(lower, func(r rune) bool { return r < 'a' || r > 'z' })
	if o < 0 {
		for i := 0; i+len(lower) <= len(s); i++ {
			if equalFoldASCII(s[i:i+len(lower)], lower) {
				return i
			}
		}
		return -1
	}
	for i := o; i < len(s); {
		k := strings.IndexByte(s[i:], lower[o])
		if k < 0 {
			return -1
		}
		start := i + k - o
		if start+len(lower) <= len(s) && equalFoldASCII(s[start:start+len(lower)], lower) {
			return start
		}
		i += k + 1
	}
	return -1
}

// equalFoldASCII reports whether s is lower in any ASCII case.
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c |= 0x20
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func run(pass *analysis.Pass) any {
	pm, _ := pass.Model(packet.Analyzer).(*packet.Model)
	if pm == nil {
		return nil
	}
	fsys, _ := pass.Env[EnvFS].(fs.FS)
	var st *settings
	for _, p := range pm.Packets {
		if p.GateRecord {
			if gate, _ := frontMatter(pass.Doc, "gate"); gate == "design-analysis" {
				designGate(pass, p)
			}
			continue // a saved record, not a response: the validator never reads one
		}
		if c := p.Consistency; c != nil && !c.Live() {
			continue
		}
		if st == nil {
			s := readSettings(fsys)
			st = &s
		}
		m := newMessage(pass, p)
		m.settings = *st
		validate(m)
	}
	return nil
}

func newMessage(pass *analysis.Pass, p *packet.Packet) *message {
	doc := pass.Doc
	m := &message{pass: pass, p: p, base: p.Span.Start, text: strings.ReplaceAll(doc.String(p.Span), "\r", " ")}
	m.stopFormat = p.Section(packet.JustDid) != nil && p.Section(packet.WhyStopped) != nil && p.Section(packet.NeedFromYou) != nil
	// A boundary packet by its text: Discussion Prompts, or front matter
	// naming the boundary. A verdict marker alone on a five-section packet
	// is the packet's own mistake (packet/verdict-marker-non-boundary), not
	// a boundary handoff.
	switch {
	case p.Section(packet.DiscussionPrompts) != nil:
		m.boundary, m.why = true, "it has a Discussion Prompts section"
	case p.BoundaryFrom != "" || p.BoundaryTo != "":
		m.boundary, m.why = true, "its front matter names the boundary"
	}
	if b, _ := pass.Env[packet.EnvBoundary].(string); b != "" {
		m.boundary, m.why, m.name, m.nameFrom = true, "it is checked at the "+b+" boundary", b, "the boundary this stop is at (the project's pending crossing, or the caller's)"
		return m
	}
	switch {
	case p.BoundaryTo != "":
		m.name, m.nameFrom = p.BoundaryTo, "its front matter's to_boundary"
	default:
		for _, mk := range p.Markers {
			if mk.Valid && mk.To != "" {
				m.name, m.nameFrom = mk.To, "its verdict marker"
				break
			}
		}
	}
	return m
}

// boundaryHandoff is the validator's scope boundary-handoff with a
// boundary context: the checks that only a boundary packet owes.
func (m *message) boundaryHandoff() bool { return m.boundary && (m.stopFormat || m.candidate()) }

// narration is the validator's other scope: a message without the stop
// format, read as progress prose.
func (m *message) narration() bool { return !m.stopFormat && !m.boundary }

// candidate is Test-UsesHumanReentryPacketCandidate: a section only a
// re-entry packet has.
func (m *message) candidate() bool {
	return m.p.Section(packet.NeedsReview) != nil || m.p.Section(packet.HappensNext) != nil || m.p.Section(packet.DiscussionPrompts) != nil
}

// body is a section's text (its lines after the heading, to the next
// section) and where it starts; "" when the packet has no such section.
func (m *message) body(i int) (string, int) {
	s := m.p.Section(i)
	if s == nil {
		return "", 0
	}
	return strings.ReplaceAll(m.pass.Doc.String(s.Body), "\r", " "), s.Body.Start
}

// at is the span of the heading of section i, or of the packet's first
// heading when it has none.
func (m *message) at(i int) markdown.Span {
	if s := m.p.Section(i); s != nil {
		return s.Heading.Span
	}
	return m.p.Sections[0].Heading.Span
}

func (m *message) span(start, end int) markdown.Span {
	return markdown.Span{Start: m.base + start, End: m.base + end}
}

func frontMatter(doc *markdown.Document, key string) (string, bool) {
	if doc.FrontMatter == nil || doc.FrontMatter.Data == nil {
		return "", false
	}
	v, ok := doc.FrontMatter.Data[key].(string)
	return strings.TrimSpace(v), ok
}

// any reports whether text matches any of res.
func anyMatch(text string, res ...*lazyre.Regexp) bool {
	for _, re := range res {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}
