// Package packet checks stop packets: the five- or six-section message an
// agent writes when it stops.
package packet

import (
	"strings"

	"github.com/baton-md/baton/markdown"
)

// EnvBoundary, when set in a pass's environment, is the lifecycle boundary
// the message is checked at (a string), as specrew's validator is told it
// (-BoundaryName): the engine sets it, from the caller or the specrew
// project's pending crossing. The
// message is then a boundary handoff, whatever its text shows.
const EnvBoundary = "packet.boundary"

// Section indices, in the order a packet holds them.
const (
	JustDid = iota
	WhyStopped
	NeedsReview
	HappensNext
	DiscussionPrompts
	NeedFromYou
	numSections
)

// Purpose says what each section must hold; hover shows it.
var Purpose = [numSections]string{
	JustDid:           "What the agent did since the last stop: the material work, with the changed artifacts described (and linked) so a reader who was away can follow.",
	WhyStopped:        "Why the agent stopped here rather than carrying on: a lifecycle boundary, a decision only the user can make, a blocker, or completed work.",
	NeedsReview:       "What the user must look at: each decision, approval, tradeoff or confirmation as its own item. Informational notes do not belong here; an empty section means nothing needs review.",
	HappensNext:       "What the agent will do next. When the user is asked for something, this section says the work is held until they answer (\"On approval, I will …\").",
	DiscussionPrompts: "Boundary packets only: questions that give the user the context to decide (what is at stake, the recommended default, the consequence of each choice).",
	NeedFromYou:       "The exact response wanted from the user: the verdict options, the reply to send, the action to take. Never \"nothing\" when a review is requested.",
}

// Section is one section of a packet: a heading and the text up to the next
// section heading.
type Section struct {
	Index   int // a section index, or -1 for a section packets don't define (e.g. "Decision Evidence")
	Heading markdown.Heading
	Span    markdown.Span // from the heading to the next section (or the packet's end)
	Body    markdown.Span // after the heading's line
	// DuplicateOf is the earlier section with the same heading in this
	// packet, when this one repeats it.
	DuplicateOf *Section
}

// Title is the canonical heading of a known section, or the heading's own text.
func (s *Section) Title() string {
	if s.Index >= 0 {
		return markdown.PacketHeadings[s.Index]
	}
	return s.Heading.Text
}

// Marker is an HTML comment that is, or tries to be, a verdict marker
// `<!-- SPECREW-VERDICT-BOUNDARY: from -> to -->`.
type Marker struct {
	Span     markdown.Span
	Valid    bool
	From, To string // for a malformed marker: the names baton could make out, if any
	// Standalone: the marker is an HTML block of its own, so removing its
	// line changes nothing else in how the document parses.
	Standalone bool
	// Block: the marker is in an HTML block (it starts a line), not inline
	// in a paragraph or heading. Removed from a block it shares with other
	// text, it leaves that text to be read as Markdown: a new heading, say.
	Block bool
}

// Canonical is the marker written in the form specrew's gate-stop skill
// renders, or "" when the boundary names are unknown.
func (m *Marker) Canonical() string {
	if m.From == "" || m.To == "" {
		return ""
	}
	return "<!-- SPECREW-VERDICT-BOUNDARY: " + m.From + " -> " + m.To + " -->"
}

// Packet is one stop packet; a file may hold several.
type Packet struct {
	Span     markdown.Span
	Sections []*Section // in document order, unknown sections included
	Markers  []*Marker  // verdict markers (valid or not) that belong to this packet
	// BoundaryFrom and BoundaryTo come from front matter (from_boundary,
	// to_boundary); only the document's first packet can have them.
	BoundaryFrom, BoundaryTo string
	// GateRecord is set when front matter marks the document as a saved
	// gate record (a `gate` key) rather than a live stop.
	GateRecord bool
	// Consistency is the FR-045a contract as the text states it.
	Consistency *Consistency
}

// Section returns the first section with index i, or nil.
func (p *Packet) Section(i int) *Section {
	for _, s := range p.Sections {
		if s.Index == i {
			return s
		}
	}
	return nil
}

// Boundary reports whether the packet is a lifecycle-boundary (six-section)
// packet, and why.
func (p *Packet) Boundary() (bool, string) {
	switch {
	case p.Section(DiscussionPrompts) != nil:
		return true, "it has a Discussion Prompts section"
	case p.BoundaryFrom != "" || p.BoundaryTo != "":
		return true, "its front matter names the boundary " + p.BoundaryFrom + " → " + p.BoundaryTo
	case len(p.Markers) > 0:
		return true, "it carries a verdict marker"
	}
	return false, ""
}

// Model is every packet of a document.
type Model struct {
	Packets []*Packet
	// Message holds what a stop message without packet sections says (is
	// the agent blocked, the work complete, a question asked); nil when the
	// document has packets.
	Message *Consistency
}

// SectionAt returns the packet section whose heading contains offset.
func (m *Model) SectionAt(offset int) (*Packet, *Section) {
	for _, p := range m.Packets {
		for _, s := range p.Sections {
			if offset >= s.Heading.Span.Start && offset <= s.Heading.Span.End {
				return p, s
			}
		}
	}
	return nil, nil
}

func frontMatterString(fm *markdown.FrontMatter, key string) string {
	if fm == nil || fm.Data == nil {
		return ""
	}
	v, _ := fm.Data[key].(string)
	return strings.TrimSpace(v)
}
