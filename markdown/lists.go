package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
)

// tightLists is goldmark's list parser, except that a tight list keeps its
// items' paragraphs as Paragraph nodes: goldmark's replaces each with a new
// TextBlock holding the same lines, only so that its HTML renderer writes
// no <p> for it, and baton renders nothing. Those nodes were a tenth of the
// allocations of a parse of handoff documents, which are lists. The list's
// IsTight is goldmark's (the loop below is its listParser.Close up to the
// replacement), and so is each paragraph's HasBlankPreviousLines (false).
// Every reader of the tree takes a Paragraph where goldmark has a
// TextBlock, and the tree tests compare the two as one.
type tightLists struct{ parser.BlockParser }

func (b tightLists) Close(node ast.Node, _ gtext.Reader, _ parser.Context) {
	list := node.(*ast.List)
	for c := node.FirstChild(); c != nil && list.IsTight; c = c.NextSibling() {
		if c.FirstChild() != nil && c.FirstChild() != c.LastChild() {
			for c1 := c.FirstChild().NextSibling(); c1 != nil; c1 = c1.NextSibling() {
				if c1.HasBlankPreviousLines() {
					list.IsTight = false
					break
				}
			}
		}
		if c != node.FirstChild() && c.HasBlankPreviousLines() {
			list.IsTight = false
		}
	}
	if !list.IsTight {
		return
	}
	// A TextBlock is made with no blank line before it.
	for c := node.FirstChild(); c != nil; c = c.NextSibling() {
		for gc := c.FirstChild(); gc != nil; gc = gc.NextSibling() {
			if gc.Kind() == ast.KindParagraph {
				gc.SetBlankPreviousLines(false)
			}
		}
	}
}
