package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/handoff"
	"go.lsp.dev/protocol"
)

// hover explains what is under the cursor: the rule behind each finding
// there, and on a packet heading, what that section must hold.
func (s *Server) hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	off := m.offset(p.Position)
	var parts []string
	var span *analysis.Span

	si, _ := snap.res.Model(stopintent.Analyzer).(*stopintent.Model)
	if model, _ := snap.res.Model(packet.Analyzer).(*packet.Model); model != nil {
		if pk, sec := model.SectionAt(off); sec != nil {
			parts = append(parts, sectionHover(pk, sec))
			span = &sec.Heading.Span
			if sec == pk.Sections[0] { // the packet's first heading: its contract and outcome
				if pk.Consistency != nil {
					parts = append(parts, consistencyHover(snap.res.Doc, pk.Consistency))
				}
				if si != nil {
					if st := si.StopAt(sec.Heading.Span.Start); st != nil {
						parts = append(parts, stopHover(snap.res.Doc, st))
					}
				}
			}
		}
		for _, pk := range model.Packets {
			if pk.Consistency == nil {
				continue
			}
			for _, it := range pk.Consistency.Items {
				if off >= it.Span.Start && off <= it.Span.End {
					parts = append(parts, itemHover(snap.res.Doc, it))
					sp := it.Span
					span = &sp
				}
			}
		}
	}
	if si != nil {
		for _, st := range si.Stops {
			for _, mk := range st.Markers {
				if off >= mk.Span.Start && off <= mk.Span.End {
					parts = append(parts, stopHover(snap.res.Doc, st))
					sp := mk.Span
					span = &sp
				}
			}
		}
	}
	if hm, _ := snap.res.Model(handoff.Analyzer).(*handoff.Model); hm != nil {
		if text, sp := handoffHover(snap.res.Doc, hm, off); text != "" {
			parts = append(parts, text)
			span = sp
		}
	}
	if text, sp := workflowHover(snap, off); text != "" {
		parts = append(parts, text)
		span = sp
	}
	for _, f := range snap.res.Findings {
		if !f.Span.Contains(off) && !(off == f.Span.End && f.Span.Len() > 0) {
			continue
		}
		rule := s.opts.Registry.Rule(f.Rule)
		if rule == nil {
			continue
		}
		parts = append(parts, fmt.Sprintf("**%s** (%s): %s\n\n%s\n\n[Rule documentation](%s)",
			rule.ID, f.Severity, f.Message, strings.TrimSpace(rule.Doc), s.ruleURL(rule.ID)))
		if span == nil {
			sp := f.Span
			span = &sp
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	h := &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n\n---\n\n")}}
	if span != nil {
		r := m.rangeOf(*span)
		h.Range = &r
	}
	return h, nil
}

func sectionHover(pk *packet.Packet, sec *packet.Section) string {
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
	return fmt.Sprintf("### %s\n\n%s\n\nThis is %s.", analysis.PacketHeadings[sec.Index], packet.Purpose[sec.Index], shape)
}

// consistencyHover shows the FR-045a contract as baton read it.
func consistencyHover(doc *analysis.Document, c *packet.Consistency) string {
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
		fact packet.Fact
	}{
		{"HasSubstantiveReviewItems", c.HasSubstantiveReviewItems},
		{"NeedsFromUserStatesResponse", c.NeedsFromUserStatesResponse},
		{"HappensNextSaysHeld", c.HappensNextSaysHeld},
		{"SaysNothingRequiredOrWillProceed", c.SaysNothingRequiredOrWillProceed},
	} {
		where := escapeCell(f.fact.Why)
		if len(f.fact.Spans) > 0 {
			where += fmt.Sprintf(" (line %d)", doc.Lines.LineOf(f.fact.Spans[0].Start)+1)
		}
		fmt.Fprintf(&b, "| %s | %v | %s |\n", f.name, f.fact.Value, where)
	}
	return b.String()
}

// itemHover says how a review item reads.
func itemHover(doc *analysis.Document, it packet.ReviewItem) string {
	s := "**Review item:** " + it.Class.String()
	if it.Cue != (analysis.Span{}) {
		s += fmt.Sprintf(", from %q", doc.String(it.Cue))
	}
	if it.Class == packet.Unmarked {
		s += ". Nothing marks it as a decision or a note; it sits under What Needs Your Review, so baton counts it as a review request."
	}
	return s
}
