package server

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// codeActions offers the fixes of every finding that overlaps the range.
func (s *Server) codeActions(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	out := []protocol.CommandOrCodeAction{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	lo, hi := m.offset(p.Range.Start), m.offset(p.Range.End)
	diags := s.diagnostics(snap)
	for i, f := range snap.res.Findings {
		if f.Span.End < lo || f.Span.Start > hi {
			continue
		}
		for _, fix := range f.Fixes {
			kind := protocol.CodeActionKindQuickFix
			edits := make([]protocol.TextEdit, len(fix.Edits))
			for j, e := range fix.Edits {
				edits[j] = protocol.TextEdit{Range: m.rangeOf(e.Span), NewText: e.NewText}
			}
			out = append(out, &protocol.CodeAction{
				Title:       fix.Title,
				Kind:        &kind,
				Diagnostics: []protocol.Diagnostic{diags[i]},
				IsPreferred: ptr(fix.Safe && len(f.Fixes) == 1),
				Edit:        &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{p.TextDocument.URI: edits}},
			})
		}
	}
	return out, nil
}
