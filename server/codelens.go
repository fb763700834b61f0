package server

import (
	"context"

	"github.com/baton-md/baton/analysis/stopintent"
	"go.lsp.dev/protocol"
)

// codeLens shows, above each stop, the outcome it produces.
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	si, _ := snap.res.Model(stopintent.Analyzer).(*stopintent.Model)
	if si == nil {
		return out, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	for _, st := range si.Stops {
		at := st.Span.Start
		if st.Packet != nil {
			at = st.Packet.Sections[0].Heading.Span.Start
		}
		pos := m.position(at)
		out = append(out, protocol.CodeLens{
			Range:   protocol.Range{Start: pos, End: pos},
			Command: protocol.Command{Title: lensTitle(st)}, // informational: no command to run
		})
	}
	return out, nil
}
