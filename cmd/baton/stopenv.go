package main

import (
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
)

// stopEnv is what the stop hook and `baton classify` read a stop message
// with: the environment every entry point builds (engine.Env) for a
// document at the message's place — the rules and phrases of the nearest
// .baton.yaml, the specrew workspace's state, sessions, workflow files —
// so a message gets there the findings `baton check` gives it.
type stopEnv struct {
	eng     *engine.Engine
	reg     *analysis.Registry
	root    string // the specrew workspace root; "" when there is none
	session string // the conformance session folder whose state is read
	state   stopintent.State
	env     *engine.Env
}

// newStopEnv builds the environment for the document named name (a path;
// its configuration is the one found above it, as for baton check). root
// is the specrew workspace to read ("" for the one above name, if any);
// session the conformance session whose guard is read. A configuration
// that cannot be read or is invalid is an error.
func newStopEnv(name, root, sessionDir string) (*stopEnv, error) {
	reg := engine.Registry()
	store := session.NewStore()
	eng := engine.New(engine.Sources{
		Registry: reg,
		Ledger:   func(fromConfig string) handoff.Resolver { return resolverWith(store, fromConfig) },
	})
	env, err := eng.Env(engine.Request{Path: name, Session: sessionDir, SpecrewRoot: root})
	if err != nil {
		return nil, err
	}
	e := &stopEnv{eng: eng, reg: reg, root: env.SpecrewRoot, session: sessionDir, env: env}
	if env.Specrew != nil {
		e.state = *env.Specrew
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
	return doc, e.eng.AnalyzeDoc(e.env, doc)
}

// specrewRootAbove returns the first directory from dir up that holds a
// .specrew directory, or "".
func specrewRootAbove(dir string) string { return engine.SpecrewRoot(dir) }
