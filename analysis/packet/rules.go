package packet

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/yuin/goldmark/ast"
)

var (
	RuleMissingSection = &analysis.Rule{
		ID:       "packet/missing-section",
		Summary:  "A stop packet lacks one of its required sections.",
		Severity: analysis.Error,
		Doc: `A stop packet hands control back to a person, who must be able to read, in order:

1. **What I Just Did**
2. **Why I Stopped**
3. **What Needs Your Review**
4. **What Happens Next**
5. **Discussion Prompts** (boundary packets only)
6. **What I Need From You**

A material-work (non-boundary) packet has the five sections 1-2-3-4-6; a lifecycle-boundary packet
has all six. A packet is a boundary packet when it has a Discussion Prompts section or its front
matter names ` + "`from_boundary`/`to_boundary`" + `.

The finding sits on the section the missing one should come before. Add the section there, with
its heading written as ` + "`## <title>`" + `. The quick fix inserts it, except before the first heading of a
packet that follows one lacking the same section: a packet starts at a heading the packet before
already has, so the inserted heading would end that packet instead.

Packet headings written under a section of another document (their nearest enclosing heading is
neither a packet heading nor the document's level-1 title) describe packets rather than make one:
a specification's ` + "`## Human Re-entry Packet Contract`" + ` with ` + "`### What I just did`" + ` under it, a
template's ` + "`## Final Stop Message`" + `. baton reads no packet there, so they get no packet finding and
no fix. (specrew's validator finds the headings at any level, ` + "`Get-InteractionModelSectionMap`" + ` in
` + "`extensions/specrew-speckit/scripts/shared-governance.ps1`" + `, but it only reads an agent's response,
never a document that describes one.) A section heading may also be written as specrew's parser
reads one: a line of its own holding only the title, bare or in bold (` + "`**What I just did**`" + `).

**Severity follows specrew's validator.** In a boundary packet a missing section is an error, as
specrew's ` + "`validation-fail.incomplete-human-reentry-packet`" + ` fails the handoff. In a material-work
packet that has What I Just Did, Why I Stopped and What I Need From You, a missing What Needs Your
Review or What Happens Next is a warning (` + "`soft-warning.incomplete-five-part-stop-context`" + `, which
does not fail the stop). A packet without those three is no stop message to specrew, which says
nothing of its sections: baton says it as a hint.`,
		Follows: []string{"specrew validation-fail.incomplete-human-reentry-packet", "specrew soft-warning.incomplete-five-part-stop-context", "specrew Test-SpecrewDesignAnalysisGatePacket (missing section)"},
	}
	RuleLegacyShape = &analysis.Rule{
		ID:       "packet/legacy-shape",
		Summary:  "A packet uses the legacy three-section shape.",
		Severity: analysis.Warning,
		Doc: `Early specrew packets had three sections: What I Just Did, Why I Stopped and What I Need From
You. Current packets add **What Needs Your Review** (what the user must look at, item by item)
and **What Happens Next** (what the agent will do, held until the user answers), so the
consistency of a review request can be checked.

baton reports the legacy shape once instead of each missing section. Add the two sections
between Why I Stopped and What I Need From You.

specrew decides this one: its validator (` + "`extensions/specrew-speckit/validators/handoff-governance-validator.ps1`" + `,
` + "`Test-UsesStopMessageFormat`" + ` and ` + "`Get-MissingFivePartStopContextSections`" + `) gives the same shape
` + "`soft-warning.incomplete-five-part-stop-context`" + `, a soft warning that does not fail the stop: its
own legacy fixtures (` + "`tests/*/fixtures/016-substantive-interaction-model/navigation/`" + `) pass with it
(exit 0), at a boundary too (a three-section packet is no re-entry packet to its
` + "`Test-UsesHumanReentryPacketCandidate`" + `). So baton reports it as a warning, as specrew does, never an
error: nothing blocks on it, in ` + "`check`" + ` or at the stop.`,
		Follows: []string{"specrew soft-warning.incomplete-five-part-stop-context"},
	}
	RuleDuplicateSection = &analysis.Rule{
		ID:       "packet/duplicate-section",
		Summary:  "A packet section heading appears twice in one packet.",
		Severity: analysis.Error,
		Doc: `Each section appears once per packet. A repeated heading starts a new packet only when it and
the packet headings after it make at least three different ones before any repeats (a file may hold several packets, e.g. a
transcript); otherwise it is a second copy of a section, and readers and tools that look for
the section take the first one.

Merge the two sections into the first, or remove the copy.`,
	}
	RuleSectionOrder = &analysis.Rule{
		ID:       "packet/section-order",
		Summary:  "Packet sections are out of order.",
		Severity: analysis.Warning,
		Doc: `Packet sections come in a fixed order: What I Just Did, Why I Stopped, What Needs Your Review,
What Happens Next, Discussion Prompts (boundary packets), What I Need From You. The person
reading a stop expects the ask last, after the context it depends on.

baton keeps the longest run of sections already in order and flags each other one, saying where
it belongs. Move the flagged section (its heading and its text) to that place.`,
	}
	RuleHeadingLevel = &analysis.Rule{
		ID:       "packet/heading-level",
		Summary:  "A packet heading is not a level-2 ATX heading.",
		Severity: analysis.Hint,
		Doc: "Packets write their section headings as `## What I Just Did` and tools that read packets " +
			"look for level-2 headings. A heading at another level, or underlined (setext) instead of `##`, is " +
			"still read as the section, but is better written the usual way. The quick fix rewrites it.",
	}
	RuleMarkerNonBoundary = &analysis.Rule{
		ID:       "packet/verdict-marker-non-boundary",
		Summary:  "A verdict marker sits on a packet that is not a lifecycle-boundary packet.",
		Severity: analysis.Error,
		Doc: "The verdict marker `<!-- SPECREW-VERDICT-BOUNDARY: <from> -> <to> -->` tells the stop hook that " +
			"a lifecycle boundary is waiting for the user's verdict. Only a boundary packet carries it, and a " +
			"boundary packet has a **Discussion Prompts** section.\n\nA marker on a five-section packet " +
			"either claims a boundary that isn't there (remove the marker) or the packet lacks its Discussion " +
			"Prompts (add the section before What I Need From You).",
	}
	RuleMarkerPosition = &analysis.Rule{
		ID:       "packet/verdict-marker-position",
		Summary:  "The verdict marker is not the last non-blank line of its packet.",
		Severity: analysis.Warning,
		Doc: "specrew's gate-stop skill renders the verdict marker as the very last line of a boundary packet, " +
			"after What I Need From You. Some tools find it anywhere, others only at the end; put it last so " +
			"every reader finds it. The quick fix moves it there (with a blank line after it when the next " +
			"packet starts on the next line: a marker alone on the line before a packet's first heading " +
			"starts that packet). A marker that starts a line it shares with other text gets no fix: that " +
			"text is part of the marker's HTML block, and would be read as Markdown without it.\n\nA boundary packet without any marker is not " +
			"flagged: the skill omits the marker when no verdict is pending, and saved gate records carry the " +
			"boundary in their front matter instead.",
	}
	RuleMarkerMalformed = &analysis.Rule{
		ID:       "packet/verdict-marker-malformed",
		Summary:  "An HTML comment looks like a verdict marker but does not match its exact form.",
		Severity: analysis.Error,
		Doc: "The verdict marker is matched exactly: `<!-- SPECREW-VERDICT-BOUNDARY: <from> -> <to> -->`, " +
			"with two lower-case boundary names (`[a-z-]+`) separated by `->`, `→` or `to`. A comment that " +
			"differs in case, punctuation or names is silently not a marker to the tools that read it, so the " +
			"verdict is never captured. The quick fix writes the canonical form when both names can be read.",
	}
	RuleMarkerDuplicate = &analysis.Rule{
		ID:       "packet/verdict-marker-duplicate",
		Summary:  "A packet carries more than one verdict marker.",
		Severity: analysis.Warning,
		Doc: "A packet declares one boundary. With several markers, a reader takes whichever it finds first, " +
			"which may not be the one meant. Keep one marker, as the last line.",
	}
)

// Analyzer checks the structure of stop packets.
var Analyzer = &analysis.Analyzer{
	Name: "packet",
	Kind: markdown.KindPacket,
	Rules: append([]*analysis.Rule{
		RuleMissingSection, RuleLegacyShape, RuleDuplicateSection, RuleSectionOrder, RuleHeadingLevel,
		RuleMarkerNonBoundary, RuleMarkerPosition, RuleMarkerMalformed, RuleMarkerDuplicate,
	}, consistencyRules...),
	Run: run,
}

func run(pass *analysis.Pass) any {
	m := BuildWith(pass.Doc, pass.Config)
	d := &docChecks{doc: pass.Doc}
	for k, p := range m.Packets {
		var prev *Packet
		if k > 0 {
			prev = m.Packets[k-1]
		}
		checkSections(pass, d, p, prev)
		checkMarkers(pass, d, p)
		checkConsistency(pass, d, p)
	}
	return m
}

// docChecks is what the checks ask of the whole document, worked out once
// a document rather than once a packet or finding: a file can hold
// hundreds of packets.
type docChecks struct {
	doc *markdown.Document
	nl  string
	// blocks are the code and HTML blocks as inBlock reaches them, by
	// start; reach[i] is the furthest any of blocks[:i+1] reaches.
	blocks     []markdown.Span
	reach      []int
	blocksDone bool
}

// lineBreak is the document's line break: CRLF when it uses them.
func (d *docChecks) lineBreak() string {
	if d.nl == "" {
		d.nl = "\n"
		if strings.Contains(d.doc.Text, "\r\n") {
			d.nl = "\r\n"
		}
	}
	return d.nl
}

// inBlock reports whether offset lies in (or at the end of) a code block or
// an HTML block: from the start of the block's first line to the start of
// the next block's first line (or the end of the text).
func (d *docChecks) inBlock(offset int) bool {
	if !d.blocksDone {
		d.blocksDone = true
		doc := d.doc
		for n := doc.Root.FirstChild(); n != nil; n = n.NextSibling() {
			switch n.(type) {
			case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			default:
				continue
			}
			line := doc.Lines.LineOf(nodeStart(n))
			if fc, ok := n.(*ast.FencedCodeBlock); ok && fc.Lines().Len() > 0 && line > 0 {
				line-- // the opening fence, the line before the first content line: text after it is in the block
			}
			start := doc.Lines.LineStart(line)
			end := len(doc.Text)
			if next := n.NextSibling(); next != nil {
				end = doc.Lines.LineStart(doc.Lines.LineOf(nodeStart(next)))
			}
			d.blocks = append(d.blocks, markdown.Span{Start: start, End: end})
		}
		// A block without lines starts at 0 (see nodeStart): the starts
		// need not increase.
		slices.SortStableFunc(d.blocks, func(a, b markdown.Span) int { return a.Start - b.Start })
		d.reach = make([]int, len(d.blocks))
		for i, b := range d.blocks {
			d.reach[i] = b.End
			if i > 0 {
				d.reach[i] = max(b.End, d.reach[i-1])
			}
		}
	}
	// The blocks starting at or before offset: does one reach it?
	i := sort.Search(len(d.blocks), func(i int) bool { return d.blocks[i].Start > offset })
	return i > 0 && d.reach[i-1] >= offset
}

func heading(i int) string { return `"## ` + markdown.PacketHeadings[i] + `"` }

// checkSections reports p's sections; prev is the packet before it, if any.
func checkSections(pass *analysis.Pass, d *docChecks, p, prev *Packet) {
	var known []*Section
	for _, s := range p.Sections {
		if s.Index < 0 {
			continue
		}
		if s.Heading.Level != 2 || s.Heading.Setext {
			reportLevel(pass, s)
		}
		if s.DuplicateOf != nil {
			pass.Report(RuleDuplicateSection, s.Heading.Span,
				fmt.Sprintf("%s appears twice in this packet: merge it into the first one, or remove it", heading(s.Index)),
				analysis.WithRelated(s.DuplicateOf.Heading.Span, "first "+markdown.PacketHeadings[s.Index]))
			continue
		}
		known = append(known, s)
	}

	textual := p.Section(DiscussionPrompts) != nil || p.BoundaryFrom != "" || p.BoundaryTo != ""
	checkedAt, _ := pass.Env[EnvBoundary].(string)
	// A three-section packet is no re-entry packet to specrew's validator
	// (Test-UsesHumanReentryPacketCandidate), at a boundary too: it gets
	// the legacy shape's warning, not six sections' errors.
	if legacy(known) && !textual {
		pass.Report(RuleLegacyShape, known[0].Heading.Span,
			`this is a legacy three-section packet: add "## What Needs Your Review" and "## What Happens Next" before "## What I Need From You"`)
		return
	}
	boundary := textual || checkedAt != ""
	type missing struct {
		index int
		edit  analysis.Edit
	}
	// specrew's validator: a boundary packet missing a section fails
	// (validation-fail.incomplete-human-reentry-packet); a material-work
	// packet with What I just did, Why I stopped and What I need from you
	// gets a soft warning for the other two
	// (soft-warning.incomplete-five-part-stop-context); without those three
	// it is no stop message to specrew, which says nothing of its sections.
	sev := analysis.Error
	switch {
	case boundary || len(p.Markers) > 0:
	case p.Section(JustDid) != nil && p.Section(WhyStopped) != nil && p.Section(NeedFromYou) != nil:
		sev = analysis.Warning
	default:
		sev = analysis.Hint
	}
	var gaps []missing
	nl := d.lineBreak()
	for i := range numSections {
		if p.Section(i) != nil || (i == DiscussionPrompts && !boundary) {
			continue
		}
		var next *Section
		for _, s := range known {
			if s.Index > i && (next == nil || s.Index < next.Index) {
				next = s
			}
		}
		title := "## " + markdown.PacketHeadings[i]
		if next != nil && next == p.Sections[0] && prev != nil && prev.Section(i) == nil {
			// Inserted before the packet's first heading, a section the
			// packet before lacks would not start this packet: it would be
			// read as that packet's last. No fix then.
			continue
		}
		if next != nil {
			at := next.Heading.Span.Start
			gaps = append(gaps, missing{i, analysis.Edit{Span: markdown.Span{Start: at, End: at}, NewText: title + nl + nl}})
		} else if at := trimmedEnd(pass.Doc, p.Span); !d.inBlock(at) { // not into an open code or HTML block
			gaps = append(gaps, missing{i, analysis.Edit{Span: markdown.Span{Start: at, End: at}, NewText: nl + nl + title + nl}})
		}
	}
	var all analysis.Fix
	if len(gaps) > 1 {
		all.Title = "Insert every missing section"
		for _, g := range gaps {
			all.Edits = append(all.Edits, g.edit)
		}
	}
	// With a duplicate heading in the packet, an inserted section can turn
	// the duplicate into the start of another packet: resolve that first.
	if slices.ContainsFunc(p.Sections, func(s *Section) bool { return s.DuplicateOf != nil }) {
		gaps, all = nil, analysis.Fix{}
	}
	fixFor := func(i int) []func(*analysis.Finding) {
		var out []func(*analysis.Finding)
		for _, g := range gaps {
			if g.index == i {
				out = append(out, analysis.WithFix(analysis.Fix{Title: "Insert \"## " + markdown.PacketHeadings[i] + "\"", Edits: []analysis.Edit{g.edit}}))
			}
		}
		if all.Title != "" {
			out = append(out, analysis.WithFix(all))
		}
		return out
	}
	for i := range numSections {
		if p.Section(i) != nil || (i == DiscussionPrompts && !boundary) {
			continue
		}
		var next *Section
		for _, s := range known {
			if s.Index > i && (next == nil || s.Index < next.Index) {
				next = s
			}
		}
		var msg string
		at := known[len(known)-1].Heading.Span
		if next != nil {
			msg = fmt.Sprintf("this packet has no %q section: add it before %s", markdown.PacketHeadings[i], heading(next.Index))
			at = next.Heading.Span
		} else {
			msg = fmt.Sprintf("this packet has no %q section: add it at the end of the packet", markdown.PacketHeadings[i])
		}
		switch {
		case i == DiscussionPrompts && textual:
			msg += " (a boundary packet, as its front matter says, has six sections)"
		case i == DiscussionPrompts:
			msg += " (this stop is at the " + checkedAt + " boundary, whose packet has six sections)"
		}
		pass.Report(RuleMissingSection, at, msg, append(fixFor(i), analysis.WithSeverity(sev))...)
	}

	keys := make([]int, len(known))
	for i, s := range known {
		keys[i] = s.Index
	}
	for _, mv := range analysis.OutOfOrder(keys) {
		s := known[mv.I]
		switch {
		case mv.Before >= 0:
			before := known[mv.Before]
			pass.Report(RuleSectionOrder, s.Heading.Span,
				fmt.Sprintf("%s is out of order: move it before %s", heading(s.Index), heading(before.Index)),
				analysis.WithRelated(before.Heading.Span, "belongs before this section"))
		case mv.After >= 0:
			after := known[mv.After]
			pass.Report(RuleSectionOrder, s.Heading.Span,
				fmt.Sprintf("%s is out of order: move it after %s", heading(s.Index), heading(after.Index)),
				analysis.WithRelated(after.Heading.Span, "belongs after this section"))
		}
	}
}

// legacy reports the three-section shape of early packets: exactly What I
// Just Did, Why I Stopped and What I Need From You.
func legacy(known []*Section) bool {
	var idx []int
	for _, s := range known {
		idx = append(idx, s.Index)
	}
	slices.Sort(idx)
	return slices.Equal(idx, []int{JustDid, WhyStopped, NeedFromYou})
}

func reportLevel(pass *analysis.Pass, s *Section) {
	what := fmt.Sprintf("a level-%d heading", s.Heading.Level)
	switch {
	case s.Heading.Pseudo:
		// specrew reads the line as the section's heading; Markdown
		// readers (and the editor's outline) see a paragraph.
		what = "a line of text, not a Markdown heading"
	case s.Heading.Setext:
		what = "an underlined (setext) heading"
	}
	text := "## " + strings.Join(strings.Fields(s.Heading.Text), " ") // a setext heading may span lines
	pass.Report(RuleHeadingLevel, s.Heading.Span,
		fmt.Sprintf("%q is %s; packets write section headings as %q", s.Heading.Text, what, text),
		analysis.WithFix(analysis.Fix{
			Title: "Make it a level-2 heading",
			Safe:  true,
			Edits: []analysis.Edit{{Span: s.Heading.Span, NewText: text}},
		}))
}

func checkMarkers(pass *analysis.Pass, d *docChecks, p *Packet) {
	doc := pass.Doc
	var valid []*Marker
	for _, mk := range p.Markers {
		if mk.Valid {
			valid = append(valid, mk)
			continue
		}
		opts := []func(*analysis.Finding){}
		msg := "this comment is not a valid verdict marker, so no tool will read it: write it as <!-- SPECREW-VERDICT-BOUNDARY: <from> -> <to> --> with lower-case boundary names"
		if c := mk.Canonical(); c != "" {
			msg = "this comment is not a valid verdict marker, so no tool will read it: write it as " + c
			opts = append(opts, analysis.WithFix(analysis.Fix{
				Title: "Rewrite as " + c,
				Edits: []analysis.Edit{{Span: mk.Span, NewText: c}},
			}))
		}
		pass.Report(RuleMarkerMalformed, mk.Span, msg, opts...)
	}
	if len(valid) == 0 {
		return
	}
	for _, mk := range valid[1:] {
		pass.Report(RuleMarkerDuplicate, mk.Span, "this packet already has a verdict marker: keep one, as its last line",
			analysis.WithRelated(valid[0].Span, "first verdict marker"),
			analysis.WithFix(analysis.Fix{Title: "Remove this marker", Edits: []analysis.Edit{analysis.Removal(doc, mk.Span)}}))
	}
	mk := valid[0]
	if p.Section(DiscussionPrompts) == nil && p.BoundaryFrom == "" && p.BoundaryTo == "" {
		pass.Report(RuleMarkerNonBoundary, mk.Span,
			"a verdict marker on a five-section packet: remove it if this is a material-work stop, or add \"## Discussion Prompts\" before \"## What I Need From You\" if it is a lifecycle boundary",
			analysis.WithFix(analysis.Fix{Title: "Remove the verdict marker", Edits: []analysis.Edit{analysis.Removal(doc, mk.Span)}}))
		return
	}
	last := lastNonBlankLine(doc, p.Span)
	line := doc.Lines.LineOf(mk.Span.Start)
	if line == last && strings.TrimSpace(doc.Lines.Line(line)) == doc.String(mk.Span) {
		return
	}
	end := markdown.Span{Start: doc.Lines.LineEnd(last), End: doc.Lines.LineEnd(last)}
	var opts []func(*analysis.Finding)
	// Appended to a code block or an HTML block left open, the marker would
	// become part of it: no fix then. Nor when the marker shares an HTML
	// block with other text: taken out, it would leave that text to be read
	// as Markdown, and a heading there can start another packet.
	if !d.inBlock(end.Start) && (mk.Standalone || !mk.Block) {
		nl := d.lineBreak()
		text := nl + nl + doc.String(mk.Span)
		if p.Span.End < len(doc.Text) && last+1 < doc.Lines.LineCount() && doc.Lines.LineStart(last+1) == p.Span.End {
			// The next packet starts on the next line: a marker alone on
			// the line before a packet's first heading starts that packet,
			// so a blank line keeps it this one's last.
			text += nl
		}
		opts = append(opts, analysis.WithFix(analysis.Fix{
			Title: "Move the verdict marker to the end of the packet",
			// Otherwise removing it can change how the text around it
			// parses (an HTML block runs to the end of the line that closes it).
			Safe:  mk.Standalone,
			Edits: []analysis.Edit{analysis.Removal(doc, mk.Span), {Span: end, NewText: text}},
		}))
	}
	pass.Report(RuleMarkerPosition, mk.Span,
		"the verdict marker must be the last line of the packet, after \"## What I Need From You\": move it there", opts...)
}

// leftOpen reports whether text inserted at offset after a blank line would
// still be part of a block: the document's last top-level block is a fenced
// code block never closed, or a raw HTML block of the first five kinds that
// never met its end, and offset lies in it. Every other block has ended by
// then (the last two HTML kinds and paragraphs at the blank line, nested
// blocks at the unindented text), so a sentence added at the end of a
// section that closes with a finished code block or marker comment stays a
// sentence of its own.
func (d *docChecks) leftOpen(offset int) bool {
	doc := d.doc
	last := doc.Root.LastChild()
	if last == nil || offset < nodeStart(last) {
		return false
	}
	switch n := last.(type) {
	case *ast.FencedCodeBlock:
		after := -1
		if l := n.Lines(); l.Len() > 0 {
			after = l.At(l.Len() - 1).Stop
		} else if n.Info != nil {
			after = doc.Lines.LineEnd(doc.Lines.LineOf(n.Info.Segment.Start))
		}
		// In the last block, whatever follows its content is its closing fence.
		return after < 0 || strings.TrimSpace(doc.Text[after:]) == ""
	case *ast.HTMLBlock:
		if n.HTMLBlockType > ast.HTMLBlockType5 || n.HasClosure() {
			return false
		}
		if n.Lines().Len() == 0 {
			return true
		}
		first := n.Lines().At(0)
		return !htmlClosedOnFirstLine(n.HTMLBlockType, doc.Text[first.Start:first.Stop])
	}
	return false
}

// htmlClosedOnFirstLine reports whether the first line of a raw HTML block
// of the first five kinds holds the block's end, as goldmark checks it.
func htmlClosedOnFirstLine(kind ast.HTMLBlockType, line string) bool {
	switch kind {
	case ast.HTMLBlockType1:
		l := strings.ToLower(line)
		return strings.Contains(l, "</script>") || strings.Contains(l, "</pre>") ||
			strings.Contains(l, "</style>") || strings.Contains(l, "</textarea>")
	case ast.HTMLBlockType2:
		return strings.Contains(line, "-->")
	case ast.HTMLBlockType3:
		return strings.Contains(line, "?>")
	case ast.HTMLBlockType4:
		return strings.Contains(line, ">")
	case ast.HTMLBlockType5:
		return strings.Contains(line, "]]>")
	}
	return false
}

// nodeStart is the offset of a block's first line.
func nodeStart(n ast.Node) int {
	if l := n.Lines(); l.Len() > 0 {
		return l.At(0).Start
	}
	if fc, ok := n.(*ast.FencedCodeBlock); ok && fc.Info != nil {
		return fc.Info.Segment.Start
	}
	return 0
}

// lastNonBlankLine is the last line in span holding more than white space.
func lastNonBlankLine(doc *markdown.Document, span markdown.Span) int {
	line := doc.Lines.LineOf(max(span.End-1, span.Start))
	for line > 0 && strings.TrimSpace(doc.Lines.Line(line)) == "" {
		line--
	}
	return line
}
