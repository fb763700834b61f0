// Package mcpserver is baton's Model Context Protocol server: the checks an
// agent calls while it writes its stop message or its handoff, so that it
// gets them right before the stop hook or the person sees them.
//
// Every tool analyses in the environment every other entry point builds
// (engine.Env, through stoppolicy.NewEnv for stop messages, as the stop
// hooks do): the same text in the same workspace gets the findings `baton
// check`, the editor and the hooks give it. The server reads the
// documents it is asked about (inside its workspace only), the
// configuration, specrew state and workflow components they need, and
// clio-coder's session files a handoff names; it writes nothing.
package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/heapbudget"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/internal/workspace"
)

// MaxFrameBytes bounds one message (one line) from the client. A text
// argument is analysed up to markdown.MaxDocumentBytes, as a file is; the
// line leaves room for JSON's escaping of such a text. A longer line is
// answered with an invalid request, its rest read and dropped rather than
// held (Transport).
const MaxFrameBytes = 4*markdown.MaxDocumentBytes + 1<<20

// inFlightBytes bounds the text analysed at once across concurrent calls:
// an analysis holds about 7 bytes per byte of text at its peak, and the
// collector is paced to the text in flight (internal/heapbudget).
const inFlightBytes = 2 * markdown.MaxDocumentBytes

// maxCalls bounds the analyses run at once: half the processors Go may
// use, at least one. An analysis takes a processor, so an agent that
// sends several large calls at once waits for them rather than the
// machine for everything else (the host, the editor, the build).
func maxCalls() int64 { return int64(max(1, runtime.GOMAXPROCS(0)/2)) }

// Options configure a server.
type Options struct {
	// Root is the workspace: documents are read, and stop messages and
	// texts are placed, only inside it. "" is the working folder's
	// workspace (Workspace).
	Root string
	// StateDir is clio-coder's state folder, looked in first for the
	// session a handoff names (as check --state-dir).
	StateDir string
	// Version is reported to the client.
	Version string
	// Logger receives the SDK's log; nil discards it.
	Logger *slog.Logger
}

// Server is baton's MCP server.
type Server struct {
	root     string // absolute, links resolved
	stateDir string
	reg      *analysis.Registry
	store    *session.Store
	mcp      *mcp.Server
	budget   *semaphore.Weighted // bytes of text, inFlightBytes
	calls    *semaphore.Weighted // analyses, maxCalls

	// hold, when set (by a test), is called at the start of every tool
	// call with its context, before any work.
	hold func(ctx context.Context)
	// analysing, when set (by a test), is called as an analysis starts,
	// holding its place among the maxCalls.
	analysing func()
}

// Workspace is the workspace of a server started in dir: the nearest
// folder at or above it holding .git or .baton.yaml (the project a host
// started the server in, from any of its folders), else dir itself.
func Workspace(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if workspace.Marked(d) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}

// New returns a server over the workspace o.Root.
func New(o Options) (*Server, error) {
	root := o.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if root, err = Workspace(wd); err != nil {
			return nil, err
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", abs, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("workspace %s is not a folder", abs)
	}
	s := &Server{
		root:     real,
		stateDir: o.StateDir,
		reg:      engine.Registry(),
		store:    session.NewStore(),
		budget:   semaphore.NewWeighted(inFlightBytes),
		calls:    semaphore.NewWeighted(maxCalls()),
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "baton", Title: "baton", Version: cmp.Or(o.Version, "devel")}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       logger,
	})
	s.addTools()
	return s, nil
}

// Root is the workspace the server reads in.
func (s *Server) Root() string { return s.root }

// MCP is the SDK's server, for connecting it to a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	heapbudget.Enable() // the collector paced to the documents in flight (work)
	return s.mcp.Run(ctx, t)
}

const instructions = `baton checks the Markdown agents hand each other: stop messages (specrew's stop packets), clio-coder handoff documents and XMD workflows. Before you end your turn, call check_stop with the final message you are about to send, fix what it reports, and send the message only when it says ready. Before you save a handoff, call check_handoff_files and check_document on it. explain_rule says what a rule wants.`

// engine is the engine of one call: built afresh, so that a configuration
// or a workspace file edited since the last call is read as it is now (an
// engine keeps what it reads). The session store is shared: it rereads a
// session whose files changed.
func (s *Server) engine() *engine.Engine {
	return engine.ForFiles(engine.FilesOptions{Registry: s.reg, Store: s.store, StateDir: s.stateDir})
}

// errOutside is wrapped by the error for a path outside the workspace.
var errOutside = errors.New("outside the workspace")

// resolve is the absolute path p names (relative to the workspace), its
// links resolved, refusing one outside the workspace. The path need not
// exist: a text may be placed where no file is yet.
func (s *Server) resolve(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q holds a NUL byte", p)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	p = filepath.Clean(p)
	real, err := realPath(p)
	if err != nil {
		return "", err
	}
	if real != s.root {
		if _, ok := workspace.Inside(s.root, real); !ok {
			return "", s.outside(p)
		}
	}
	return real, nil
}

// outside is the error for path p, outside the workspace.
func (s *Server) outside(p string) error {
	return fmt.Errorf("%s is %w %s: this server reads only inside it (give a path inside it, or the text itself)", p, errOutside, s.root)
}

// realPath is p with the links of its longest existing prefix resolved.
func realPath(p string) (string, error) {
	var rest []string
	for d := p; ; {
		r, err := filepath.EvalSymlinks(d)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("resolve %s: %w", p, err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return p, nil
		}
		rest = append([]string{filepath.Base(d)}, rest...)
		d = parent
	}
}

// rel is p as the workspace names it.
func (s *Server) rel(p string) string {
	if r, ok := workspace.Inside(s.root, p); ok {
		return r
	}
	return p
}

// document is a document a tool was given: by path (read from the disk),
// by text, or both (the text placed at the path, as an editor's unsaved
// buffer).
type document struct {
	path string // absolute, inside the workspace
	name string // as messages call it
	text string
	// size is the file's size when it was over MaxDocumentBytes and not
	// read; 0 otherwise.
	size int64
}

// load reads what path and text give. defaultName places a text given
// alone (in the workspace root).
func (s *Server) load(path string, text *string, defaultName string) (*document, error) {
	if path == "" && text == nil {
		return nil, errors.New(`give "path" (a file inside the workspace) or "text" (the document itself)`)
	}
	d := &document{}
	p := path
	if p == "" {
		p = defaultName
	}
	abs, err := s.resolve(p)
	if err != nil {
		return nil, err
	}
	d.path, d.name = abs, s.rel(abs)
	if text != nil {
		d.text = *text
		return d, nil
	}
	// The check resolve made holds for the path as it was: a folder on it
	// swapped for a link outside since then would be followed by an open
	// of abs. The file is opened beneath the workspace instead, every
	// component resolved by the open itself.
	rel := "."
	if abs != s.root {
		rel, _ = workspace.Inside(s.root, abs)
		rel = filepath.FromSlash(rel)
	}
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", s.root, err)
	}
	defer root.Close()
	data, err := safefile.ReadFileIn(root, rel, markdown.MaxDocumentBytes)
	switch {
	case errors.Is(err, safefile.ErrTooLarge):
		fi, serr := root.Stat(rel)
		if serr != nil {
			return nil, err
		}
		d.size = fi.Size()
		return d, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no file at %s (paths are relative to the workspace %s)", path, s.root)
	case errors.Is(err, safefile.ErrOutside):
		return nil, s.outside(p)
	case err != nil:
		return nil, err
	}
	d.text = string(data)
	return d, nil
}

// weight is what analysing n bytes takes of the budget.
func weight(n int) int64 {
	return min(max(int64(n), 1), inFlightBytes)
}

// work runs f, the analysis of n bytes of text, once fewer than maxCalls
// analyses run and the budget has room for it, apart from the call: a
// cancelled call answers at once, and f's result is dropped (an analysis
// cannot be stopped half way; it writes nothing). Its place and its room
// are given back when f ends. A panic in f is an error, never the end of
// the server.
func work[T any](s *Server, ctx context.Context, n int, f func() (string, T, error)) (string, T, error) {
	var zero T
	if err := s.calls.Acquire(ctx, 1); err != nil {
		return "", zero, fmt.Errorf("cancelled: %w", err)
	}
	w := weight(n)
	if err := s.budget.Acquire(ctx, w); err != nil {
		s.calls.Release(1)
		return "", zero, fmt.Errorf("cancelled: %w", err)
	}
	type result struct {
		text string
		v    T
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			s.budget.Release(w)
			s.calls.Release(1)
			if p := recover(); p != nil {
				r.err = fmt.Errorf("internal error in baton (a bug: please report it): %v", p)
			}
			ch <- r
		}()
		if s.analysing != nil {
			s.analysing()
		}
		defer heapbudget.Admit(n)()
		r.text, r.v, r.err = f()
	}()
	select {
	case r := <-ch:
		return r.text, r.v, r.err
	case <-ctx.Done():
		return "", zero, fmt.Errorf("cancelled: %w", ctx.Err())
	}
}
