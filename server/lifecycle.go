package server

import (
	"slices"

	"github.com/baton-md/baton/analysis"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func (s *Server) initialize(raw []byte) (*protocol.InitializeResult, error) {
	var p protocol.InitializeParams
	if len(raw) > 0 {
		if err := protocol.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid initialize params: %v", err)
		}
	}
	enc, encName := analysis.UTF16, protocol.PositionEncodingKindUTF16
	if g := p.Capabilities.General; g != nil && slices.Contains(g.PositionEncodings, protocol.PositionEncodingKindUTF8) {
		enc, encName = analysis.UTF8, protocol.PositionEncodingKindUTF8
	}
	clientPull := p.Capabilities.TextDocument != nil && p.Capabilities.TextDocument.Diagnostic != nil

	st := defaultSettings()
	if len(p.InitializationOptions) > 0 {
		if err := st.merge(p.InitializationOptions); err != nil {
			s.log.Warn("ignoring initializationOptions", "err", err)
		}
	}

	s.mu.Lock()
	s.state = initialized
	s.enc = enc
	s.settings = st
	s.clientPull = clientPull
	s.mu.Unlock()

	change := protocol.TextDocumentSyncKindIncremental
	result := &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: encName,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: ptr(true),
				Change:    &change,
				Save:      &protocol.SaveOptions{IncludeText: ptr(false)},
			},
			HoverProvider:          protocol.Boolean(true),
			DocumentSymbolProvider: protocol.Boolean(true),
			FoldingRangeProvider:   protocol.Boolean(true),
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
			DiagnosticProvider: &protocol.DiagnosticOptions{
				Identifier:            ptr("baton"),
				InterFileDependencies: false,
				WorkspaceDiagnostics:  false,
			},
		},
		ServerInfo: protocol.ServerInfo{Name: "baton", Version: protocol.NewOptional(s.opts.Version)},
	}
	return result, nil
}

func (s *Server) shutdown() {
	s.mu.Lock()
	s.state = shutDown
	s.mu.Unlock()
	s.stopTimers()
}

// exit ends the connection; the exit code says whether shutdown came first.
func (s *Server) exit() {
	s.mu.Lock()
	if s.exited {
		s.mu.Unlock()
		return
	}
	s.exited = true
	if s.state == shutDown {
		s.exitCode = 0
	}
	s.mu.Unlock()
	s.stopTimers()
	go s.conn.Close() // Close waits for handlers, this one included
}

func ptr[T any](v T) *T { return &v }
