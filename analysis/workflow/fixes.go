package workflow

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// newline is the document's line break.
func (k *checker) newline() string {
	if k.nl == "" {
		k.nl = "\n"
		if strings.Contains(k.c.Text, "\r\n") {
			k.nl = "\r\n"
		}
	}
	return k.nl
}

// wrapFix wraps t in <If condition={cp.proceed}>…</If> (a conjunction
// when it escapes several checkpoints). When t has its lines to itself, the
// wrapper gets lines of its own and t is indented by two spaces; otherwise
// it is wrapped in place.
func (k *checker) wrapFix(t *Tag, cps []string) analysis.Fix {
	conds := make([]string, len(cps))
	for i, n := range cps {
		conds[i] = n + ".proceed"
	}
	cond := strings.Join(conds, " && ")
	open, close := "<If condition={"+cond+"}>", "</If>"
	fix := analysis.Fix{Title: fmt.Sprintf("Gate <%s> on %s", t.Name, cond)}
	text, lines := k.c.Text, k.doc.Lines
	first, last := lines.LineOf(t.Span.Start), lines.LineOf(t.Span.End)
	ls, le := lines.LineStart(first), lines.LineEnd(last)
	if blank(text[ls:t.Span.Start]) && blank(text[t.Span.End:le]) {
		nl := k.newline()
		indent := text[ls:t.Span.Start]
		var b strings.Builder
		b.WriteString(indent + open + nl)
		for l := first; l <= last; l++ {
			line := lines.Line(l)
			if strings.TrimSpace(line) != "" {
				b.WriteString("  ")
			}
			b.WriteString(line)
			b.WriteString(nl)
		}
		b.WriteString(indent + close)
		fix.Edits = []analysis.Edit{{Span: markdown.Span{Start: ls, End: le}, NewText: b.String()}}
		return fix
	}
	fix.Edits = []analysis.Edit{
		{Span: markdown.Span{Start: t.Span.Start, End: t.Span.Start}, NewText: open},
		{Span: markdown.Span{Start: t.Span.End, End: t.Span.End}, NewText: close},
	}
	return fix
}

// addAsFix adds as="…" after a checkpoint's name, with a name no binding
// of the document uses.
func (k *checker) addAsFix(t *Tag) analysis.Fix {
	used := map[string]bool{}
	for _, b := range k.m.Bindings {
		used[b.Name] = true
	}
	name := "checkpoint"
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("checkpoint%d", i)
	}
	return analysis.Fix{Title: fmt.Sprintf("Bind the decision: as=%q", name),
		Edits: []analysis.Edit{{Span: markdown.Span{Start: t.NameSpan.End, End: t.NameSpan.End}, NewText: fmt.Sprintf(" as=%q", name)}}}
}

// declarePropFix declares name, with the empty schema, in the front matter:
// as a new entry of the props map (or of a full schema's properties), as a
// new props map, or in new front matter.
func (k *checker) declarePropFix(name string) (analysis.Fix, bool) {
	c := k.c
	nl := k.newline()
	fix := analysis.Fix{Title: fmt.Sprintf("Declare the prop %s in the front matter", name)}
	entry := name + ": {}"
	switch {
	case c.FrontMatter == nil:
		fix.Edits = []analysis.Edit{{Span: markdown.Span{}, NewText: "---" + nl + "props:" + nl + "  " + entry + nl + "---" + nl + nl}}
	case c.FrontMatter.Err != nil:
		return fix, false
	case c.Props.Form == PropsNone:
		at := c.FrontMatter.Body.End
		fix.Edits = []analysis.Edit{{Span: markdown.Span{Start: at, End: at}, NewText: "props:" + nl + "  " + entry + nl}}
	case (c.Props.Form == PropsMap || c.Props.Form == PropsSchema) && c.Props.insertAt >= 0:
		at := c.Props.insertAt
		prefix := ""
		if at > 0 && !isLineBreak(c.Text[at-1]) {
			prefix = nl
		}
		fix.Edits = []analysis.Edit{{Span: markdown.Span{Start: at, End: at}, NewText: prefix + c.Props.insertIndent + entry + nl}}
	default:
		return fix, false
	}
	return fix, true
}
