package packet

import (
	"fmt"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"
)

// IsStopMessage recognises a stop message: a packet (three of the six
// packet headings as headings), or a marker-only continue or intermediate
// message.
func IsStopMessage(d *markdown.Document) bool {
	return packetHeadingsSeen(d) >= 3 || hasStopIntentMarker(d)
}

// packetHeadingsSeen counts the distinct packet sections the document's own
// headings name.
func packetHeadingsSeen(d *markdown.Document) int {
	seen := 0
	var have [8]bool
	for _, hs := range [2][]markdown.Heading{d.Headings, d.PseudoHeadings} {
		for _, h := range hs {
			if i := h.Packet; i >= 0 && !have[i] {
				have[i] = true
				seen++
			}
		}
	}
	return seen
}

// StopMessageWhy is what made a document a stop message.
func StopMessageWhy(d *markdown.Document) string {
	if seen := packetHeadingsSeen(d); seen >= 3 {
		return fmt.Sprintf("%d of the six packet headings", seen)
	}
	return "a stop-intent marker"
}

var stopIntentLike = lazyre.New(`(?i)<!--[^>]*stop[\s_-]*intent`)

// hasStopIntentMarker reports a stop-intent marker (or a near miss) in the
// document's own HTML.
func hasStopIntentMarker(d *markdown.Document) bool {
	return stopIntentLike.MatchString(d.Text) && walkHTML(d, func(b []byte) bool { return stopIntentLike.Match(b) })
}

// walkHTML reports whether match holds for the text of any HTML block or
// inline HTML outside code and block quotes.
func walkHTML(d *markdown.Document, match func([]byte) bool) bool {
	found := false
	_ = ast.Walk(d.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var segs *gtext.Segments
		switch n := n.(type) {
		case *ast.Blockquote:
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			segs = n.Lines()
		case *ast.RawHTML:
			segs = n.Segments
		default:
			return ast.WalkContinue, nil
		}
		if segs.Len() > 0 {
			start, stop := segs.At(0).Start, segs.At(segs.Len()-1).Stop
			if match(d.Source[start:stop]) {
				found = true
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return found
}

// Detect is the stop packet kind's detector (analysis.Detector): a stop
// message (IsStopMessage), with what decided it (StopMessageWhy).
func Detect(d *markdown.Document) (why string, at markdown.Span, ok bool) {
	if !IsStopMessage(d) {
		return "", markdown.Span{}, false
	}
	return StopMessageWhy(d), markdown.Span{}, true
}
