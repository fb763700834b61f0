package analysis

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
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
	Root   ast.Node

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

	xmdScanned bool   // the XMD evidence below was looked for
	xmdWhy     string // the text's own evidence of XMD, or ""
	xmdSpan    Span   // where it is written
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
	d.nestingCut = capNesting(d.Source, own) + 1
	d.Root = parseMarkdown(d.Source)
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			if hd, ok := d.heading(h); ok {
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

func (d *Document) heading(h *ast.Heading) (Heading, bool) {
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
	return Heading{
		Level:  h.Level,
		Text:   strings.TrimSpace(string(d.Source[inner.Start:inner.End])),
		Span:   Span{d.Lines.LineStart(startLine), d.Lines.LineEnd(endLine)},
		Inner:  inner,
		Setext: setext,
		Packet: PacketHeadingIndex(string(d.Source[inner.Start:inner.End])),
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
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
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

// Detector recognises one kind of document.
type Detector struct {
	Kind   Kind
	Detect func(*Document) bool
	// Why says, of a document Detect recognised, what decided it (nil: the
	// kind's name alone).
	Why func(*Document) string
	// Confirm, when set, recognises from its environment a document that
	// its text alone left of no kind (an XMD component that resolves to a
	// file of the workspace): ok and why as Detect and Why would say, at
	// the span that decided. When it does not, why may say what it looked
	// for, and at where.
	Confirm func(*Document, Env) (why string, at Span, ok bool)
}

// detectors are tried in order; the first that recognises a document
// decides its kind. They are the document kinds' own (engine.Kinds sets
// them with SetDetectors); these are the same, for a program that parses
// without the engine.
var detectors = DefaultDetectors()

// DefaultDetectors are the built-in kinds' detectors, in order. Without
// the engine no environment confirms a kind.
func DefaultDetectors() []Detector {
	return []Detector{{KindHandoff, IsClioHandoff, HandoffWhy, nil}, {KindPacket, IsStopMessage, StopMessageWhy, nil}, {KindWorkflow, IsXMD, XMDWhy, nil}}
}

// SetDetectors sets the detectors Parse tries, in order. It is for the
// engine's kind values, at start-up, before any document is parsed.
func SetDetectors(ds []Detector) { detectors = ds }

func detectKind(d *Document) Kind {
	for _, det := range detectors {
		if det.Detect(d) {
			if det.Why != nil {
				d.KindWhy = det.Why(d)
			}
			if det.Kind == KindWorkflow {
				d.KindSpan = d.xmdSpan
			}
			return det.Kind
		}
	}
	// A document of no kind still says which tags might make it a workflow.
	d.scanXMD()
	return KindOther
}

// DetectKind runs the detectors again on a parsed document, on a copy, and
// returns the kind and the reason Parse gave it: for tests and for the
// benchmark that weighs detection against the parse.
func DetectKind(d *Document) (Kind, string) {
	c := *d
	c.KindWhy, c.KindSpan, c.Components = "", Span{}, nil
	c.xmdScanned, c.xmdWhy, c.xmdSpan = false, "", Span{}
	k := detectKind(&c)
	return k, c.KindWhy
}

// KindIn is the kind of doc in its environment: the kind cfg forces (a
// .baton.yaml override's kind), else the kind its text shows, else the
// kind a detector's Confirm finds in env. The document is returned as it
// is when its kind stands, else as a copy that differs only in Kind and
// KindWhy (a document is shared and never changed).
func KindIn(doc *Document, cfg *Config, env Env) *Document {
	if cfg != nil && cfg.Kind != nil {
		if *cfg.Kind == doc.Kind {
			return doc
		}
		return withKind(doc, *cfg.Kind, "the configuration says so ("+cfg.KindFrom+")", Span{})
	}
	if doc.Kind != KindOther || len(doc.Components) == 0 || doc.TooLarge > 0 {
		return doc
	}
	other, otherAt := "", doc.Components[0].Span
	for _, det := range detectors {
		if det.Confirm == nil {
			continue
		}
		why, at, ok := det.Confirm(doc, env)
		if ok {
			return withKind(doc, det.Kind, why, at)
		}
		if other == "" {
			other, otherAt = why, at
		}
	}
	if other == "" {
		other = "`<" + doc.Components[0].Name + ">` resolves to no component here, and nothing else shows XMD"
	}
	return withKind(doc, KindOther, other, otherAt)
}

func withKind(doc *Document, k Kind, why string, at Span) *Document {
	c := *doc
	c.Kind, c.KindWhy, c.KindSpan = k, why, at
	return &c
}

// IsHandoff recognises the review document clio-coder's /handoff renders
// (renderHandoffDocument in clio-coder's src/domains/session/handoff.ts):
// the lines "# Handoff", "**Goal:** <goal>" and "Carried from session
// `<id>`.", each a block of its own, then those of the sections
// "## Decisions", "## Facts", "## Files", "### dropped (not in this
// session's read ledger)", "## Commands", "## Open questions" and
// "## Bounds applied" that have items, in that order, each a list. A
// "# Handoff" title with a goal is a shape anyone writes, so it decides
// nothing; the session line, which clio always writes, does. A document is
// a handoff when its first heading is "# Handoff" (any case) and
//
//   - a paragraph line before the next heading starts with "Carried from
//     session" (where the handoff rules read the session line); or
//   - the rest is clio's layout exactly, so that an operator who deleted or
//     mangled that line in $EDITOR is told: "# Handoff" as clio writes it,
//     first; then the one line "**Goal:** …"; at most one line in the
//     session line's place that still says "session" or "carried";
//     then one or more of clio's section headings as clio writes them, in
//     its order, each once, with nothing but lists (and HTML comments)
//     under them.
//
// Anything else, a note with sections of its own or prose in them, is
// someone else's format.
func IsHandoff(d *Document) bool {
	if len(d.Headings) == 0 || d.Headings[0].Level != 1 || !strings.EqualFold(d.Headings[0].Text, "Handoff") {
		return false
	}
	line := func(n ast.Node, i int) string { // paragraph n's line i, indent aside
		return strings.TrimLeft(d.Lines.Line(d.Lines.LineOf(n.Lines().At(i).Start)), " \t")
	}
	if hasSessionLine(d) {
		return true
	}
	sections := [...]struct {
		level int
		text  string
	}{
		{2, "Decisions"}, {2, "Facts"}, {2, "Files"}, {3, "dropped (not in this session's read ledger)"},
		{2, "Commands"}, {2, "Open questions"}, {2, "Bounds applied"},
	}
	if d.Headings[0].Text != "Handoff" || d.Headings[0].Setext {
		return false
	}
	// heads and paras count the headings and paragraphs seen; next is the
	// first index in sections the next heading may have.
	heads, paras, next := 0, 0, 0
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Lines().Len() == 0 || heads == len(d.Headings) {
				return false // an empty heading: not in d.Headings, and not clio's
			}
			h := d.Headings[heads]
			heads++
			if heads == 1 {
				if n.PreviousSibling() != nil {
					return false
				}
				continue
			}
			if paras == 0 || h.Setext {
				return false
			}
			for next < len(sections) && (sections[next].level != h.Level || sections[next].text != h.Text) {
				next++
			}
			if next == len(sections) {
				return false
			}
			next++
		case *ast.Paragraph:
			if heads != 1 || n.Lines().Len() != 1 {
				return false
			}
			switch s := line(n, 0); {
			case paras == 0 && strings.HasPrefix(s, "**Goal:**"):
			case paras == 1 && (strings.Contains(strings.ToLower(s), "session") || strings.Contains(strings.ToLower(s), "carried")):
			default:
				return false
			}
			paras++
		case *ast.List:
			if heads < 2 {
				return false
			}
		case *ast.HTMLBlock:
			if n.HTMLBlockType != ast.HTMLBlockType2 {
				return false
			}
		default:
			return false
		}
	}
	return heads > 1
}

// IsStopMessage recognises a stop message: a packet (three of the six
// packet headings as headings), or a marker-only continue or intermediate
// message.
func IsStopMessage(d *Document) bool {
	return packetHeadingsSeen(d) >= 3 || hasStopIntentMarker(d)
}

// packetHeadingsSeen counts the distinct packet sections the document's own
// headings name.
func packetHeadingsSeen(d *Document) int {
	seen := 0
	var have [8]bool
	for _, hs := range [2][]Heading{d.Headings, d.PseudoHeadings} {
		for _, h := range hs {
			if i := h.Packet; i >= 0 && !have[i] {
				have[i] = true
				seen++
			}
		}
	}
	return seen
}

// IsXMD recognises an XMD workflow by what only XMD shows: front matter
// with XMD's keys, or a closed tag, outside code, of XMD's structural
// grammar or of a component its engine registers (XMDOwnName). A document
// whose tags are only other capitalised names is no workflow by its text:
// MDX and Vue components, prompt files' <CRITICAL> and <TOPIC>, HTML in
// any case. Such a tag makes it one only when it resolves (see
// Detector.Confirm).
func IsXMD(d *Document) bool { d.scanXMD(); return d.xmdWhy != "" }

// XMDWhy is what made a document a workflow by its text.
func XMDWhy(d *Document) string { d.scanXMD(); return d.xmdWhy }

// StopMessageWhy is what made a document a stop message.
func StopMessageWhy(d *Document) string {
	if seen := packetHeadingsSeen(d); seen >= 3 {
		return fmt.Sprintf("%d of the six packet headings", seen)
	}
	return "a stop-intent marker"
}

// hasSessionLine reports clio's session line ("Carried from session …")
// starting a line of a top-level paragraph before the title's first
// section, where the handoff parser reads it.
func hasSessionLine(d *Document) bool {
	if len(d.Headings) == 0 || !strings.Contains(d.Text, "Carried from session") {
		return false
	}
	end := len(d.Text)
	if len(d.Headings) > 1 {
		end = d.Headings[1].Span.Start
	}
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		if _, ok := n.(*ast.Paragraph); !ok {
			continue
		}
		for i := 0; i < n.Lines().Len() && n.Lines().At(i).Start < end; i++ {
			l := strings.TrimLeft(d.Lines.Line(d.Lines.LineOf(n.Lines().At(i).Start)), " \t")
			if strings.HasPrefix(l, "Carried from session") {
				return true
			}
		}
	}
	return false
}

// HandoffWhy is what made a document a clio-coder handoff.
func HandoffWhy(d *Document) string {
	if !IsHandoff(d) {
		return "a `" + TaskMemoryLanguage + "` snapshot block of clio-coder's context-handoff"
	}
	if hasSessionLine(d) {
		return "a \"# Handoff\" title with clio-coder's session line"
	}
	return "a \"# Handoff\" title with clio-coder's structure"
}

// maxComponents bounds Document.Components: a workspace is asked about a
// few names, not every tag of a long page.
const maxComponents = 16

// scanXMD looks, once, for the text's own evidence of XMD, and lists the
// other component tags while it has none.
func (d *Document) scanXMD() {
	if d.xmdScanned {
		return
	}
	d.xmdScanned = true
	if why := xmdFrontMatter(d.FrontMatter); why != "" {
		d.xmdWhy, d.xmdSpan = why, d.FrontMatter.Span
		return
	}
	d.xmdWhy, d.xmdSpan, d.Components = scanComponentTags(d)
	if d.xmdWhy != "" {
		d.Components = nil
	}
}

var stopIntentLike = regexp.MustCompile(`(?i)<!--[^>]*stop[\s_-]*intent`)

// hasStopIntentMarker reports a stop-intent marker (or a near miss) in the
// document's own HTML.
func hasStopIntentMarker(d *Document) bool {
	return stopIntentLike.MatchString(d.Text) && walkHTML(d, func(b []byte) bool { return stopIntentLike.Match(b) })
}

// xmdFrontMatter says which key makes front matter XMD's ("" for none):
// the keys its engine reserves (props, required, returns;
// packages/core/src/frontmatter.ts) or a workflow root's
// `workflow.components` bundle.
func xmdFrontMatter(fm *FrontMatter) string {
	if fm == nil {
		return ""
	}
	for _, k := range []string{"props", "required", "returns"} {
		if _, ok := fm.Data[k]; ok {
			return "its front matter has XMD's `" + k + "` key"
		}
	}
	w, _ := fm.Data["workflow"].(map[string]any)
	if _, ok := w["components"]; ok {
		return "its front matter declares an XMD bundle (`workflow.components`)"
	}
	return ""
}

// scanComponentTags reads the component invocations, as XMD's scanner
// reads one (see xmdScan), starting in the document's text or HTML outside
// code and block quotes: in CommonMark's reading a component is raw HTML
// when its attributes look like HTML's, and text otherwise ({...spread},
// <Session.Launch>). HTML comments are passed over. It stops at the first
// tag of XMD's own (why says which); until then it lists the others that
// are not HTML.
func scanComponentTags(d *Document) (why string, at Span, comps []TagRef) {
	if !mayHoldComponent(d.Source) && !mayHoldExecutableFence(d.Source) {
		return "", Span{}, nil
	}
	s := xmdScan{text: d.Source}
	try := func(start, stop int) bool {
		seg := d.Source[start:stop]
		if bytes.HasPrefix(seg, []byte("<!--")) {
			return false
		}
		for i := bytes.IndexByte(seg, '<'); i >= 0; {
			at0 := start + i
			end := at0 + 1
			for end < len(d.Source) && (isASCIILetter(d.Source[end]) || isDigit(d.Source[end]) || d.Source[end] == '.' || d.Source[end] == '_') {
				end++
			}
			// The grammar is read only where its answer matters: for XMD's
			// own names, and for a name not yet listed while there is room.
			name := d.Source[at0+1 : end]
			own := XMDOwnName(string(name)) != ""
			wanted := own || (len(comps) < maxComponents && !slices.ContainsFunc(comps, func(t TagRef) bool { return t.Name == string(name) }))
			if end > at0+1 && isUpper(name[0]) && wanted && !escaped(d.Source, at0) && s.isXMDTag(at0) {
				name := string(name)
				switch XMDOwnName(name) {
				case "structural":
					why = "`<" + name + ">` is XMD's own construct"
				case "registered":
					why = "`<" + name + ">` is a component the XMD engine registers"
				case "host":
					why = "`<" + name + ">` is a component XMD's workflow host registers"
				}
				if why != "" {
					at = Span{Start: at0, End: end}
					return true
				}
				comps = append(comps, TagRef{Name: name, Span: Span{Start: at0, End: end}})
			}
			j := bytes.IndexByte(seg[i+1:], '<')
			if j < 0 {
				break
			}
			i += 1 + j
		}
		return false
	}
	found := false
	_ = ast.Walk(d.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			if n.Info != nil && executableInfo(n.Info.Segment.Value(d.Source)) {
				why, found = "a code block XMD executes (`"+string(bytes.TrimSpace(n.Info.Segment.Value(d.Source)))+"`)", true
				at = Span{Start: n.Info.Segment.Start, End: n.Info.Segment.Stop}
				return ast.WalkStop, nil
			}
			return ast.WalkSkipChildren, nil
		case *ast.Blockquote, *ast.CodeBlock, *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			if segs := n.Lines(); segs.Len() > 0 {
				found = try(segs.At(0).Start, segs.At(segs.Len()-1).Stop)
			}
		case *ast.RawHTML:
			if segs := n.Segments; segs.Len() > 0 {
				found = try(segs.At(0).Start, segs.At(segs.Len()-1).Stop)
			}
		case *ast.Text:
			found = try(n.Segment.Start, n.Segment.Stop)
		}
		if found {
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return why, at, comps
}

// escaped reports a "<" at i that a backslash escapes, so CommonMark reads
// it as a literal "<", not a tag: an odd run of backslashes before it.
func escaped(src []byte, i int) bool {
	n := 0
	for i-n > 0 && src[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// executableInfo reports a fenced code block's info string that makes it
// executable to XMD: `exec` or `eval`, case-sensitive, among the words
// after the language (the language specification, §3.2 "Detection rule").
func executableInfo(info []byte) bool {
	first := true
	for w := range bytes.FieldsSeq(info) {
		if !first && (string(w) == "exec" || string(w) == "eval") {
			return true
		}
		first = false
	}
	return false
}

// mayHoldExecutableFence reports a line of src that may open a code block
// XMD executes: "```" or "~~~" and an info string with an exec or eval
// word (see executableInfo). Most documents have none, and are not walked.
// Only what may precede a fence on its line (indentation and the markers
// of block quotes and list items) comes before it, none of them a backtick
// or a tilde: the first one on a line is the only place a fence may open
// there, and each line is read once. Trying every "```" of a line read the
// rest of the line again at each: a line of 20,000 took 4 s.
func mayHoldExecutableFence(src []byte) bool {
	for rest := src; len(rest) > 0; {
		line := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		i := bytes.IndexAny(line, "`~")
		if i < 0 {
			continue
		}
		c, n := line[i], i
		for n < len(line) && line[n] == c {
			n++
		}
		// A backtick fence's info string holds no backtick.
		info := line[n:]
		if n-i >= 3 && (c == '~' || bytes.IndexByte(info, '`') < 0) && executableInfo(info) {
			return true
		}
	}
	return false
}

// mayHoldComponent reports a "<" before a capital letter anywhere in src.
func mayHoldComponent(src []byte) bool {
	for i := bytes.IndexByte(src, '<'); i >= 0 && i+1 < len(src); {
		if isUpper(src[i+1]) {
			return true
		}
		j := bytes.IndexByte(src[i+1:], '<')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// walkHTML reports whether match holds for the text of any HTML block or
// inline HTML outside code and block quotes.
func walkHTML(d *Document, match func([]byte) bool) bool {
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
