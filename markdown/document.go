package markdown

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"
)

// Kind is what sort of document baton takes a text to be, decided from its
// content, never from its file name.
type Kind int

const (
	KindOther Kind = iota
	KindPacket
	KindHandoff
	KindWorkflow
)

var kindNames = [...]string{KindOther: "other", KindPacket: "stop packet", KindHandoff: "handoff", KindWorkflow: "workflow"}

func (k Kind) String() string { return kindNames[k] }

// kindIDs are the kinds' names in check's JSON, MCP's results and a
// .baton.yaml override's kind.
var kindIDs = [...]string{KindOther: "other", KindPacket: "packet", KindHandoff: "handoff", KindWorkflow: "workflow"}

// ID is the kind's name where programs read it: check's JSON, MCP's
// results and a .baton.yaml override's kind.
func (k Kind) ID() string { return kindIDs[k] }

// KindOfID is the kind an ID names (Kind.ID), and false for none.
func KindOfID(id string) (Kind, bool) {
	for k, s := range kindIDs {
		if s == id {
			return Kind(k), true
		}
	}
	return KindOther, false
}

// Span is a half-open range of byte offsets into a document's text.
type Span struct {
	Start, End int
}

// Len is the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether offset lies in the span; an empty span contains
// its own start.
func (s Span) Contains(offset int) bool {
	return offset >= s.Start && (offset < s.End || offset == s.Start)
}

// Document is a parsed Markdown text. It is immutable once built, so any
// number of readers may share it.
type Document struct {
	URI  string // where the text came from (a file path or URI); used in messages only
	Text string
	Kind Kind

	Lines *LineIndex
	// Source is what goldmark parsed: Text with any front matter blanked out
	// (line breaks kept), so byte offsets in the AST are offsets in Text.
	Source []byte
	// Root is goldmark's tree of Source, but for two things: a paragraph
	// with no inline syntax baton parses (no code span, autolink or raw
	// HTML) has no inline children, its Lines being its text; and a tight
	// list's items hold Paragraph nodes where goldmark has TextBlocks.
	Root ast.Node

	FrontMatter *FrontMatter // nil when the document has none
	Headings    []Heading    // the document's own headings (top level, not quoted or nested), in order
	// PseudoHeadings are the lines of top-level paragraphs that name a
	// packet section on their own, as specrew's section parser reads them
	// (a bold "**What I just did**" or a bare "Why I stopped" line), in
	// order. Each has Pseudo set and Level 7: it belongs to the section of
	// the heading above it.
	PseudoHeadings []Heading

	// TooLarge is the size of a text over MaxDocumentBytes, which is not
	// parsed (Root is empty, the kind other), else 0.
	TooLarge int
	// nestingCut is 1 + the offset of the first container marker the
	// nesting caps made text (capNesting), or 0.
	nestingCut int

	// KindWhy is the evidence that decided Kind, in a few words ("`<If>`
	// is XMD's own construct"); "" for a document of no kind.
	KindWhy string
	// KindSpan is where that evidence is written (the tag, the code
	// block's info string, the front matter key), or empty.
	KindSpan Span
	// Components are the tags XMD's grammar closes, outside code, whose
	// names are not XMD's own (see XMDOwnName): a component only if it
	// resolves in the workspace, which the workflow kind's Confirm asks.
	// An HTML name in any case (<H2>, <Section>) is one of them: the
	// engine resolves a capitalised tag like any other. Each name once, at
	// its first tag, at most maxComponents; nil for a workflow and a
	// document with none.
	Components []TagRef
}

// TagRef is a tag's name and the span of its "<Name".
type TagRef struct {
	Name string
	Span Span
}

// FrontMatter is a leading YAML block between "---" lines.
type FrontMatter struct {
	Span Span // the whole block, delimiters included
	Body Span // the YAML between the delimiters
	// Data holds the top-level mapping; nil when the YAML is empty,
	// malformed or not a mapping (Err then says why).
	Data map[string]any
	Err  error
	// Node is the parsed YAML, positions relative to Body, for readers that
	// need where a key is written (XMD props and returns): parsed once
	// here, never modified. nil when the YAML is malformed, and after
	// DropSyntax.
	Node *yaml.Node
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level  int
	Text   string // the heading's content as written, trimmed
	Span   Span   // the heading's lines, from the start of the first to the end of the last (without its line break)
	Inner  Span   // the content's bytes
	Setext bool
	// Pseudo: not a Markdown heading but a paragraph's line that specrew
	// reads as one (PseudoHeadings).
	Pseudo bool
	// Packet is the index in PacketHeadings of the section this heading
	// names, or -1.
	Packet int
}

// mdParser is goldmark's CommonMark block structure with only the inline
// parsers whose nodes baton reads: code spans, autolinks and raw HTML (rules
// skip code and read components and markers in HTML). Links and emphasis are
// left as text: no rule reads their nodes (prose is read from the bytes, link
// destinations blanked by hand), and neither changes what is code or HTML,
// which bind more tightly. Skipping them makes baton's parse cheaper than
// goldmark's default one.
var mdParser = parser.NewParser(
	parser.WithBlockParsers(blockParsers()...),
	parser.WithInlineParsers(inlineParsers...),
	parser.WithParagraphTransformers(util.Prioritized(linkRefs{parser.LinkReferenceParagraphTransformer}, 100)),
)

// inlineParsers are the inline parsers baton parses with. plainLines keeps
// a paragraph out of goldmark's inline pass only when it holds none of
// their trigger bytes (TestPlainLinesKnowTheTriggers).
var inlineParsers = []util.PrioritizedValue{
	util.Prioritized(codeSpans{}, 100),
	util.Prioritized(parser.NewAutoLinkParser(), 400),
	util.Prioritized(parser.NewRawHTMLParser(), 500),
}

// NestingCutAt is the offset of the first list item or block quote marker
// the nesting caps read as text (MaxLineNesting, MaxNestingIndent), and
// whether they cut the document at all.
func (d *Document) NestingCutAt() (int, bool) { return d.nestingCut - 1, d.nestingCut > 0 }

// Parse parses text and detects its kind. It never fails: malformed input
// is still a document, and rules report what is wrong with it.
func Parse(uri, text string) *Document { return ParseIndexed(uri, text, nil) }

// ParseIndexed is Parse for a caller that already holds the line index of
// text, as an editor does to apply changes: the document shares it instead of
// indexing the text again (a tenth of a millisecond per change at 1 MB). An
// index of another text, or nil, is not used.
func ParseIndexed(uri, text string, lines *LineIndex) *Document {
	if len(text) > MaxDocumentBytes {
		return tooLargeDocument(uri, text, lines)
	}
	if lines == nil || !lines.indexes(text) {
		lines = NewLineIndex(text)
	}
	d := &Document{URI: uri, Text: text, Lines: lines}
	// The parser reads the text's own bytes; the few documents it must see
	// changed (front matter blanked, a BOM, lone CRs, nesting past the cap)
	// get a copy first. Nothing writes to d.Source but the code below, on
	// its copy: a string's bytes are never changed (TestParseLeavesTextAlone).
	// A copy of every document was a tenth of a check run's allocation.
	d.Source = unsafe.Slice(unsafe.StringData(text), len(text))
	copied := false
	own := func() []byte {
		if !copied {
			d.Source, copied = []byte(text), true
		}
		return d.Source
	}
	if fm := parseFrontMatter(text); fm != nil {
		own()
		d.FrontMatter = fm
		for i := fm.Span.Start; i < fm.Span.End; i++ {
			if c := d.Source[i]; c != '\n' && c != '\r' {
				d.Source[i] = ' '
			}
		}
	}
	// A UTF-8 byte-order mark (PowerShell 5.1 and Notepad write one) is
	// not text: goldmark would read "\ufeff## Heading" as a paragraph.
	// Three spaces keep the offsets and still let a heading, a fence or a
	// list start the line.
	if strings.HasPrefix(text, bom) && d.FrontMatter == nil {
		copy(own(), "   ")
	}
	// CommonMark ends a line at a lone CR too; goldmark does not, so make
	// it an LF (the same length: offsets are unchanged).
	if strings.IndexByte(text, '\r') >= 0 {
		own()
		lineStart := 0
		for i, c := range d.Source {
			switch {
			case c == '\r' && (i+1 == len(d.Source) || d.Source[i+1] != '\n'):
				d.Source[i] = '\n'
				lineStart = i + 1
			case c == '\r':
				// goldmark reads "-\r\n" as a lazy continuation line, not
				// the empty list item "-\n" is: end the marker with a space.
				if bareListMarker(d.Source[lineStart:i]) {
					d.Source[i] = ' '
				}
			case c == '\n':
				lineStart = i + 1
			}
		}
	}
	d.nestingCut = capNesting(d.Source, lines.starts, own) + 1
	d.Root = parseMarkdown(d.Source)
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			if hd, ok := d.heading(h, copied); ok {
				d.Headings = append(d.Headings, hd)
			}
		}
	}
	d.PseudoHeadings = pseudoHeadings(d)
	if cap(d.Headings) > len(d.Headings)+len(d.Headings)/4 {
		// Held with the document as long as it is open: no spare room.
		d.Headings = slices.Clone(d.Headings)
	}
	d.Kind = detectKind(d)
	return d
}

// heading reads h; copied says whether d.Source is a copy of the text
// (changed where ParseIndexed changes it) rather than its own bytes.
func (d *Document) heading(h *ast.Heading, copied bool) (Heading, bool) {
	lines := h.Lines()
	if lines.Len() == 0 {
		return Heading{}, false
	}
	first, last := lines.At(0), lines.At(lines.Len()-1)
	startLine, endLine := d.Lines.LineOf(first.Start), d.Lines.LineOf(max(last.Stop-1, last.Start))
	// An ATX heading's content starts after its "#"s; a setext heading's at
	// the first non-blank byte of its line (which may itself be a "#").
	line := d.Lines.Line(startLine)
	indent := len(line) - len(strings.TrimLeft(line, " \t"))
	setext := first.Start == d.Lines.LineStart(startLine)+indent
	if setext && endLine+1 < d.Lines.LineCount() {
		endLine++ // the underline
	}
	inner := Span{first.Start, last.Stop}
	text := d.Text[inner.Start:inner.End] // the bytes the parser read, without a copy
	if copied {
		text = string(d.Source[inner.Start:inner.End])
	}
	return Heading{
		Level:  h.Level,
		Text:   strings.TrimSpace(text),
		Span:   Span{d.Lines.LineStart(startLine), d.Lines.LineEnd(endLine)},
		Inner:  inner,
		Setext: setext,
		Packet: PacketHeadingIndex(text),
	}, true
}

// parseFrontMatter finds a YAML block opened by "---" on the first line and
// closed by a "---" or "..." line. Without a closing line there is no front
// matter: the "---" is a thematic break.
// bareListMarker reports whether line is a list marker and nothing else
// ("-", "  *", "3.", "10)").
func bareListMarker(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	switch {
	case len(line) == 1 && (line[0] == '-' || line[0] == '*' || line[0] == '+'):
		return true
	case len(line) < 2 || len(line) > 10 || (line[len(line)-1] != '.' && line[len(line)-1] != ')'):
		return false
	}
	for _, c := range line[:len(line)-1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// bom is the UTF-8 byte-order mark.
const bom = "\ufeff"

func parseFrontMatter(text string) *FrontMatter {
	first, rest, ok := cutLine(text)
	if !ok || strings.TrimRight(strings.TrimPrefix(first, bom), " \t") != "---" {
		return nil
	}
	bodyStart := len(text) - len(rest)
	for off := bodyStart; off < len(text); {
		line, next, _ := cutLine(text[off:])
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			fm := &FrontMatter{Span: Span{0, off + len(line)}, Body: Span{bodyStart, off}}
			// One parse to a node serves both Data and the readers of
			// positions (yaml.Unmarshal is this parse plus this decode).
			var node yaml.Node
			var data map[string]any
			if err := yaml.Unmarshal([]byte(text[bodyStart:off]), &node); err != nil {
				fm.Err = err
			} else if fm.Node = &node; len(node.Content) > 0 {
				if data, err = decodeMapping(&node); err != nil {
					fm.Err = err
				} else {
					fm.Data = data
				}
			}
			return fm
		}
		if len(next) == 0 {
			break
		}
		off = len(text) - len(next)
	}
	return nil
}

// cutLine splits text after its first line break; line excludes the break.
func cutLine(text string) (line, rest string, hadBreak bool) {
	i := strings.IndexAny(text, "\r\n")
	if i < 0 {
		return text, "", false
	}
	j := i + 1
	if text[i] == '\r' && j < len(text) && text[j] == '\n' {
		j++
	}
	return text[:i], text[j:], true
}

// DropSyntax releases the goldmark syntax tree and the parser's copy of the
// text, once every analyzer has run: findings and models keep byte spans,
// not nodes. A language server holding many open documents calls it before
// it shares the document; nothing may read Root or Source afterwards.
func (d *Document) DropSyntax() {
	d.Root, d.Source = nil, nil
	if d.FrontMatter != nil {
		d.FrontMatter.Node = nil
	}
}

// String returns the text a span covers.
func (d *Document) String(s Span) string { return d.Text[s.Start:s.End] }

// PacketHeadings are the six section headings of a stop packet, in order.
var PacketHeadings = []string{
	"What I Just Did",
	"Why I Stopped",
	"What Needs Your Review",
	"What Happens Next",
	"Discussion Prompts",
	"What I Need From You",
}

// NormalizeHeading folds a heading's text for comparison: trimmed, an
// optional trailing colon and wrapping "**" or "__" removed, inner spaces
// collapsed, lower-cased.
func NormalizeHeading(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	for _, w := range []string{"**", "__"} {
		if len(s) > 2*len(w) && strings.HasPrefix(s, w) && strings.HasSuffix(s, w) {
			s = strings.TrimSpace(s[len(w) : len(s)-len(w)])
		}
	}
	s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	if singleSpaced(s) {
		return strings.ToLower(s) // s itself when it has no upper-case letter
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// singleSpaced reports whether s is ASCII with no white space but single
// spaces: strings.Fields and a join would give it back unchanged.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && i > 0 && s[i-1] == ' ':
			return false
		}
	}
	return true
}

// PacketHeadingIndex is the index in PacketHeadings of the heading text
// names, or -1.
func PacketHeadingIndex(text string) int {
	if len(text) > 64 { // longer than any packet heading, decoration included
		return -1
	}
	// Every packet heading starts with "What", "Why" or "Discussion": a
	// heading whose first letter (past spaces and emphasis) is another ASCII
	// one is none of them, without the normalising copies below. Anything
	// else (a non-ASCII space, say) takes the full comparison.
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' || c == '*' || c == '_' {
			continue
		}
		if c < 0x80 && c > ' ' && c|0x20 != 'w' && c|0x20 != 'd' {
			return -1
		}
		break
	}
	n := NormalizeHeading(text)
	for i, h := range PacketHeadings {
		if strings.EqualFold(n, h) {
			return i
		}
	}
	return -1
}

// Detector recognises one kind of document. The kinds' own packages
// hold their detectors; the engine lists them (SetDetectors).
type Detector struct {
	Kind Kind
	// Detect recognises a document of the kind by its text: ok, what
	// decided it (why; "" for the kind's name alone) and where (at; empty
	// for the whole document). It may note on the document what it found
	// for a later Confirm (Document.Components).
	Detect func(*Document) (why string, at Span, ok bool)
}

// detectors are tried in order; the first that recognises a document
// decides its kind. They are the document kinds' own, set by the engine
// (SetDetectors); a program that parses without it reads every document
// as of no kind.
var detectors []Detector

// SetDetectors sets the detectors Parse tries, in order. It is for the
// engine's kind values, at start-up, before any document is parsed.
func SetDetectors(ds []Detector) { detectors = ds }

func detectKind(d *Document) Kind {
	for _, det := range detectors {
		if why, at, ok := det.Detect(d); ok {
			d.KindWhy, d.KindSpan = why, at
			return det.Kind
		}
	}
	return KindOther
}

// DetectKind runs the detectors again on a parsed document, on a copy, and
// returns the kind and the reason Parse gave it: for tests and for the
// benchmark that weighs detection against the parse.
func DetectKind(d *Document) (Kind, string) {
	c := *d
	c.KindWhy, c.KindSpan, c.Components = "", Span{}, nil
	k := detectKind(&c)
	return k, c.KindWhy
}

// Trimmed drops trailing white space from a span, so a range ends on its
// last line of text.
func (d *Document) Trimmed(s Span) Span {
	s.End = s.Start + len(strings.TrimRight(d.String(s), " \t\r\n"))
	return s
}

// HeadingSections gives each heading the span up to the next heading of
// the same or a higher level.
func (d *Document) HeadingSections() []Span {
	out := make([]Span, len(d.Headings))
	for i, h := range d.Headings {
		end := len(d.Text)
		for _, n := range d.Headings[i+1:] {
			if n.Level <= h.Level {
				end = n.Span.Start
				break
			}
		}
		out[i] = Span{Start: h.Span.Start, End: end}
	}
	return out
}
