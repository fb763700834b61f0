package server

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// handler is what every message goes through. Notifications run inline on
// the read loop, so they are applied in wire order and a request sees every
// notification sent before it; requests other than the lifecycle ones then
// continue concurrently. No error from a notification reaches jsonrpc2,
// which would close the connection, and no panic escapes.
func (s *Server) handler() jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("handler panic", "method", req.Method(), "panic", p, "stack", string(debug.Stack()))
				result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error handling %q", req.Method())
			}
			if !req.IsCall() && err != nil {
				s.log.Warn("notification failed", "method", req.Method(), "err", err)
				result, err = nil, nil
			}
		}()
		return s.dispatch(ctx, req)
	}
}

type requestHandler func(ctx context.Context, params []byte) (any, error)

func (s *Server) requests() map[string]requestHandler {
	return map[string]requestHandler{
		protocol.MethodTextDocumentDiagnostic:     decoded(s.pullDiagnostics),
		protocol.MethodTextDocumentHover:          decoded(s.hover),
		protocol.MethodTextDocumentDocumentSymbol: decoded(s.documentSymbols),
		protocol.MethodTextDocumentFoldingRange:   decoded(s.foldingRanges),
		protocol.MethodTextDocumentCodeAction:     decoded(s.codeActions),
		protocol.MethodTextDocumentCodeLens:       decoded(s.codeLens),
		protocol.MethodTextDocumentCompletion:     decoded(s.completion),
		protocol.MethodTextDocumentDefinition:     decoded(s.definition),
	}
}

func (s *Server) notifications() map[string]func(ctx context.Context, params []byte) error {
	return map[string]func(ctx context.Context, params []byte) error{
		protocol.MethodInitialized:                     s.initialized,
		protocol.MethodWorkspaceDidChangeWatchedFiles:  decodedNote(s.didChangeWatchedFiles),
		protocol.MethodCancelRequest:                   s.cancelRequest,
		protocol.MethodSetTrace:                        decodedNote(s.setTrace),
		protocol.MethodTextDocumentDidOpen:             decodedNote(s.didOpen),
		protocol.MethodTextDocumentDidChange:           decodedNote(s.didChange),
		protocol.MethodTextDocumentDidSave:             decodedNote(s.didSave),
		protocol.MethodTextDocumentDidClose:            decodedNote(s.didClose),
		protocol.MethodWorkspaceDidChangeConfiguration: decodedNote(s.didChangeConfiguration),
	}
}

func (s *Server) dispatch(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := strings.Clone(req.Method()) // the request's bytes are reused once it goes async
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()

	if method == protocol.MethodExit {
		s.exit()
		return nil, nil
	}
	if !req.IsCall() {
		if state != initialized {
			return nil, nil // the specification says to drop them
		}
		if f, ok := s.notes[method]; ok {
			return nil, f(ctx, req.Params())
		}
		return nil, nil // unknown notifications ($/…, or newer than us) are ignored
	}

	switch {
	case method == protocol.MethodInitialize:
		if state != uninitialized {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
		}
		return s.initialize(req.Params())
	case state == uninitialized:
		return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized: send initialize first")
	case state == shutDown:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted")
	case method == protocol.MethodShutdown:
		s.shutdown(ctx, idKey(req.ID()))
		return nil, nil
	}
	h, ok := s.reqs[method]
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %q", method) // quoted: a method name that is not UTF-8 must not make the reply invalid JSON
	}
	// Request contexts are recycled once the handler returns, so the
	// cancellable context is derived from the connection's instead.
	rctx, cancel := context.WithCancel(jsonrpc2.DetachContext(ctx))
	defer cancel()
	key := idKey(req.ID())
	s.mu.Lock()
	s.inflight[key] = cancel
	s.unanswered[key] = true // until its response is written; see exit
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
	}()
	params := append([]byte(nil), req.Params()...)
	s.requestsWG.Add(1)
	defer s.requestsWG.Done()
	jsonrpc2.Async(ctx)
	res, err := h(rctx, params)
	if err == nil && rctx.Err() != nil {
		return nil, protocol.ErrRequestCancelled
	}
	return res, err
}

// decoded adapts a typed request handler: params that don't decode get
// InvalidParams.
func decoded[P any, R any](f func(context.Context, *P) (R, error)) requestHandler {
	return func(ctx context.Context, raw []byte) (any, error) {
		var p P
		if len(raw) == 0 {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "missing params")
		}
		if err := protocol.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
		}
		return f(ctx, &p)
	}
}

func decodedNote[P any](f func(context.Context, *P) error) func(context.Context, []byte) error {
	return func(ctx context.Context, raw []byte) error {
		var p P
		if err := protocol.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("invalid params: %w", err)
		}
		return f(ctx, &p)
	}
}

// cancelRequest cancels an in-flight request; one already answered, or
// unknown, is ignored.
func (s *Server) cancelRequest(ctx context.Context, raw []byte) error {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid $/cancelRequest params: %w", err)
	}
	var key string
	var n int64
	var str string
	switch {
	case json.Unmarshal(p.ID, &n) == nil:
		key = idKey(jsonrpc2.NewNumberID(n))
	case json.Unmarshal(p.ID, &str) == nil:
		key = idKey(jsonrpc2.NewStringID(str))
	default:
		return fmt.Errorf("$/cancelRequest: id %s is neither a number nor a string", p.ID)
	}
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

// idKey tells number and string IDs apart (7 and "7" are different requests).
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }
