package stopintent

import (
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/internal/ascii"
	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"
)

// The markers, exactly as specrew matches them (String.Contains).
const (
	ContinueMarker     = "<!-- SPECREW-STOP-INTENT: continue -->"
	IntermediateMarker = "<!-- SPECREW-STOP-INTENT: intermediate -->"
)

// MarkerFor returns the exact marker of an intent.
func MarkerFor(i Intent) string {
	if i == IntentContinue {
		return ContinueMarker
	}
	return IntermediateMarker
}

// Marker is an HTML comment that is, or looks like, a stop-intent marker.
type Marker struct {
	Span markdown.Span
	// Intent is what the marker declares when it is exact, or what a near
	// miss most likely meant ("" when its word is unknown).
	Intent Intent
	Exact  bool // the exact string specrew matches
	// Quoted: inside code, inline code or a block quote, it is quoted
	// material, not the message's own declaration.
	Quoted bool
	Word   string // the intent word as written
}

var (
	stopIntentish = lazyre.New(`(?i)stop[\s_-]*intent`)
	intentWord    = lazyre.New(`(?i)stop[\s_-]*intent\s*[:=]?\s*([A-Za-z_-]*)`)
)

// findMarkers returns every stop-intent-like comment of the document, in
// order, each marked quoted or not.
func findMarkers(doc *markdown.Document) []*Marker {
	var own []markdown.Span
	ownDone := false // ownHTML walks the whole tree: only for a marker
	var out []*Marker
	for loc := nextComment(doc.Text, 0); loc[1] > 0; loc = nextComment(doc.Text, loc[1]) {
		c := doc.Text[loc[0]:loc[1]]
		// "top" and "intent" fold only to ASCII letters: without "top" in
		// some case, stopIntentish cannot match.
		if !ascii.ContainsFold(c, "top") || !stopIntentish.MatchString(c) {
			continue
		}
		if !ownDone {
			own, ownDone = ownHTML(doc), true
		}
		m := &Marker{Span: markdown.Span{Start: loc[0], End: loc[1]}, Quoted: !inside(own, loc[0])}
		switch c {
		case ContinueMarker:
			m.Exact, m.Intent, m.Word = true, IntentContinue, "continue"
		case IntermediateMarker:
			m.Exact, m.Intent, m.Word = true, IntentIntermediate, "intermediate"
		default:
			if sub := intentWord.FindStringSubmatch(c); sub != nil {
				m.Word = sub[1]
				switch strings.ToLower(strings.Trim(sub[1], "_-")) {
				case "continue":
					m.Intent = IntentContinue
				case "intermediate":
					m.Intent = IntentIntermediate
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// nextComment is the first HTML comment of s at or after from, as
// (?s)<!--.*?--> finds them, as start and end; end 0 when there is none.
// A comment's end is the first "-->" after its "<!--"; when there is none,
// no later "<!--" has one either. (The regular expression cost more than
// the rest of findMarkers on small messages.)
func nextComment(s string, from int) [2]int {
	k := strings.Index(s[from:], "<!--")
	if k < 0 {
		return [2]int{}
	}
	start := from + k
	e := strings.Index(s[start+4:], "-->")
	if e < 0 {
		return [2]int{}
	}
	return [2]int{start, start + 4 + e + 3}
}

// ownHTML is the spans of the document's own HTML: HTML blocks and inline
// HTML outside block quotes (code is never HTML).
func ownHTML(doc *markdown.Document) []markdown.Span {
	var spans []markdown.Span
	add := func(segs *gtext.Segments) {
		if segs.Len() > 0 {
			spans = append(spans, markdown.Span{Start: segs.At(0).Start, End: segs.At(segs.Len() - 1).Stop})
		}
	}
	_ = ast.Walk(doc.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Blockquote:
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			add(n.Lines())
			if n.HasClosure() {
				spans = append(spans, markdown.Span{Start: n.ClosureLine.Start, End: n.ClosureLine.Stop})
			}
		case *ast.RawHTML:
			add(n.Segments)
		}
		return ast.WalkContinue, nil
	})
	return spans
}

func inside(spans []markdown.Span, off int) bool {
	for _, s := range spans {
		if off >= s.Start && off < s.End {
			return true
		}
	}
	return false
}
