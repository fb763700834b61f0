package markdown

import (
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
)

// The speed-ups around goldmark copy some of what it decides (its HTML
// block tags, its inline parsers' trigger bytes). These tests derive the
// same from goldmark itself, so that a copy that differs from the goldmark
// baton builds with fails here; `make goldmark-next` runs them, with the
// tree comparisons, against goldmark's newest release.

// htmlElements are the element names of HTML, current and obsolete, and
// names near them: the candidates goldmark's block tag list is drawn from.
var htmlElements = strings.Fields(`
a abbr acronym address applet area article aside audio b base basefont bdi bdo bgsound big blink
blockquote body br button canvas caption center cite code col colgroup command content data datalist
dd del details dfn dialog dir div dl dt element em embed fieldset figcaption figure font footer form
frame frameset h1 h2 h3 h4 h5 h6 h7 head header hgroup hr html i iframe image img input ins isindex kbd
keygen label legend li link listing main map mark marquee math menu menuitem meta meter multicol nav
nextid nobr noembed noframes noscript object ol optgroup option output p param picture plaintext
portal pre progress q rb rp rt rtc ruby s samp script search section select shadow slot small source
spacer span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead
time title tr track tt u ul var video wbr xmp
`)

// goldmarkStartsBlock reports whether goldmark opens an HTML block of its
// first or sixth kind (the kinds started by a tag name from its lists) on
// a line "<name>".
func goldmarkStartsBlock(t *testing.T, name string) bool {
	t.Helper()
	p := parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...))
	src := []byte("<" + name + ">\n")
	n := p.Parse(gtext.NewReader(src)).FirstChild()
	b, ok := n.(*ast.HTMLBlock)
	if !ok {
		t.Fatalf("goldmark parses %q as %v, not an HTML block", src, n.Kind())
	}
	return b.HTMLBlockType == ast.HTMLBlockType1 || b.HTMLBlockType == ast.HTMLBlockType6
}

// blockTags is goldmark's list: every candidate name goldmark starts a
// first- or sixth-kind block with is in it, in any case, and no other.
func TestBlockTagsMatchGoldmark(t *testing.T) {
	names := slices.Clone(htmlElements)
	for name := range blockTags {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	names = append(names, "UserCheckpoint", "If", "Prompt", "my-el", "x1")
	found := 0
	for _, name := range names {
		for _, n := range []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:]} {
			want := goldmarkStartsBlock(t, n)
			if got := goldmarkBlockTag([]byte(n)); got != want {
				t.Errorf("goldmarkBlockTag(%q) = %v; goldmark starts a block of its own kinds with it: %v", n, got, want)
			}
			if n == name && want {
				found++
			}
		}
	}
	if found != len(blockTags) {
		t.Errorf("goldmark starts blocks with %d of the names, baton's list has %d", found, len(blockTags))
	}
	if found < 60 {
		t.Errorf("goldmark starts blocks with only %d names: the probe is broken", found)
	}
}

// plainLines leaves a paragraph to goldmark's inline pass whenever it holds
// a trigger byte of one of the inline parsers baton uses.
func TestPlainLinesKnowTheTriggers(t *testing.T) {
	var triggers []byte
	for _, p := range inlineParsers {
		triggers = append(triggers, p.Value.(parser.InlineParser).Trigger()...)
	}
	if len(triggers) == 0 {
		t.Fatal("no trigger bytes")
	}
	for _, c := range triggers {
		for _, src := range []string{"a" + string(c) + "b\n", "one\ntwo " + string(c) + "\n"} {
			var lines gtext.Segments
			start := 0
			for i := range len(src) {
				if src[i] == '\n' {
					lines.Append(gtext.NewSegment(start, i+1))
					start = i + 1
				}
			}
			if plainLines(&lines, []byte(src)) {
				t.Errorf("plainLines(%q) = true, but %q triggers an inline parser", src, c)
			}
		}
	}
	// The control: the same lines without the trigger are plain.
	var lines gtext.Segments
	lines.Append(gtext.NewSegment(0, 4))
	if !plainLines(&lines, []byte("abc\n")) {
		t.Error(`plainLines("abc\n") = false`)
	}
}

// The HTML block parser baton wraps is the one goldmark's defaults hold: if
// goldmark built it anew each time, the wrapping would silently stop.
func TestBlockParsersWrapGoldmarksHTMLParser(t *testing.T) {
	n := 0
	for _, p := range blockParsers() {
		if _, ok := p.Value.(htmlBlocks); ok {
			n++
		}
		if p.Value == parser.NewHTMLBlockParser() {
			t.Error("goldmark's HTML block parser is still in the list, unwrapped")
		}
	}
	if n != 1 {
		t.Errorf("%d wrapped HTML block parsers, want 1", n)
	}
}
