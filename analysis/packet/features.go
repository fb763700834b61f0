package packet

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// The editor features of stop packets, on the packet analyzer's model;
// the stop-intent package adds the outcome of each stop (stopintent.Features).

// ModelOf is the packet analyzer's model of an analysed document, or nil.
func ModelOf(res *analysis.Result) *Model {
	if res == nil {
		return nil
	}
	m, _ := res.Model(Analyzer).(*Model)
	return m
}

// HeadingHover explains the packet section whose heading holds off: what
// the section must hold and, on a packet's first heading, the FR-045a
// contract as baton read it. sec is that section, or nil.
func HeadingHover(doc *markdown.Document, m *Model, off int) (parts []analysis.HoverResult, pk *Packet, sec *Section) {
	pk, sec = m.SectionAt(off)
	if sec == nil {
		return nil, nil, nil
	}
	parts = append(parts, analysis.HoverResult{Span: sec.Heading.Span, Markdown: sectionHover(pk, sec)})
	if sec == pk.Sections[0] && pk.Consistency != nil {
		parts = append(parts, analysis.HoverResult{Span: sec.Heading.Span, Markdown: consistencyHover(doc, pk.Consistency)})
	}
	return parts, pk, sec
}

// ItemHover says how each review item holding off reads.
func ItemHover(doc *markdown.Document, m *Model, off int) []analysis.HoverResult {
	var out []analysis.HoverResult
	for _, pk := range m.Packets {
		if pk.Consistency == nil {
			continue
		}
		for _, it := range pk.Consistency.Items {
			if off >= it.Span.Start && off <= it.Span.End {
				out = append(out, analysis.HoverResult{Span: it.Span, Markdown: itemHover(doc, it)})
			}
		}
	}
	return out
}

func sectionHover(pk *Packet, sec *Section) string {
	if sec.Index < 0 {
		return fmt.Sprintf("**%s**: a section stop packets don't define; baton leaves it alone.", sec.Heading.Text)
	}
	shape := "a material-work packet (five sections, no verdict marker)"
	if ok, why := pk.Boundary(); ok {
		shape = "a lifecycle-boundary packet (six sections): " + why
	}
	if pk.GateRecord {
		shape += "; a saved gate record, not a live stop"
	}
	return fmt.Sprintf("### %s\n\n%s\n\nThis is %s.", markdown.PacketHeadings[sec.Index], Purpose[sec.Index], shape)
}

// consistencyHover shows the FR-045a contract as baton read it.
func consistencyHover(doc *markdown.Document, c *Consistency) string {
	var b strings.Builder
	if !c.Live() {
		fmt.Fprintf(&b, "**Consistency (FR-045a):** not checked — What I Need From You records a verdict already given (line %d): a saved record, not a live stop.\n", doc.Lines.LineOf(c.Recorded.Start)+1)
		return b.String()
	}
	if ok, reason := c.Verdict(); ok {
		b.WriteString("**Consistency (FR-045a):** consistent.\n\n")
	} else {
		fmt.Fprintf(&b, "**Consistency (FR-045a):** inconsistent — %s.\n\n", reason)
	}
	b.WriteString("| input | value | decided by |\n|---|---|---|\n")
	for _, f := range []struct {
		name string
		fact Fact
	}{
		{"HasSubstantiveReviewItems", c.HasSubstantiveReviewItems},
		{"NeedsFromUserStatesResponse", c.NeedsFromUserStatesResponse},
		{"HappensNextSaysHeld", c.HappensNextSaysHeld},
		{"SaysNothingRequiredOrWillProceed", c.SaysNothingRequiredOrWillProceed},
	} {
		where := analysis.EscapeCell(f.fact.Why)
		if len(f.fact.Spans) > 0 {
			where += fmt.Sprintf(" (line %d)", doc.Lines.LineOf(f.fact.Spans[0].Start)+1)
		}
		fmt.Fprintf(&b, "| %s | %v | %s |\n", f.name, f.fact.Value, where)
	}
	return b.String()
}

// itemHover says how a review item reads.
func itemHover(doc *markdown.Document, it ReviewItem) string {
	s := "**Review item:** " + it.Class.String()
	if it.Cue != (markdown.Span{}) {
		s += fmt.Sprintf(", from %q", doc.String(it.Cue))
	}
	if it.Class == Unmarked {
		s += ". Nothing marks it as a decision or a note; it sits under What Needs Your Review, so baton counts it as a review request."
	}
	return s
}

// CompleteSection offers, on a heading line, the sections the packet
// under the cursor lacks, in packet order. Any Markdown gets it while it
// holds nothing but that line (a packet being started); other Markdown
// gets an empty offer.
func CompleteSection(res *analysis.Result, off int) *analysis.Completion {
	doc := res.Doc
	start := doc.Lines.LineStart(doc.Lines.LineOf(off))
	prefix := doc.Text[start:off]
	out := &analysis.Completion{}
	t := strings.TrimLeft(prefix, " ")
	rest := strings.TrimLeft(t, "#")
	hashes := len(t) - len(rest)
	switch {
	case len(prefix)-len(t) > 3, t != "" && hashes == 0, hashes > 6, rest != "" && rest[0] != ' ':
		return out // not the start of a heading
	case doc.Kind != markdown.KindPacket && strings.TrimSpace(doc.Text) != strings.TrimSpace(prefix):
		return out // other Markdown: no packet sections to offer
	}
	for k, title := range MissingSections(ModelOf(res), off) {
		out.Items = append(out.Items, analysis.CompletionItem{
			Label: "## " + title, Kind: analysis.CompleteKeyword,
			Detail:     "stop packet section",
			SortText:   fmt.Sprintf("%02d", k),
			FilterText: t + title,
			Edit:       analysis.Edit{Span: markdown.Span{Start: start, End: off}, NewText: "## " + title},
		})
	}
	return out
}

// MissingSections are the section titles the packet at offset lacks, in
// packet order; every title when there is no packet (m may be nil).
func MissingSections(m *Model, off int) []string {
	var pk *Packet
	if m != nil {
		for _, p := range m.Packets {
			if off >= p.Span.Start {
				pk = p
			}
		}
	}
	var out []string
	for i, title := range markdown.PacketHeadings {
		if pk != nil && pk.Section(i) != nil {
			continue
		}
		if pk != nil && i == DiscussionPrompts {
			if boundary, _ := pk.Boundary(); !boundary {
				continue // a material-work packet has no Discussion Prompts
			}
		}
		out = append(out, title)
	}
	return out
}

// Symbols outline stop packets: each packet with its sections; nil when
// the document holds none.
func Symbols(res *analysis.Result) []analysis.Symbol {
	m := ModelOf(res)
	if m == nil || len(m.Packets) == 0 {
		return nil
	}
	doc := res.Doc
	var out []analysis.Symbol
	for i, pk := range m.Packets {
		name := "Stop packet"
		if len(m.Packets) > 1 {
			name = fmt.Sprintf("Stop packet %d", i+1)
		}
		detail := "material work"
		if ok, _ := pk.Boundary(); ok {
			detail = "boundary"
			if pk.BoundaryFrom != "" {
				detail += ": " + pk.BoundaryFrom + " → " + pk.BoundaryTo
			} else if len(pk.Markers) > 0 && pk.Markers[0].Valid {
				detail += ": " + pk.Markers[0].From + " → " + pk.Markers[0].To
			}
		}
		sym := analysis.Symbol{Name: name, Detail: detail, Kind: analysis.SymbolModule,
			Span: doc.Trimmed(pk.Span), Selection: pk.Sections[0].Heading.Span}
		for _, sec := range pk.Sections {
			sym.Children = append(sym.Children, analysis.Symbol{Name: sec.Title(), Kind: analysis.SymbolSection,
				Span: doc.Trimmed(sec.Span), Selection: sec.Heading.Span})
		}
		out = append(out, sym)
	}
	return out
}

// Folds folds each packet when a document holds several.
func Folds(res *analysis.Result) []markdown.Span {
	m := ModelOf(res)
	if m == nil || len(m.Packets) < 2 {
		return nil
	}
	var out []markdown.Span
	for _, pk := range m.Packets {
		out = append(out, markdown.Span{Start: pk.Sections[0].Span.Start, End: pk.Span.End})
	}
	return out
}
