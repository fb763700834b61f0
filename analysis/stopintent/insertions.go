package stopintent

import (
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// Insertions are the edits a user may want in the stop under the cursor:
// a stop-intent marker when it has none, and the verdict marker of a
// boundary packet whose front matter names the boundary.
func Insertions(res *analysis.Result, off int) []analysis.Fix {
	si, _ := res.Model(Analyzer).(*Model)
	if si == nil {
		return nil
	}
	st := si.StopAt(off)
	if st == nil {
		return nil
	}
	doc := res.Doc
	nl := "\n"
	if strings.Contains(doc.Text, "\r\n") {
		nl = "\r\n"
	}
	end := st.Span.Start + len(strings.TrimRight(doc.String(st.Span), " \t\r\n"))
	at := markdown.Span{Start: end, End: end}
	sep := nl + nl
	if end == 0 {
		sep = ""
	}
	var out []analysis.Fix
	if len(st.Markers) == 0 {
		for _, i := range []Intent{IntentContinue, IntentIntermediate} {
			out = append(out, analysis.Fix{
				Title: "Insert the " + string(i) + " stop-intent marker",
				Edits: []analysis.Edit{{Span: at, NewText: sep + MarkerFor(i)}},
			})
		}
	}
	if pk := st.Packet; pk != nil && len(pk.Markers) == 0 && pk.BoundaryFrom != "" && pk.BoundaryTo != "" {
		mk := packet.Marker{From: pk.BoundaryFrom, To: pk.BoundaryTo}
		out = append(out, analysis.Fix{
			Title: "Insert the verdict marker " + mk.Canonical(),
			Edits: []analysis.Edit{{Span: at, NewText: sep + mk.Canonical()}},
		})
	}
	return out
}
