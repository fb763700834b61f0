package server

import (
	"context"

	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
	"go.lsp.dev/protocol"
)

// completion asks, in order, for what any Markdown may be completed with
// after "<!--" (the stop markers), what the document's kind offers, and
// the stop packet sections a heading line may start; the first that
// answers is the offer.
func (s *Server) completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	items := protocol.CompletionItemSlice{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return items, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	off := m.offset(p.Position)
	c := stopintent.CompleteMarker(snap.res, off)
	if f := snap.features(); c == nil && f.Complete != nil {
		c = f.Complete(snap.res, off)
	}
	if c == nil {
		c = packet.CompleteSection(snap.res, off)
	}
	for _, it := range c.Items {
		items = append(items, m.completionItem(it))
	}
	if c.Incomplete {
		// Typing more narrows the list: ask again then.
		return &protocol.CompletionList{IsIncomplete: true, Items: items}, nil
	}
	return items, nil
}
