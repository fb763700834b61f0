package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"go.lsp.dev/protocol"
)

// documentSymbols is the outline: for stop packets, each packet with its
// sections; for any other Markdown, the heading tree.
func (s *Server) documentSymbols(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return protocol.DocumentSymbolSlice{}, nil
	}
	doc := snap.res.Doc
	m := mapper{doc.Lines, snap.enc}
	if model, _ := snap.res.Model(packet.Analyzer).(*packet.Model); model != nil && len(model.Packets) > 0 {
		out := protocol.DocumentSymbolSlice{}
		for i, pk := range model.Packets {
			name := "Stop packet"
			if len(model.Packets) > 1 {
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
			first := pk.Sections[0].Heading.Span
			sym := protocol.DocumentSymbol{
				Name: name, Detail: &detail, Kind: protocol.SymbolKindModule,
				Range: m.rangeOf(trimmed(doc, pk.Span)), SelectionRange: m.rangeOf(first),
			}
			for _, sec := range pk.Sections {
				sym.Children = append(sym.Children, protocol.DocumentSymbol{
					Name: sec.Title(), Kind: protocol.SymbolKindString,
					Range: m.rangeOf(trimmed(doc, sec.Span)), SelectionRange: m.rangeOf(sec.Heading.Span),
				})
			}
			out = append(out, sym)
		}
		return out, nil
	}
	if model := workflowModel(snap); model != nil {
		if syms := workflowSymbols(doc, m, model); len(syms) > 0 {
			return syms, nil
		}
	}
	return headingTree(doc, m), nil
}

// headingTree nests headings by level.
func headingTree(doc *analysis.Document, m mapper) protocol.DocumentSymbolSlice {
	type node struct {
		level int
		sym   protocol.DocumentSymbol
		kids  []*node
	}
	root := &node{level: 0}
	stack := []*node{root}
	secs := headingSections(doc)
	for i, h := range doc.Headings {
		for len(stack) > 1 && stack[len(stack)-1].level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		n := &node{level: h.Level, sym: protocol.DocumentSymbol{
			Name: nonEmpty(h.Text), Kind: protocol.SymbolKindString,
			Range: m.rangeOf(trimmed(doc, secs[i])), SelectionRange: m.rangeOf(h.Span),
		}}
		parent := stack[len(stack)-1]
		parent.kids = append(parent.kids, n)
		stack = append(stack, n)
	}
	var build func(n *node) []protocol.DocumentSymbol
	build = func(n *node) []protocol.DocumentSymbol {
		var out []protocol.DocumentSymbol
		for _, k := range n.kids {
			k.sym.Children = build(k)
			out = append(out, k.sym)
		}
		return out
	}
	return protocol.DocumentSymbolSlice(build(root))
}

// headingSections gives each heading the span up to the next heading of the
// same or a higher level.
func headingSections(doc *analysis.Document) []analysis.Span {
	out := make([]analysis.Span, len(doc.Headings))
	for i, h := range doc.Headings {
		end := len(doc.Text)
		for _, n := range doc.Headings[i+1:] {
			if n.Level <= h.Level {
				end = n.Span.Start
				break
			}
		}
		out[i] = analysis.Span{Start: h.Span.Start, End: end}
	}
	return out
}

// trimmed drops trailing white space from a span, so a range ends on its
// last line of text.
func trimmed(doc *analysis.Document, s analysis.Span) analysis.Span {
	s.End = s.Start + len(strings.TrimRight(doc.String(s), " \t\r\n"))
	return s
}

func nonEmpty(s string) string {
	if s == "" {
		return "(untitled)"
	}
	return s
}

// foldingRanges folds each heading's section, and each packet when a file
// holds several.
func (s *Server) foldingRanges(ctx context.Context, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return []protocol.FoldingRange{}, nil
	}
	doc := snap.res.Doc
	out := []protocol.FoldingRange{}
	add := func(span analysis.Span, kind protocol.FoldingRangeKind) {
		span = trimmed(doc, span)
		start, end := doc.Lines.LineOf(span.Start), doc.Lines.LineOf(span.End)
		if end > start {
			out = append(out, protocol.FoldingRange{StartLine: uint32(start), EndLine: uint32(end), Kind: kind})
		}
	}
	if model, _ := snap.res.Model(packet.Analyzer).(*packet.Model); model != nil && len(model.Packets) > 1 {
		for _, pk := range model.Packets {
			add(analysis.Span{Start: pk.Sections[0].Span.Start, End: pk.Span.End}, protocol.FoldingRangeKindRegion)
		}
	}
	for _, sec := range headingSections(doc) {
		add(sec, "")
	}
	return out, nil
}
