package engine

import (
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/packet/governance"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/markdown"
)

// Kind is a kind of document baton knows, as one value: the analyzers
// that check it and the editor features computed on it, both in the kind's
// own packages. The registry, the server's dispatch and the docs read
// these values, and markdown.Parse tries their detectors in this order;
// adding a kind is adding one here (and its Kind constant and name in
// analysis).
type Kind struct {
	Kind markdown.Kind
	// Detect recognises a document of the kind by its text, and says what
	// decided it; markdown.Parse tries the kinds' detectors in the order of
	// Kinds. Confirm recognises from the environment one the text alone
	// did not (analysis.Detector).
	Detect    func(*markdown.Document) (string, markdown.Span, bool)
	Confirm   func(*markdown.Document, analysis.Env) (string, markdown.Span, bool)
	Analyzers []*analysis.Analyzer
	Features  *analysis.Features
}

// Kinds are the document kinds, in the order their analyzers are listed.
// Stop intent is the cross-kind analysis of stop messages: it runs on
// packets, on the packet model (its Requires), and its features are the
// stop packet's.
var Kinds = []Kind{
	// A handoff document quotes packet headings: it is recognised first.
	{Kind: markdown.KindHandoff, Detect: handoff.Detect, Analyzers: []*analysis.Analyzer{handoff.Analyzer}, Features: handoff.Features},
	{Kind: markdown.KindPacket, Detect: packet.Detect, Analyzers: []*analysis.Analyzer{packet.Analyzer, governance.Analyzer, stopintent.Analyzer}, Features: stopintent.Features},
	{Kind: markdown.KindWorkflow, Detect: workflow.Detect, Confirm: workflow.Confirm, Analyzers: []*analysis.Analyzer{workflow.Analyzer}, Features: workflow.Features},
}

func init() {
	ds := make([]markdown.Detector, len(Kinds))
	var cs []analysis.Confirmer
	for i, k := range Kinds {
		ds[i] = markdown.Detector{Kind: k.Kind, Detect: k.Detect}
		if k.Confirm != nil {
			cs = append(cs, analysis.Confirmer{Kind: k.Kind, Confirm: k.Confirm})
		}
	}
	markdown.SetDetectors(ds)
	analysis.SetConfirmers(cs)
}

// Analyzers lists every analyzer: each kind's, then the registry's own
// rules that apply to every document (suppression comments, limits,
// internal errors). The order does not matter: the registry runs each
// after those it requires.
func Analyzers() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, k := range Kinds {
		out = append(out, k.Analyzers...)
	}
	return append(out, analysis.SuppressionAnalyzer, analysis.LimitsAnalyzer, analysis.InternalErrorAnalyzer)
}

// Registry returns the registry of every rule baton ships, the one the CLI,
// the language server, the hooks and the docs use.
func Registry() *analysis.Registry {
	r, err := analysis.NewRegistry(Analyzers()...)
	if err != nil {
		panic(err) // a malformed built-in rule is a programming error, caught by the tests
	}
	return r
}

// FeaturesOf returns the editor features of a document kind, or nil for
// Markdown of no kind baton knows.
func FeaturesOf(k markdown.Kind) *analysis.Features {
	for i := range Kinds {
		if Kinds[i].Kind == k {
			return Kinds[i].Features
		}
	}
	return nil
}
