// Package server is baton's language server: the LSP edge over the
// analysis engine. It is the only package that knows protocol types; the
// engine works in byte offsets and this package converts them to the
// position encoding negotiated with the client.
package server

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff/session"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// DefaultDebounce is how long the server waits after the last edit to a
// document before re-analysing it.
const DefaultDebounce = 150 * time.Millisecond

// DefaultDocsURL is where rule documentation lives; a rule's anchor is
// appended.
const DefaultDocsURL = "https://github.com/baton-md/baton/blob/main/docs/rules.md"

// Options configure a server.
type Options struct {
	Registry *analysis.Registry
	Version  string       // reported in serverInfo
	Logger   *slog.Logger // nil discards logs
	DocsURL  string       // rule documentation; DefaultDocsURL when empty
}

// Server holds the state of one client connection.
type Server struct {
	opts   Options
	log    *slog.Logger
	conn   jsonrpc2.Conn
	client protocol.Client
	reqs   map[string]requestHandler
	texts  textBlocks // the opened documents' texts, packed (texts.go)
	notes  map[string]func(ctx context.Context, params []byte) error

	mu       sync.Mutex
	state    lifecycle
	enc      markdown.Encoding
	settings settings
	trace    protocol.TraceValue // initialize's trace, then $/setTrace: whether to send $/logTrace
	// clientPull: the client asked for diagnostics itself (pull), so by
	// default they are not also pushed, which would show them twice.
	clientPull bool
	// clientWatches: the client can watch files for us (dynamic registration).
	clientWatches bool
	engine        *engine.Engine // the environment every entry point builds (watch.go)
	ledgers       *ledgers       // clio-coder sessions of handoff documents
	configs       *configFiles   // .baton.yaml files, by path
	// workflowGen counts edits to open workflow documents: a component's
	// change re-lints the documents that call it.
	workflowGen int
	analyses    chan struct{} // a slot for each analysis running off the read loop
	docs        map[uri.URI]*document
	recent      []uri.URI // the documents whose analysis is kept, the latest used first (results.go)
	exitCode    int
	exited      bool
	inflight    map[string]context.CancelFunc // requests being handled, by ID
	// unanswered holds the requests handled off the read loop whose
	// response is not yet written; drained is signalled as it empties.
	unanswered map[string]bool
	drained    *sync.Cond
	exitCh     chan struct{} // closed by exit

	wg         sync.WaitGroup // background analyses
	requestsWG sync.WaitGroup // requests being handled concurrently
}

type lifecycle int

const (
	uninitialized lifecycle = iota
	initialized             // initialize answered
	shutDown                // shutdown answered; only exit is accepted
)

// Run serves one client over r and w (standard input and output for
// `baton serve`) until the client sends exit or closes the stream. It
// returns the process exit code the LSP specification asks for: 0 after
// shutdown then exit, 1 otherwise.
func Run(ctx context.Context, r io.Reader, w io.Writer, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.DocsURL == "" {
		opts.DocsURL = DefaultDocsURL
	}
	if opts.Registry != nil {
		// An analyzer's panic becomes a diagnostic; its stack goes to our log.
		opts.Registry = opts.Registry.WithLogger(opts.Logger)
	}
	s := &Server{
		opts:     opts,
		log:      opts.Logger,
		docs:     map[uri.URI]*document{},
		settings: defaultSettings(),
		exitCode: 1,
		inflight: map[string]context.CancelFunc{},

		ledgers:  &ledgers{store: session.NewStore(), watched: map[string]fileStamp{}},
		configs:  &configFiles{files: map[string]*loadedConfig{}},
		analyses: make(chan struct{}, runtime.GOMAXPROCS(0)),

		unanswered: map[string]bool{},
		exitCh:     make(chan struct{}),
	}
	s.engine = s.newEngine()
	s.drained = sync.NewCond(&s.mu)
	s.reqs, s.notes = s.requests(), s.notifications()
	s.conn = jsonrpc2.NewConn(&stream{Stream: jsonrpc2.NewStream(stdio{r, w}), w: w, s: s}, jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(s.conn)
	ctx = protocol.WithClient(ctx, s.client)
	s.conn.Go(ctx, s.handler())
	stopPolling := make(chan struct{})
	polled := make(chan struct{})
	go func() { s.pollSessions(stopPolling); close(polled) }()
	defer func() { close(stopPolling); <-polled }()
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
		go s.conn.Close()
		s.awaitClose()
	case <-s.exitCh:
		s.awaitClose() // exit started Close
	}
	s.stopTimers()
	s.wg.Wait()
	if err := s.conn.Err(); err != nil {
		s.log.Error("connection ended", "err", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

// awaitClose waits for the connection to end after Close, boundedly: Close
// waits for the read loop, and a read blocked on a file that closing cannot
// interrupt (a process's standard input, whose client has not closed it)
// never returns. The process exits anyway; only that read is left behind.
func (s *Server) awaitClose() {
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case <-s.conn.Done():
	case <-t.C:
		s.log.Debug("connection still reading after close; not waiting")
	}
}

// closeGrace bounds awaitClose.
const closeGrace = 500 * time.Millisecond

// stdio joins a reader and a writer into the stream jsonrpc2 needs.
type stdio struct {
	io.Reader
	io.Writer
}

func (s stdio) Close() error {
	var err error
	if c, ok := s.Reader.(io.Closer); ok {
		err = c.Close()
	}
	if c, ok := s.Writer.(io.Closer); ok {
		if e := c.Close(); err == nil {
			err = e
		}
	}
	return err
}

// codec encodes with the protocol package, which understands its union
// types; jsonrpc2's raw messages pass through untouched.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}
