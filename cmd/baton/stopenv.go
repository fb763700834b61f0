package main

import (
	"os"
	"path/filepath"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysis/suite"
	"github.com/baton-md/baton/config"
)

// stopEnv is what the stop hook and `baton classify` read a stop message
// with: the rules and phrases of the nearest .baton.yaml, found and applied
// as `baton check` does (config.Discover, loadConfig, File.For), and the
// specrew workspace's state.
type stopEnv struct {
	reg     *analysis.Registry
	cfg     analysis.Config
	root    string // the specrew workspace root; "" when there is none
	session string // the conformance session folder whose state is read
	state   stopintent.State
	env     analysis.Env
}

// newStopEnv builds the environment for the document named name (its
// configuration is the one File.For gives that path), looking for
// .baton.yaml from dir up. root is the specrew workspace ("" for none);
// session the conformance session whose guard is read. A configuration
// that cannot be read or is invalid is an error.
func newStopEnv(dir, name, root, session string) (*stopEnv, error) {
	e := &stopEnv{reg: suite.Registry(), root: root, session: session, env: analysis.Env{}}
	if dir != "" {
		path, err := config.Discover(dir)
		if err != nil {
			return nil, err
		}
		if path != "" {
			f, err := loadConfig(path, e.reg)
			if err != nil {
				return nil, err
			}
			e.cfg, _ = f.For(name)
		}
	}
	if root != "" {
		e.state = stopintent.NewWorkspace(root).State(session)
		e.env[stopintent.EnvWorkspace] = e.state
	}
	return e, nil
}

// analyze lints and classifies a stop message. A text that reads as
// ordinary Markdown (no packet headings, no marker) is still a stop
// message here: it is read as a packet of no sections, so that its
// questions and requests count as they would in a packet.
func (e *stopEnv) analyze(name, text string) (*analysis.Document, *analysis.Result) {
	doc := analysis.Parse(name, text)
	if doc.Kind == analysis.KindOther {
		doc.Kind = analysis.KindPacket
	}
	return doc, e.reg.AnalyzeEnv(doc, &e.cfg, e.env)
}

// specrewRootAbove returns the first directory from dir up that holds a
// .specrew directory, or "".
func specrewRootAbove(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
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
