// Package suite assembles every analyzer baton ships into one registry, the
// one the CLI, the language server and the docs use.
package suite

import (
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/handoff"
)

// Analyzers lists every analyzer. The order does not matter: the registry
// runs each after those it requires, and the registry's own rules
// (suppression, limits, internal errors) apply after every analyzer ran.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{packet.Analyzer, stopintent.Analyzer, handoff.Analyzer, workflow.Analyzer,
		analysis.SuppressionAnalyzer, analysis.LimitsAnalyzer, analysis.InternalErrorAnalyzer}
}

// Registry returns the registry of every rule baton ships.
func Registry() *analysis.Registry {
	r, err := analysis.NewRegistry(Analyzers()...)
	if err != nil {
		panic(err) // a malformed built-in rule is a programming error, caught by the tests
	}
	return r
}
