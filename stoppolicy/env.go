package stoppolicy

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff/session"
)

// Env is what the stop hooks, `baton classify` and `baton audit` read a
// stop message with: the environment every entry point builds
// (engine.Env) for a document at the message's place — the rules and
// phrases of the nearest .baton.yaml, the specrew workspace's state,
// sessions, workflow files — so a message gets there the findings `baton
// check` gives it.
type Env struct {
	eng     *engine.Engine
	Root    string // the specrew workspace root; "" when there is none
	Session string // the conformance session folder whose state is read
	State   stopintent.State
	Env     *engine.Env
}

// NewEnv builds the environment for the document named name (a path;
// its configuration is the one found above it, as for baton check). root
// is the specrew workspace to read ("" for the one above name, if any);
// sessionDir the conformance session whose guard is read. A configuration
// that cannot be read or is invalid is an error.
func NewEnv(name, root, sessionDir string) (*Env, error) {
	eng := engine.ForFiles(engine.FilesOptions{Registry: engine.Registry(), Store: session.NewStore()})
	env, err := eng.Env(engine.Request{Path: name, Session: sessionDir, SpecrewRoot: root})
	if err != nil {
		return nil, err
	}
	e := &Env{eng: eng, Root: env.SpecrewRoot, Session: sessionDir, Env: env}
	if env.Specrew != nil {
		e.State = *env.Specrew
	}
	return e, nil
}

// Analyze lints and classifies a stop message. A text that reads as
// ordinary Markdown (no packet headings, no marker) is still a stop
// message here: it is read as a packet of no sections, so that its
// questions and requests count as they would in a packet.
func (e *Env) Analyze(name, text string) (*markdown.Document, *analysis.Result) {
	doc := markdown.Parse(name, text)
	if doc.Kind == markdown.KindOther {
		doc.Kind = markdown.KindPacket
	}
	return doc, e.eng.AnalyzeDoc(e.Env, doc)
}

// Finding is a finding of baton's rules that blocks a stop (under --lint,
// or with a reason of the policy), on a line of the message.
type Finding struct {
	Line    int    `json:"line"` // 1-based
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

func (f Finding) String() string { return fmt.Sprintf("line %d: %s (%s)", f.Line, f.Message, f.Rule) }

// Judgement is what baton's rules say of one stop message: the findings
// that block, and the outcome stop intent gives the message.
type Judgement struct {
	Findings []Finding
	Outcome  stopintent.Outcome
	Result   *analysis.Result
}

// Blocking reports whether a finding blocks a stop: an error of the packet
// or stop-intent rules, or a marker that almost was one. A continue marker
// over a question does not: specrew's provider continues there.
func Blocking(f analysis.Finding) bool {
	return f.Severity == analysis.Error && (strings.HasPrefix(f.Rule, "packet/") || strings.HasPrefix(f.Rule, "stopintent/")) ||
		f.Rule == stopintent.RuleNearMiss.ID
}

// Judge analyses a stop message as a hook does. Like specrew's provider,
// the hooks track no async work: nothing is in flight but what an
// intermediate marker declares.
func (e *Env) Judge(msg string) Judgement { return e.judge(msg, nil) }

// judge analyses a stop message with the stop-intent inputs given (nil:
// a hook's, hookInputs). The environment is not changed.
func (e *Env) judge(msg string, inputs map[string]stopintent.Tri) Judgement {
	if inputs == nil {
		inputs = hookInputs()
	}
	env := *e.Env
	env.Overrides = inputs
	doc := markdown.Parse("last-message.md", msg)
	if doc.Kind == markdown.KindOther {
		doc.Kind = markdown.KindPacket
	}
	res := e.eng.AnalyzeDoc(&env, doc)
	j := Judgement{Outcome: stopintent.Real, Result: res}
	for _, f := range res.Findings {
		if Blocking(f) {
			p := doc.Lines.Position(f.Span.Start, markdown.UTF8)
			j.Findings = append(j.Findings, Finding{Line: p.Line + 1, Rule: f.Rule, Message: f.Message})
		}
	}
	if si, _ := res.Model(stopintent.Analyzer).(*stopintent.Model); si != nil && len(si.Stops) > 0 {
		j.Outcome = si.Stops[len(si.Stops)-1].Class.Outcome
	}
	return j
}
