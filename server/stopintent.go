package server

import (
	"fmt"
	"sort"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
)

// stopHover explains a stop's outcome: what it is (or could be), why, and
// every input with its value and where it came from.
func stopHover(doc *analysis.Document, st *stopintent.Stop) string {
	var b strings.Builder
	c := st.Class
	switch {
	case st.Recorded:
		b.WriteString("**Stop intent:** none — this is a saved gate record whose verdict is already recorded, not a live stop; the consistency contract does not apply.\n\n")
	case c.Outcome != "":
		fmt.Fprintf(&b, "**Stop intent: %s** — %s\n\n", c.Outcome, c.Possible[0].Reason)
		if len(c.Possible) > 1 {
			b.WriteString("(Whatever the unknown inputs are, the outcome is the same; the reason may differ.)\n\n")
		}
	default:
		b.WriteString("**Stop intent: " + outcomeSet(c) + "**, depending on what baton cannot read from the text:\n\n")
		for _, p := range c.Possible {
			fmt.Fprintf(&b, "- **%s** if %s — %s\n", p.Outcome, p.When, p.Reason)
		}
		b.WriteString("\n")
	}
	switch {
	case st.Ambiguous:
		b.WriteString("Both markers are declared: the intent is ambiguous, so none applies.\n\n")
	case st.Intent != "":
		fmt.Fprintf(&b, "Marker: `%s`.\n\n", stopintent.MarkerFor(st.Intent))
	}
	b.WriteString("| input | value | from |\n|---|---|---|\n")
	names := append([]string{stopintent.InMarkerIntent}, stopintent.InputNames...)
	for _, name := range names {
		if name == stopintent.InMarkerIntent {
			v := string(st.Intent)
			if v == "" {
				v = "none"
			}
			fmt.Fprintf(&b, "| %s | %s | the text |\n", name, v)
			continue
		}
		in := st.Inputs[name]
		from := in.Source
		switch {
		case in.Source == "text" && in.Span != (analysis.Span{}):
			from = fmt.Sprintf("the text, line %d", doc.Lines.LineOf(in.Span.Start)+1)
		case in.Source == "text":
			from = "the text"
		case in.Source == "unknown":
			from = "unknown"
		}
		if in.Why != "" {
			from += ": " + escapeCell(in.Why)
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, in.Value, from)
	}
	return b.String()
}

// lensTitle is the one line a code lens shows above a stop.
func lensTitle(st *stopintent.Stop) string {
	c := st.Class
	switch {
	case st.Recorded:
		return "Stop intent: none — a recorded gate, not a live stop"
	case c.Outcome != "":
		return fmt.Sprintf("Stop intent: %s — %s", c.Outcome, c.Possible[0].Reason)
	}
	return fmt.Sprintf("Stop intent: %s — depends on inputs baton cannot read (hover for each case)", outcomeSet(c))
}

// outcomeSet writes the possible outcomes: "continue, intermediate or real".
func outcomeSet(c stopintent.Classification) string {
	seen := map[stopintent.Outcome]bool{}
	var out []string
	for _, p := range c.Possible {
		if !seen[p.Outcome] {
			seen[p.Outcome] = true
			out = append(out, string(p.Outcome))
		}
	}
	sort.Strings(out)
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
