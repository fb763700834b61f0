package server

import (
	"context"

	"go.lsp.dev/protocol"
)

// codeLens shows the lines of information the document's kind puts above
// its parts (for stop packets, the outcome of each stop).
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	f := snap.features()
	if f.Lenses == nil {
		return out, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	for _, l := range f.Lenses(snap.res) {
		pos := m.position(l.At)
		out = append(out, protocol.CodeLens{
			Range:   protocol.Range{Start: pos, End: pos},
			Command: protocol.Command{Title: l.Title}, // informational: no command to run
		})
	}
	return out, nil
}
