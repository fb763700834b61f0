package markdown_test

import (
	"testing"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"
)

// fuzzSeeds are realistic documents: packets with LF, CRLF and lone-CR line
// endings, front matter, markers, astral characters and code.
var fuzzSeeds = []string{
	"",
	"<A {...b} c='}' d={`${e}`}>\n```\n</A>\n```\n</A>",
	"Option <X> <Low | High> array<T> <A><A></A>",
	"<Session.Launch x=\"\\\"\" />`</A>`<A>",
	"\n",
	"\r\n",
	"\r",
	"😀",
	"## What I Just Did\n\nAdded the parser 😀.\n\n## Why I Stopped\n\nThe API changes.\n\n## What Needs Your Review\n\n- Should `Parse` fail on empty input?\n\n## What Happens Next\n\nOn approval, I update the callers.\n\n## What I Need From You\n\nReply \"approve\" or \"reject\".\n",
	"## What I Just Did\r\n\r\nDrafted the plan — see `plan.md` (𝔘nicode ✓).\r\n\r\n## Why I Stopped\r\n\r\nBoundary: plan.\r\n\r\n## What Needs Your Review\r\n\r\nThe scope table.\r\n\r\n## What Happens Next\r\n\r\nOn approval I derive the tasks.\r\n\r\n## Discussion Prompts\r\n\r\n1. Is the flag acceptable?\r\n\r\n## What I Need From You\r\n\r\nReply: approved for tasks.\r\n\r\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\r\n",
	"---\nfrom_boundary: plan\nto_boundary: tasks\ngate: 141\n---\nWhat I Just Did\n===============\n\nx 😀\n\nWhy I Stopped\n-------------\n\n> <!-- SPECREW-VERDICT-BOUNDARY: a -> b -->\n\n### what needs your review:\n\n```\n## What Happens Next\n```\n",
	"## What I Just Did\rx\r## Why I Stopped\r\r## What I Need From You\r<!-- Verdict_Boundary: Plan => Tasks -->",
	"# Handoff\n\n**Goal:** ship it.\n",
	"---\nprops:\n  who: string\n---\n<UserCheckpoint purpose=\"x\" />\n",
	"---\na: [\n---\n#tag\n====\n",
	"é€😀\r\n\r\n\n\r😀\xff\xfe\x80a",
}

// FuzzLineIndex: for any text and offset, Position stays within the
// document's lines, and Offset inverts it for every offset that starts a
// character outside a line break.
func FuzzLineIndex(f *testing.F) {
	for _, s := range fuzzSeeds {
		for _, o := range []int{0, len(s) / 2, len(s), -1, len(s) + 3} {
			f.Add(s, o)
		}
	}
	f.Fuzz(func(t *testing.T, text string, offset int) {
		x := markdown.NewLineIndex(text)
		for _, o := range []int{offset, offset % (len(text) + 1)} {
			for _, enc := range encodings {
				p := x.Position(o, enc)
				if p.Line < 0 || p.Line >= x.LineCount() {
					t.Fatalf("Position(%d, %s) = %+v: line outside 0..%d", o, enc, p, x.LineCount()-1)
				}
				if max := charCount(x.Line(p.Line), enc); p.Character < 0 || p.Character > max {
					t.Fatalf("Position(%d, %s) = %+v: character outside 0..%d", o, enc, p, max)
				}
				got, _ := x.Offset(p, enc)
				if got < 0 || got > len(text) {
					t.Fatalf("Offset(Position(%d, %s) = %+v) = %d, outside the text (%d bytes)", o, enc, p, got, len(text))
				}
				if o >= 0 && o <= len(text) && (o == len(text) || utf8.RuneStart(text[o])) && !lineBreakInterior(text, o) {
					if got, exact := x.Offset(p, enc); got != o || !exact {
						t.Fatalf("Offset(Position(%d, %s) = %+v) = %d, %v; want %d, true", o, enc, p, got, exact, o)
					}
				}
			}
		}
	})
}

// charCount is the length of s in enc's units, counting as the LSP does.
func charCount(s string, enc markdown.Encoding) int {
	switch enc {
	case markdown.UTF8:
		return len(s)
	case markdown.UTF32:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2 // a surrogate pair
		} else {
			n++
		}
	}
	return n
}

// FuzzParse: Parse never panics, its headings lie inside the text, and its
// kind is one of the four.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d := markdown.Parse("f.md", text)
		switch d.Kind {
		case markdown.KindOther, markdown.KindPacket, markdown.KindHandoff, markdown.KindWorkflow:
		default:
			t.Fatalf("Kind = %d", int(d.Kind))
		}
		if len(d.Source) != len(text) {
			t.Fatalf("len(Source) = %d, len(Text) = %d", len(d.Source), len(text))
		}
		prev := -1
		for _, h := range d.Headings {
			for _, s := range []markdown.Span{h.Span, h.Inner} {
				if s.Start < 0 || s.Start > s.End || s.End > len(text) {
					t.Fatalf("heading %q: span %v outside the text (%d bytes)", h.Text, s, len(text))
				}
			}
			if h.Inner.Start < h.Span.Start || h.Inner.End > h.Span.End {
				t.Fatalf("heading %q: Inner %v outside Span %v", h.Text, h.Inner, h.Span)
			}
			if h.Span.Start <= prev {
				t.Fatalf("heading %q at %v is not after the previous heading (ending %d)", h.Text, h.Span, prev)
			}
			prev = h.Span.End
			if h.Level < 1 || h.Level > 6 {
				t.Fatalf("heading %q has level %d", h.Text, h.Level)
			}
		}
		if fm := d.FrontMatter; fm != nil {
			if fm.Span.Start != 0 || fm.Body.Start < fm.Span.Start || fm.Body.End > fm.Span.End || fm.Body.Start > fm.Body.End || fm.Span.End > len(text) {
				t.Fatalf("front matter Span %v, Body %v in a text of %d bytes", fm.Span, fm.Body, len(text))
			}
			if fm.Err != nil && fm.Data != nil {
				t.Fatalf("front matter has both Data and Err")
			}
		}
	})
}
