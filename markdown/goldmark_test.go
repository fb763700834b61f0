package markdown

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
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

// The parsers baton wraps (the HTML block, list and paragraph parsers) are
// the ones goldmark's defaults hold: if goldmark built them anew each time,
// the wrapping would silently stop.
func TestBlockParsersWrapGoldmarksParsers(t *testing.T) {
	var html, lists, paras int
	for _, p := range blockParsers() {
		switch p.Value.(type) {
		case htmlBlocks:
			html++
		case tightLists:
			lists++
		case paragraphs:
			paras++
		}
		for _, g := range []parser.BlockParser{parser.NewHTMLBlockParser(), parser.NewListParser(), parser.NewParagraphParser()} {
			if p.Value == g {
				t.Errorf("goldmark's %T is still in the list, unwrapped", g)
			}
		}
	}
	if html != 1 || lists != 1 || paras != 1 {
		t.Errorf("%d wrapped HTML block parsers, %d list parsers, %d paragraph parsers: want 1 each", html, lists, paras)
	}
}

// TestParagraphsAllocateTogether: a document's paragraphs are made a slab
// at a time. A list of 400 items holds 400 paragraphs; made one by one (by
// goldmark's own paragraph parser, in an otherwise equal parser), they
// were 400 more of the parse's allocations.
func TestParagraphsAllocateTogether(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "- item %d\n", i)
	}
	src := []byte(b.String())
	ps := blockParsers()
	for i, p := range ps {
		if w, ok := p.Value.(paragraphs); ok {
			ps[i].Value = w.BlockParser
		}
	}
	oneByOne := parser.NewParser(
		parser.WithBlockParsers(ps...),
		parser.WithInlineParsers(inlineParsers...),
		parser.WithParagraphTransformers(util.Prioritized(linkRefs{parser.LinkReferenceParagraphTransformer}, 100)),
	)
	parse := func(p parser.Parser) ast.Node {
		r, pc := newParse(src)
		root := p.Parse(r, parser.WithContext(pc))
		restoreHeld(pc)
		return root
	}
	count := func(root ast.Node) (n int) {
		_ = ast.Walk(root, func(n2 ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, ok := n2.(*ast.Paragraph); ok && entering {
				n++
			}
			return ast.WalkContinue, nil
		})
		return n
	}
	if a, b := count(parse(mdParser)), count(parse(oneByOne)); a != 400 || b != 400 {
		t.Fatalf("the list holds %d and %d paragraphs, want 400", a, b)
	}
	slabs := testing.AllocsPerRun(10, func() { parse(mdParser) })
	single := testing.AllocsPerRun(10, func() { parse(oneByOne) })
	if single-slabs < 380 {
		t.Errorf("a parse took %v allocations, %v with a paragraph at a time: want about 400 fewer", slabs, single)
	}
}
