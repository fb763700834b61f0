package packet_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// packetSeeds are realistic packets: five- and six-section, LF, CRLF and
// lone-CR line endings, astral characters, front matter, markers in every
// position and form, setext and mis-levelled headings, two packets.
var packetSeeds = []string{
	"## What I Just Did\n\nUpdated the parser 😀.\n\n## Why I Stopped\n\nThe API changes.\n\n## What Needs Your Review\n\n- Should `Parse` fail on empty input?\n\n## What Happens Next\n\nOn approval, I update the callers.\n\n## What I Need From You\n\nReply \"approve\" or \"reject\".\n",
	"## What I Just Did\r\n\r\nDrafted the plan — 𝔘nicode ✓ 😀.\r\n\r\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\r\n\r\n## Why I Stopped\r\n\r\nBoundary: plan.\r\n\r\n## What Needs Your Review\r\n\r\nThe scope table.\r\n\r\n## What Happens Next\r\n\r\nOn approval I derive the tasks.\r\n\r\n## Discussion Prompts\r\n\r\n1. Is the flag acceptable?\r\n\r\n## What I Need From You\r\n\r\nReply: approved for tasks.\r\n",
	"---\nfrom_boundary: plan\nto_boundary: tasks\ngate: plan\n---\n\nWhat I Just Did\n===============\n\nx\n\n### Why I Stopped\n\ny\n\n## What Needs Your Review\n\n```\n<!-- SPECREW-VERDICT-BOUNDARY: a -> b -->\n```\n\n## What I Need From You\n\n<!-- Verdict_Boundary: Plan => Tasks -->\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n",
	"<!-- SPECREW-VERDICT-BOUNDARY: clarify → plan -->\n## What I Just Did\n\na\n\n## Why I Stopped\n\nb\n\n## What I Need From You\n\nc\n\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n## What I Just Did\n\na\n\n## Why I Stopped\n\n## Discussion Prompts\n\n## What I Need From You\n",
	"## What I Just Did\rx 😀\r\r## Why I Stopped\r\r## What I Need From You\r\r<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->",
	"## What I Just Did\n## Why I Stopped\n## What I Need From You\n## What I Just Did\n## Why I Stopped\n## What Happens Next\n## What Needs Your Review\n",
}

// fixtureInputs are the input.md documents of every rule fixture.
func fixtureInputs(t testing.TB) []string {
	var out []string
	err := filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".txtar") {
			return err
		}
		ar, err := txtar.ParseFile(path)
		if err != nil {
			return err
		}
		for _, f := range ar.Files {
			if f.Name == "input.md" {
				out = append(out, string(f.Data))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// And the real packets of the shared corpus, when it is beside the
	// repository (TestCorpus requires it; a fuzz seed need not).
	if root, ok := corpus.Root(); ok {
		real, _ := filepath.Glob(filepath.Join(root, "specrew", "*.md"))
		for _, name := range real {
			if b, err := os.ReadFile(name); err == nil {
				out = append(out, string(b))
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no fixture inputs under testdata")
	}
	return out
}

func newRegistry(t testing.TB) *analysis.Registry {
	reg, err := analysis.NewRegistry(packet.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func inText(s markdown.Span, text string) bool {
	return s.Start >= 0 && s.Start <= s.End && s.End <= len(text)
}

// FuzzPacket: the packet analyzer never panics; every span it reports lies
// inside the text; and each finding's fixes apply on their own.
func FuzzPacket(f *testing.F) {
	for _, s := range append(packetSeeds, fixtureInputs(f)...) {
		f.Add(s)
	}
	reg := newRegistry(f)
	f.Fuzz(func(t *testing.T, text string) {
		doc := markdown.Parse("f.md", text)
		res := reg.Analyze(doc, nil)
		if doc.Kind != markdown.KindPacket {
			if len(res.Findings) != 0 {
				t.Fatalf("%d findings on a %v document", len(res.Findings), doc.Kind)
			}
			return
		}
		m, ok := res.Model(packet.Analyzer).(*packet.Model)
		if !ok {
			t.Fatalf("a packet document has model %#v", res.Model(packet.Analyzer))
		}
		if len(m.Packets) == 0 {
			// Only packet headings written under a section of another
			// document (level 3 or deeper) make no packet.
			for _, h := range doc.Headings {
				if h.Packet >= 0 && h.Level <= 2 {
					t.Fatalf("a packet document with a level-%d packet heading has no packet", h.Level)
				}
			}
		}
		checkModel(t, text, m)
		for _, fd := range res.Findings {
			if !slices.ContainsFunc(packet.Analyzer.Rules, func(r *analysis.Rule) bool { return r.ID == fd.Rule }) {
				t.Fatalf("finding for undeclared rule %s", fd.Rule)
			}
			if fd.Severity < analysis.Error || fd.Severity > analysis.Hint {
				t.Fatalf("%s: severity %v", fd.Rule, fd.Severity)
			}
			if !inText(fd.Span, text) {
				t.Fatalf("%s: span %v outside the text (%d bytes)", fd.Rule, fd.Span, len(text))
			}
			for _, r := range fd.Related {
				if !inText(r.Span, text) {
					t.Fatalf("%s: related span %v outside the text (%d bytes)", fd.Rule, r.Span, len(text))
				}
			}
			for _, fix := range fd.Fixes {
				for _, e := range fix.Edits {
					if !inText(e.Span, text) {
						t.Fatalf("%s: fix %q edit %v outside the text (%d bytes)", fd.Rule, fix.Title, e.Span, len(text))
					}
				}
				// The fixes of different findings may overlap (two of them
				// can remove the same blank line), so each is applied alone.
				if _, err := analysis.ApplyEdits(text, fix.Edits); err != nil {
					t.Fatalf("%s: fix %q: %v", fd.Rule, fix.Title, err)
				}
			}
		}
	})
}

// checkModel: packets and their sections lie inside the text, in order,
// and sections tile their packet.
func checkModel(t *testing.T, text string, m *packet.Model) {
	t.Helper()
	prevEnd := 0
	for pi, p := range m.Packets {
		if !inText(p.Span, text) || p.Span.Start != prevEnd {
			t.Fatalf("packet %d: span %v, previous packet ended at %d (text %d bytes)", pi, p.Span, prevEnd, len(text))
		}
		prevEnd = p.Span.End
		if len(p.Sections) == 0 {
			t.Fatalf("packet %d has no sections", pi)
		}
		end := p.Span.Start
		for si, s := range p.Sections {
			if si > 0 && s.Span.Start != end {
				t.Fatalf("packet %d section %d starts at %d, previous ended at %d", pi, si, s.Span.Start, end)
			}
			end = s.Span.End
			if !inText(s.Span, text) || !inText(s.Body, text) || !inText(s.Heading.Span, text) {
				t.Fatalf("packet %d section %d: Span %v Body %v Heading %v outside the text", pi, si, s.Span, s.Body, s.Heading.Span)
			}
			if s.Body.End != s.Span.End || s.Body.Start < s.Heading.Span.End {
				t.Fatalf("packet %d section %d: Body %v, Span %v, heading %v", pi, si, s.Body, s.Span, s.Heading.Span)
			}
		}
		if end != p.Span.End {
			t.Fatalf("packet %d: sections end at %d, packet at %d", pi, end, p.Span.End)
		}
		for _, mk := range p.Markers {
			if !inText(mk.Span, text) || !strings.HasPrefix(text[mk.Span.Start:mk.Span.End], "<!--") {
				t.Fatalf("packet %d: marker span %v is not a comment", pi, mk.Span)
			}
		}
	}
	if len(m.Packets) > 0 && prevEnd != len(text) {
		t.Fatalf("the last packet ends at %d, the text at %d", prevEnd, len(text))
	}
}

// FuzzPacketFixes: a finding's first fix, applied alone, resolves it. A
// safe fix (one a tool may apply unseen) resolves exactly its finding: the
// document keeps its kind and every other finding, and a moved marker is
// still a marker. Any other fix leaves fewer findings of its rule. (A
// stronger property than FuzzPacket's, kept apart from it.)
func FuzzPacketFixes(f *testing.F) {
	for _, s := range append(packetSeeds, fixtureInputs(f)...) {
		f.Add(s)
	}
	reg := newRegistry(f)
	f.Fuzz(func(t *testing.T, text string) {
		doc := markdown.Parse("f.md", text)
		res := reg.Analyze(doc, nil)
		dups := countRule(res.Findings, packet.RuleMarkerDuplicate.ID) > 0
		for _, fd := range res.Findings {
			if len(fd.Fixes) == 0 {
				continue
			}
			if dups && (fd.Rule == packet.RuleMarkerPosition.ID || fd.Rule == packet.RuleMarkerNonBoundary.ID) {
				// With two markers in a packet, fixing the first leaves the
				// second in its place: the duplicate's own fix resolves that.
				continue
			}
			fix := fd.Fixes[0]
			fixed, err := analysis.ApplyEdits(text, fix.Edits)
			if err != nil {
				t.Fatalf("%s: %v", fd.Rule, err)
			}
			fdoc := markdown.Parse("f.md", fixed)
			after := reg.Analyze(fdoc, nil)
			if !fix.Safe {
				if before, now := countRule(res.Findings, fd.Rule), countRule(after.Findings, fd.Rule); now >= before {
					t.Fatalf("%s at %v: %q did not resolve it (%d findings of the rule before, %d after)\nfixed text: %q",
						fd.Rule, fd.Span, fix.Title, before, now, fixed)
				}
				continue
			}
			if fdoc.Kind != doc.Kind {
				t.Fatalf("%s at %v: %q made a %v a %v\nfixed text: %q", fd.Rule, fd.Span, fix.Title, doc.Kind, fdoc.Kind, fixed)
			}
			want := summaries(res.Findings)
			want = slices.Delete(want, slices.Index(want, fd.Rule+": "+fd.Message), slices.Index(want, fd.Rule+": "+fd.Message)+1)
			if d := cmp.Diff(want, summaries(after.Findings)); d != "" {
				t.Fatalf("%s at %v: %q changed other findings (-want +got):\n%s\nfixed text: %q", fd.Rule, fd.Span, fix.Title, d, fixed)
			}
			if n, m := validMarkers(doc), validMarkers(fdoc); n != m {
				t.Fatalf("%s at %v: %q: %d valid markers before, %d after\nfixed text: %q", fd.Rule, fd.Span, fix.Title, n, m, fixed)
			}
		}
	})
}

// summaries are the findings as "rule: message", sorted.
func summaries(fs []analysis.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Rule+": "+f.Message)
	}
	slices.Sort(out)
	return out
}

func validMarkers(doc *markdown.Document) int {
	n := 0
	for _, p := range packet.BuildWith(doc, nil).Packets {
		for _, mk := range p.Markers {
			if mk.Valid {
				n++
			}
		}
	}
	return n
}

func countRule(fs []analysis.Finding, id string) int {
	n := 0
	for _, f := range fs {
		if f.Rule == id {
			n++
		}
	}
	return n
}

// The tests below pin what the fuzz targets found.

// findings runs the packet analyzer and returns its findings.
func findings(t *testing.T, text string) []analysis.Finding {
	t.Helper()
	return newRegistry(t).Analyze(markdown.Parse("f.md", text), nil).Findings
}

// TestHeadingLevelFixKeepsMultiLineSetextHeadingWhole: a setext heading may
// span lines ("What I\nJust Did" is read as What I Just Did). Its safe fix
// must write one ATX line, not "## What I" followed by a paragraph, which
// loses the section.
func TestHeadingLevelFixKeepsMultiLineSetextHeadingWhole(t *testing.T) {
	text := "What I\nJust Did\n---\n\nx\n\n## Why I Stopped\n\n## What Needs Your Review\n\n## What Happens Next\n\n## What I Need From You\n"
	fs := findings(t, text)
	if len(fs) != 1 || fs[0].Rule != packet.RuleHeadingLevel.ID || len(fs[0].Fixes) != 1 {
		t.Fatalf("findings = %+v, want one heading-level finding with a fix", fs)
	}
	fixed, err := analysis.ApplyEdits(text, fs[0].Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "## What I Just Did\n\nx\n\n## Why I Stopped\n\n## What Needs Your Review\n\n## What Happens Next\n\n## What I Need From You\n"
	if fixed != want {
		t.Errorf("fixed text = %q, want %q", fixed, want)
	}
	if after := findings(t, fixed); len(after) != 0 {
		t.Errorf("after the fix: %+v, want no findings", after)
	}
}

// TestMalformedMarkerFixWritesAValidMarker: the quick fix for a malformed
// marker must produce a marker that is valid, or not be offered at all; it
// must never rewrite a comment into the same invalid text.
func TestMalformedMarkerFixWritesAValidMarker(t *testing.T) {
	boundary := "## What I Just Did\n\n## Why I Stopped\n\n## What Needs Your Review\n\n## What Happens Next\n\n## Discussion Prompts\n\n## What I Need From You\n\n"
	for _, marker := range []string{
		"<!-- SPECREW-VERDICT-BOUNDARY: plan2 -> tasks -->",
		"<!-- SPECREW_VERDICT_BOUNDARY: phase_1 => phase_2 -->",
	} {
		t.Run(marker, func(t *testing.T) {
			text := boundary + marker + "\n"
			fs := findings(t, text)
			if len(fs) != 1 || fs[0].Rule != packet.RuleMarkerMalformed.ID {
				t.Fatalf("findings = %+v, want one malformed-marker finding", fs)
			}
			if len(fs[0].Fixes) == 0 {
				return // no fix offered: acceptable when the names cannot be made valid
			}
			fixed, err := analysis.ApplyEdits(text, fs[0].Fixes[0].Edits)
			if err != nil {
				t.Fatal(err)
			}
			if after := findings(t, fixed); len(after) != 0 {
				t.Errorf("after %q: %+v, want no findings", fs[0].Fixes[0].Title, after)
			}
		})
	}
}

const sixSections = "## What I Just Did\n\nx\n\n## Why I Stopped\n\ny\n\n## What Needs Your Review\n\nr\n\n## What Happens Next\n\nn\n\n## Discussion Prompts\n\n1. q\n\n## What I Need From You\n\nz\n"

// TestMarkerPositionIgnoresNextPacketsLeadingMarker: in a transcript where
// the first packet ends with its marker and the second packet carries its
// marker first (on the line before its first heading, where BuildWith gives it
// to the second packet), the first packet's marker is its last line: no
// verdict-marker-position finding for it.
func TestMarkerPositionIgnoresNextPacketsLeadingMarker(t *testing.T) {
	text := sixSections + "\n" + markPT + "\n\n" + markTI + "\n" + sixSections
	doc, m := build(text)
	if len(m.Packets) != 2 || len(m.Packets[0].Markers) != 1 || doc.String(m.Packets[0].Markers[0].Span) != markPT {
		t.Fatalf("packets/markers not as expected: %d packets", len(m.Packets))
	}
	firstMarker := m.Packets[0].Markers[0].Span
	for _, f := range findings(t, text) {
		if f.Rule == packet.RuleMarkerPosition.ID && f.Span == firstMarker {
			t.Errorf("%s on the first packet's marker, which is its last line: %s", f.Rule, f.Message)
		}
	}
}

// TestMarkerPositionFixStaysInItsPacket: moving a packet's marker to "the
// end of the packet" must leave it in that packet, not put it on the line
// before the next packet's heading (where it would belong to the next
// packet); and the two packets' safe fixes must apply together.
func TestMarkerPositionFixStaysInItsPacket(t *testing.T) {
	text := markPT + "\n" + sixSections + "\n" + markTI + "\n" + sixSections
	fs := findings(t, text)
	var safe []analysis.Edit
	for _, f := range fs {
		if f.Rule != packet.RuleMarkerPosition.ID {
			continue
		}
		fix := f.Fixes[0]
		if !fix.Safe {
			t.Errorf("%q is not safe", fix.Title)
		}
		safe = append(safe, fix.Edits...)
		fixed, err := analysis.ApplyEdits(text, fix.Edits)
		if err != nil {
			t.Fatal(err)
		}
		moved := text[f.Span.Start:f.Span.End]
		bdoc, bm := build(text)
		doc, m := build(fixed)
		owner := func(m *packet.Model, d *markdown.Document) int {
			for pi, p := range m.Packets {
				for _, mk := range p.Markers {
					if d.String(mk.Span) == moved {
						return pi
					}
				}
			}
			return -1
		}
		if was, is := owner(bm, bdoc), owner(m, doc); was != is {
			t.Errorf("moving %s put it in packet %d; it belonged to packet %d\nfixed text: %q", moved, is, was, fixed)
		}
	}
	if len(safe) == 0 {
		t.Fatal("no verdict-marker-position findings")
	}
	if _, err := analysis.ApplyEdits(text, safe); err != nil {
		t.Errorf("the safe fixes do not apply together: %v", err)
	}
}

// TestMarkerPositionFixKeepsCRLF: the safe fix that moves the marker to the
// end of a CRLF packet must write CRLF line breaks, not mix "\n" into the
// file.
func TestMarkerPositionFixKeepsCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	text := crlf("## What I Just Did\n\nx\n\n" + markPT + "\n\n## Why I Stopped\n\ny\n\n## What Needs Your Review\n\nNone.\n\n## What Happens Next\n\nn\n\n## Discussion Prompts\n\n1. q\n\n## What I Need From You\n\nz\n")
	fs := findings(t, text)
	if len(fs) != 1 || fs[0].Rule != packet.RuleMarkerPosition.ID {
		t.Fatalf("findings = %+v, want one verdict-marker-position finding", fs)
	}
	fixed, err := analysis.ApplyEdits(text, fs[0].Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := crlf("## What I Just Did\n\nx\n\n## Why I Stopped\n\ny\n\n## What Needs Your Review\n\nNone.\n\n## What Happens Next\n\nn\n\n## Discussion Prompts\n\n1. q\n\n## What I Need From You\n\nz\n\n" + markPT + "\n")
	if fixed != want {
		t.Errorf("fixed text = %q, want %q", fixed, want)
	}
	if after := findings(t, fixed); len(after) != 0 {
		t.Errorf("after the fix: %+v, want no findings", after)
	}
}
