package server

import (
	"context"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"

	"go.lsp.dev/protocol"
)

// documentSymbols is the outline the document's kind gives (stop packets
// with their sections, a workflow's stages and bindings), else the heading
// tree.
func (s *Server) documentSymbols(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return protocol.DocumentSymbolSlice{}, nil
	}
	doc := snap.res.Doc
	m := mapper{doc.Lines, snap.enc}
	if f := snap.features(); f.Symbols != nil {
		if syms := f.Symbols(snap.res); len(syms) > 0 {
			return protocol.DocumentSymbolSlice(m.symbols(syms)), nil
		}
	}
	return protocol.DocumentSymbolSlice(m.symbols(analysis.HeadingSymbols(doc))), nil
}

// foldingRanges folds each heading's section, and the regions the
// document's kind gives (each packet when a file holds several).
func (s *Server) foldingRanges(ctx context.Context, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return []protocol.FoldingRange{}, nil
	}
	doc := snap.res.Doc
	out := []protocol.FoldingRange{}
	add := func(span markdown.Span, kind protocol.FoldingRangeKind) {
		span = doc.Trimmed(span)
		start, end := doc.Lines.LineOf(span.Start), doc.Lines.LineOf(span.End)
		if end > start {
			out = append(out, protocol.FoldingRange{StartLine: uint32(start), EndLine: uint32(end), Kind: kind})
		}
	}
	if f := snap.features(); f.Folds != nil {
		for _, sp := range f.Folds(snap.res) {
			add(sp, protocol.FoldingRangeKindRegion)
		}
	}
	for _, sec := range doc.HeadingSections() {
		add(sec, "")
	}
	return out, nil
}
