package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"go.lsp.dev/protocol"
)

// hover shows what the document's kind says of what is under the cursor,
// then the rule behind each finding there.
func (s *Server) hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	off := m.offset(p.Position)
	var parts []string
	var span *markdown.Span
	if h, ok := analysis.KindHover(snap.res.Doc, off); ok {
		parts = append(parts, h.Markdown)
		span = &h.Span
	}
	if f := snap.features(); f.Hover != nil {
		for _, h := range f.Hover(snap.res, off) {
			parts = append(parts, h.Markdown)
			sp := h.Span
			span = &sp
		}
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
			rule.ID, f.Severity, f.Message, rule.FullDoc(), s.ruleURL(rule.ID)))
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
