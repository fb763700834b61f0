package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"
)

// Severity of a finding. The order follows the LSP's DiagnosticSeverity.
type Severity int

const (
	Off Severity = iota // a rule configured off reports nothing
	Error
	Warning
	Info
	Hint
)

var severityNames = [...]string{Off: "off", Error: "error", Warning: "warning", Info: "info", Hint: "hint"}

func (s Severity) String() string {
	if s >= 0 && int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads a severity name as written in configuration.
func ParseSeverity(name string) (Severity, error) {
	for s, n := range severityNames {
		if strings.EqualFold(name, n) {
			return Severity(s), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning, info, hint or off)", name)
}

// Related points at another place that explains a finding.
type Related struct {
	Span    markdown.Span
	Message string
}

// Edit replaces the text in Span by NewText.
type Edit struct {
	Span    markdown.Span
	NewText string
}

// Fix is one way to resolve a finding. A safe fix can be applied without a
// person looking at it (by `baton check --fix`, or as a preferred quick fix).
type Fix struct {
	Title string
	Safe  bool
	Edits []Edit
}

// Finding is what a rule reports: where, how bad, what to do.
type Finding struct {
	Rule     string
	Severity Severity
	Span     markdown.Span
	Message  string
	Related  []Related
	Fixes    []Fix
}

// SortFindings orders findings by position, then rule ID, then message, so
// that output is stable.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Span.Start, b.Span.Start),
			cmp.Compare(a.Span.End, b.Span.End),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// ApplyEdits returns text with edits applied. Edits must not overlap; they
// may come in any order.
func ApplyEdits(text string, edits []Edit) (string, error) {
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Span.Start, b.Span.Start), cmp.Compare(a.Span.End, b.Span.End))
	})
	last, size := 0, len(text)
	for _, e := range sorted {
		if e.Span.Start < last || e.Span.End < e.Span.Start || e.Span.End > len(text) {
			return "", fmt.Errorf("edit %d-%d overlaps another or lies outside the text (%d bytes)", e.Span.Start, e.Span.End, len(text))
		}
		size += len(e.NewText) - (e.Span.End - e.Span.Start)
		last = e.Span.End
	}
	// The result is made in one buffer of its size: grown by doubling, a
	// large document's fixed text took up to twice its length, and as much
	// again in the buffers it outgrew.
	var b strings.Builder
	b.Grow(size)
	last = 0
	for _, e := range sorted {
		b.WriteString(text[last:e.Span.Start])
		b.WriteString(e.NewText)
		last = e.Span.End
	}
	b.WriteString(text[last:])
	return b.String(), nil
}
