package mcpserver

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// Finding is a finding as the tools report it: positions are 1-based
// lines and 1-based byte columns, as `baton check --format json` gives.
type Finding struct {
	Rule      string `json:"rule" jsonschema:"the rule's id; explain_rule says what it wants"`
	Severity  string `json:"severity" jsonschema:"error, warning, info or hint"`
	Message   string `json:"message" jsonschema:"what is wrong and what to do"`
	Line      int    `json:"line" jsonschema:"1-based line where the finding starts"`
	Column    int    `json:"column" jsonschema:"1-based byte column where it starts"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	// BlocksStop is set by check_stop: the finding blocks the stop hook
	// (under --lint) as it stands.
	BlocksStop bool  `json:"blocks_stop,omitempty" jsonschema:"check_stop only: a stop hook run with --lint blocks a message with this finding"`
	Fixes      []Fix `json:"fixes" jsonschema:"ways to fix it, as text edits"`
}

// Fix is one way to resolve a finding.
type Fix struct {
	Title string `json:"title"`
	Safe  bool   `json:"safe" jsonschema:"safe fixes need no judgement: the fixed text applies every one"`
	Edits []Edit `json:"edits"`
}

// Edit replaces the text from (line, column) to (end_line, end_column).
type Edit struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	NewText   string `json:"new_text"`
}

func position(doc *markdown.Document, offset int) (line, col int) {
	p := doc.Lines.Position(offset, markdown.UTF8)
	return p.Line + 1, p.Character + 1
}

func findingsOf(doc *markdown.Document, fs []analysis.Finding) []Finding {
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		j := Finding{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Fixes: []Fix{}}
		j.Line, j.Column = position(doc, f.Span.Start)
		j.EndLine, j.EndColumn = position(doc, f.Span.End)
		for _, fx := range f.Fixes {
			jf := Fix{Title: fx.Title, Safe: fx.Safe, Edits: []Edit{}}
			for _, e := range fx.Edits {
				je := Edit{NewText: e.NewText}
				je.Line, je.Column = position(doc, e.Span.Start)
				je.EndLine, je.EndColumn = position(doc, e.Span.End)
				jf.Edits = append(jf.Edits, je)
			}
			j.Fixes = append(j.Fixes, jf)
		}
		out = append(out, j)
	}
	return out
}

// fixedText is the text with every safe fix applied (as check --fix
// writes it), or "" when no safe fix changes it.
func fixedText(res *analysis.Result, analyze func(string) *analysis.Result) string {
	if len(res.SafeFixEdits()) == 0 {
		return ""
	}
	fixed := analysis.FixAll(analyze, res.Doc.Text).Doc.Text
	if fixed == res.Doc.Text {
		return ""
	}
	return fixed
}

// count counts findings at error and warning severity.
func count(fs []analysis.Finding) (errs, warns int) {
	for _, f := range fs {
		switch f.Severity {
		case analysis.Error:
			errs++
		case analysis.Warning:
			warns++
		}
	}
	return errs, warns
}

// listFindings writes findings one a line, for the text a model reads.
func listFindings(b *strings.Builder, fs []Finding) {
	for _, f := range fs {
		fmt.Fprintf(b, "- line %d:%d %s (%s): %s", f.Line, f.Column, f.Rule, f.Severity, f.Message)
		for _, fx := range f.Fixes {
			if fx.Safe {
				fmt.Fprintf(b, " [safe fix: %s]", fx.Title)
				break
			}
		}
		b.WriteByte('\n')
	}
}

// maxTextInSummary bounds a fixed text repeated in a tool's text content;
// a longer one is only in the structured result.
const maxTextInSummary = 32 << 10
