package packet

import (
	"bytes"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/internal/ascii"
	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"
)

// BuildWith finds the packets of a document and reads each one's
// consistency contract with the built-in phrase lists, extended by
// configuration (cfg may be nil). A
// heading already seen in the current packet starts the next packet when it
// and the packet headings after it make three different ones before any
// repeats; otherwise it is a duplicate section.
func BuildWith(doc *markdown.Document, cfg *analysis.Config) *Model {
	type head struct {
		h     markdown.Heading
		index int
	}
	all := doc.AllHeadings()
	heads := make([]head, 0, len(all))
	started := false
	// The headings enclosing the current one, outermost first: their levels
	// only increase, so there are six at most.
	var encl [6]level
	outline := encl[:0]
	for _, h := range all {
		for len(outline) > 0 && outline[len(outline)-1].level >= h.Level {
			outline = outline[:len(outline)-1]
		}
		i := h.Packet
		if i >= 0 && nested(outline) {
			// A packet written under a section of another document (a
			// specification's "## Packet Contract", a template's "## Final
			// Stop Message") describes packets: it is not one.
			i = -1
		}
		// i, not h.Packet: what lies under a describing heading is nested too.
		outline = append(outline, level{h.Level, i})
		if i >= 0 {
			started = true
		}
		if i >= 0 || (started && h.Level <= 2) {
			heads = append(heads, head{h, i})
		}
	}

	m := &Model{}
	pt := newProseText(doc)
	defer pt.release()
	var cur *Packet
	// The heading indices, once: a file of many packets asks startsPacket
	// about the rest of them at every packet.
	indices := make([]int, len(heads))
	for j, hd := range heads {
		indices[j] = hd.index
	}
	var seen [numSections]*Section
	for j, hd := range heads {
		s := &Section{Index: hd.index, Heading: hd.h}
		if hd.index >= 0 && seen[hd.index] != nil {
			if startsPacket(indices[j:]) {
				cur = nil
			} else {
				s.DuplicateOf = seen[hd.index]
			}
		}
		if cur == nil {
			cur = &Packet{}
			m.Packets = append(m.Packets, cur)
			seen = [numSections]*Section{}
		}
		if hd.index >= 0 && seen[hd.index] == nil {
			seen[hd.index] = s
		}
		cur.Sections = append(cur.Sections, s)
	}
	if len(m.Packets) == 0 {
		return finish(doc, cfg, m, pt)
	}

	// Spans: a section runs to the next section heading; a packet from its
	// first heading (the first packet: from the top) to the next packet.
	end := len(doc.Text)
	for pi := len(m.Packets) - 1; pi >= 0; pi-- {
		p := m.Packets[pi]
		for si := len(p.Sections) - 1; si >= 0; si-- {
			s := p.Sections[si]
			s.Span = markdown.Span{Start: s.Heading.Span.Start, End: end}
			bodyStart := s.Heading.Span.End
			if line := doc.Lines.LineOf(s.Heading.Span.End); line+1 < doc.Lines.LineCount() {
				bodyStart = doc.Lines.LineStart(line + 1)
			}
			s.Body = markdown.Span{Start: min(bodyStart, end), End: end}
			end = s.Span.Start
		}
		p.Span = markdown.Span{Start: p.Sections[0].Span.Start, End: p.Sections[len(p.Sections)-1].Span.End}
	}
	m.Packets[0].Span.Start = 0

	first := m.Packets[0]
	first.BoundaryFrom = frontMatterString(doc.FrontMatter, "from_boundary")
	first.BoundaryTo = frontMatterString(doc.FrontMatter, "to_boundary")
	if fm := doc.FrontMatter; fm != nil && fm.Data != nil {
		_, first.GateRecord = fm.Data["gate"]
	}

	markers := findMarkers(doc, pt.html)
	owners := make([]*Packet, len(markers))
	for k, mk := range markers {
		owners[k] = ownerOf(doc, m, mk.Span)
		owners[k].Markers = append(owners[k].Markers, mk)
	}
	for k, mk := range markers {
		// A marker written first, alone on the line before a later packet's
		// first heading, starts that packet: the previous one ends there.
		p := owners[k]
		line := doc.Lines.LineOf(mk.Span.Start)
		if p == m.Packets[0] || mk.Span.End > p.Span.Start || strings.TrimSpace(doc.Lines.Line(line)) != doc.String(mk.Span) {
			continue
		}
		prev := m.Packets[slices.Index(m.Packets, p)-1]
		last := prev.Sections[len(prev.Sections)-1]
		if start := doc.Lines.LineStart(line); start > last.Heading.Span.End {
			p.Span.Start, prev.Span.End, last.Span.End = start, start, start
			last.Body.End = max(last.Body.Start, start)
		}
	}
	return finish(doc, cfg, m, pt)
}

// nested reports a heading that lies in a section of another document:
// its nearest enclosing heading is not a packet heading, nor the document's
// title (a level-1 heading).
func nested(outline []level) bool {
	if len(outline) == 0 {
		return false
	}
	parent := outline[len(outline)-1]
	return parent.packet < 0 && parent.level >= 2
}

// level is a heading of the outline: its level, and the packet section it
// is read as (-1: none).
type level struct{ level, packet int }

// finish reads what the text says of the contract and of the stop.
func finish(doc *markdown.Document, cfg *analysis.Config, m *Model, pt *proseText) *Model {
	var extra map[string][]string
	if cfg != nil {
		extra = cfg.Phrases
	}
	ph := phrasesFor(extra)
	pt.ph = ph
	for _, w := range windows(m.Packets, len(doc.Text), pt.top, pt.sorted) {
		pt.window(doc, w.start, w.end)
		// Where each list is asked about: auto-continue in every section,
		// the others in one section of each packet (readConsistency).
		asked := make([][]markdown.Span, len(ph.names))
		spans := make([]markdown.Span, len(ph.names)*len(w.packets)+1) // carved: one span a packet a list at most
		for li := range asked {
			asked[li] = spans[li*len(w.packets) : li*len(w.packets) : (li+1)*len(w.packets)]
		}
		if len(w.packets) > 0 { // a message without packets asks about no list
			asked[ph.index[ListAutoContinue]] = append(spans[len(spans)-1:len(spans)-1], markdown.Span{Start: w.start, End: w.end})
		}
		for _, p := range w.packets {
			for _, a := range askedIn {
				if s := p.Section(a.section); s != nil {
					for _, list := range a.lists {
						asked[ph.index[list]] = append(asked[ph.index[list]], s.Body)
					}
				}
			}
		}
		pt.scan(ph, asked)
		n := 1
		if len(pt.flat) >= parallelFrom {
			n = readers()
		}
		readAll(doc, pt, ph, w.packets, n)
	}
	if len(m.Packets) == 0 {
		// A stop message without sections (a continue or intermediate line)
		// has no Why I Stopped to say it is blocked or done: "task 3 is done"
		// in a progress line is not the requested work being complete.
		m.Message = &Consistency{
			Blocked:  Fact{Why: "the message has no Why I Stopped section to say the agent is blocked"},
			Complete: Fact{Why: "the message has no Why I Stopped section to say the work is complete"},
		}
		if i := strings.IndexByte(pt.flat, '?'); i >= 0 {
			i += pt.base
			m.Message.Question = Fact{Value: true, Spans: []markdown.Span{{Start: i, End: i + 1}}, Why: "the message asks the user a question"}
		}
	}
	return m
}

// A window is a stretch of the text of whole packets, read with its prose
// at once (windowBytes): the first from the text's start, the last to its
// end.
type window struct {
	start, end int
	packets    []*Packet
}

// windows cuts the text of packets (ordered by their first heading) into
// windows of about windowBytes; a text without packets is one window. A
// window reaches from the first byte to the last any of its packets' spans
// covers (its sections' and their bodies', and the top-level blocks that
// start in them): in an odd document these can reach past the next
// packet's start, and windows then overlap.
func windows(packets []*Packet, size int, top []topBlock, sorted bool) []window {
	if len(packets) == 0 || size <= windowBytes {
		return []window{{0, size, packets}}
	}
	var out []window
	first := 0
	for i := 1; i <= len(packets); i++ {
		if i < len(packets) && packets[i].Span.Start-packets[first].Span.Start < windowBytes {
			continue
		}
		w := window{start: size, end: 0, packets: packets[first:i]}
		for _, p := range w.packets {
			w.extend(p.Span)
			for _, s := range p.Sections {
				w.extend(s.Span)
				w.extend(s.Body)
				w.extend(s.Heading.Span)
			}
		}
		// A block that starts in the window is read whole (a review item
		// is a block, and a paragraph may run on past its section).
		from := 0
		if sorted { // then the blocks before the window are not looked at
			from = sort.Search(len(top), func(k int) bool { return top[k].span.Start >= w.start })
		}
		for _, b := range top[from:] {
			if sorted && b.span.Start >= w.end {
				break
			}
			if b.span.Start >= w.start && b.span.Start < w.end {
				w.end = max(w.end, b.span.End)
			}
		}
		if first == 0 {
			w.start = 0
		}
		if i == len(packets) {
			w.end = size
		}
		w.start, w.end = max(min(w.start, size), 0), min(max(w.end, w.start), size)
		out = append(out, w)
		first = i
	}
	return out
}

// extend widens the window to hold s.
func (w *window) extend(s markdown.Span) {
	w.start = min(w.start, s.Start)
	w.end = max(w.end, s.End)
}

// parallelFrom is the prose length from which the packets of a document
// are read on several CPUs (readers of them): a megabyte of packets in an
// editor, where each edit waits for them. Variables for the tests.
var (
	parallelFrom = 256 << 10
	readers      = func() int { return runtime.GOMAXPROCS(0) }
)

// readAll reads each packet's consistency contract. readConsistency only
// reads the document, the scanned prose and the phrases, so with n > 1 the
// packets are read in up to n runs at once, each of about equal text.
func readAll(doc *markdown.Document, pt *proseText, ph *phrases, packets []*Packet, n int) {
	n = min(n, len(packets))
	if n < 2 {
		for _, p := range packets {
			p.Consistency = readConsistency(doc, pt, ph, p)
		}
		return
	}
	var wg sync.WaitGroup
	start, size := 0, len(pt.flat)
	for k := 1; k <= n; k++ {
		end := start
		for end < len(packets) && (k == n || packets[end].Span.Start-pt.base < size*k/n) {
			end++
		}
		run := packets[start:end]
		wg.Go(func() {
			for _, p := range run {
				p.Consistency = readConsistency(doc, pt, ph, p)
			}
		})
		start = end
	}
	wg.Wait()
}

// askedIn is the lists readConsistency asks about in a section (the first
// of its kind in a packet), besides auto-continue, asked about everywhere.
var askedIn = []struct {
	section int
	lists   []string
}{
	{WhyStopped, []string{ListBlocked, ListComplete}},
	{NeedsReview, []string{ListInformational, ListSubstantive}},
	{HappensNext, []string{ListHeld}},
	{NeedFromYou, []string{ListRequest}},
}

// startsPacket reports whether the headings from a repeated one on hold at
// least three distinct packet headings before one of them repeats.
func startsPacket(rest []int) bool {
	var have [numSections]bool
	n := 0
	for _, i := range rest {
		if i < 0 {
			continue
		}
		if have[i] {
			break
		}
		have[i] = true
		n++
	}
	return n >= 3
}

// ownerOf is the packet a marker belongs to: the packet whose first heading
// is on the very next line (some packets carry the marker first), else the
// packet it lies in.
func ownerOf(doc *markdown.Document, m *Model, span markdown.Span) *Packet {
	next := doc.Lines.LineOf(span.End) + 1
	for _, p := range m.Packets[1:] {
		if next < doc.Lines.LineCount() && doc.Lines.LineStart(next) == p.Span.Start {
			return p
		}
	}
	for _, p := range m.Packets {
		if span.Start >= p.Span.Start && span.Start < p.Span.End {
			return p
		}
	}
	return m.Packets[len(m.Packets)-1]
}

var (
	verdictLike = lazyre.New(`(?i)verdict[\s_-]*boundary`)
	// A comment holding the marker as specrew's capture reads it
	// (ConversationCaptureAccessor.ps1: this pattern, RegexOptions.IgnoreCase,
	// anywhere in the text; the names lower-cased) is a marker: "Clarify ->
	// Plan" is clarify -> plan, and so is a marker over several lines.
	verdictValid = lazyre.New(`(?i)SPECREW-VERDICT-BOUNDARY:\s*([a-z-]+)\s*(?:->|→|to)\s*([a-z-]+)`)
	validName    = lazyre.New(`^[a-z-]+$`)
	verdictNames = lazyre.New(`(?i)verdict[\s_-]*boundary\s*:?\s*([a-z][\w-]*?)\s*(?:-+>|→|=>|\s+to\s+)\s*([a-z][\w-]*)`)
)

// findMarkers returns the verdict markers written as the document's own
// HTML, not those quoted in code or a block quote: html is the HTML nodes
// outside block quotes, in document order (HTML in code is text, not nodes).
func findMarkers(doc *markdown.Document, html []ast.Node) []*Marker {
	var out []*Marker
	scan := func(segs *gtext.Segments, block bool) {
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			chunk := doc.Source[seg.Start:seg.Stop]
			for loc := nextComment(chunk, 0); loc[1] > 0; loc = nextComment(chunk, loc[1]) {
				c := chunk[loc[0]:loc[1]]
				// verdictLike's letters fold only to ASCII ones: without
				// "boundary" in some case it cannot match.
				if !ascii.ContainsFold(c, "boundary") || !verdictLike.Match(c) {
					continue
				}
				mk := &Marker{Span: markdown.Span{Start: seg.Start + loc[0], End: seg.Start + loc[1]}, Block: block}
				mk.Standalone = block && segs.Len() == 1 && strings.TrimSpace(string(chunk)) == string(c)
				if sub := verdictValid.FindSubmatch(c); sub != nil {
					mk.Valid, mk.From, mk.To = true, boundaryName(string(sub[1])), boundaryName(string(sub[2]))
				} else if sub := verdictNames.FindSubmatch(c); sub != nil {
					from, to := boundaryName(string(sub[1])), boundaryName(string(sub[2]))
					if validName.MatchString(from) && validName.MatchString(to) {
						mk.From, mk.To = from, to
					}
				}
				out = append(out, mk)
			}
		}
	}
	// noComment: no segment holds (the start of) a comment, so no joined
	// run of them does; most HTML is not a comment, and joining allocates.
	noComment := func(segs *gtext.Segments, extra ...gtext.Segment) bool {
		start, stop := len(doc.Source), 0
		for i := 0; i < segs.Len(); i++ {
			start, stop = min(start, segs.At(i).Start), max(stop, segs.At(i).Stop)
		}
		for _, s := range extra {
			start, stop = min(start, s.Start), max(stop, s.Stop)
		}
		return start >= stop || !bytes.Contains(doc.Source[start:stop], []byte("<!--"))
	}
	for _, n := range html {
		switch n := n.(type) {
		case *ast.HTMLBlock:
			if n.HasClosure() && noComment(n.Lines(), n.ClosureLine) || !n.HasClosure() && noComment(n.Lines()) {
				break
			}
			segs := n.Lines()
			if n.HasClosure() {
				segs = gtext.NewSegments()
				for i := 0; i < n.Lines().Len(); i++ {
					segs.Append(n.Lines().At(i))
				}
				segs.Append(n.ClosureLine)
			}
			scan(joined(segs), true)
		case *ast.RawHTML:
			if !noComment(n.Segments) {
				scan(joined(n.Segments), false)
			}
		}
	}
	return out
}

// nextComment is the first HTML comment of b at or after from, as
// (?s)<!--.*?--> finds them, as start and end; end 0 when there is none.
// A comment's end is the first "-->" after its "<!--"; when there is none,
// no later "<!--" has one either.
func nextComment(b []byte, from int) [2]int {
	k := bytes.Index(b[from:], []byte("<!--"))
	if k < 0 {
		return [2]int{}
	}
	start := from + k
	e := bytes.Index(b[start+4:], []byte("-->"))
	if e < 0 {
		return [2]int{}
	}
	return [2]int{start, start + 4 + e + 3}
}

// joined merges contiguous segments so that a comment spanning lines is
// scanned whole.
func joined(segs *gtext.Segments) *gtext.Segments {
	out := gtext.NewSegments()
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		if n := out.Len(); n > 0 && out.At(n-1).Stop == s.Start {
			last := out.At(n - 1)
			out.Set(n-1, gtext.NewSegment(last.Start, s.Stop))
			continue
		}
		out.Append(s)
	}
	return out
}

// boundaryName folds a name written in a malformed marker to specrew's
// lower-case, hyphenated form.
func boundaryName(s string) string {
	return strings.Trim(strings.ReplaceAll(strings.ToLower(s), "_", "-"), "-")
}
