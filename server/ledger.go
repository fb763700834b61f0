package server

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"go.lsp.dev/uri"
)

// The server reads clio-coder's session store for handoff documents: the
// session named in a document, found in the state folders (the settings'
// stateDir first, then clio's documented order). It watches the session
// files of open handoff documents itself, since they live outside the
// workspace, and re-lints those documents when a session changes.

// ledgers holds the store and what is being watched.
type ledgers struct {
	store *session.Store

	mu      sync.Mutex
	gen     int                  // bumped whenever a watched session file changes
	watched map[string]fileStamp // session files (current.jsonl, meta.json) → last seen
}

type fileStamp struct {
	size int64
	mod  time.Time
}

func stamp(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{size: -1}
	}
	return fileStamp{fi.Size(), fi.ModTime()}
}

// stateDirs is where sessions are looked for: the client's stateDir
// setting, the configuration file's, then clio-coder's documented ones.
func (s *Server) stateDirs(fromConfig string) []string {
	s.mu.Lock()
	dir := s.settings.stateDir
	s.mu.Unlock()
	home, _ := os.UserHomeDir()
	var dirs []string
	for _, d := range []string{dir, fromConfig} {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return append(dirs, session.DefaultStateDirs(os.Getenv, runtime.GOOS, home)...)
}

// resolver finds and reads a session for the handoff analyzer, and starts
// watching its files.
func (s *Server) resolver(fromConfig string) handoff.Resolver {
	return engine.Sessions(s.ledgers.store, func() []string { return s.stateDirs(fromConfig) }, s.watch)
}

func (s *Server) watch(dir string) {
	s.watchFiles(filepath.Join(dir, "current.jsonl"), filepath.Join(dir, "meta.json"))
}

// watchFiles adds files to those polled for changes.
func (s *Server) watchFiles(files ...string) {
	lg := s.ledgers
	lg.mu.Lock()
	defer lg.mu.Unlock()
	for _, f := range files {
		if _, ok := lg.watched[f]; !ok {
			lg.watched[f] = stamp(f)
		}
	}
}

// pollSessions re-lints open handoff documents when a watched session file
// changes, and every open document when a configuration file does. It runs
// until the server stops.
func (s *Server) pollSessions(stop <-chan struct{}) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		lg := s.ledgers
		changed, configChanged := false, false
		lg.mu.Lock()
		for f, old := range lg.watched {
			if now := stamp(f); now != old {
				lg.watched[f] = now
				changed = true
				configChanged = configChanged || filepath.Base(f) == config.FileName
			}
		}
		if changed {
			lg.gen++
		}
		lg.mu.Unlock()
		if !changed {
			continue
		}
		s.mu.Lock()
		var uris []uri.URI
		for u, d := range s.docs {
			if configChanged || d.kind == markdown.KindHandoff {
				uris = append(uris, u)
			}
		}
		s.mu.Unlock()
		for _, u := range uris {
			s.analyzeNow(u)
		}
	}
}
