package server

import (
	"context"
	"path/filepath"

	"github.com/baton-md/baton/internal/workspace"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// definition is where the document's kind says what is at the cursor is
// defined: in the document, or a workspace file.
func (s *Server) definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	out := protocol.LocationSlice{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	f := snap.features()
	if f.Definition == nil {
		return out, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	for _, l := range f.Definition(snap.res, m.offset(p.Position)) {
		switch {
		case l.Path == "":
			out = append(out, protocol.Location{URI: p.TextDocument.URI, Range: m.rangeOf(l.Span)})
		case isFileURI(p.TextDocument.URI):
			root := workspace.Root(p.TextDocument.URI.FsPath())
			out = append(out, protocol.Location{URI: uri.File(filepath.Join(root, filepath.FromSlash(l.Path)))})
		}
	}
	return out, nil
}

func isFileURI(u uri.URI) bool { return len(u) > 7 && string(u[:7]) == "file://" }
