package workflow

import (
	"bytes"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// Detect is the workflow kind's detector (Detector): a document
// is an XMD workflow by its text when its front matter has XMD's keys, or
// it holds a code block XMD executes or a closed tag of XMD's own names
// (ownName). A document whose tags are only other capitalised names is no
// workflow by its text: MDX and Vue components, prompt files' <CRITICAL>
// and <TOPIC>, HTML in any case; such a tag makes it one only when it
// resolves (Confirm). A document it does not recognise keeps the other component
// tags it holds (Document.Components), for Confirm to resolve.
func Detect(d *markdown.Document) (why string, at markdown.Span, ok bool) {
	if why := xmdFrontMatter(d.FrontMatter); why != "" {
		return why, d.FrontMatter.Span, true
	}
	why, at, comps := scanComponentTags(d)
	if why != "" {
		return why, at, true
	}
	d.Components = comps
	return "", markdown.Span{}, false
}

// maxComponents bounds Document.Components: a workspace is asked about a
// few names, not every tag of a long page.
const maxComponents = 16

// xmdFrontMatter says which key makes front matter XMD's ("" for none):
// the keys its engine reserves (props, required, returns;
// packages/core/src/frontmatter.ts) or a workflow root's
// `workflow.components` bundle (`meta.workflow.components` beside a meta
// mapping).
func xmdFrontMatter(fm *markdown.FrontMatter) string {
	if fm == nil {
		return ""
	}
	for _, k := range []string{"props", "required", "returns"} {
		if _, ok := fm.Data[k]; ok {
			return "its front matter has XMD's `" + k + "` key"
		}
	}
	// Under a top-level meta mapping the engine's meta is that mapping, and
	// the bundle is its workflow (packages/core/src/frontmatter.ts,
	// parseMeta).
	w, _ := fm.Data["workflow"].(map[string]any)
	where := "workflow.components"
	if meta, ok := fm.Data["meta"].(map[string]any); ok {
		w, _ = meta["workflow"].(map[string]any)
		where = "meta.workflow.components"
	}
	if _, ok := w["components"]; ok {
		return "its front matter declares an XMD bundle (`" + where + "`)"
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
func scanComponentTags(d *markdown.Document) (why string, at markdown.Span, comps []markdown.TagRef) {
	if !mayHoldComponent(d.Source) && !mayHoldExecutableFence(d.Source) {
		return "", markdown.Span{}, nil
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
			own := ownName(string(name)) != ""
			wanted := own || (len(comps) < maxComponents && !slices.ContainsFunc(comps, func(t markdown.TagRef) bool { return t.Name == string(name) }))
			if end > at0+1 && isUpper(name[0]) && wanted && !escaped(d.Source, at0) && s.isXMDTag(at0) {
				name := string(name)
				switch ownName(name) {
				case "structural":
					why = "`<" + name + ">` is XMD's own construct"
				case "registered":
					why = "`<" + name + ">` is a component the XMD engine registers"
				case "host":
					why = "`<" + name + ">` is a component XMD's workflow host registers"
				}
				if why != "" {
					at = markdown.Span{Start: at0, End: end}
					return true
				}
				comps = append(comps, markdown.TagRef{Name: name, Span: markdown.Span{Start: at0, End: end}})
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
				at = markdown.Span{Start: n.Info.Segment.Start, End: n.Info.Segment.Stop}
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

// A document is an XMD workflow when it holds a component invocation that
// XMD's own boundary scanner reads as one (taras/executable.md,
// packages/core/src/scanner.ts, parseComponentTag): "<", a name starting
// with a capital letter ([A-Za-z0-9._]), attributes each a name
// ([A-Za-z0-9_-]) alone or with a "…", '…' or {…} value (or a {...spread}),
// then "/>", or ">" and, further on, "</Name>" spelled exactly so, outside
// the fenced code and code spans its children hold. Anything else is text
// to the engine: the template placeholders of ordinary Markdown (`Option
// <X>`, `<Low | Medium | High>`) and generic types (`array<Record>`,
// `Workflow<T>`) are never closed, so they invoke nothing and do not make
// a document a workflow.
//
// baton looks only at tags outside code and block quotes, as CommonMark
// reads the document, and bounds what the scanner does not: an opening tag
// is read for at most maxOpenTag bytes, nesting to maxTagDepth, beyond
// which the candidate is not taken for an invocation, and the whole
// reading to a budget of steps linear in the text. Unclosed tags nested in
// unclosed tags make the grammar's own reading quadratic or worse; past the
// budget, a candidate is taken for an invocation when its closing tag
// occurs anywhere after it, or the text holds a "/>".

const (
	maxOpenTag  = 8 << 10
	maxTagDepth = 64
)

// xmdScan reads candidate tags of one text by the engine's grammar.
type xmdScan struct {
	text []byte
	// budget is the steps left; once it is spent, exhausted is set and
	// every reading fails.
	budget    int
	exhausted bool
	// failed remembers the offsets where no element was read.
	failed map[int]bool
	// lastSelfClose is where "/>" last occurs (-1: nowhere), once looked
	// for.
	lastSelfClose int
	selfCloseRead bool
	// lastClose holds, per name, where "</Name>" last occurs (absent:
	// never), indexed in one pass when first asked: a tag whose name is
	// never closed after it fails without a scan of the rest of the text.
	lastClose map[string]int
}

// isXMDTag reports whether the text at start is a component invocation XMD
// closes: self-closing, or with its closing tag further on.
func (s *xmdScan) isXMDTag(start int) bool {
	if s.budget == 0 && !s.exhausted {
		s.budget = 32*len(s.text) + 1<<16
	}
	if s.exhausted {
		return s.roughTag(start)
	}
	_, ok := s.tag(start, 0)
	if s.exhausted {
		return s.roughTag(start)
	}
	return ok
}

// roughTag is the reading past the budget: "</Name>" after the tag at
// start, or a "/>" after it.
func (s *xmdScan) roughTag(start int) bool {
	pos := start + 1
	for pos < len(s.text) && (isASCIILetter(s.text[pos]) || isDigit(s.text[pos]) || s.text[pos] == '.' || s.text[pos] == '_') {
		pos++
	}
	if !s.selfCloseRead {
		s.lastSelfClose, s.selfCloseRead = bytes.LastIndex(s.text, []byte("/>")), true
	}
	return s.lastSelfClose >= pos || s.closerAt(string(s.text[start+1:pos])) >= pos
}

// closerAt is where "</name>" last occurs, or -1. The first call indexes
// every closing tag of the text in one pass: a page of many component
// names asked each in a search of its own.
func (s *xmdScan) closerAt(name string) int {
	if s.lastClose == nil {
		s.lastClose = map[string]int{}
		t := s.text
		for i := bytes.Index(t, []byte("</")); i >= 0; {
			end := i + 2
			for end < len(t) && (isASCIILetter(t[end]) || isDigit(t[end]) || t[end] == '.' || t[end] == '_') {
				end++
			}
			if end > i+2 && end < len(t) && t[end] == '>' {
				s.lastClose[string(t[i+2:end])] = i
			}
			j := bytes.Index(t[i+2:], []byte("</"))
			if j < 0 {
				break
			}
			i += 2 + j
		}
	}
	if last, ok := s.lastClose[name]; ok {
		return last
	}
	return -1
}

// spend takes n steps from the budget, reporting false once it is spent.
func (s *xmdScan) spend(n int) bool {
	s.budget -= n
	if s.budget < 0 {
		s.exhausted = true
	}
	return !s.exhausted
}

// tag parses a component element at start ("<"), returning its end.
func (s *xmdScan) tag(start, depth int) (int, bool) {
	t := s.text
	if depth > maxTagDepth || start+1 >= len(t) || t[start] != '<' || !isUpper(t[start+1]) || s.failed[start] || !s.spend(1) {
		return 0, false
	}
	end, ok := s.element(start, depth)
	if !ok && !s.exhausted {
		if s.failed == nil {
			s.failed = map[int]bool{}
		}
		s.failed[start] = true
	}
	return end, ok
}

// element is tag, once the checks are made.
func (s *xmdScan) element(start, depth int) (int, bool) {
	t := s.text
	pos := start + 1
	for pos < len(t) && (isASCIILetter(t[pos]) || isDigit(t[pos]) || t[pos] == '.' || t[pos] == '_') {
		pos++
	}
	name := string(t[start+1 : pos])
	limit := min(len(t), start+maxOpenTag)
	pos, ok := s.attributes(pos, limit)
	if !ok {
		return 0, false
	}
	pos = skipSpace(t, pos, limit)
	if pos < limit && t[pos] == '/' {
		if pos+1 < limit && t[pos+1] == '>' {
			return pos + 2, true
		}
		return 0, false
	}
	if pos >= limit || t[pos] != '>' {
		return 0, false
	}
	return s.children(pos+1, name, depth)
}

// attributes reads the attributes from pos up to limit, returning where
// "/" or ">" ends them.
func (s *xmdScan) attributes(pos, limit int) (int, bool) {
	t := s.text
	for {
		pos = skipSpace(t, pos, limit)
		if pos >= limit {
			return 0, false
		}
		if t[pos] == '/' || t[pos] == '>' {
			return pos, true
		}
		if t[pos] == '{' && pos+2 < limit && t[pos+1] == '.' && t[pos+2] == '.' {
			end := matchingBrace(t, pos, limit)
			if end < 0 || !s.spend(end-pos) {
				return 0, false
			}
			pos = end + 1
			continue
		}
		nameStart := pos
		for pos < limit && (isASCIILetter(t[pos]) || isDigit(t[pos]) || t[pos] == '_' || t[pos] == '-') {
			pos++
		}
		if pos == nameStart {
			return 0, false
		}
		pos = skipSpace(t, pos, limit)
		if pos >= limit || t[pos] != '=' {
			continue // a boolean attribute
		}
		pos = skipSpace(t, pos+1, limit)
		if pos >= limit {
			return 0, false
		}
		var end int
		switch t[pos] {
		case '"', '\'':
			end = tagClosingQuote(t, pos+1, limit, t[pos])
		case '{':
			end = matchingBrace(t, pos, limit)
		default:
			return 0, false
		}
		if end < 0 || !s.spend(end-pos) {
			return 0, false
		}
		pos = end + 1
	}
}

// children reads an element's content from pos to its "</name>",
// returning the offset after it: fenced code and code spans are skipped,
// nested elements read whole, as the engine's parseChildren does.
func (s *xmdScan) children(pos int, name string, depth int) (int, bool) {
	t := s.text
	closer := "</" + name + ">"
	if s.lastClose == nil && !s.spend(len(t)/16) { // the closers' index, once
		return 0, false
	}
	last := s.closerAt(name)
	for pos < len(t) {
		if pos > last || !s.spend(1) {
			return 0, false
		}
		if bytes.HasPrefix(t[pos:], []byte(closer)) {
			return pos + len(closer), true
		}
		if end, ok := fenceAt(t, pos); ok {
			pos = end
			continue
		}
		if t[pos] == '`' {
			if end := codeSpanEnd(t, pos); end >= 0 {
				pos = end
				continue
			}
		}
		if t[pos] == '<' && pos+1 < len(t) && isUpper(t[pos+1]) {
			if end, ok := s.tag(pos, depth+1); ok {
				pos = end
				continue
			}
		}
		pos++
	}
	return 0, false
}

// fenceAt reads a fenced code block opening at the start of the line at
// pos (up to three spaces, three or more backticks or tildes; a backtick
// fence's info string holds no backtick), returning the offset after its
// closing fence, or the end of the text when it is never closed.
func fenceAt(t []byte, pos int) (int, bool) {
	if pos > 0 && t[pos-1] != '\n' {
		return 0, false
	}
	i := pos
	for i < len(t) && i-pos < 3 && t[i] == ' ' {
		i++
	}
	if i >= len(t) || (t[i] != '`' && t[i] != '~') {
		return 0, false
	}
	c, n := t[i], 0
	for i < len(t) && t[i] == c {
		i++
		n++
	}
	if n < 3 {
		return 0, false
	}
	lineEnd := bytes.IndexByte(t[i:], '\n')
	info := t[i:]
	if lineEnd >= 0 {
		info = t[i : i+lineEnd]
	}
	if c == '`' && bytes.IndexByte(info, '`') >= 0 {
		return 0, false
	}
	if lineEnd < 0 {
		return len(t), true
	}
	for p := i + lineEnd + 1; p < len(t); {
		q := p
		for q < len(t) && q-p < 3 && t[q] == ' ' {
			q++
		}
		m := 0
		for q < len(t) && t[q] == c {
			q++
			m++
		}
		if m >= n {
			for q < len(t) && t[q] == ' ' {
				q++
			}
			if q >= len(t) {
				return len(t), true
			}
			if t[q] == '\n' {
				return q + 1, true
			}
		}
		nl := bytes.IndexByte(t[q:], '\n')
		if nl < 0 {
			return len(t), true
		}
		p = q + nl + 1
	}
	return len(t), true
}

// codeSpanEnd is the offset after the code span opening at pos (a run of
// backticks closed by a run of the same length), or -1 when none closes.
func codeSpanEnd(t []byte, pos int) int {
	p := pos
	for p < len(t) && t[p] == '`' {
		p++
	}
	n := p - pos
	for p < len(t) {
		if t[p] != '`' {
			p++
			continue
		}
		q := p
		for q < len(t) && t[q] == '`' {
			q++
		}
		if q-p == n {
			return q
		}
		p = q
	}
	return -1
}

// matchingBrace is the offset of the "}" closing the "{" at start, skipping
// quoted strings and template literals, or -1 before limit.
func matchingBrace(t []byte, start, limit int) int {
	depth := 0
	for pos := start; pos < limit; pos++ {
		switch c := t[pos]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return pos
			}
		case '"', '\'':
			end := tagClosingQuote(t, pos+1, limit, c)
			if end < 0 {
				return -1
			}
			pos = end
		case '`':
			end := templateEnd(t, pos, limit)
			if end < 0 {
				return -1
			}
			pos = end
		}
	}
	return -1
}

// templateEnd is the offset of the backtick closing the template literal
// at start, or -1.
func templateEnd(t []byte, start, limit int) int {
	for pos := start + 1; pos < limit; pos++ {
		switch t[pos] {
		case '`':
			return pos
		case '\\':
			pos++
		case '$':
			if pos+1 < limit && t[pos+1] == '{' {
				end := matchingBrace(t, pos+1, limit)
				if end < 0 {
					return -1
				}
				pos = end
			}
		}
	}
	return -1
}

// closingQuote is the offset of the quote q ending a string from pos
// (a backslash escapes the next byte), or -1.
func tagClosingQuote(t []byte, pos, limit int, q byte) int {
	for ; pos < limit; pos++ {
		switch t[pos] {
		case '\\':
			pos++
		case q:
			return pos
		}
	}
	return -1
}

// skipSpace skips JavaScript's ASCII white space.
func skipSpace(t []byte, pos, limit int) int {
	for pos < limit && strings.IndexByte(" \t\n\r\v\f", t[pos]) >= 0 {
		pos++
	}
	return pos
}

// The names XMD gives a meaning by themselves, wherever the document is:
// the language's structural constructs and the components its engine
// registers. A closed tag of one of them is XMD's own; any other
// capitalised tag is a component only when it resolves (a file, a bundle,
// a name the configuration registers), which the workflow kind decides
// with the workspace (see Detector.Confirm).

// structuralNames are the language's own constructs
// (taras/executable.md, packages/core/src/structural.ts, RESERVED_STRUCTURAL).
var structuralNames = nameSet("Content", "Output", "Return", "Let", "Each", "If", "Else", "Loop", "Break", "PrintErrors", "Answers", "Answer")

// registeredNames are the components the engine's packages register for every
// document `xmd run` and `xmd test` execute (packages/cli/src/cli.ts,
// installDocumentComponents): core's defaults (packages/core/src/components/registry.ts),
// its agent components (packages/core/src/agent/components.ts), the testing
// package's Testing, AssertThrows, its nested-execution harness and the
// ASSERTIONS table, bare Assert included (packages/testing/src/components.ts,
// execution-harness.ts, assertions.ts), the test agent's
// (packages/test-agent/src/components.ts) and WebForm (packages/web/src/components.ts).
// WhenPrompt is registered inside a test agent's worker, for the scripts it
// reads (packages/test-agent/src/worker/when-prompt.ts).
var registeredNames = nameSet(
	"Elicit", "TempDir", "Fetch", "File", "Glob", "Json", "Parse", "SafeParse", "Test",
	"AgentProvider", "Agent", "Session", "Session.Launch", "Prompt", "ApproveAll", "AskPermission",
	"Testing", "AssertThrows", "Execution", "WorkflowRun", "DiagnosticJournal", "CollectOutput", "CollectJournal",
	"Assert", "AssertFalse", "AssertExists", "AssertEquals", "AssertNotEquals", "AssertStrictEquals",
	"AssertNotStrictEquals", "AssertStringIncludes", "AssertMatch", "AssertNotMatch", "AssertGreater",
	"AssertGreaterOrEqual", "AssertLess", "AssertLessOrEqual",
	"TestAgent", "TestAgent.Scenario", "WhenPrompt", "WebForm")

// hostNames are registered only by the workflow host
// (packages/workflow/src/composition/installation.ts).
var hostNames = nameSet("Repository", "Worktree", "Dir", "Git.Switch", "Git.Add", "Git.Commit", "Git.Push",
	"PullRequest", "IssueTracker", "Issue")

// ownName says what XMD makes of name by itself: "structural" for its
// grammar, "registered" for a component its engine registers, "host" for
// one its workflow host registers, else "".
func ownName(name string) string {
	switch {
	case structuralNames[name]:
		return "structural"
	case registeredNames[name]:
		return "registered"
	case hostNames[name]:
		return "host"
	}
	return ""
}

func nameSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
