package server

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"sync"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The server reads the same .baton.yaml as `baton check`: the nearest one
// above a document. It polls the file and re-lints open documents when it
// changes; the client's settings apply on top of it. A broken file is shown
// to the user, never silently ignored.

type configFiles struct {
	mu    sync.Mutex
	files map[string]*loadedConfig // by path
	// shown holds the errors of looking for a file (a .baton.yaml that is
	// a folder, a named pipe, a dangling link) that the user was shown, so
	// that each is shown once, not at every analysis.
	shown map[string]bool
}

type loadedConfig struct {
	stamp fileStamp
	file  *config.File
	err   error
}

// configFor returns the configuration file of a document and a key that
// changes when the file does.
func (s *Server) configFor(u uri.URI) (*config.File, string) {
	if len(u) < 7 || string(u[:7]) != "file://" {
		return nil, ""
	}
	path, err := config.Discover(filepath.Dir(u.FsPath()))
	if err != nil {
		// baton check exits 2 here; the editor goes on with the defaults
		// and says why, as for a file that does not parse.
		s.showConfigError(err)
		return nil, "config error " + err.Error()
	}
	if path == "" {
		return nil, ""
	}
	s.watchFiles(path)
	st := stamp(path)
	cf := s.configs
	cf.mu.Lock()
	lc := cf.files[path]
	fresh := lc == nil || lc.stamp != st
	if fresh {
		lc = &loadedConfig{stamp: st}
		lc.file, lc.err = config.LoadWith(path, s.opts.Registry) // every problem at once
		cf.files[path] = lc
	}
	cf.mu.Unlock()
	if lc.err != nil {
		if fresh {
			s.tellConfigIgnored(lc.err)
		}
		return nil, fmt.Sprintf("config %s broken %v", path, st)
	}
	return lc.file, fmt.Sprintf("config %s %v", path, st)
}

// showConfigError tells the user, once per error, that the configuration
// could not be looked for.
func (s *Server) showConfigError(err error) {
	cf := s.configs
	cf.mu.Lock()
	seen := cf.shown[err.Error()]
	if !seen {
		if cf.shown == nil {
			cf.shown = map[string]bool{}
		}
		cf.shown[err.Error()] = true
	}
	cf.mu.Unlock()
	if !seen {
		s.tellConfigIgnored(err)
	}
}

// tellConfigIgnored logs a configuration the server does not use and shows
// the user why.
func (s *Server) tellConfigIgnored(err error) {
	s.log.Warn("configuration ignored", "err", err)
	_ = s.client.ShowMessage(context.Background(), &protocol.ShowMessageParams{
		Type:    protocol.MessageTypeError,
		Message: fmt.Sprintf("baton: %v (the file is not used until it is fixed)", err),
	})
}

// effective merges a document's configuration file with the client's
// settings, which win.
func effective(f *config.File, docPath string, client analysis.Config) (analysis.Config, config.Settings) {
	cfg, settings := f.For(docPath)
	if cfg.Severity == nil {
		cfg.Severity = map[string]analysis.Severity{}
	}
	maps.Copy(cfg.Severity, client.Severity)
	if cfg.Phrases == nil {
		cfg.Phrases = map[string][]string{}
	}
	for list, extra := range client.Phrases {
		cfg.Phrases[list] = append(cfg.Phrases[list], extra...)
	}
	return cfg, settings
}
