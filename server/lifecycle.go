package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/baton-md/baton/markdown"

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
	enc, encName := markdown.UTF16, protocol.PositionEncodingKindUTF16
	if g := p.Capabilities.General; g != nil && slices.Contains(g.PositionEncodings, protocol.PositionEncodingKindUTF8) {
		enc, encName = markdown.UTF8, protocol.PositionEncodingKindUTF8
	}
	clientPull := p.Capabilities.TextDocument != nil && p.Capabilities.TextDocument.Diagnostic != nil
	w := p.Capabilities.Workspace
	clientWatches := w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil && *w.DidChangeWatchedFiles.DynamicRegistration

	st := defaultSettings()
	if len(p.InitializationOptions) > 0 {
		if err := st.merge(p.InitializationOptions); err != nil {
			s.log.Warn("ignoring initializationOptions", "err", err)
		}
	}

	s.mu.Lock()
	s.state = initialized
	s.trace = traceValue(p.Trace)
	s.enc = enc
	s.settings = st
	s.clientPull = clientPull
	s.clientWatches = clientWatches
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
			DefinitionProvider:     protocol.Boolean(true),
			DocumentSymbolProvider: protocol.Boolean(true),
			FoldingRangeProvider:   protocol.Boolean(true),
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, protocol.CodeActionKindRefactorRewrite, fixAllKind},
			},
			CodeLensProvider: &protocol.CodeLensOptions{ResolveProvider: ptr(false)},
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{"#", "-", " ", "<"},
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

// shutdown refuses further requests, then waits for the requests and
// analyses already under way, so that their answers and diagnostics reach
// the client before it is told the server is done. Edits still waiting for
// their debounce are not analysed.
func (s *Server) initialized(context.Context, []byte) error {
	s.mu.Lock()
	watch := s.clientWatches
	s.mu.Unlock()
	if watch {
		go s.watchWorkspaceState() // a request to the client: not from the read loop
	}
	return nil
}

func (s *Server) shutdown(ctx context.Context, key string) {
	// The state changes before the read loop goes on, so that an exit
	// right behind sees it.
	s.mu.Lock()
	s.state = shutDown
	busy := len(s.inflight) > 0
	if busy {
		s.unanswered[key] = true
	}
	s.mu.Unlock()
	s.stopTimers()
	if busy {
		// The requests it waits for may need the read loop. Otherwise it
		// answers inline, before the next message is even read.
		jsonrpc2.Async(ctx)
	}
	s.requestsWG.Wait()
	s.wg.Wait()
}

// exit ends the connection; the exit code says whether shutdown came first.
// Closing refuses every later write, so it first waits (boundedly) until
// each request already answered by its handler has had its response
// written.
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
	deadline := time.AfterFunc(exitDrain, func() {
		s.mu.Lock()
		s.drained.Broadcast()
		s.mu.Unlock()
	})
	for start := time.Now(); len(s.unanswered) > 0 && time.Since(start) < exitDrain; {
		s.drained.Wait()
	}
	deadline.Stop()
	s.mu.Unlock()
	s.stopTimers()
	close(s.exitCh)
	go s.conn.Close() // Close waits for handlers, this one included
}

// exitDrain bounds how long exit waits for responses still being written.
const exitDrain = 5 * time.Second

// stream frames messages with Content-Length headers. It writes them
// itself, rather than through jsonrpc2's stream, to learn which response
// has been written (see exit).
type stream struct {
	jsonrpc2.Stream // for reading and closing
	w               io.Writer
	s               *Server
	mu              sync.Mutex
}

// Read returns the next message. A frame whose body is not JSON (-32700)
// or not a request, notification or response (-32600) is answered with an
// error whose id is null, as JSON-RPC 2.0 asks, and reading goes on: the
// framing is intact, so the stream is still usable. jsonrpc2 alone would end
// the connection. Errors of the framing itself (a bad header, a truncated
// body) still end it: the next message's start cannot be found.
func (st *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		msg, n, err := st.Stream.Read(ctx)
		var rpcErr *jsonrpc2.Error
		if err == nil || !errors.As(err, &rpcErr) || (rpcErr.Code != jsonrpc2.ParseError && rpcErr.Code != jsonrpc2.InvalidRequest) {
			return msg, n, err
		}
		st.s.log.Warn("malformed message answered with an error", "code", rpcErr.Code, "err", err)
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": rpcErr.Code, "message": rpcErr.Message}})
		st.mu.Lock()
		_, werr := fmt.Fprintf(st.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
		st.mu.Unlock()
		if werr != nil {
			return nil, 0, werr
		}
	}
}

func (st *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		return 0, err
	}
	st.mu.Lock()
	n, err := fmt.Fprintf(st.w, "Content-Length: %d\r\n\r\n", len(data))
	if err == nil {
		var m int
		m, err = st.w.Write(data)
		n += m
	}
	st.mu.Unlock()
	if key, ok := responseID(data); ok {
		st.s.mu.Lock()
		delete(st.s.unanswered, key)
		if len(st.s.unanswered) == 0 {
			st.s.drained.Broadcast()
		}
		st.s.mu.Unlock()
	}
	return int64(n), err
}

// responseID reads the ID of an encoded response: jsonrpc2 writes the id
// right after the version, and then "result" or "error".
func responseID(data []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(`{"jsonrpc":"2.0","id":`))
	if !ok {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	var id any
	if dec.Decode(&id) != nil {
		return "", false
	}
	after := rest[dec.InputOffset():]
	if !bytes.HasPrefix(after, []byte(`,"result"`)) && !bytes.HasPrefix(after, []byte(`,"error"`)) {
		return "", false
	}
	switch id := id.(type) {
	case float64:
		return idKey(jsonrpc2.NewNumberID(int64(id))), true
	case string:
		return idKey(jsonrpc2.NewStringID(id)), true
	}
	return "", false
}

func ptr[T any](v T) *T { return &v }
