package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"
)

// The limits past which baton stops short, says so in one finding, and
// carries on. docs/reliability.md lists them with the rest.
const (
	// MaxFindings is the most findings reported for one document; the
	// rest are counted in one baton/too-many-findings finding.
	MaxFindings = 1000
)

// RuleDocumentTooLarge is reported, alone, on a document over
// MaxDocumentBytes. It is an error by default: a CI run must not pass with
// a document it did not check. Set to warning under rules: in .baton.yaml,
// such a document passes, said once. The stop hooks say on standard error
// that a message over the limit was not checked (stoppolicy's decide).
var RuleDocumentTooLarge = &Rule{
	ID:       "baton/document-too-large",
	Summary:  "The document is larger than baton analyses (16 MiB); it was not checked.",
	Severity: Error,
	Doc: "baton analyses documents up to 16 MiB. Checking a document takes about 11 bytes of memory per byte " +
		"of text at its peak (170 MiB for 16 MB of stop packets), so a larger one could exhaust a small CI runner or stall the " +
		"editor; stop packets, handoff documents and workflows are kilobytes. A larger document gets this " +
		"finding on its first line and no other: it is not checked.\n\n" +
		"It is an error by default, so that `baton check` in CI fails (exit 1) rather than pass a document " +
		"nobody checked. To let such documents pass, said in one warning, set the rule to `warning` under " +
		"`rules:` in `.baton.yaml` (`baton/document-too-large: warning`); `off` hides it. The stop hooks, " +
		"which block only on the packet and stop-intent rules, let such a message through and say on " +
		"standard error that it was not checked, whatever the severity.\n\n" +
		"A generated file that large is usually not meant to be linted: list it under `ignore:` in " +
		"`.baton.yaml`.",
}

// RuleNestingTooDeep is reported where the nesting caps (MaxLineNesting,
// MaxNestingIndent) cut a document: a container marker past them was read
// as text, so what follows it on its line was checked as a paragraph.
var RuleNestingTooDeep = &Rule{
	ID:       "baton/nesting-too-deep",
	Summary:  "Lists or block quotes nest deeper than baton reads; past that depth they were read as text.",
	Severity: Warning,
	Doc: "baton reads at most 32 lists or block quotes opened on one line, and a list item or block quote " +
		"marker only up to column 64 (a list nested about 32 deep): goldmark measures every open container " +
		"on every line, so deeper nesting costs time that grows with the cube of the depth (3,000 levels, 9 MB: " +
		"45 s). Past either cap the marker is read as text, and the document is checked as so cut. This " +
		"finding, at the first marker cut, says so: the findings about what lies below it may be missing or " +
		"differ from what a full reading would give. Real stop packets, handoffs and workflows nest a few levels.",
}

// RuleTooManyFindings stands for the findings of a document past the
// first MaxFindings.
var RuleTooManyFindings = &Rule{
	ID:       "baton/too-many-findings",
	Summary:  "The document has more findings than baton reports (1000); the rest are counted here.",
	Severity: Warning,
	Doc: "baton reports at most 1000 findings per document, in document order; this finding, at the first " +
		"one left out, counts the rest by rule. A document with that many findings is usually not of the " +
		"kind baton took it for (a list of packet headings in a test file, generated text): fix the first " +
		"ones, or list the file under `ignore:` in `.baton.yaml`. `baton check --fix` (and the editor's fix-all) " +
		"applies the safe fixes of every finding, those not reported included, and its summary counts them all.",
}

// LimitsAnalyzer declares the limit rules. It has no work of its own:
// the registry applies the limits to every document when it holds it.
var LimitsAnalyzer = &Analyzer{
	Name:  "limits",
	Kind:  markdown.KindOther,
	Rules: []*Rule{RuleDocumentTooLarge, RuleTooManyFindings, RuleNestingTooDeep},
	Run:   func(*Pass) any { return nil },
}

// TooLargeResult is the result for a file of size bytes that was not read
// because it is over MaxDocumentBytes: the finding alone, on an empty
// document.
func (r *Registry) TooLargeResult(uri string, size int64, cfg *Config) *Result {
	doc := markdown.Parse(uri, "")
	doc.TooLarge = int(min(size, int64(^uint(0)>>1)))
	return r.tooLarge(doc, cfg)
}

func (r *Registry) tooLarge(doc *markdown.Document, cfg *Config) *Result {
	res := &Result{Doc: doc, models: map[*Analyzer]any{}}
	if r.rules[RuleDocumentTooLarge.ID] != RuleDocumentTooLarge {
		return res
	}
	f := Finding{
		Rule:     RuleDocumentTooLarge.ID,
		Severity: RuleDocumentTooLarge.Severity,
		Message:  fmt.Sprintf("this document is %s, over the %d MiB baton analyses: it was not checked", sizeString(doc.TooLarge), markdown.MaxDocumentBytes>>20),
	}
	if cfg != nil {
		if s, ok := cfg.Severity[f.Rule]; ok {
			f.Severity = s
		}
	}
	if f.Severity != Off {
		res.Findings = []Finding{f}
	}
	return res
}

// nestingCut is the finding at the first container marker the nesting
// caps cut, or none.
func (r *Registry) nestingCut(doc *markdown.Document) []Finding {
	at, ok := doc.NestingCutAt()
	if !ok || r.rules[RuleNestingTooDeep.ID] != RuleNestingTooDeep {
		return nil
	}
	return []Finding{{
		Rule:     RuleNestingTooDeep.ID,
		Severity: RuleNestingTooDeep.Severity,
		Span:     markdown.Span{Start: at, End: at + 1},
		Message: fmt.Sprintf("lists or block quotes nest deeper than baton reads (%d opened on one line, or a marker past column %d): "+
			"from this marker on the line is read as text, so the document was checked only as so cut", markdown.MaxLineNesting, markdown.MaxNestingIndent),
	}}
}

// capFindings keeps the first MaxFindings findings of res (sorted) and
// counts the rest in one finding at the first one left out. The result
// still knows how many there were (Count), and the safe fixes among them:
// the cap is on what is reported, and FixAll applies every safe fix.
func (r *Registry) capFindings(res *Result, cfg *Config) {
	findings := res.Findings
	if len(findings) <= MaxFindings || r.rules[RuleTooManyFindings.ID] != RuleTooManyFindings {
		return
	}
	rest := findings[MaxFindings:]
	res.Findings = slices.Clip(findings[:MaxFindings])
	res.past = len(rest)
	for _, f := range rest {
		if fix, ok := firstSafeFix(f); ok {
			res.pastFixes = append(res.pastFixes, fix)
		}
	}
	sev := RuleTooManyFindings.Severity
	if s, ok := cfg.Severity[RuleTooManyFindings.ID]; ok {
		sev = s
	}
	if sev == Off {
		return
	}
	by := map[string]int{}
	for _, f := range rest {
		by[f.Rule]++
	}
	rules := slices.SortedFunc(maps.Keys(by), func(a, b string) int { return cmp.Or(by[b]-by[a], strings.Compare(a, b)) })
	var parts []string
	for _, id := range rules {
		parts = append(parts, fmt.Sprintf("%d %s", by[id], id))
	}
	res.Findings = append(res.Findings, Finding{
		Rule:     RuleTooManyFindings.ID,
		Severity: sev,
		Span:     markdown.Span{Start: rest[0].Span.Start, End: rest[0].Span.Start},
		Message:  fmt.Sprintf("%d more findings from here on are not reported (baton reports %d per document): %s", len(rest), MaxFindings, strings.Join(parts, ", ")),
	})
	res.marker = true
}

func sizeString(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}
