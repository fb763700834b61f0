// Package analysis is baton's analyzer framework: a rule is a value (Rule:
// its ID, summary, doc, default severity and the upstream check it
// follows), an Analyzer runs a kind's rules on a parsed document through a
// Pass, and the Registry runs the analyzers a document's kind has, in the
// order their requirements give, with the configuration's severities,
// suppression comments, the limits and internal errors applied. Findings
// carry fixes (Fix, Edit) and FixAll is the one fix policy `check --fix`
// and the editor share; Features are the editor features a kind computes.
//
// It knows no kind and no entry point: the kinds are packages of their
// own (analysis/packet, analysis/stopintent, analysis/workflow, handoff)
// listed by the engine, which also sets the confirmers KindIn asks; the
// Markdown model the rules read is package markdown. Spans are byte
// offsets.
package analysis
