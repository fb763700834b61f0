// Package handoff checks clio-coder's /handoff review document: the Markdown
// an operator edits in $EDITOR before a fresh session is seeded with it. It
// reads the document into a model (goal, session line, sections, items with
// exact byte spans), applies clio's goal gate and bounds, and, when the
// environment can resolve the session, checks files against the session's
// read ledger and settled decisions against its decision board.
package handoff

import (
	"slices"
	"strconv"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"
	"github.com/baton-md/baton/internal/pages"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// ItemKind is what an item of a section is.
type ItemKind int

const (
	KindOther    ItemKind = iota // an item of a section clio does not render
	KindDecision                 // ## Decisions
	KindFact                     // ## Facts
	KindFile                     // ## Files and the dropped section
	KindCommand                  // ## Commands
	KindQuestion                 // ## Open questions
	KindBound                    // ## Bounds applied
)

var itemKindNames = [...]string{"other", "decision", "fact", "file", "command", "question", "bound"}

func (k ItemKind) String() string { return itemKindNames[k] }

// The canonical section names, in the order clio renders them.
const (
	Decisions     = "Decisions"
	Facts         = "Facts"
	Files         = "Files"
	Dropped       = "Dropped"
	Commands      = "Commands"
	OpenQuestions = "Open questions"
	BoundsApplied = "Bounds applied"
)

// DroppedHeading is the exact text of the heading (level 3) the renderer
// lists dropped paths under.
const DroppedHeading = "dropped (not in this session's read ledger)"

// sectionNames are the sections in render order.
var sectionNames = [...]string{Decisions, Facts, Files, Dropped, Commands, OpenQuestions, BoundsApplied}

var sectionKinds = map[string]ItemKind{
	Decisions: KindDecision, Facts: KindFact, Files: KindFile, Dropped: KindFile,
	Commands: KindCommand, OpenQuestions: KindQuestion, BoundsApplied: KindBound,
}

// lowerSectionNames are sectionNames lower-cased, as headings are compared
// with them, so that each heading does not lower-case every name again.
var lowerSectionNames = func() []string {
	out := make([]string, len(sectionNames))
	for i, n := range sectionNames {
		out[i] = strings.ToLower(n)
	}
	return out
}()

// CanonicalHeading is the heading line clio writes for a known section.
func CanonicalHeading(name string) string {
	if name == Dropped {
		return "### " + DroppedHeading
	}
	return "## " + name
}

// Doc is a handoff document as written.
type Doc struct {
	Title markdown.Span // the "# Handoff" heading; zero when the document has none

	Goal     string        // the goal, trimmed
	GoalSpan markdown.Span // the goal's text
	GoalLine markdown.Span // the whole **Goal:** line; zero when there is none

	SessionID   string        // the id the session line names, "" when none can be read
	SessionSpan markdown.Span // the id (inside the backticks when there are some)
	SessionLine markdown.Span // the whole "Carried from session" line; zero when there is none
	// SessionMalformed says how the session line differs from
	// "Carried from session `<id>`.", "" when it does not.
	SessionMalformed string

	Sections []*Section // in document order, unknown sections included
}

// HasGoal reports whether the document has a **Goal:** line.
func (d *Doc) HasGoal() bool { return d.GoalLine.Len() > 0 }

// HasSession reports whether the document has a "Carried from session" line.
func (d *Doc) HasSession() bool { return d.SessionLine.Len() > 0 }

// Section returns the first section named name, or nil.
func (d *Doc) Section(name string) *Section {
	for _, s := range d.Sections {
		if s.Known && s.Name == name {
			return s
		}
	}
	return nil
}

// Items returns the items of every section named one of names, in document
// order.
func (d *Doc) Items(names ...string) []*Item {
	var out []*Item
	for _, s := range d.Sections {
		if !s.Known {
			continue
		}
		for _, n := range names {
			if s.Name == n {
				out = append(out, s.Items...)
				break
			}
		}
	}
	return out
}

// SectionAt returns the section whose span holds offset, or nil.
func (d *Doc) SectionAt(offset int) *Section {
	for _, s := range d.Sections {
		if offset >= s.Span.Start && offset < s.Span.End {
			return s
		}
	}
	return nil
}

// ItemAt returns the item whose span holds offset, and its section.
func (d *Doc) ItemAt(offset int) (*Section, *Item) {
	s := d.SectionAt(offset)
	if s == nil {
		return nil, nil
	}
	for _, it := range s.Items {
		if offset >= it.Span.Start && offset <= it.Span.End {
			return s, it
		}
	}
	return s, nil
}

// Section is a heading and the text up to the next section heading.
type Section struct {
	// Name is the canonical name of a known section (Decisions, Facts,
	// Files, Dropped, Commands, Open questions, Bounds applied), else the
	// heading's text.
	Name    string
	Known   bool
	Index   int // the position of a known section in render order; -1 for an unknown one
	Heading markdown.Heading
	Span    markdown.Span // from the heading to the next section heading (or the end)
	Body    markdown.Span // after the heading's line
	Items   []*Item       // the items of the section's top-level lists
	// Stray are top-level blocks of the body that are not lists (headings
	// and HTML comments aside): text the renderer never writes there.
	Stray []markdown.Span
	// DuplicateOf is the earlier section with the same name, when this one
	// repeats it (a Glued section repeats the one that is not, wherever it
	// is).
	DuplicateOf *Section
	// Glued: the heading follows a line of text with no blank line
	// between, in a document whose other headings have one, as
	// renderHandoffDocument (src/domains/session/handoff.ts) writes every
	// heading it means. It is the text of a string clio rendered verbatim
	// (a fact holding "\n## Files\n…"), a section only to a Markdown
	// reader.
	Glued bool
}

// Item is one list item of a section.
type Item struct {
	Span     markdown.Span // from the list marker to the end of the item's text
	Text     string        // the item's text: after the marker, trimmed
	TextSpan markdown.Span
	Kind     ItemKind

	// Files, dropped files and commands: `Path`: Why (Path is a command's argv).
	Path, Why         string
	PathSpan, WhySpan markdown.Span

	// Decisions: the summary line and the rationale under it.
	Summary, Rationale         string
	SummarySpan, RationaleSpan markdown.Span
	Settled                    bool          // the summary line ends with _(settled)_
	SettledSpan                markdown.Span // the _(settled)_ marker

	// Bounds applied: the note, when it is one clio writes.
	Note *Note

	// Malformed says why the item does not have its section's form, "" when
	// it does.
	Malformed string
}

// Strings are the item's bounded strings with what each is, in order.
func (it *Item) Strings() []Field {
	var buf [2]Field
	if fs := it.fields(&buf); len(fs) > 0 {
		return slices.Clone(fs)
	}
	return nil
}

// fields is Strings written into buf: the rules read every item's strings,
// often several times, and a slice allocated per item each time costs more
// than the reading.
func (it *Item) fields(buf *[2]Field) []Field {
	switch it.Kind {
	case KindDecision:
		buf[0] = Field{"summary", it.Summary, it.SummarySpan}
		if it.RationaleSpan.Len() > 0 {
			buf[1] = Field{"rationale", it.Rationale, it.RationaleSpan}
			return buf[:2]
		}
		return buf[:1]
	case KindFact:
		buf[0] = Field{"fact", it.Text, it.TextSpan}
		return buf[:1]
	case KindQuestion:
		buf[0] = Field{"open question", it.Text, it.TextSpan}
		return buf[:1]
	case KindFile, KindCommand:
		if it.Malformed != "" {
			return nil
		}
		what := "path"
		if it.Kind == KindCommand {
			what = "argv"
		}
		buf[0], buf[1] = Field{what, it.Path, it.PathSpan}, Field{"why", it.Why, it.WhySpan}
		return buf[:2]
	}
	return nil
}

// Field is one bounded string of an item.
type Field struct {
	What string // summary, rationale, fact, path, why, argv, open question
	Text string
	Span markdown.Span
}

// Note is a line of "Bounds applied" in a form clio writes.
type Note struct {
	List string // decisions, facts, files, commands or openQuestions; "" for the cut note
	Kept int    // the list note's N (kept N of M)
	Of   int    // and M
	Cut  int    // the cut note's count of truncated strings
}

const settledMarker = "_(settled)_"

// Parse reads a document as a handoff document. It never fails: whatever
// does not have the expected form is recorded as such.
func Parse(doc *markdown.Document) *Doc {
	d := &Doc{}
	p := parser{doc: doc, text: doc.Text, d: d}
	p.sections()
	p.preamble()
	p.blocks()
	return d
}

type parser struct {
	doc  *markdown.Document
	text string
	d    *Doc
	// firstSection is where the first section starts (len(text) when there
	// is none); the preamble ends there.
	firstSection int
	starts       []int // list's buffer of item starts
}

func (p *parser) sections() {
	heads := p.doc.Headings
	if len(heads) > 0 && heads[0].Level == 1 && strings.EqualFold(heads[0].Text, "Handoff") {
		p.d.Title = heads[0].Span
		heads = heads[1:]
	}
	// The first section of each known name, by index: the name determines
	// the index, so this is a lookup by name.
	var seen [len(sectionNames)]*Section
	// One allocation for every section rather than one each.
	slab := make([]Section, 0, len(heads))
	glued, spaced := 0, 0
	for _, h := range heads {
		name, idx := canonicalName(h.Text)
		if idx < 0 && h.Level > 2 {
			continue // a sub-heading inside a section
		}
		slab = append(slab, Section{Name: name, Known: idx >= 0, Index: idx, Heading: h, Glued: p.glued(h)})
		s := &slab[len(slab)-1]
		if s.Glued {
			glued++
		} else {
			spaced++
		}
		if !s.Known {
			s.Name = h.Text
		}
		if p.d.Sections == nil {
			p.d.Sections = make([]*Section, 0, len(heads))
		}
		p.d.Sections = append(p.d.Sections, s)
	}
	// A document whose headings are mostly glued is written so by hand:
	// none of them is text clio rendered.
	if glued > spaced {
		for _, s := range p.d.Sections {
			s.Glued = false
		}
	}
	// The first of each known name is the first not glued; glued ones
	// repeat it.
	for _, pass := range []bool{false, true} {
		for _, s := range p.d.Sections {
			if !s.Known || s.Glued != pass {
				continue
			}
			if first := seen[s.Index]; first != nil {
				s.DuplicateOf = first
			} else {
				seen[s.Index] = s
			}
		}
	}
	end := len(p.text)
	for i := len(p.d.Sections) - 1; i >= 0; i-- {
		s := p.d.Sections[i]
		s.Span = markdown.Span{Start: s.Heading.Span.Start, End: end}
		body := s.Heading.Span.End
		if line := p.doc.Lines.LineOf(s.Heading.Span.End); line+1 < p.doc.Lines.LineCount() {
			body = p.doc.Lines.LineStart(line + 1)
		}
		s.Body = markdown.Span{Start: min(body, end), End: end}
		end = s.Span.Start
	}
	p.firstSection = end
}

// glued reports whether heading h follows a line that is not blank. The
// title and a heading on the first line are never glued.
func (p *parser) glued(h markdown.Heading) bool {
	ln := p.doc.Lines.LineOf(h.Span.Start)
	if ln == 0 {
		return false
	}
	prev := p.text[p.doc.Lines.LineStart(ln-1):p.doc.Lines.LineEnd(ln-1)]
	return strings.TrimSpace(prev) != ""
}

// canonicalName names the section a heading stands for, with its index in
// render order, or -1. Case, a trailing colon and emphasis are ignored; a
// heading that starts with "dropped" is the dropped section.
func canonicalName(text string) (string, int) {
	n := markdown.NormalizeHeading(text)
	for i, name := range sectionNames {
		if n == lowerSectionNames[i] && name != Dropped {
			return name, i
		}
	}
	if n == "dropped" || strings.HasPrefix(n, "dropped ") || strings.HasPrefix(n, "dropped(") {
		return Dropped, slices.Index(sectionNames[:], Dropped)
	}
	return "", -1
}

// preamble finds the goal and session lines: paragraph lines between the
// title and the first section.
func (p *parser) preamble() {
	lines := p.doc.Lines
	for n := p.doc.Root.FirstChild(); n != nil; n = n.NextSibling() {
		para, ok := n.(*ast.Paragraph)
		if !ok {
			continue
		}
		segs := para.Lines()
		for i := range segs.Len() {
			seg := segs.At(i)
			if seg.Start >= p.firstSection {
				return
			}
			ln := lines.LineOf(seg.Start)
			start, end := lines.LineStart(ln), lines.LineEnd(ln)
			raw := p.text[start:end]
			lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
			line := markdown.Span{Start: start + lead, End: start + len(strings.TrimRight(raw, " \t"))}
			if line.End < line.Start {
				continue
			}
			s := p.text[line.Start:line.End]
			switch {
			case strings.HasPrefix(s, "**Goal:**") && !p.d.HasGoal():
				p.goal(line)
			case strings.HasPrefix(s, "Carried from session") && !p.d.HasSession():
				p.session(line)
			}
		}
	}
}

func (p *parser) goal(line markdown.Span) {
	d := p.d
	d.GoalLine = line
	rest := line.Start + len("**Goal:**")
	raw := p.text[rest:line.End]
	lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
	d.GoalSpan = markdown.Span{Start: rest + lead, End: line.End}
	d.Goal = strings.TrimSpace(p.text[d.GoalSpan.Start:d.GoalSpan.End])
}

var (
	sessionExact = lazyre.New("^Carried from session `([^`]*)`\\.$")
	sessionLoose = lazyre.New("^Carried from session:?[ \t]+(`+)?[ \t]*([^`\\s]+?)[ \t]*`*[ \t]*\\.?$")
)

// matchSessionExact is sessionExact.FindStringSubmatchIndex(s) without the
// regular expression, which costs more than the rest of the preamble: the
// line clio writes is a fixed prefix and suffix around an id without
// backticks.
func matchSessionExact(s string) []int {
	const prefix, suffix = "Carried from session `", "`."
	if len(s) < len(prefix)+len(suffix) || !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) ||
		strings.IndexByte(s[len(prefix):len(s)-len(suffix)], '`') >= 0 {
		return nil
	}
	return []int{0, len(s), len(prefix), len(s) - len(suffix)}
}

func (p *parser) session(line markdown.Span) {
	d := p.d
	d.SessionLine = line
	s := p.text[line.Start:line.End]
	if m := matchSessionExact(s); m != nil {
		d.SessionSpan = markdown.Span{Start: line.Start + m[2], End: line.Start + m[3]}
		d.SessionID = s[m[2]:m[3]]
		if d.SessionID == "" {
			d.SessionMalformed = "the session id is empty"
		}
		return
	}
	if m := sessionLoose.FindStringSubmatchIndex(s); m != nil {
		d.SessionSpan = markdown.Span{Start: line.Start + m[4], End: line.Start + m[5]}
		d.SessionID = s[m[4]:m[5]]
		var why []string
		if strings.Count(s, "`") != 2 || s[m[4]-1] != '`' || m[5] >= len(s) || s[m[5]] != '`' {
			why = append(why, "the id is not in single backticks")
		}
		if !strings.HasSuffix(s, ".") {
			why = append(why, "the line does not end with a full stop")
		}
		if len(why) == 0 {
			why = append(why, "it is spelled differently")
		}
		d.SessionMalformed = strings.Join(why, ", and ")
		return
	}
	d.SessionMalformed = "no session id can be read from it"
}

// blocks reads each section's top-level blocks: list items, and stray text.
func (p *parser) blocks() {
	type block struct {
		n     ast.Node
		start int // the start of the block's first line
	}
	var bs []block
	for n := p.doc.Root.FirstChild(); n != nil; n = n.NextSibling() {
		if at := nodeStart(n); at >= 0 {
			bs = append(bs, block{n, p.doc.Lines.LineStart(p.doc.Lines.LineOf(at))})
		}
	}
	// Sections are in document order and their spans abut, so the section
	// of each block is found by moving forward from the last one rather
	// than by searching them all (SectionAt) for every block. Blocks start
	// in document order too; were one to start before the last, the search
	// starts over. Were the headings out of order (a span would end before
	// it starts), SectionAt answers.
	ordered := true
	for _, s := range p.d.Sections {
		ordered = ordered && s.Span.Start <= s.Span.End
	}
	sec := 0
	for i, b := range bs {
		var s *Section
		if ordered {
			if sec < len(p.d.Sections) && b.start < p.d.Sections[sec].Span.Start {
				sec = 0
			}
			for sec < len(p.d.Sections) && b.start >= p.d.Sections[sec].Span.End {
				sec++
			}
			if sec < len(p.d.Sections) && b.start >= p.d.Sections[sec].Span.Start {
				s = p.d.Sections[sec]
			}
		} else {
			s = p.d.SectionAt(b.start)
		}
		if s == nil || b.start < s.Body.Start {
			continue
		}
		end := s.Span.End
		if i+1 < len(bs) {
			end = min(end, bs[i+1].start)
		}
		switch n := b.n.(type) {
		case *ast.List:
			p.list(s, n, end)
		case *ast.Heading, *ast.HTMLBlock:
		default:
			if span := p.trim(markdown.Span{Start: b.start, End: end}); span.Len() > 0 && s.Known {
				s.Stray = append(s.Stray, span)
			}
		}
	}
}

// lineOf is lines.LineOf(offset) found from a line at or before it, which
// for consecutive items is a step or two rather than a search of every
// line. hint < 0 (or past offset) searches.
func lineOf(lines *markdown.LineIndex, hint, offset int) int {
	if hint < 0 || hint >= lines.LineCount() || lines.LineStart(hint) > offset {
		return lines.LineOf(offset)
	}
	for range 8 {
		if hint+1 >= lines.LineCount() || lines.LineStart(hint+1) > offset {
			return hint
		}
		hint++
	}
	return lines.LineOf(offset)
}

// nodeStart is the offset where a block begins, or -1.
func nodeStart(n ast.Node) int {
	if pos := n.Pos(); pos >= 0 {
		return pos
	}
	if l := n.Lines(); l != nil && l.Len() > 0 {
		return l.At(0).Start
	}
	return -1
}

// trim narrows a span to its text without surrounding white space.
// It runs for every item, so it scans the bytes itself rather than have
// strings.TrimLeft and TrimRight build a set from the cutset each call.
func (p *parser) trim(s markdown.Span) markdown.Span {
	start, end := s.Start, s.End
	for start < end && isBlank(p.text[start]) {
		start++
	}
	if start == end {
		return markdown.Span{Start: s.Start, End: s.Start}
	}
	for end > start && isBlank(p.text[end-1]) {
		end--
	}
	return markdown.Span{Start: start, End: end}
}

// isBlank reports whether c is one of the bytes trim drops.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (p *parser) list(s *Section, l *ast.List, end int) {
	starts := p.starts[:0]
	for c := l.FirstChild(); c != nil; c = c.NextSibling() {
		if at := c.Pos(); at >= 0 && at < end {
			starts = append(starts, at)
		}
	}
	p.starts = starts // reused by the next list
	kind := KindOther
	if s.Known {
		kind = sectionKinds[s.Name]
	}
	// Lists run to thousands of items: allocate them together, and the
	// section's slice once (when an item is added: a section without items
	// keeps a nil slice).
	slab := make([]Item, len(starts))
	pages.Touch(slab) // an item's strings are stored first: see package pages
	ln := -1
	for i, start := range starts {
		stop := end
		if i+1 < len(starts) {
			ln = lineOf(p.doc.Lines, ln, starts[i+1])
			stop = p.doc.Lines.LineStart(ln)
		}
		if stop < start {
			continue
		}
		it := &slab[i]
		p.item(it, kind, start, stop)
		s.Items = append(slices.Grow(s.Items, len(starts)-i), it)
	}
}

// item reads the item from start to stop into it, a zero Item, as an item
// of kind.
func (p *parser) item(it *Item, kind ItemKind, start, stop int) {
	markerEnd := start
	switch {
	case markerEnd < stop && strings.IndexByte("-*+", p.text[markerEnd]) >= 0:
		markerEnd++
	default:
		for markerEnd < stop && p.text[markerEnd] >= '0' && p.text[markerEnd] <= '9' {
			markerEnd++
		}
		if markerEnd < stop && (p.text[markerEnd] == '.' || p.text[markerEnd] == ')') {
			markerEnd++
		}
	}
	content := p.trim(markdown.Span{Start: markerEnd, End: stop})
	if content.Len() == 0 {
		content = markdown.Span{Start: markerEnd, End: markerEnd}
	}
	// it is zero: set the fields one by one rather than copy a whole Item
	// into the heap.
	it.Span = markdown.Span{Start: start, End: max(content.End, markerEnd)}
	it.TextSpan = content
	it.Text = p.text[content.Start:content.End]
	it.Kind = kind
	if it.Text == "" {
		if kind != KindOther {
			it.Malformed = "the item is empty"
		}
		return
	}
	switch kind {
	case KindDecision:
		p.decision(it)
	case KindFile, KindCommand:
		p.pathItem(it)
	case KindBound:
		it.Note = parseNote(it.Text)
		if it.Note == nil {
			it.Malformed = "the line is not a note clio writes under Bounds applied (\"<list>: kept N of M; the rest were dropped by the <list> bound\" or \"K entries were cut to 512 bytes and marked with " + TruncationMarker + "\")"
		}
	}
}

func (p *parser) decision(it *Item) {
	c := it.TextSpan
	first := c.End
	if i := strings.IndexAny(it.Text, "\r\n"); i >= 0 {
		first = c.Start + i
	}
	summary := p.trim(markdown.Span{Start: c.Start, End: first})
	if strings.HasSuffix(p.text[summary.Start:summary.End], settledMarker) {
		it.Settled = true
		it.SettledSpan = markdown.Span{Start: summary.End - len(settledMarker), End: summary.End}
		summary = p.trim(markdown.Span{Start: summary.Start, End: it.SettledSpan.Start})
	}
	it.SummarySpan = summary
	it.Summary = p.text[summary.Start:summary.End]
	if first < c.End {
		r := p.trim(markdown.Span{Start: first, End: c.End})
		it.RationaleSpan = r
		it.Rationale = p.text[r.Start:r.End]
	}
	if it.Summary == "" {
		it.Malformed = "the decision has no summary"
	}
}

// The messages of an item not in its section's form, written out rather
// than built for every item.
const (
	pathForm    = "the item is not in the form \"- `path`: why\""
	commandForm = "the item is not in the form \"- `command`: why\""
)

// pathItem reads "`x`: why".
func (p *parser) pathItem(it *Item) {
	what, form := "path", pathForm
	if it.Kind == KindCommand {
		what, form = "command", commandForm
	}
	t, c := it.Text, it.TextSpan
	if !strings.HasPrefix(t, "`") {
		it.Malformed = form
		return
	}
	i := strings.Index(t[1:], "`:")
	if i < 0 {
		it.Malformed = form
		if strings.Count(t, "`") >= 2 {
			it.Malformed += " (no \": \" after the closing backtick)"
		}
		return
	}
	i++ // the closing backtick's index in t
	it.PathSpan = markdown.Span{Start: c.Start + 1, End: c.Start + i}
	it.Path = t[1:i]
	why := p.trim(markdown.Span{Start: c.Start + i + 2, End: c.End})
	if why.Len() > 0 {
		it.WhySpan, it.Why = why, p.text[why.Start:why.End]
	} else {
		it.WhySpan = markdown.Span{Start: c.End, End: c.End}
	}
	// A backtick inside the path or argv is how clio renders one that
	// holds it: verbatim (renderHandoffDocument writes "- `${path}`:
	// ${why}"). It is read up to the first "`:", as written.
	switch {
	case strings.TrimSpace(it.Path) == "":
		it.Malformed = "the " + what + " is empty"
	case i+2 < len(t) && t[i+2] != ' ' && t[i+2] != '\t' && t[i+2] != '\n' && t[i+2] != '\r':
		it.Malformed = form + " (a space after the colon)"
	case it.Why == "":
		it.Malformed = "the item gives no why after the " + what
	}
}

var (
	listNote = lazyre.New(`^(decisions|facts|files|commands|openQuestions): kept (\d{1,9}) of (\d{1,9}); the rest were dropped by the (decisions|facts|files|commands|openQuestions) bound$`)
	cutNote  = lazyre.New(`^(\d{1,9}) (entry was|entries were) cut to 512 bytes and marked with …\[truncated\]$`)
)

// parseNote reads a Bounds applied line clio writes, or returns nil.
func parseNote(s string) *Note {
	if m := listNote.FindStringSubmatch(s); m != nil && m[1] == m[4] {
		kept, _ := strconv.Atoi(m[2])
		of, _ := strconv.Atoi(m[3])
		return &Note{List: m[1], Kept: kept, Of: of}
	}
	if m := cutNote.FindStringSubmatch(s); m != nil {
		k, _ := strconv.Atoi(m[1])
		return &Note{Cut: k}
	}
	return nil
}

// String is the note as clio writes it.
func (n *Note) String() string {
	if n.List != "" {
		return n.List + ": kept " + strconv.Itoa(n.Kept) + " of " + strconv.Itoa(n.Of) + "; the rest were dropped by the " + n.List + " bound"
	}
	return CutNote(n.Cut)
}

// CutNote is the note clio writes when k strings were cut.
func CutNote(k int) string {
	verb := "entries were"
	if k == 1 {
		verb = "entry was"
	}
	return strconv.Itoa(k) + " " + verb + " cut to " + strconv.Itoa(MaxStringBytes) + " bytes and marked with " + TruncationMarker
}
