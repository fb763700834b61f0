package analysis

import (
	"strings"

	"github.com/baton-md/baton/markdown"
)

// The editor features a document kind computes on an analysed document
// (Result), in the kind's own package: every span is a byte offset into
// the document's text, and the language server only converts them.

// Features are a kind's editor features; a nil field offers nothing.
type Features struct {
	// Hover explains what is at off: each part is shown in order, and the
	// last part's span is the range hovered.
	Hover func(res *Result, off int) []HoverResult
	// Complete offers completions at off; nil when off is in nothing the
	// kind completes (the next source is asked).
	Complete func(res *Result, off int) *Completion
	// Definition is where what is at off is defined.
	Definition func(res *Result, off int) []Location
	// Symbols outline the document; nil leaves it to the heading tree.
	Symbols func(res *Result) []Symbol
	// Lenses are the informational lines shown above parts of the document.
	Lenses func(res *Result) []Lens
	// Folds are the regions to fold besides each heading's section.
	Folds func(res *Result) []markdown.Span
}

// HoverResult is one part of a hover: Markdown about what is at Span.
type HoverResult struct {
	Span     markdown.Span
	Markdown string
}

// CompletionKind is what a completion item inserts.
type CompletionKind int

const (
	CompleteText CompletionKind = iota
	CompleteSnippet
	CompleteKeyword
	CompleteClass
	CompleteProperty
	CompleteFile
)

// Completion is what a completion offers.
type Completion struct {
	Items []CompletionItem
	// Incomplete is true when more items were left out: typing more
	// narrows the list, so the editor asks again.
	Incomplete bool
}

// CompletionItem is one offer: accepting it replaces Edit with its NewText.
// Empty Detail, SortText and FilterText are left out.
type CompletionItem struct {
	Label      string
	Kind       CompletionKind
	Detail     string
	SortText   string
	FilterText string
	Edit       Edit
}

// Location is a span in a document: this one when Path is "", else the
// file at Path (slash separated, relative to the workspace root) with a
// zero Span for the file as a whole.
type Location struct {
	Path string
	Span markdown.Span
}

// SymbolKind is what a symbol of the outline stands for.
type SymbolKind int

const (
	SymbolSection  SymbolKind = iota // a heading's section, a packet section
	SymbolModule                     // a stop packet
	SymbolEvent                      // a checkpoint
	SymbolFunction                   // a component invocation
	SymbolVariable                   // a binding
)

// Symbol is one entry of the outline. Span is what it covers, Selection
// its name.
type Symbol struct {
	Name      string
	Detail    string // "": none
	Kind      SymbolKind
	Span      markdown.Span
	Selection markdown.Span
	Children  []Symbol
}

// Lens is a line of information shown above the offset At.
type Lens struct {
	At    int
	Title string
}

// HeadingSymbols is the outline of any Markdown document d: headings nested by level.
func HeadingSymbols(d *markdown.Document) []Symbol {
	type node struct {
		level int
		sym   Symbol
		kids  []*node
	}
	root := &node{}
	stack := []*node{root}
	secs := d.HeadingSections()
	for i, h := range d.Headings {
		for len(stack) > 1 && stack[len(stack)-1].level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		name := h.Text
		if name == "" {
			name = "(untitled)"
		}
		n := &node{level: h.Level, sym: Symbol{Name: name, Kind: SymbolSection, Span: d.Trimmed(secs[i]), Selection: h.Span}}
		parent := stack[len(stack)-1]
		parent.kids = append(parent.kids, n)
		stack = append(stack, n)
	}
	var build func(n *node) []Symbol
	build = func(n *node) []Symbol {
		var out []Symbol
		for _, k := range n.kids {
			k.sym.Children = build(k)
			out = append(out, k.sym)
		}
		return out
	}
	return build(root)
}

// EscapeCell makes s safe in a cell of a Markdown table.
func EscapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// KindHover says, over the text that decided a document's kind (its
// KindSpan: the first tag of a document with capitalised tags, the tag or
// code block that makes it a workflow), what baton reads it as and why, and
// how to say otherwise. It is offered for every kind, other included.
func KindHover(doc *markdown.Document, off int) (HoverResult, bool) {
	if doc.KindWhy == "" || doc.KindSpan.Len() == 0 || !(doc.KindSpan.Contains(off) || off == doc.KindSpan.End) {
		return HoverResult{}, false
	}
	what := "an XMD workflow"
	switch doc.Kind {
	case markdown.KindOther:
		what = "ordinary Markdown, not an XMD workflow (baton checks nothing in it)"
	case markdown.KindPacket:
		what = "a stop packet"
	case markdown.KindHandoff:
		what = "a handoff document"
	}
	return HoverResult{Span: doc.KindSpan, Markdown: "**baton** reads this document as " + what + ", because " + doc.KindWhy +
		".\n\nA `.baton.yaml` override's `kind` (packet, handoff, workflow or other) decides it for the files it matches."}, true
}
