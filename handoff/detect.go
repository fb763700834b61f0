package handoff

import (
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// IsHandoff recognises the review document clio-coder's /handoff renders
// (renderHandoffDocument in clio-coder's src/domains/session/handoff.ts):
// the lines "# Handoff", "**Goal:** <goal>" and "Carried from session
// `<id>`.", each a block of its own, then those of the sections
// "## Decisions", "## Facts", "## Files", "### dropped (not in this
// session's read ledger)", "## Commands", "## Open questions" and
// "## Bounds applied" that have items, in that order, each a list. A
// "# Handoff" title with a goal is a shape anyone writes, so it decides
// nothing; the session line, which clio always writes, does. A document is
// a handoff when its first heading is "# Handoff" (any case) and
//
//   - a paragraph line before the next heading starts with "Carried from
//     session" (where the handoff rules read the session line); or
//   - the rest is clio's layout exactly, so that an operator who deleted or
//     mangled that line in $EDITOR is told: "# Handoff" as clio writes it,
//     first; then the one line "**Goal:** …"; at most one line in the
//     session line's place that still says "session" or "carried";
//     then one or more of clio's section headings as clio writes them, in
//     its order, each once, with nothing but lists (and HTML comments)
//     under them.
//
// Anything else, a note with sections of its own or prose in them, is
// someone else's format.
func IsHandoff(d *markdown.Document) bool {
	if len(d.Headings) == 0 || d.Headings[0].Level != 1 || !strings.EqualFold(d.Headings[0].Text, "Handoff") {
		return false
	}
	line := func(n ast.Node, i int) string { // paragraph n's line i, indent aside
		return strings.TrimLeft(d.Lines.Line(d.Lines.LineOf(n.Lines().At(i).Start)), " \t")
	}
	if hasSessionLine(d) {
		return true
	}
	sections := [...]struct {
		level int
		text  string
	}{
		{2, "Decisions"}, {2, "Facts"}, {2, "Files"}, {3, "dropped (not in this session's read ledger)"},
		{2, "Commands"}, {2, "Open questions"}, {2, "Bounds applied"},
	}
	if d.Headings[0].Text != "Handoff" || d.Headings[0].Setext {
		return false
	}
	// heads and paras count the headings and paragraphs seen; next is the
	// first index in sections the next heading may have.
	heads, paras, next := 0, 0, 0
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Lines().Len() == 0 || heads == len(d.Headings) {
				return false // an empty heading: not in d.Headings, and not clio's
			}
			h := d.Headings[heads]
			heads++
			if heads == 1 {
				if n.PreviousSibling() != nil {
					return false
				}
				continue
			}
			if paras == 0 || h.Setext {
				return false
			}
			for next < len(sections) && (sections[next].level != h.Level || sections[next].text != h.Text) {
				next++
			}
			if next == len(sections) {
				return false
			}
			next++
		case *ast.Paragraph:
			if heads != 1 || n.Lines().Len() != 1 {
				return false
			}
			switch s := line(n, 0); {
			case paras == 0 && strings.HasPrefix(s, "**Goal:**"):
			case paras == 1 && (strings.Contains(strings.ToLower(s), "session") || strings.Contains(strings.ToLower(s), "carried")):
			default:
				return false
			}
			paras++
		case *ast.List:
			if heads < 2 {
				return false
			}
		case *ast.HTMLBlock:
			if n.HTMLBlockType != ast.HTMLBlockType2 {
				return false
			}
		default:
			return false
		}
	}
	return heads > 1
}

// hasSessionLine reports clio's session line ("Carried from session …")
// starting a line of a top-level paragraph before the title's first
// section, where the handoff parser reads it.
func hasSessionLine(d *markdown.Document) bool {
	if len(d.Headings) == 0 || !strings.Contains(d.Text, "Carried from session") {
		return false
	}
	end := len(d.Text)
	if len(d.Headings) > 1 {
		end = d.Headings[1].Span.Start
	}
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		if _, ok := n.(*ast.Paragraph); !ok {
			continue
		}
		for i := 0; i < n.Lines().Len() && n.Lines().At(i).Start < end; i++ {
			l := strings.TrimLeft(d.Lines.Line(d.Lines.LineOf(n.Lines().At(i).Start)), " \t")
			if strings.HasPrefix(l, "Carried from session") {
				return true
			}
		}
	}
	return false
}

// HandoffWhy is what made a document a clio-coder handoff.
func HandoffWhy(d *markdown.Document) string {
	if !IsHandoff(d) {
		return "a `" + TaskMemoryLanguage + "` snapshot block of clio-coder's context-handoff"
	}
	if hasSessionLine(d) {
		return "a \"# Handoff\" title with clio-coder's session line"
	}
	return "a \"# Handoff\" title with clio-coder's structure"
}

// Detect is the handoff kind's detector (analysis.Detector): clio-coder's
// /handoff review document, or a brief carrying a task-memory snapshot
// (IsClioHandoff), with what decided it (HandoffWhy).
func Detect(d *markdown.Document) (why string, at markdown.Span, ok bool) {
	if !IsClioHandoff(d) {
		return "", markdown.Span{}, false
	}
	return HandoffWhy(d), markdown.Span{}, true
}
