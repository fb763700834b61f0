package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// settings are what a client may set, in initializationOptions or in
// workspace/didChangeConfiguration under "baton":
//
//	{"debounce": 150, "diagnostics": "auto", "severity": {"packet/heading-level": "off"},
//	 "phrases": {"held": ["on ice"]}, "stateDir": "/home/me/.local/state/clio-coder"}
//
// debounce is in milliseconds; diagnostics is how they reach the client:
// "push", "pull", "both", or "auto" (pull when the client supports it,
// else push); phrases extends the packet phrase lists by name; stateDir is
// where clio-coder's sessions are looked for first.
type settings struct {
	debounce time.Duration
	mode     string
	config   analysis.Config
	stateDir string // clio-coder's state folder, looked in before the default ones
	gen      int    // bumped on every change, so cached results and pull result IDs go stale
}

func defaultSettings() settings {
	return settings{debounce: DefaultDebounce, mode: "auto"}
}

type rawSettings struct {
	Debounce    *float64            `json:"debounce"`
	Diagnostics *string             `json:"diagnostics"`
	Severity    map[string]string   `json:"severity"`
	Phrases     map[string][]string `json:"phrases"`
	StateDir    *string             `json:"stateDir"`
}

// merge applies the settings in raw (either bare or under a "baton" key).
// Nothing is changed when any part is invalid.
func (st *settings) merge(raw []byte) error {
	var wrapped struct {
		Baton *rawSettings `json:"baton"`
	}
	var r rawSettings
	if err := json.Unmarshal(raw, &wrapped); err == nil && wrapped.Baton != nil {
		r = *wrapped.Baton
	} else if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	next := *st
	if r.Debounce != nil {
		if *r.Debounce < 0 || *r.Debounce > 10_000 {
			return fmt.Errorf("settings: debounce %v ms is outside 0–10000", *r.Debounce)
		}
		next.debounce = time.Duration(*r.Debounce * float64(time.Millisecond))
	}
	if r.Diagnostics != nil {
		switch *r.Diagnostics {
		case "auto", "push", "pull", "both":
			next.mode = *r.Diagnostics
		default:
			return fmt.Errorf("settings: diagnostics %q is not auto, push, pull or both", *r.Diagnostics)
		}
	}
	if r.Severity != nil {
		next.config.Severity = map[string]analysis.Severity{}
		for id, name := range r.Severity {
			sev, err := analysis.ParseSeverity(name)
			if err != nil {
				return fmt.Errorf("settings: rule %s: %w", id, err)
			}
			next.config.Severity[id] = sev
		}
	}
	if r.StateDir != nil {
		next.stateDir = *r.StateDir
	}
	if r.Phrases != nil {
		for name := range r.Phrases {
			if _, ok := packet.DefaultPhrases[name]; !ok {
				return fmt.Errorf("settings: there is no phrase list %q", name)
			}
		}
		next.config.Phrases = r.Phrases
	}
	next.gen++
	*st = next
	return nil
}

func (s *Server) didChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	if len(p.Settings) == 0 || string(p.Settings) == "null" {
		return nil
	}
	s.mu.Lock()
	err := s.settings.merge(p.Settings)
	var uris []uri.URI
	for u := range s.docs {
		uris = append(uris, u)
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	for _, u := range uris {
		s.analyzeNow(u)
	}
	return nil
}
