package packet_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/bench"
	"github.com/google/go-cmp/cmp"
)

// nth is the offset of the n-th (0-based) occurrence of sub in text.
func nth(t *testing.T, text, sub string, n int) int {
	t.Helper()
	off := 0
	for i := 0; ; i++ {
		j := strings.Index(text[off:], sub)
		if j < 0 {
			t.Fatalf("%q occurs fewer than %d times", sub, n+1)
		}
		if i == n {
			return off + j
		}
		off += j + len(sub)
	}
}

func build(text string) (*markdown.Document, *packet.Model) {
	doc := markdown.Parse("f.md", text)
	return doc, packet.BuildWith(doc, nil)
}

// indices lists each packet's section indices.
func indices(m *packet.Model) [][]int {
	var out [][]int
	for _, p := range m.Packets {
		var is []int
		for _, s := range p.Sections {
			is = append(is, s.Index)
		}
		out = append(out, is)
	}
	return out
}

const twoPackets = `## What I Just Did

One.

## Why I Stopped

Stop one.

## What Needs Your Review

Review one.

## What Happens Next

Next one.

## What I Need From You

Reply one.

---

## What I Just Did

Two.

## Why I Stopped

Stop two.

## What Needs Your Review

Review two.

## What I Need From You

Reply two.
`

func TestBuildTwoPackets(t *testing.T) {
	doc, m := build(twoPackets)
	if d := cmp.Diff([][]int{{0, 1, 2, 3, 5}, {0, 1, 2, 5}}, indices(m)); d != "" {
		t.Fatalf("section indices (-want +got):\n%s", d)
	}
	second := nth(t, twoPackets, "## What I Just Did", 1)
	p1, p2 := m.Packets[0], m.Packets[1]
	if want := (markdown.Span{Start: 0, End: second}); p1.Span != want {
		t.Errorf("packet 1 Span = %v, want %v", p1.Span, want)
	}
	if want := (markdown.Span{Start: second, End: len(twoPackets)}); p2.Span != want {
		t.Errorf("packet 2 Span = %v, want %v", p2.Span, want)
	}
	for pi, p := range m.Packets {
		for si, s := range p.Sections {
			if s.DuplicateOf != nil {
				t.Errorf("packet %d section %q is marked a duplicate", pi+1, s.Heading.Text)
			}
			// Sections tile the packet: each runs from its heading to the
			// next section's heading; its body starts on the line after the
			// heading.
			wantEnd := p.Span.End
			if si+1 < len(p.Sections) {
				wantEnd = p.Sections[si+1].Heading.Span.Start
			}
			wantStart := s.Heading.Span.Start
			if si == 0 {
				wantStart = p.Span.Start
			}
			if want := (markdown.Span{Start: wantStart, End: wantEnd}); s.Span != want {
				t.Errorf("packet %d section %q Span = %v, want %v", pi+1, s.Heading.Text, s.Span, want)
			}
			if want := (markdown.Span{Start: s.Heading.Span.End + 1, End: wantEnd}); s.Body != want {
				t.Errorf("packet %d section %q Body = %v, want %v", pi+1, s.Heading.Text, s.Body, want)
			}
		}
	}
	bodies := map[string]string{
		"packet 1 What I Just Did":      doc.String(p1.Sections[0].Body),
		"packet 1 What I Need From You": doc.String(p1.Sections[4].Body),
		"packet 2 Why I Stopped":        doc.String(p2.Sections[1].Body),
		"packet 2 What I Need From You": doc.String(p2.Sections[3].Body),
	}
	want := map[string]string{
		"packet 1 What I Just Did":      "\nOne.\n\n",
		"packet 1 What I Need From You": "\nReply one.\n\n---\n\n",
		"packet 2 Why I Stopped":        "\nStop two.\n\n",
		"packet 2 What I Need From You": "\nReply two.\n",
	}
	if d := cmp.Diff(want, bodies); d != "" {
		t.Errorf("section bodies (-want +got):\n%s", d)
	}
	if got := doc.String(p2.Sections[0].Heading.Span); got != "## What I Just Did" {
		t.Errorf("packet 2 first heading = %q", got)
	}
}

func TestBuildSegmentation(t *testing.T) {
	const (
		did    = "## What I Just Did\n\nx\n\n"
		why    = "## Why I Stopped\n\nx\n\n"
		review = "## What Needs Your Review\n\nx\n\n"
		next   = "## What Happens Next\n\nx\n\n"
		need   = "## What I Need From You\n\nx\n\n"
	)
	tests := []struct {
		name string
		text string
		want [][]int
		dups map[[2]int]int // {packet, section} -> the section it duplicates
	}{
		{
			name: "repeat followed by one more packet heading is a duplicate",
			text: did + why + need + did + why,
			want: [][]int{{0, 1, 5, 0, 1}},
			dups: map[[2]int]int{{0, 3}: 0, {0, 4}: 1},
		},
		{
			name: "a lone repeat at the end is a duplicate",
			text: did + why + review + next + need + why,
			want: [][]int{{0, 1, 2, 3, 5, 1}},
			dups: map[[2]int]int{{0, 5}: 1},
		},
		{
			name: "repeat with two more distinct headings starts a packet",
			text: did + why + need + did + why + need,
			want: [][]int{{0, 1, 5}, {0, 1, 5}},
		},
		{
			name: "the following headings must be distinct",
			text: did + why + need + did + why + did + why,
			want: [][]int{{0, 1, 5, 0, 1, 0, 1}},
			dups: map[[2]int]int{{0, 3}: 0, {0, 4}: 1, {0, 5}: 0, {0, 6}: 1},
		},
		{
			name: "the packet starts at the first repeat with three distinct headings from it",
			text: did + why + need + did + why + did + need,
			// The second "did" is followed by why, then did again: only two
			// distinct. The second "why" is followed by did and need: three.
			want: [][]int{{0, 1, 5, 0}, {1, 0, 5}},
			dups: map[[2]int]int{{0, 3}: 0},
		},
		{
			name: "three packets",
			text: did + why + need + did + why + need + did + review + need,
			want: [][]int{{0, 1, 5}, {0, 1, 5}, {0, 2, 5}},
		},
		{
			name: "unknown level-2 headings are sections, lower ones are not",
			text: "# Title\n\nintro\n\n" + did + "### Detail\n\n## Decision Evidence\n\ne\n\n" + why + "#### What I Need From You\n",
			want: [][]int{{0, -1, 1, 5}},
		},
		{
			name: "headings before the first packet heading are not sections",
			text: "# Title\n\n## Context\n\n" + did + why + need,
			want: [][]int{{0, 1, 5}},
		},
		{
			name: "no packet headings, no packets",
			text: "# Title\n\n## Context\n\ntext\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, m := build(tt.text)
			if d := cmp.Diff(tt.want, indices(m)); d != "" {
				t.Fatalf("section indices (-want +got):\n%s", d)
			}
			for pi, p := range m.Packets {
				for si, s := range p.Sections {
					want, isDup := tt.dups[[2]int{pi, si}]
					switch {
					case isDup && s.DuplicateOf != p.Sections[want]:
						t.Errorf("packet %d section %d (%q): DuplicateOf = %v, want section %d", pi, si, s.Heading.Text, s.DuplicateOf, want)
					case !isDup && s.DuplicateOf != nil:
						t.Errorf("packet %d section %d (%q) is marked a duplicate", pi, si, s.Heading.Text)
					}
				}
			}
		})
	}
}

func TestBuildSectionTitleAndLookup(t *testing.T) {
	text := "# Title\n\n## what i just did:\n\n### Detail\n\nx\n\n## Decision Evidence\n\ne\n\n## **Why I Stopped**\n\n## What I Need From You\n"
	doc, m := build(text)
	if len(m.Packets) != 1 {
		t.Fatalf("%d packets, want 1", len(m.Packets))
	}
	p := m.Packets[0]
	var titles []string
	for _, s := range p.Sections {
		titles = append(titles, s.Title())
	}
	if d := cmp.Diff([]string{"What I Just Did", "Decision Evidence", "Why I Stopped", "What I Need From You"}, titles); d != "" {
		t.Errorf("Titles (-want +got):\n%s", d)
	}
	if p.Span.Start != 0 {
		t.Errorf("the first packet starts at %d, want 0 (the top of the document)", p.Span.Start)
	}
	did := p.Section(packet.JustDid)
	if did == nil || did != p.Sections[0] {
		t.Fatalf("Section(JustDid) = %v", did)
	}
	if got, want := doc.String(did.Body), "\n### Detail\n\nx\n\n"; got != want {
		t.Errorf("What I Just Did body = %q, want %q (it runs to the next section)", got, want)
	}
	if s := p.Section(packet.NeedsReview); s != nil {
		t.Errorf("Section(NeedsReview) = %q, want nil", s.Heading.Text)
	}
	if s := p.Section(packet.NeedFromYou); s != p.Sections[3] {
		t.Errorf("Section(NeedFromYou) is not the last section")
	}
}

func TestBuildBodies(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		bodies []string
	}{
		{
			name:   "setext headings: the body starts after the underline",
			text:   "What I Just Did\n===============\n\nx\n\nWhy I Stopped\n---\ny\n## What I Need From You",
			bodies: []string{"\nx\n\n", "y\n", ""},
		},
		{
			name:   "CRLF",
			text:   "## What I Just Did\r\n\r\nx\r\n## Why I Stopped\r\ny\r\n## What I Need From You\r\n",
			bodies: []string{"\r\nx\r\n", "y\r\n", ""},
		},
		{
			name:   "heading on the last line, with a line break",
			text:   "## What I Just Did\n## Why I Stopped\n## What I Need From You\n",
			bodies: []string{"", "", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, m := build(tt.text)
			if len(m.Packets) != 1 {
				t.Fatalf("%d packets, want 1", len(m.Packets))
			}
			var bodies []string
			for _, s := range m.Packets[0].Sections {
				if s.Body.Start < s.Heading.Span.End || s.Body.End != s.Span.End {
					t.Errorf("section %q: Body %v, heading %v, Span %v", s.Heading.Text, s.Body, s.Heading.Span, s.Span)
				}
				bodies = append(bodies, doc.String(s.Body))
			}
			if d := cmp.Diff(tt.bodies, bodies); d != "" {
				t.Errorf("bodies (-want +got):\n%s", d)
			}
			if end := m.Packets[0].Span.End; end != len(tt.text) {
				t.Errorf("packet ends at %d, want %d", end, len(tt.text))
			}
		})
	}
}

const (
	packetA = "## What I Just Did\n\na\n\n## Why I Stopped\n\nb\n\n## What I Need From You\n\nc\n"
	markPT  = "<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->"
	markTI  = "<!-- SPECREW-VERDICT-BOUNDARY: tasks -> implement -->"
)

// TestBuildMarkerOwnership: which packet each marker belongs to.
func TestBuildMarkerOwnership(t *testing.T) {
	tests := []struct {
		name string
		text string
		want [][]string // each packet's markers, as written
	}{
		{"last line without a line break", packetA + markPT, [][]string{{markPT}}},
		{"last line with a line break", packetA + "\n" + markPT + "\n", [][]string{{markPT}}},
		{"before the first heading", markPT + "\n" + packetA, [][]string{{markPT}}},
		{"in the middle", "## What I Just Did\n\n" + markPT + "\n\n## Why I Stopped\n## What I Need From You\n", [][]string{{markPT}}},
		{
			"last line of the first packet, a blank line before the next",
			packetA + "\n" + markPT + "\n\n" + packetA,
			[][]string{{markPT}, nil},
		},
		{
			"directly before the next packet's first heading",
			packetA + "\n" + markPT + "\n" + packetA,
			[][]string{nil, {markPT}},
		},
		{
			"one marker each: last line, then first line",
			packetA + "\n" + markPT + "\n\n" + markTI + "\n" + packetA,
			[][]string{{markPT}, {markTI}},
		},
		{
			"inside the second packet",
			packetA + "\n" + packetA + "\n" + markTI + "\n",
			[][]string{nil, {markTI}},
		},
		{
			"two markers in one packet",
			packetA + "\n" + markPT + "\n\n" + markTI + "\n",
			[][]string{{markPT, markTI}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, m := build(tt.text)
			var got [][]string
			for _, p := range m.Packets {
				var ms []string
				for _, mk := range p.Markers {
					ms = append(ms, doc.String(mk.Span))
				}
				got = append(got, ms)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("markers per packet (-want +got):\n%s", d)
			}
		})
	}
}

func TestBuildMarkerScanning(t *testing.T) {
	type mk struct {
		Text     string
		Valid    bool
		From, To string
	}
	tests := []struct {
		name string
		body string // placed after a three-section packet
		want []mk
	}{
		{"canonical", markPT, []mk{{markPT, true, "plan", "tasks"}}},
		{"arrow character", "<!-- SPECREW-VERDICT-BOUNDARY: clarify → plan -->", []mk{{"<!-- SPECREW-VERDICT-BOUNDARY: clarify → plan -->", true, "clarify", "plan"}}},
		{"word to, no spaces at the ends", "<!--SPECREW-VERDICT-BOUNDARY:plan to tasks-->", []mk{{"<!--SPECREW-VERDICT-BOUNDARY:plan to tasks-->", true, "plan", "tasks"}}},
		{"hyphenated names", "<!-- SPECREW-VERDICT-BOUNDARY: design-analysis -> before-implement -->", []mk{{"<!-- SPECREW-VERDICT-BOUNDARY: design-analysis -> before-implement -->", true, "design-analysis", "before-implement"}}},
		{"inline in a paragraph", "Verdict: " + markPT + " (pending)", []mk{{markPT, true, "plan", "tasks"}}},
		{"in a list item", "- " + markPT, []mk{{markPT, true, "plan", "tasks"}}},
		{"lower-case keyword", "<!-- specrew-verdict-boundary: plan -> tasks -->", []mk{{"<!-- specrew-verdict-boundary: plan -> tasks -->", true, "plan", "tasks"}}},
		{"capitalised names", "<!-- SPECREW-VERDICT-BOUNDARY: Plan -> Tasks -->", []mk{{"<!-- SPECREW-VERDICT-BOUNDARY: Plan -> Tasks -->", true, "plan", "tasks"}}},
		{"underscores and =>", "<!-- SPECREW_VERDICT_BOUNDARY: Plan_X => tasks -->", []mk{{"<!-- SPECREW_VERDICT_BOUNDARY: Plan_X => tasks -->", false, "plan-x", "tasks"}}},
		{"trailing words", "<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks pending -->", []mk{{"<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks pending -->", true, "plan", "tasks"}}},
		{"no names", "<!-- VERDICT BOUNDARY -->", []mk{{"<!-- VERDICT BOUNDARY -->", false, "", ""}}},
		{"over several lines", "<!--\nSPECREW-VERDICT-BOUNDARY: a -> b\n-->", []mk{{"<!--\nSPECREW-VERDICT-BOUNDARY: a -> b\n-->", true, "a", "b"}}},
		{"two on one line", markPT + " " + markTI, []mk{{markPT, true, "plan", "tasks"}, {markTI, true, "tasks", "implement"}}},
		{"other comments are not markers", "<!-- a note -->\n\n<!-- boundary: plan -> tasks -->", nil},
		{"fenced code", "```markdown\n" + markPT + "\n```", nil},
		{"tilde fence", "~~~\n" + markPT + "\n~~~", nil},
		{"indented code", "    " + markPT, nil},
		{"inline code", "Write `" + markPT + "` last.", nil},
		{"block quote", "> " + markPT, nil},
		{"nested block quote in a list", "- > " + markPT, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, m := build(packetA + "\n" + tt.body + "\n")
			if len(m.Packets) != 1 {
				t.Fatalf("%d packets, want 1", len(m.Packets))
			}
			var got []mk
			for _, x := range m.Packets[0].Markers {
				got = append(got, mk{doc.String(x.Span), x.Valid, x.From, x.To})
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("markers (-want +got):\n%s", d)
			}
		})
	}
}

func TestBuildMarkersOutsidePackets(t *testing.T) {
	// Markers in a document without packets are not collected anywhere,
	// and BuildWith does not fail on them.
	_, m := build("# Notes\n\n" + markPT + "\n")
	if len(m.Packets) != 0 {
		t.Errorf("%d packets, want 0", len(m.Packets))
	}
	// A marker inside front matter is blanked out: not a marker.
	_, m = build("---\nnote: \"" + markPT + "\"\n---\n" + packetA)
	if n := len(m.Packets[0].Markers); n != 0 {
		t.Errorf("%d markers from front matter, want 0", n)
	}
}

func TestMarkerCanonical(t *testing.T) {
	tests := []struct {
		m    packet.Marker
		want string
	}{
		{packet.Marker{From: "plan", To: "tasks"}, "<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->"},
		{packet.Marker{From: "design-analysis", To: "plan", Valid: true}, "<!-- SPECREW-VERDICT-BOUNDARY: design-analysis -> plan -->"},
		{packet.Marker{From: "plan"}, ""},
		{packet.Marker{To: "tasks"}, ""},
		{packet.Marker{}, ""},
	}
	for _, tt := range tests {
		if got := tt.m.Canonical(); got != tt.want {
			t.Errorf("%+v.Canonical() = %q, want %q", tt.m, got, tt.want)
		}
	}
	// The canonical form of a malformed marker is itself a valid marker.
	doc, m := build(packetA + "\n<!-- Verdict Boundary: Plan -> Tasks -->\n")
	mk := m.Packets[0].Markers[0]
	if mk.Valid {
		t.Fatalf("%q read as valid", doc.String(mk.Span))
	}
	_, m2 := build(packetA + "\n" + mk.Canonical() + "\n")
	if got := m2.Packets[0].Markers; len(got) != 1 || !got[0].Valid || got[0].From != "plan" || got[0].To != "tasks" {
		t.Errorf("Canonical() %q does not read back as a valid plan -> tasks marker", mk.Canonical())
	}
}

func TestBuildFrontMatter(t *testing.T) {
	type fm struct {
		From, To string
		Gate     bool
	}
	tests := []struct {
		name  string
		front string
		want  fm
	}{
		{"boundary and gate", "---\nfrom_boundary: plan\nto_boundary: tasks\ngate: design-analysis\n---\n", fm{"plan", "tasks", true}},
		{"values are trimmed", "---\nfrom_boundary: \" plan \"\nto_boundary: \"tasks\t\"\n---\n", fm{"plan", "tasks", false}},
		{"gate without a value", "---\ngate:\n---\n", fm{"", "", true}},
		{"only to_boundary", "---\nto_boundary: tasks\n---\n", fm{"", "tasks", false}},
		{"non-string values are ignored", "---\nfrom_boundary: 3\nto_boundary: [a]\n---\n", fm{"", "", false}},
		{"malformed YAML", "---\nfrom_boundary: plan\ngate: [\n---\n", fm{"", "", false}},
		{"other keys", "---\ntitle: x\n---\n", fm{"", "", false}},
		{"no front matter", "", fm{"", "", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, m := build(tt.front + packetA + "\n" + packetA)
			if len(m.Packets) != 2 {
				t.Fatalf("%d packets, want 2", len(m.Packets))
			}
			p1, p2 := m.Packets[0], m.Packets[1]
			if got := (fm{p1.BoundaryFrom, p1.BoundaryTo, p1.GateRecord}); got != tt.want {
				t.Errorf("first packet = %+v, want %+v", got, tt.want)
			}
			if got := (fm{p2.BoundaryFrom, p2.BoundaryTo, p2.GateRecord}); got != (fm{}) {
				t.Errorf("second packet = %+v; only the first packet takes front matter", got)
			}
			if p1.Span.Start != 0 {
				t.Errorf("first packet starts at %d, want 0 (front matter included)", p1.Span.Start)
			}
		})
	}
}

func TestPacketBoundary(t *testing.T) {
	prompts := &packet.Section{Index: packet.DiscussionPrompts}
	other := &packet.Section{Index: packet.JustDid}
	tests := []struct {
		name   string
		p      packet.Packet
		want   bool
		reason string
	}{
		{"five sections", packet.Packet{Sections: []*packet.Section{other}}, false, ""},
		{"empty", packet.Packet{}, false, ""},
		{"discussion prompts", packet.Packet{Sections: []*packet.Section{other, prompts}}, true, "it has a Discussion Prompts section"},
		{"front matter", packet.Packet{BoundaryFrom: "plan", BoundaryTo: "tasks"}, true, "its front matter names the boundary plan → tasks"},
		{"front matter, to only", packet.Packet{BoundaryTo: "tasks"}, true, "its front matter names the boundary  → tasks"},
		{"marker", packet.Packet{Markers: []*packet.Marker{{Valid: true}}}, true, "it carries a verdict marker"},
		{"prompts come first", packet.Packet{Sections: []*packet.Section{prompts}, BoundaryFrom: "plan", Markers: []*packet.Marker{{}}}, true, "it has a Discussion Prompts section"},
		{"front matter before marker", packet.Packet{BoundaryFrom: "plan", BoundaryTo: "tasks", Markers: []*packet.Marker{{}}}, true, "its front matter names the boundary plan → tasks"},
		{"gate record alone is not a boundary", packet.Packet{GateRecord: true}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := tt.p.Boundary()
			if got != tt.want || reason != tt.reason {
				t.Errorf("Boundary() = %v, %q; want %v, %q", got, reason, tt.want, tt.reason)
			}
		})
	}

	// And on built packets.
	_, m := build("## What I Just Did\n## Why I Stopped\n## Discussion Prompts\n## What I Need From You\n\n" + packetA)
	if b, _ := m.Packets[0].Boundary(); !b {
		t.Error("a built packet with Discussion Prompts is not a boundary")
	}
	if b, why := m.Packets[1].Boundary(); b {
		t.Errorf("a built three-section packet is a boundary: %s", why)
	}
}

func TestModelSectionAt(t *testing.T) {
	text := "Intro.\n\n## What I Just Did\n\nbody\n\nWhy I Stopped\n-------------\n\n## What I Need From You\n\n" + packetA
	doc, m := build(text)
	if len(m.Packets) != 2 {
		t.Fatalf("%d packets, want 2", len(m.Packets))
	}
	did := nth(t, text, "## What I Just Did", 0)
	why := nth(t, text, "Why I Stopped", 0)
	underline := nth(t, text, "---", 0)
	did2 := nth(t, text, "## What I Just Did", 1)
	tests := []struct {
		name    string
		offset  int
		packet  int // -1: none
		section int
	}{
		{"before any heading", 0, -1, 0},
		{"heading start", did, 0, 0},
		{"inside heading text", did + 5, 0, 0},
		{"heading end", did + len("## What I Just Did"), 0, 0},
		{"body", nth(t, text, "body", 0), -1, 0},
		{"setext text", why + 2, 0, 1},
		{"setext underline", underline + 3, 0, 1},
		{"second packet heading", did2 + 3, 1, 0},
		{"second packet, later heading", nth(t, text, "## What I Need From You", 1) + 4, 1, 2},
		{"end of text", len(text), -1, 0},
		{"negative", -1, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := m.SectionAt(tt.offset)
			if tt.packet < 0 {
				if p != nil || s != nil {
					t.Errorf("SectionAt(%d) = %v, %v; want nil, nil", tt.offset, p, s)
				}
				return
			}
			if p != m.Packets[tt.packet] || s != p.Sections[tt.section] {
				got := "nil"
				if s != nil {
					got = doc.String(s.Heading.Span)
				}
				t.Errorf("SectionAt(%d) = %s, want packet %d section %d", tt.offset, got, tt.packet, tt.section)
			}
		})
	}
	empty := &packet.Model{}
	if p, s := empty.SectionAt(0); p != nil || s != nil {
		t.Error("SectionAt on an empty model found a section")
	}
}

// TestParallelReadsMatch: a document's packets read in parallel runs (as a
// large one's are) have the consistency contracts read one after the other.
func TestParallelReadsMatch(t *testing.T) {
	var docs []string
	for seed := range uint64(8) {
		docs = append(docs, bench.PacketText(seed, int(64+48*seed)<<10), // packets of 64 KB at most
			strings.Join(bench.PacketsSized(int(2+seed), seed, 10, 12), "")) // a few small ones
	}
	compared := 0
	for i, text := range docs {
		restore := packet.SetParallel(1)
		_, want := build(text)
		restore()
		if len(want.Packets) < 2 {
			continue
		}
		compared++
		for _, n := range []int{2, 3, 7, len(want.Packets) + 1} {
			restore := packet.SetParallel(n)
			_, got := build(text)
			restore()
			if len(got.Packets) != len(want.Packets) {
				t.Fatalf("doc %d, %d runs: %d packets, want %d", i, n, len(got.Packets), len(want.Packets))
			}
			for k := range want.Packets {
				if d := cmp.Diff(want.Packets[k].Consistency, got.Packets[k].Consistency); d != "" {
					t.Errorf("doc %d, %d runs, packet %d (-one after the other +parallel):\n%s", i, n, k, d)
				}
			}
		}
	}
	if compared < 10 {
		t.Errorf("only %d documents had two packets or more: the test compares too little", compared)
	}
}
