package markdown

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// dumpTree writes the tree as everything a reader of the AST can tell apart:
// each node's kind, its lines or segment, line breaks and the fields of the
// node kinds baton's parser makes. A plain block (plainLines) whose children
// are Text nodes only, or none, is written "plain" without them: baton's
// parse makes none for it, and its lines stand for them. A block baton
// leaves without the inline nodes goldmark makes is then written apart:
// goldmark's are written when its lines are not plain or it has others.
func dumpTree(n ast.Node, src []byte) string {
	var b strings.Builder
	var dump func(n ast.Node, depth int)
	dump = func(n ast.Node, depth int) {
		kind := n.Kind()
		if kind == ast.KindTextBlock {
			kind = ast.KindParagraph // baton keeps a tight list's paragraphs (tightLists)
		}
		fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", depth), kind)
		if n.Type() == ast.TypeBlock {
			fmt.Fprintf(&b, " blank=%v lines=", n.HasBlankPreviousLines())
			for i := range n.Lines().Len() {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, "[%d,%d,%d,%v]", s.Start, s.Stop, s.Padding, s.ForceNewline)
			}
		}
		plain := false
		if k := n.Kind(); (k == ast.KindParagraph || k == ast.KindTextBlock) && plainLines(n.Lines(), src) {
			plain = true
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if _, ok := c.(*ast.Text); !ok {
					plain = false
				}
			}
		}
		if plain {
			b.WriteString(" plain")
		}
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " seg=%+v soft=%v hard=%v raw=%v", n.Segment, n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.Heading:
			fmt.Fprintf(&b, " level=%d", n.Level)
		case *ast.List:
			fmt.Fprintf(&b, " marker=%c tight=%v start=%d", n.Marker, n.IsTight, n.Start)
		case *ast.ListItem:
			fmt.Fprintf(&b, " offset=%d", n.Offset)
		case *ast.FencedCodeBlock:
			if n.Info != nil {
				fmt.Fprintf(&b, " info=%+v", n.Info.Segment)
			}
		case *ast.HTMLBlock:
			fmt.Fprintf(&b, " type=%d closure=%+v", n.HTMLBlockType, n.ClosureLine)
		case *ast.RawHTML:
			fmt.Fprintf(&b, " segs=%v", n.Segments.Sliced(0, n.Segments.Len()))
		case *ast.AutoLink:
			fmt.Fprintf(&b, " type=%d url=%q", n.AutoLinkType, n.URL(src))
		}
		if p, ok := n.(interface{ Pos() int }); ok {
			fmt.Fprintf(&b, " pos=%d", p.Pos())
		}
		b.WriteByte('\n')
		if plain {
			return
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Parent() != n {
				fmt.Fprintf(&b, "%s(child with another parent)\n", strings.Repeat("  ", depth+1))
			}
			dump(c, depth+1)
		}
	}
	dump(n, 0)
	return b.String()
}

// goldmarkParser is mdParser as goldmark makes it: its own link reference
// transformer over every paragraph, its inline pass over every paragraph,
// its own code span parser.
var goldmarkParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(goldmarkInlineParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

// goldmarkInlineParsers is inlineParsers with goldmark's own code span
// parser in place of baton's.
func goldmarkInlineParsers() []util.PrioritizedValue {
	ps := slices.Clone(inlineParsers)
	for i, p := range ps {
		if _, ok := p.Value.(codeSpans); ok {
			ps[i].Value = parser.NewCodeSpanParser()
		}
	}
	return ps
}

// sameTree fails the test when parseMarkdown's tree of src differs from
// goldmark's own.
func sameTree(t *testing.T, name string, src string) {
	t.Helper()
	want := dumpTree(goldmarkParser.Parse(gtext.NewReader([]byte(src))), []byte(src))
	got := dumpTree(parseMarkdown([]byte(src)), []byte(src))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: tree differs from goldmark's (-goldmark +baton):\n%s", name, diff)
	}
}

// plainCases are the line shapes goldmark's inline pass treats apart: hard
// breaks (backslash, two spaces, with CRLF), trailing spaces, tight and loose
// lists, setext headings, link reference definitions, lazy continuation,
// tabs, and paragraphs with inline syntax next to plain ones.
var plainCases = []string{
	"",
	"a",
	"a\n",
	"one\ntwo\nthree",
	"one  \ntwo\\\nthree   \nfour\t\nfive",
	"one  \r\ntwo\\\r\nthree \r\nfour",
	"\\\nx\n\\\r\ny",
	"x\\\\\ny\\\\\\\nz",
	"- a\n- b\n  c\n- d\n",
	"- a\n\n- b\n\n  c\n",
	"1. a\n2. b\n\n3. c\n",
	"Title\n=====\n\ntext\n",
	"[x]: /u\nTitle\n-----\n",
	"[x]: /u\n===\nnext\n",
	// setext underlines inside containers, where the paragraph is closed
	// and its lines read again for the heading
	"> para\n> ---\n",
	"> para\n> ===\n> after\n",
	"- item\n  para\n  ---\n",
	"- a\n  - b\n    para\n    ===\n",
	"1. x\n   > q\n   > ---\n",
	">     code\n> para\n> ---\n",
	"- [x]: /u\n  ===\n",
	"> [x]: /u\n> para\n> ---\n",
	"para\n   ---\n",
	"para\n    ---\n",
	"para\n\t---\n",
	"[x]: /u\n\npara [x]\n",
	"  [x]: /u\n[y]: /v 'title'\ntext\n",
	"para\n[x]: /u\n",
	"- [x]: /u\n- [y]\n",
	"<UserCheckpoint purpose=\"x\" material={props.request} as='decision' />\n<If condition={decision.proceed}>\n  <Prompt>go</Prompt>\n</If>\n",
	"para\n<Component a=b>\nmore\n",
	"<Tag\n",
	"<Tag a b=c d = 'e' f=\"g\"   >  \r\n",
	"<Tag a=b/>\n<Tag a=b/ >\n<Tag a=\"b\"c>\n<Tag\ta=1>\n<Tag a=>\n<Tag a==b>\n<Tag a='b>\n",
	"<DIV class=x>\n<Script>\n<PRE x>\n<h1>t</h1>\n<Section2>\n<custom-el x:y._z=1>\n",
	"   <X>\n    <X>\n\t<X>\n",
	"<X> text after\n<X/> \n<X/>x\n<Xé>\n<x-1-y>\n",
	"- <Item a={1} />\n- text\n",
	"> <Q a=\"1\">\n> body\n",
	"> [x]:\n> /u\n",
	"[not a ref\n",
	"> quoted\nlazy\n> more\n",
	"-\tlist with tab\n\tcontinued\n",
	"  indented para\n   second\n",
	"plain\n\nwith `code`\n\nwith <b>html</b>\n\n<https://x.y> link\n\nplain again\n",
	"a `b\nc` d\n",
	"# heading with `code`\n\ntext\n",
	"* a\n  * b\n    text\n  * c\n",
	"para\n    not code\n",
	"```\ncode\n```\ntext after\n",
	"text\n<div>\nblock\n</div>\n",
	"last line with spaces   ",
	"line\n\n\n",
}

func TestParsePlainTextsMatchGoldmark(t *testing.T) {
	for i, c := range plainCases {
		sameTree(t, fmt.Sprintf("case %d %q", i, c), c)
	}
	// Every document of the repository's test data.
	n := 0
	_ = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".txtar") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		sameTree(t, path, string(b))
		n++
		return nil
	})
	if n < 20 {
		t.Errorf("compared %d documents of the repository: expected its test data", n)
	}
}

// TestParseHoldsPlainParagraphs: the inline pass is skipped for plain
// paragraphs only. Without this the tree would still be
// right, and baton's parse silently twice as slow.
func TestParseHoldsPlainParagraphs(t *testing.T) {
	src := []byte("# Title\n\nplain\ntwo lines\n\n- item\n- item `code`\n\n> quoted\n\nwith <b>\n")
	r, pc := newParse(src)
	mdParser.Parse(r, parser.WithContext(pc))
	var got []string
	for _, h := range *parseOf(pc).held {
		got = append(got, h.node.Kind().String()+" "+string(h.lines.Value(src)))
	}
	restoreHeld(pc)
	want := []string{"Paragraph plain\ntwo lines", "Paragraph item", "Paragraph quoted"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("held blocks (-want +got):\n%s", diff)
	}
}

func FuzzParseTree(f *testing.F) {
	for _, c := range plainCases {
		f.Add(c)
	}
	for _, c := range pieceCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sameTree(t, "input", src)
		samePieces(t, "input", src, 3)
	})
}

// TestParseHTMLBlocksMatchGoldmark: every line built from up to four
// pieces (three after other names) of tag syntax after "<Tag" (names, white space, values quoted and
// not, "=", "/", ">", line breaks) opens the same HTML block, or none, as
// goldmark's regular expressions decide, alone and after a paragraph.
func TestParseHTMLBlocksMatchGoldmark(t *testing.T) {
	pieces := []string{" ", "\t", "a", ":b-1", "=", "\"v w\"", "'v'", "x/", "/", ">", "/>", "\n", "\r\n", "`", "é"}
	var build func(prefix string, depth, most int)
	n := 0
	build = func(prefix string, depth, most int) {
		n++
		sameTree(t, fmt.Sprintf("%q", prefix), prefix)
		if n%7 == 0 {
			sameTree(t, fmt.Sprintf("after a paragraph %q", prefix), "text\n"+prefix)
		}
		if depth == most {
			return
		}
		for _, p := range pieces {
			build(prefix+p, depth+1, most)
		}
	}
	build("<Tag", 0, 4)
	for _, start := range []string{" <my-el", "<TABLE", "<textArea"} {
		build(start, 0, 3)
	}
}

// samePieces fails the test when the parse of src in n pieces differs from
// goldmark's, and reports whether src was cut at all.
func samePieces(t *testing.T, name, src string, n int) bool {
	t.Helper()
	root := parsePieces([]byte(src), n)
	if root == nil {
		return false
	}
	want := dumpTree(goldmarkParser.Parse(gtext.NewReader([]byte(src))), []byte(src))
	if diff := cmp.Diff(want, dumpTree(root, []byte(src))); diff != "" {
		t.Errorf("%s in %d pieces: tree differs from goldmark's (-goldmark +baton):\n%s", name, n, diff)
	}
	return true
}

// pieceCases put, before a heading after a blank line, what may or may not
// run on through it.
var pieceCases = []string{
	"# A\n\ntext\n\n## B\n\nmore\n\n## C\n\nlast\n",
	"- list\n- items\n\n## B\n\n- more\n\n## C\n",
	"> quote\n\n## B\n\n> lazy\ncontinued\n\n## C\n",
	"```\nfence\n\n## not a heading\n```\n\n## B\n\ntext\n",
	"~~~~\nopen fence to the end\n\n## inside\n\n## inside too\n",
	"<script>\nx\n\n## inside\n</script>\n\n## B\n",
	"<!--\ncomment\n\n## inside\n-->\n\n## B\n\ntext\n",
	"<div>\nhtml\n\n## B\n\n<Tag a=1>\n\n## C\n",
	"1. item\n\n   ```\n   code in item\n\n## B\n\ncode?\n```\n",
	"para\n\n    indented code\n\n## B\n\n#not\n\n##\n\n## C ##\n",
	"[ref]: /u\n\n## B\n\n[ref]: /v\n\n## C\n",
	"text\n\n## B\r\n\r\n## C\r\ntext\r\n",
	"Setext\n\n## B\nline\n---\n\n## C\n",
}

func TestParsePiecesMatchGoldmark(t *testing.T) {
	cut := 0
	for i, c := range pieceCases {
		for n := 2; n <= 5; n++ {
			if samePieces(t, fmt.Sprintf("case %d", i), c, n) {
				cut++
			}
		}
	}
	// Real documents, large and small.
	_ = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && samePieces(t, path, string(b), 3) {
			cut++
		}
		return nil
	})
	if cut < 20 {
		t.Errorf("only %d documents were cut into pieces: the test compares too little", cut)
	}
}
