package server

import (
	"context"
	"fmt"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/workspace"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The server reads two pieces of state besides documents: a specrew
// project's .specrew/ files (pending verdict, authorization, loop guard),
// for the stop intent of stop packets, found by walking up from the
// document's folder to the first folder holding .specrew/; and clio-coder's
// session store for handoff documents (ledger.go).

// newEngine is the server's engine: the environment baton check, the hooks
// and classify build, read the server's way — the .baton.yaml it polls and
// shows errors of, the session store it watches, bundle caches that notice
// changed files, and open documents in place of their files.
func (s *Server) newEngine() *engine.Engine {
	return engine.New(engine.Sources{
		Registry: s.opts.Registry,
		Config: func(path string) (*config.File, error) {
			f, _ := s.configFor(uri.File(path)) // a broken file is shown to the user and not used
			return f, nil
		},
		Ledger:   s.resolver,
		LiveDirs: true, // bundles and specrew workspaces, one per root, kept by the engine
	})
}

// envFor returns what the environment knows about a document, a key that
// changes when that knowledge does, and its configuration file.
func (s *Server) envFor(u uri.URI) (analysis.Env, string, *config.File) {
	s.ledgers.mu.Lock()
	gen := s.ledgers.gen
	s.ledgers.mu.Unlock()
	req := engine.Request{Untitled: len(u) < 7 || string(u[:7]) != "file://"}
	if !req.Untitled {
		req.Path = u.FsPath()
		// Workflow components resolve against the workspace, open
		// documents as the editor has them.
		req.Overlay = func(root string) map[string]string {
			s.mu.Lock()
			defer s.mu.Unlock()
			overlay := map[string]string{}
			for _, d := range s.docs {
				if rel, ok := workspace.Inside(root, d.path); ok {
					overlay[rel] = d.text
				}
			}
			return overlay
		}
	}
	env, err := s.engine.Env(req)
	if err != nil {
		s.log.Warn("environment", "uri", u, "err", err)
		return analysis.Env{}, fmt.Sprintf("env error %v", err), nil
	}
	s.mu.Lock()
	wgen := s.workflowGen
	s.mu.Unlock()
	return env.Analysis(), fmt.Sprintf("sessions %d workflow %d %s", gen, wgen, env.Key()), env.File
}

// didChangeWatchedFiles re-analyses every open document when workspace state
// changes (the client watches .specrew/ for us when it can).
func (s *Server) didChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	var uris []uri.URI
	for u := range s.docs {
		uris = append(uris, u)
	}
	s.mu.Unlock()
	for _, u := range uris {
		s.analyzeNow(u)
	}
	return nil
}

// watchWorkspaceState asks the client to watch .specrew/, when it supports
// registering watchers. It runs off the read loop: it waits for the client.
func (s *Server) watchWorkspaceState() {
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
		Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/.specrew/**")}},
	})
	if err != nil {
		return
	}
	err = s.client.RegisterCapability(context.Background(), &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "baton-specrew-state", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
	}}})
	if err != nil {
		s.log.Warn("could not register a watcher for .specrew/", "err", err)
	}
}
