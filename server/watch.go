package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/internal/workspace"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The server reads two pieces of state besides documents: a specrew
// project's .specrew/ files (pending verdict, authorization, loop guard),
// for the stop intent of stop packets, found by walking up from the
// document's folder to the first folder holding .specrew/; and clio-coder's
// session store for handoff documents (ledger.go).

// envFor returns what the environment knows about a document, a key that
// changes when that knowledge does, and its configuration file.
func (s *Server) envFor(u uri.URI) (analysis.Env, string, *config.File) {
	s.ledgers.mu.Lock()
	gen := s.ledgers.gen
	s.ledgers.mu.Unlock()
	f, cfgKey := s.configFor(u)
	var stateDir string
	if f != nil && len(u) > 7 {
		_, settings := f.For(u.FsPath())
		stateDir = settings.StateDir
	}
	env := analysis.Env{handoff.EnvLedger: s.resolver(stateDir)}
	key := fmt.Sprintf("sessions %d %s", gen, cfgKey)
	if len(u) < 7 || string(u[:7]) != "file://" {
		return env, key, f
	}
	// Workflow components resolve against the workspace, open documents
	// as the editor has them.
	root := workspace.RootFor(u.FsPath(), f.ComponentDirsBase())
	s.mu.Lock()
	overlay := map[string]string{}
	for _, d := range s.docs {
		if rel, ok := workspace.Inside(root, d.path); ok {
			overlay[rel] = d.text
		}
	}
	wgen := s.workflowGen
	dirs := s.wfDirs[root]
	if dirs == nil {
		dirs = workflow.NewLiveDirs()
		s.wfDirs[root] = dirs
	}
	s.mu.Unlock()
	env[workflow.EnvFS] = workspace.FS(root, overlay)
	env[workflow.EnvDirs] = dirs
	env[workflow.EnvPath] = workspace.Rel(root, u.FsPath())
	f.AddWorkflowEnv(env, root)
	key += fmt.Sprintf(" workflow %d", wgen)
	root = s.specrewRoot(filepath.Dir(u.FsPath()))
	if root == "" {
		return env, key, f
	}
	s.mu.Lock()
	ws := s.workspaces[root]
	if ws == nil {
		ws = stopintent.NewWorkspace(root)
		s.workspaces[root] = ws
	}
	s.mu.Unlock()
	st := ws.State("") // re-reads only files that changed
	env[stopintent.EnvWorkspace] = st
	return env, key + fmt.Sprintf(" %v", st), f
}

// specrewRoot is the nearest folder at or above dir that holds .specrew/,
// or "".
func (s *Server) specrewRoot(dir string) string {
	for d := dir; ; {
		if fi, err := os.Stat(filepath.Join(d, ".specrew")); err == nil && fi.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
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
