package stopintent

import (
	"fmt"
	"sort"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// Features are the editor features of stop packets and stop messages:
// the packet's own (packet.HeadingHover, packet.Symbols, …) with the
// outcome of each stop.
var Features = &analysis.Features{
	Hover:    Hover,
	Complete: packet.CompleteSection,
	Symbols:  packet.Symbols,
	Lenses:   Lenses,
	Folds:    packet.Folds,
}

// ModelOf is the stop-intent analyzer's model of an analysed document, or nil.
func ModelOf(res *analysis.Result) *Model {
	if res == nil {
		return nil
	}
	m, _ := res.Model(Analyzer).(*Model)
	return m
}

// Hover explains a packet heading (with, on a packet's first heading, the
// outcome of its stop), a review item, and a stop-intent marker.
func Hover(res *analysis.Result, off int) []analysis.HoverResult {
	doc := res.Doc
	si := ModelOf(res)
	var out []analysis.HoverResult
	if pm := packet.ModelOf(res); pm != nil {
		parts, pk, sec := packet.HeadingHover(doc, pm, off)
		out = append(out, parts...)
		if sec != nil && sec == pk.Sections[0] && si != nil {
			if st := si.StopAt(sec.Heading.Span.Start); st != nil {
				out = append(out, analysis.HoverResult{Span: sec.Heading.Span, Markdown: stopHover(doc, st)})
			}
		}
		out = append(out, packet.ItemHover(doc, pm, off)...)
	}
	if si != nil {
		for _, st := range si.Stops {
			for _, mk := range st.Markers {
				if off >= mk.Span.Start && off <= mk.Span.End {
					out = append(out, analysis.HoverResult{Span: mk.Span, Markdown: stopHover(doc, st)})
				}
			}
		}
	}
	return out
}

// Lenses show, above each stop, the outcome it produces.
func Lenses(res *analysis.Result) []analysis.Lens {
	si := ModelOf(res)
	if si == nil {
		return nil
	}
	var out []analysis.Lens
	for _, st := range si.Stops {
		at := st.Span.Start
		if st.Packet != nil {
			at = st.Packet.Sections[0].Heading.Span.Start
		}
		out = append(out, analysis.Lens{At: at, Title: lensTitle(st)})
	}
	return out
}

// CompleteMarker offers, after "<!--" on the line, the stop-intent markers
// and the verdict marker (with the boundary the front matter names), in
// any Markdown; nil elsewhere.
func CompleteMarker(res *analysis.Result, off int) *analysis.Completion {
	doc := res.Doc
	start := doc.Lines.LineStart(doc.Lines.LineOf(off))
	prefix := doc.Text[start:off]
	i := strings.LastIndex(prefix, "<!--")
	if i < 0 || strings.Contains(prefix[i:], "-->") {
		return nil
	}
	out := &analysis.Completion{}
	add := func(label, detail string) {
		out.Items = append(out.Items, analysis.CompletionItem{
			Label: label, Kind: analysis.CompleteSnippet, Detail: detail,
			FilterText: prefix[i:] + label[len("<!--"):],
			Edit:       analysis.Edit{Span: markdown.Span{Start: start + i, End: off}, NewText: label},
		})
	}
	add(ContinueMarker, "stop intent: the agent goes on with authorized work")
	add(IntermediateMarker, "stop intent: async work in flight, one progress line")
	from, to := "<from>", "<to>"
	if pm := packet.ModelOf(res); pm != nil && len(pm.Packets) > 0 && pm.Packets[0].BoundaryFrom != "" {
		from, to = pm.Packets[0].BoundaryFrom, pm.Packets[0].BoundaryTo
	}
	add(fmt.Sprintf("<!-- SPECREW-VERDICT-BOUNDARY: %s -> %s -->", from, to), "verdict marker: the last line of a boundary packet")
	return out
}

// stopHover explains a stop's outcome: what it is (or could be), why, and
// every input with its value and where it came from.
func stopHover(doc *markdown.Document, st *Stop) string {
	var b strings.Builder
	c := st.Class
	switch {
	case st.Recorded:
		b.WriteString("**Stop intent:** none — this is a saved gate record whose verdict is already recorded, not a live stop; the consistency contract does not apply.\n\n")
	case c.Outcome != "":
		fmt.Fprintf(&b, "**Stop intent: %s** — %s\n\n", c.Outcome, c.Possible[0].Reason)
		if len(c.Possible) > 1 {
			b.WriteString("(Whatever the unknown inputs are, the outcome is the same; the reason may differ.)\n\n")
		}
	default:
		b.WriteString("**Stop intent: " + outcomeSet(c) + "**, depending on what baton cannot read from the text:\n\n")
		for _, p := range c.Possible {
			fmt.Fprintf(&b, "- **%s** if %s — %s\n", p.Outcome, p.When, p.Reason)
		}
		b.WriteString("\n")
	}
	switch {
	case st.Ambiguous:
		b.WriteString("Both markers are declared: the intent is ambiguous, so none applies.\n\n")
	case st.Intent != "":
		fmt.Fprintf(&b, "Marker: `%s`.\n\n", MarkerFor(st.Intent))
	}
	b.WriteString("| input | value | from |\n|---|---|---|\n")
	names := append([]string{InMarkerIntent}, InputNames...)
	for _, name := range names {
		if name == InMarkerIntent {
			v := string(st.Intent)
			if v == "" {
				v = "none"
			}
			fmt.Fprintf(&b, "| %s | %s | the text |\n", name, v)
			continue
		}
		in := st.Inputs.Get(name)
		from := in.Source
		switch {
		case in.Source == "text" && in.Span != (markdown.Span{}):
			from = fmt.Sprintf("the text, line %d", doc.Lines.LineOf(in.Span.Start)+1)
		case in.Source == "text":
			from = "the text"
		case in.Source == "unknown":
			from = "unknown"
		case in.Source == SourceSpecrew:
			from = "specrew's stop provider"
		}
		if in.Why != "" {
			from += ": " + analysis.EscapeCell(in.Why)
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, in.Value, from)
	}
	return b.String()
}

// lensTitle is the one line a code lens shows above a stop.
func lensTitle(st *Stop) string {
	c := st.Class
	switch {
	case st.Recorded:
		return "Stop intent: none — a recorded gate, not a live stop"
	case c.Outcome != "":
		return fmt.Sprintf("Stop intent: %s — %s", c.Outcome, c.Possible[0].Reason)
	}
	return fmt.Sprintf("Stop intent: %s — depends on inputs baton cannot read (hover for each case)", outcomeSet(c))
}

// outcomeSet writes the possible outcomes: "continue, intermediate or real".
func outcomeSet(c Classification) string {
	seen := map[Outcome]bool{}
	var out []string
	for _, p := range c.Possible {
		if !seen[p.Outcome] {
			seen[p.Outcome] = true
			out = append(out, string(p.Outcome))
		}
	}
	sort.Strings(out)
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}
