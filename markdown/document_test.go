package markdown_test

import (
	// The kinds' detectors, which Parse tries in the engine's order: the
	// kind tests below read documents as every entry point does.
	"strings"
	"testing"

	_ "github.com/baton-md/baton/engine"

	"github.com/baton-md/baton/markdown"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"
)

func TestKindString(t *testing.T) {
	for k, want := range map[markdown.Kind]string{
		markdown.KindOther:    "other",
		markdown.KindPacket:   "stop packet",
		markdown.KindHandoff:  "handoff",
		markdown.KindWorkflow: "workflow",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestParseKind(t *testing.T) {
	tests := []struct {
		name string
		text string
		want markdown.Kind
	}{
		{"three packet headings", "## What I Just Did\n\nx\n\n## Why I Stopped\n\ny\n\n## What I Need From You\n\nz\n", markdown.KindPacket},
		{"all six headings", "## What I Just Did\n## Why I Stopped\n## What Needs Your Review\n## What Happens Next\n## Discussion Prompts\n## What I Need From You\n", markdown.KindPacket},
		{"lower case and trailing colons", "## what i just did:\n\n## WHY I STOPPED\n\n## What needs your review:\n", markdown.KindPacket},
		{"bold headings", "## **What I Just Did**\n\n## **Why I Stopped:**\n\n## __What Happens Next__\n", markdown.KindPacket},
		{"setext headings", "What I Just Did\n---------------\n\nWhy I Stopped\n=============\n\nWhat Happens Next\n---\n", markdown.KindPacket},
		{"any heading level", "# What I Just Did\n### Why I Stopped\n#### What I Need From You\n", markdown.KindPacket},
		{"CRLF packet", "## What I Just Did\r\n\r\nx\r\n\r\n## Why I Stopped\r\n\r\n## What I Need From You\r\n", markdown.KindPacket},
		{"packet with an h1 title first", "# Stop\n\n## What I Just Did\n## Why I Stopped\n## What Happens Next\n", markdown.KindPacket},
		{"packet headings win over workflow front matter", "---\nprops: {}\n---\n## What I Just Did\n## Why I Stopped\n## What Happens Next\n", markdown.KindPacket},

		{"two packet headings", "## What I Just Did\n\nx\n\n## Why I Stopped\n\ny\n", markdown.KindOther},
		{"one heading three times", "## Why I Stopped\n## Why I Stopped\n## Why I Stopped\n", markdown.KindOther},
		// specrew's section parser reads a line holding only a title, bare or bold, as its heading.
		{"packet headings as bold paragraphs", "**What I Just Did**\n\n**Why I Stopped**\n\n**What I Need From You**\n", markdown.KindPacket},
		{"packet headings as bare lines", "What I just did\nx\n\nWhy I stopped\ny\n\nWhat I need from you\nz\n", markdown.KindPacket},
		{"packet titles with a colon are prose", "What I just did:\nx\n\nWhy I stopped:\ny\n\nWhat I need from you:\nz\n", markdown.KindOther},
		{"packet titles inside a sentence", "What I just did was small.\n\nWhy I stopped matters.\n\nWhat I need from you is a reply.\n", markdown.KindOther},
		{"packet headings quoted", "> ## What I Just Did\n> ## Why I Stopped\n> ## What I Need From You\n", markdown.KindOther},
		{"packet headings in a list", "- ## What I Just Did\n- ## Why I Stopped\n- ## What I Need From You\n", markdown.KindOther},
		{"packet headings in a fenced block", "```\n## What I Just Did\n## Why I Stopped\n## What I Need From You\n```\n", markdown.KindOther},
		{"empty", "", markdown.KindOther},
		{"plain prose", "Just some notes.\n", markdown.KindOther},

		// clio's session line decides...
		{"handoff carried from session", "# Handoff\n\nCarried from session 12.\n", markdown.KindHandoff},
		{"handoff with goal and session line", "# Handoff\n\n**Goal:** ship the parser.\n\nCarried from session `s1`.\n", markdown.KindHandoff},
		{"handoff, any case of the title, with the session line", "# HANDOFF\n\n**Goal:** ship it.\n\nCarried from session `s1`.\n", markdown.KindHandoff},
		{"session line in the goal's paragraph", "# Handoff\n**Goal:** ship the parser.\nCarried from session `s1`.\n", markdown.KindHandoff},
		{"session line over sections clio does not write", "# Handoff\n\n**Goal:** x\n\nCarried from session `s1`.\n\n## Notes\n\nprose\n", markdown.KindHandoff},
		{"handoff wins over packet headings", "# Handoff\n\n**Goal:** x\n\nCarried from session `s1`.\n\n## What I Just Did\n## Why I Stopped\n## What I Need From You\n", markdown.KindHandoff},
		{"session line after a section", "# Handoff\n\n**Goal:** ship the parser.\n\n## Notes\n\nCarried from session `s1`.\n", markdown.KindOther},
		{"session line in code", "# Handoff\n\n**Goal:** ship the parser.\n\n```\nCarried from session `s1`.\n```\n", markdown.KindOther},
		{"session line in a list", "# Handoff\n\n- Carried from session `s1`.\n", markdown.KindOther},
		// ... and without it, clio's layout exactly does.
		{"clio's layout without the session line", "# Handoff\n\n**Goal:** ship the parser.\n\n## Facts\n\n- the lexer is done\n", markdown.KindHandoff},
		{"every section of clio's, in order", "# Handoff\n\n**Goal:** ship the parser.\n\n## Decisions\n\n- a\n  why\n\n## Facts\n\n- b\n\n## Files\n\n- `a.go`: c\n\n### dropped (not in this session's read ledger)\n\n- `b.go`: d\n\n## Commands\n\n- `go test`: e\n\n## Open questions\n\n- f?\n\n## Bounds applied\n\n- facts: kept 32 of 40; the rest were dropped by the facts bound\n", markdown.KindHandoff},
		{"only the dropped section", "# Handoff\n\n**Goal:** ship the parser.\n\n### dropped (not in this session's read ledger)\n\n- `b.go`: d\n", markdown.KindHandoff},
		{"an emptied section and a comment", "# Handoff\n\n**Goal:** ship the parser.\n\n<!-- reviewed -->\n\n## Facts\n\n## Commands\n\n- `go test`: e\n", markdown.KindHandoff},
		{"the session line mangled past its words", "# Handoff\n\n**Goal:** ship the parser.\n\ncarried from sesion s1\n\n## Facts\n\n- b\n", markdown.KindHandoff},
		{"clio's layout with an agent's items", "# Handoff\n\n**Goal:** ship the parser.\n\n## Files\n\n- `a.go` — the lexer\n", markdown.KindHandoff},
		{"handoff title and goal alone", "# Handoff\n\n**Goal:** ship the parser.\n", markdown.KindOther},
		{"handoff title and goal over sections of a note", "# Handoff\n\n**Goal:** ship the parser.\n\n## Files\n\n- `a.go` — the lexer\n\n## Next steps\n\n- wire it in\n", markdown.KindOther},
		{"handoff title and goal over packet headings", "# Handoff\n\n**Goal:** x\n\n## What I Just Did\n## Why I Stopped\n## What I Need From You\n", markdown.KindPacket},
		{"prose under a section", "# Handoff\n\n**Goal:** ship the parser.\n\n## Facts\n\nThe lexer is done.\n", markdown.KindOther},
		{"a second line of prose under the goal", "# Handoff\n\n**Goal:** ship the parser.\n\nBranch `feat/parser`.\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"the goal over two lines", "# Handoff\n\n**Goal:** ship the parser.\n**Status:** half done\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"sections out of clio's order", "# Handoff\n\n**Goal:** ship the parser.\n\n## Files\n\n- `a.go`: c\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"a section twice", "# Handoff\n\n**Goal:** ship the parser.\n\n## Facts\n\n- a\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"a section not as clio writes it", "# Handoff\n\n**Goal:** ship the parser.\n\n## facts:\n\n- b\n", markdown.KindOther},
		{"a setext section", "# Handoff\n\n**Goal:** ship the parser.\n\nFacts\n-----\n\n- b\n", markdown.KindOther},
		{"no goal", "# Handoff\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"a list before any section", "# Handoff\n\n**Goal:** ship the parser.\n\n- b\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"text before the title", "Notes.\n\n# Handoff\n\n**Goal:** ship the parser.\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"the title in another case", "# HANDOFF\n\n**Goal:** ship the parser.\n\n## Facts\n\n- b\n", markdown.KindOther},
		{"handoff title without Goal", "# Handoff\n\nSome notes.\n", markdown.KindOther},
		{"handoff as an h2", "## Handoff\n\n**Goal:** x\n\nCarried from session `s1`.\n", markdown.KindOther},
		{"Goal without handoff title", "# Notes\n\n**Goal:** x\n\nCarried from session `s1`.\n", markdown.KindOther},

		{"front matter props", "---\nprops:\n  name: string\n---\n# Flow\n", markdown.KindWorkflow},
		{"front matter required", "---\nrequired: [a]\n---\n", markdown.KindWorkflow},
		{"front matter returns", "---\nreturns: string\n---\n", markdown.KindWorkflow},
		{"front matter without workflow keys", "---\ntitle: x\n---\n# Doc\n", markdown.KindOther},
		{"malformed front matter naming props", "---\nprops: [\n---\n", markdown.KindOther},
		{"registered component tag block", "# Flow\n\n<Prompt purpose=\"x\" />\n", markdown.KindWorkflow},
		{"structural tag at the start", "<If condition={a}>\nWhat next?\n</If>\n", markdown.KindWorkflow},
		{"structural tag inline", "Press <Break /> to go on.\n", markdown.KindWorkflow},
		{"host component", "<Git.Commit message=\"x\" />\n", markdown.KindWorkflow},
		{"executable code block", "# Build\n\n```bash exec\nmake\n```\n", markdown.KindWorkflow},
		{"evaluated code block with modifiers", "```ts persist eval\nconst x = 1\n```\n", markdown.KindWorkflow},
		// Capitalised tags that are not XMD's own are components only when
		// they resolve in a workspace: by the text alone, no workflow.
		{"other component tag block", "# Flow\n\n<UserCheckpoint purpose=\"x\" />\n", markdown.KindOther},
		{"other component tag at the start", "<Ask>\nWhat next?\n</Ask>\n", markdown.KindOther},
		{"other component tag inline", "Press <Confirm /> to go on.\n", markdown.KindOther},
		{"MDX component", "<Intro>\nState lets a component remember what the user typed.\n</Intro>\n", markdown.KindOther},
		{"HTML elements in any case", "<H2>H2 as Top-Level Heading</H2>\n<h2>This is not allowed. {MD033}</h2>\n", markdown.KindOther},
		{"prompt tags and placeholders", "<CRITICAL>\nDo not trust your memory: cite a source file for every claim.\n</CRITICAL>\nThen research React's <TOPIC> and report what the tests assert about <TOPIC>.\n", markdown.KindOther},
		{"Vue bindings and type notes", "<TeamMembers :members=\"core\" />\n<TOCInline toc={toc} />\n- **`import.meta.env.MODE`**: {string} the mode the app runs in.\n", markdown.KindOther},
		{"fence closed early", "````md\n```mdx\n<Intro>\n```js\nconst x = 1\n```\n</Intro>\n```\n````\n", markdown.KindOther},
		{"exec as the language", "```exec\nls\n```\n", markdown.KindOther},
		{"Exec in another case", "```bash Exec\nls\n```\n", markdown.KindOther},
		{"executable block quoted", "> ```bash exec\n> ls\n> ```\n", markdown.KindOther},
		{"executable block shown in a fence", "````md\n```bash exec\nls\n```\n````\n", markdown.KindOther},
		{"component tag in a fenced block", "```\n<UserCheckpoint purpose=\"x\" />\n```\n", markdown.KindOther},
		{"component tag in an indented block", "Text.\n\n    <UserCheckpoint purpose=\"x\" />\n", markdown.KindOther},
		{"component tag in inline code", "Write `<UserCheckpoint purpose=\"x\" />` here.\n", markdown.KindOther},
		{"lower-case HTML", "<div>\nhello\n</div>\n", markdown.KindOther},
		{"front matter workflow bundle", "---\nworkflow:\n  components:\n    Stage: stage.md\n---\n# Flow\n", markdown.KindWorkflow},
		{"front matter workflow without components", "---\nworkflow: nightly\n---\n# Doc\n", markdown.KindOther},
		// XMD's scanner reads these as text: never closed, or not its tag grammar.
		{"template placeholder", "Pick Option <X> or <Y> here.\n", markdown.KindOther},
		{"placeholder with alternatives", "Risk: <Low | Medium | High>\n", markdown.KindOther},
		{"generic type in a table", "| field | type |\n|---|---|\n| records | array<FeatureDeliveryRecord> |\n", markdown.KindOther},
		{"generic type in prose", "A Workflow<T> returns T.\n", markdown.KindOther},
		{"closer with a space is not the closer", "<Rule>\nx\n</Rule >\n", markdown.KindOther},
		{"closer only in code", "<Rule>\nx\n`</Rule>`\n", markdown.KindOther},
		{"closer inside a fence", "<Rule>\n\n```\n</Rule>\n```\n", markdown.KindOther},
		{"attribute without a value", "<Note x=>\n</Note>\n", markdown.KindOther},
		{"self-closing tag with a slash alone", "<Kind / >\n", markdown.KindOther},
		{"component in a comment", "<!-- <Prompt /> -->\n", markdown.KindOther},
		{"component in a block quote", "> <Prompt />\n", markdown.KindOther},
		// ... and these as invocations.
		{"closed after other text", "Ask <Prompt>\nhow are you\n</Prompt> now.\n", markdown.KindWorkflow},
		{"own tag after other ones", "<Intro>\nx\n</Intro>\n\n<Note />\n\n<Prompt>hi</Prompt>\n", markdown.KindWorkflow},
		{"boolean and expression attributes", "<Loop max={3} verbose>\n<Break />\n</Loop>\n", markdown.KindWorkflow},
		{"spread and quoted braces", "<Agent {...props} label=\"}\" />\n", markdown.KindWorkflow},
		{"dotted name", "<Session.Launch agent={a} />\n", markdown.KindWorkflow},
		{"nested same name", "<If condition={a}>\n<If condition={b}>\nx\n</If>\n</If>\n", markdown.KindWorkflow},
		{"a placeholder before a real tag", "Use <X> for the name.\n\n<Prompt>hi</Prompt>\n", markdown.KindWorkflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markdown.Parse("f.md", tt.text).Kind; got != tt.want {
				t.Errorf("Kind = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseHeadings(t *testing.T) {
	type H = markdown.Heading
	type S = markdown.Span
	tests := []struct {
		name string
		text string
		want []H
	}{
		{
			name: "ATX headings",
			//     0         1         2
			//     0123456 7 8901 2345678901
			text: "# Title\n\ntext\n## Sub ##\n",
			want: []H{
				{Level: 1, Text: "Title", Span: S{0, 7}, Inner: S{2, 7}},
				{Level: 2, Text: "Sub", Span: S{14, 23}, Inner: S{17, 20}},
			},
		},
		{
			name: "indented ATX heading",
			text: "  ## Sub\n",
			want: []H{{Level: 2, Text: "Sub", Span: S{0, 8}, Inner: S{5, 8}}},
		},
		{
			name: "last line without a line break",
			text: "x\n\n### End",
			want: []H{{Level: 3, Text: "End", Span: S{3, 10}, Inner: S{7, 10}}},
		},
		{
			name: "trailing spaces are not content",
			text: "## Why I Stopped  \n",
			want: []H{{Level: 2, Text: "Why I Stopped", Span: S{0, 18}, Inner: S{3, 16}}},
		},
		{
			name: "setext heading includes its underline",
			text: "Title\n=====\n\nBody\n",
			want: []H{{Level: 1, Text: "Title", Span: S{0, 11}, Inner: S{0, 5}, Setext: true}},
		},
		{
			name: "setext heading at the end of the text",
			text: "Title\n---",
			want: []H{{Level: 2, Text: "Title", Span: S{0, 9}, Inner: S{0, 5}, Setext: true}},
		},
		{
			name: "two-line setext heading",
			text: "Line one\nline two\n---\n",
			want: []H{{Level: 2, Text: "Line one\nline two", Span: S{0, 21}, Inner: S{0, 17}, Setext: true}},
		},
		{
			name: "CRLF ATX heading",
			text: "## Sub\r\nx\r\n",
			want: []H{{Level: 2, Text: "Sub", Span: S{0, 6}, Inner: S{3, 6}}},
		},
		{
			name: "CRLF setext heading",
			text: "Title\r\n---\r\nx",
			want: []H{{Level: 2, Text: "Title", Span: S{0, 10}, Inner: S{0, 5}, Setext: true}},
		},
		{
			name: "multi-byte heading",
			text: "## Émoji 😀\n",
			want: []H{{Level: 2, Text: "Émoji 😀", Span: S{0, 14}, Inner: S{3, 14}}},
		},
		{
			name: "only top-level headings",
			text: "> # Quoted\n\n- # In a list\n\n```\n# In code\n```\n\n    # Indented code\n\n<div>\n# In HTML\n</div>\n\n# Top\n",
			want: []H{{Level: 1, Text: "Top", Span: S{91, 96}, Inner: S{93, 96}}},
		},
		{
			name: "no headings",
			text: "Just text.\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := markdown.Parse("f.md", tt.text)
			if d := cmp.Diff(tt.want, d.Headings, cmpopts.IgnoreFields(markdown.Heading{}, "Packet")); d != "" {
				t.Errorf("Headings (-want +got):\n%s", d)
			}
			for _, h := range d.Headings {
				if want := markdown.PacketHeadingIndex(h.Text); h.Packet != want {
					t.Errorf("heading %q: Packet = %d, want %d", h.Text, h.Packet, want)
				}
				if got := strings.TrimSpace(d.String(h.Inner)); got != h.Text {
					t.Errorf("heading %q: Inner covers %q", h.Text, got)
				}
			}
		})
	}
}

// TestParseSetextHeadingStartingWithHash: "#tag" is not an ATX heading (no
// space after the "#"), so "#tag" underlined by "===" is a setext heading,
// and its span must include the underline like any other setext heading.
func TestParseSetextHeadingStartingWithHash(t *testing.T) {
	d := markdown.Parse("f.md", "#tag\n====\n")
	want := []markdown.Heading{{Level: 1, Text: "#tag", Span: markdown.Span{Start: 0, End: 9}, Inner: markdown.Span{Start: 0, End: 4}, Setext: true}}
	if diff := cmp.Diff(want, d.Headings, cmpopts.IgnoreFields(markdown.Heading{}, "Packet")); diff != "" {
		t.Errorf("Headings (-want +got):\n%s", diff)
	}
}

func TestParseFrontMatter(t *testing.T) {
	type S = markdown.Span
	tests := []struct {
		name      string
		text      string
		span      S
		body      S
		data      map[string]any
		malformed bool
	}{
		{
			name: "mapping",
			text: "---\ntitle: Plan\nn: 3\n---\n# Heading\n",
			span: S{0, 24}, body: S{4, 21},
			data: map[string]any{"title": "Plan", "n": 3},
		},
		{
			name: "closed by dots",
			text: "---\na: b\n...\nText\n",
			span: S{0, 12}, body: S{4, 9},
			data: map[string]any{"a": "b"},
		},
		{
			name: "CRLF",
			text: "---\r\na: 1\r\n---\r\n# H\r\n",
			span: S{0, 14}, body: S{5, 11},
			data: map[string]any{"a": 1},
		},
		{
			name: "delimiters with trailing blanks",
			text: "--- \t\na: 1\n---  \nx",
			span: S{0, 16}, body: S{6, 11},
			data: map[string]any{"a": 1},
		},
		{
			name: "closing line at the end of the text",
			text: "---\na: 1\n---",
			span: S{0, 12}, body: S{4, 9},
			data: map[string]any{"a": 1},
		},
		{
			name: "nested values",
			text: "---\nfrom_boundary: plan\nlist: [1, 2]\n---\n",
			span: S{0, 40}, body: S{4, 37},
			data: map[string]any{"from_boundary": "plan", "list": []any{1, 2}},
		},
		{
			name: "malformed YAML",
			text: "---\na: [\n---\n# H\n",
			span: S{0, 12}, body: S{4, 9},
			malformed: true,
		},
		{
			name: "YAML that is not a mapping",
			text: "---\n- a\n- b\n---\n",
			span: S{0, 15}, body: S{4, 12},
			malformed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := markdown.Parse("f.md", tt.text)
			fm := d.FrontMatter
			if fm == nil {
				t.Fatal("FrontMatter = nil")
			}
			if fm.Span != tt.span || fm.Body != tt.body {
				t.Errorf("Span, Body = %v %q, %v %q; want %v, %v", fm.Span, d.String(fm.Span), fm.Body, d.String(fm.Body), tt.span, tt.body)
			}
			if tt.malformed {
				if fm.Err == nil || fm.Data != nil {
					t.Errorf("Err = %v, Data = %v; want an error and nil data", fm.Err, fm.Data)
				}
			} else {
				if fm.Err != nil {
					t.Errorf("Err = %v", fm.Err)
				}
				if diff := cmp.Diff(tt.data, fm.Data); diff != "" {
					t.Errorf("Data (-want +got):\n%s", diff)
				}
			}
			checkBlanked(t, d, fm.Span)
		})
	}
}

// checkBlanked: Source is Text with the front matter's bytes blanked (line
// breaks kept), so it has the same length and every later byte is the same.
func checkBlanked(t *testing.T, d *markdown.Document, span markdown.Span) {
	t.Helper()
	if len(d.Source) != len(d.Text) {
		t.Fatalf("len(Source) = %d, len(Text) = %d", len(d.Source), len(d.Text))
	}
	for i := range d.Text {
		want := d.Text[i]
		if i >= span.Start && i < span.End && want != '\n' && want != '\r' {
			want = ' '
		}
		if d.Source[i] != want {
			t.Fatalf("Source[%d] = %q, want %q (Source %q)", i, d.Source[i], want, d.Source)
		}
	}
}

func TestParseNoFrontMatter(t *testing.T) {
	tests := []struct{ name, text string }{
		{"no closing line", "---\na: 1\n\n# H\n"},
		{"just an opening line", "---\n"},
		{"opening line without a break", "---"},
		{"not on the first line", "\n---\na: 1\n---\n"},
		{"four dashes", "----\na: 1\n----\n"},
		{"indented opening", " ---\na: 1\n---\n"},
		{"text after the dashes", "--- a\nb: 1\n---\n"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := markdown.Parse("f.md", tt.text)
			if d.FrontMatter != nil {
				t.Errorf("FrontMatter = %+v, want nil", *d.FrontMatter)
			}
			if string(d.Source) != tt.text {
				t.Errorf("Source = %q, want the text unchanged", d.Source)
			}
		})
	}
}

// TestParseFrontMatterKeepsOffsets: what follows front matter is parsed at
// its own byte offsets in Text, and nothing inside the front matter is
// parsed as Markdown.
func TestParseFrontMatterKeepsOffsets(t *testing.T) {
	text := "---\n# not a heading\ntitle: \"<Widget />\"\n---\nHello *world*.\n\n## Real\n"
	d := markdown.Parse("f.md", text)
	if d.FrontMatter == nil || d.FrontMatter.Err != nil {
		// "# not a heading" is a YAML comment: the block is valid.
		t.Fatalf("FrontMatter = %+v, want a valid block", d.FrontMatter)
	}
	if d.Kind != markdown.KindOther {
		t.Errorf("Kind = %v: the component tag inside the front matter was seen", d.Kind)
	}
	want := []markdown.Heading{{Level: 2, Text: "Real", Span: markdown.Span{Start: 60, End: 67}, Inner: markdown.Span{Start: 63, End: 67}}}
	if diff := cmp.Diff(want, d.Headings, cmpopts.IgnoreFields(markdown.Heading{}, "Packet")); diff != "" {
		t.Errorf("Headings (-want +got):\n%s", diff)
	}

	// Every text segment in the AST reads the same in Text as in Source,
	// and the paragraph's words are where they are in Text (a plain
	// paragraph's text is its lines: it has no Text nodes).
	var texts []string
	read := func(seg gtext.Segment) {
		if string(d.Source[seg.Start:seg.Stop]) != text[seg.Start:seg.Stop] {
			t.Errorf("segment %d-%d: Source %q, Text %q", seg.Start, seg.Stop, d.Source[seg.Start:seg.Stop], text[seg.Start:seg.Stop])
		}
		texts = append(texts, strings.TrimRight(text[seg.Start:seg.Stop], "\n"))
	}
	_ = ast.Walk(d.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Text:
			if entering {
				read(n.Segment)
			}
		case *ast.Paragraph:
			if entering && n.FirstChild() == nil {
				for i := range n.Lines().Len() {
					read(n.Lines().At(i))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	// (Emphasis is not parsed: see TestParseInlineNodes.)
	if diff := cmp.Diff([]string{"Hello *world*.", "Real"}, texts); diff != "" {
		t.Errorf("text segments read from Text (-want +got):\n%s", diff)
	}
	if p := d.Lines.Position(strings.Index(text, "Hello"), markdown.UTF8); p != (markdown.Position{Line: 4}) {
		t.Errorf("Position of Hello = %+v, want line 4", p)
	}
}

func TestNormalizeHeading(t *testing.T) {
	tests := []struct{ in, want string }{
		{"What I Just Did", "what i just did"},
		{"  What I Just Did \t", "what i just did"},
		{"What I Just Did:", "what i just did"},
		{"What I Just Did :", "what i just did"},
		{"**What I Just Did**", "what i just did"},
		{"**What I Just Did:**", "what i just did"},
		{"**What I Just Did**:", "what i just did"},
		{"__Why   I\tStopped__", "why i stopped"},
		{"** What Happens Next **", "what happens next"},
		{"What\nHappens  Next", "what happens next"},
		{"**a**", "a"},
		{"****", "****"},
		{"**", "**"},
		{"**unclosed", "**unclosed"},
		{"What: I", "what: i"},
		{":", ""},
		{"", ""},
		{"What\u00a0I Just\u2003Did", "what i just did"},
		{"What I\vJust\fDid\r", "what i just did"},
		{"what i just did", "what i just did"},
	}
	for _, tt := range tests {
		if got := markdown.NormalizeHeading(tt.in); got != tt.want {
			t.Errorf("NormalizeHeading(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPacketHeadingIndex(t *testing.T) {
	for i, h := range markdown.PacketHeadings {
		if got := markdown.PacketHeadingIndex(h); got != i {
			t.Errorf("PacketHeadingIndex(%q) = %d, want %d", h, got, i)
		}
	}
	tests := []struct {
		in   string
		want int
	}{
		{"what i just did", 0},
		{"WHY I STOPPED:", 1},
		{"**What Needs Your Review**", 2},
		{"__What Happens Next:__", 3},
		{"  Discussion   Prompts ", 4},
		{"**What I Need From You**:", 5},
		{"What I Need From You?", -1},
		{"What I Just", -1},
		{"What I Just Did Today", -1},
		{"Decision Evidence", -1},
		{"`What I Just Did`", -1},
		{"\u00a0Why I Stopped", 1}, // a non-ASCII space is trimmed too
		{"\vWhat Happens Next", 3},
		{"_ _What I Just Did", -1},
		{"Stage 12", -1},
		{"", -1},
	}
	for _, tt := range tests {
		if got := markdown.PacketHeadingIndex(tt.in); got != tt.want {
			t.Errorf("PacketHeadingIndex(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestDocumentString(t *testing.T) {
	d := markdown.Parse("f.md", "## Sub\nbody")
	if got := d.String(markdown.Span{Start: 3, End: 6}); got != "Sub" {
		t.Errorf("String(3-6) = %q, want %q", got, "Sub")
	}
	if d.URI != "f.md" || d.Text != "## Sub\nbody" {
		t.Errorf("URI, Text = %q, %q", d.URI, d.Text)
	}
	if d.Lines == nil || d.Lines.LineCount() != 2 {
		t.Errorf("Lines not built for the text")
	}
}

// TestParseLoneCRLineEndings: CommonMark (§2.1) and LineIndex both take a
// lone CR as a line ending, so a packet written with classic-Mac line
// endings has the same headings as its LF twin, at the same offsets.
func TestParseLoneCRLineEndings(t *testing.T) {
	lf := "## What I Just Did\n\nx\n\n## Why I Stopped\n\ny\n\n## What I Need From You\n\nz\n"
	cr := strings.ReplaceAll(lf, "\n", "\r")
	want := markdown.Parse("lf.md", lf)
	got := markdown.Parse("cr.md", cr)
	if got.Kind != want.Kind {
		t.Errorf("Kind = %v, want %v (as with LF line endings)", got.Kind, want.Kind)
	}
	if diff := cmp.Diff(want.Headings, got.Headings); diff != "" {
		t.Errorf("Headings with CR line endings (-LF +CR):\n%s", diff)
	}
}

// TestParseHeadingSpansDoNotOverlap (found by FuzzPacket): "#" then a lone
// CR is an ATX opener to goldmark, which does not break lines at a lone CR,
// while LineIndex does; the heading's content then starts a LineIndex line
// that has no "#", so it is taken for a setext heading and its "underline"
// (the next line, itself a heading) is added to its span.
func TestParseHeadingSpansDoNotOverlap(t *testing.T) {
	text := "#\rWhat Needs Your Review\n# What Happens Next\n# What I Need From You"
	d := markdown.Parse("f.md", text)
	if len(d.Headings) == 0 {
		t.Fatal("no headings")
	}
	for i, h := range d.Headings {
		if h.Setext {
			t.Errorf("heading %q is taken for a setext heading; it is written with #", h.Text)
		}
		if i > 0 && h.Span.Start < d.Headings[i-1].Span.End {
			t.Errorf("heading %q at %v overlaps the previous heading %q at %v",
				h.Text, h.Span, d.Headings[i-1].Text, d.Headings[i-1].Span)
		}
	}
}

// TestParseInlineNodes: the parser makes nodes of what rules read inline,
// code spans, raw HTML and autolinks, and leaves emphasis and links as
// text; what is code or HTML is the same as CommonMark's either way.
func TestParseInlineNodes(t *testing.T) {
	text := "Say *`<!-- x -->`* and [a `b`](c) <!-- y --> <https://e.org> **done**\n"
	d := markdown.Parse("t.md", text)
	var got []string
	_ = ast.Walk(d.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			got = append(got, "code "+string(n.Text(d.Source)))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			got = append(got, "html "+string(n.Segments.Value(d.Source)))
		case *ast.AutoLink:
			got = append(got, "autolink "+string(n.URL(d.Source)))
		case *ast.Emphasis, *ast.Link:
			got = append(got, "unexpected "+n.Kind().String())
		}
		return ast.WalkContinue, nil
	})
	want := []string{"code <!-- x -->", "code b", "html <!-- y -->", "autolink https://e.org"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inline nodes (-want +got):\n%s", diff)
	}
}

// An editor's index of the text is shared; an index of another text (even one
// of the same length) or none is replaced by the text's own.
func TestParseIndexedSharesOnlyTheTextsIndex(t *testing.T) {
	text := "# A\n\nfirst\nsecond\n"
	same := markdown.NewLineIndex(text)
	if d := markdown.ParseIndexed("a.md", text, same); d.Lines != same {
		t.Errorf("the index of the same text was not shared")
	}
	other := markdown.NewLineIndex("# A\n\nfirst second\n")
	d := markdown.ParseIndexed("a.md", text, other)
	if d.Lines == other {
		t.Fatalf("the index of another text was used")
	}
	if got := d.Lines.LineCount(); got != 5 {
		t.Errorf("LineCount = %d, want 5 (the text's own index)", got)
	}
	if d := markdown.ParseIndexed("a.md", text, nil); d.Lines == nil || d.Lines.Line(3) != "second" {
		t.Errorf("without an index: line 3 is not %q", "second")
	}
}

// A UTF-8 byte-order mark is not text: a heading or front matter right
// after it is still one, and offsets stay those of the text.
func TestParseByteOrderMark(t *testing.T) {
	doc := markdown.Parse("x.md", "\ufeff## What I Just Did\n\nWork.\n")
	if len(doc.Headings) != 1 || doc.Headings[0].Text != "What I Just Did" {
		t.Fatalf("headings = %+v, want the one after the BOM", doc.Headings)
	}
	if got := doc.String(doc.Headings[0].Span); !strings.HasSuffix(got, "## What I Just Did") {
		t.Errorf("the heading's span holds %q", got)
	}
	doc = markdown.Parse("x.md", "\ufeff---\nprops: {a: 1}\n---\n\n<X />\n")
	if doc.FrontMatter == nil || doc.FrontMatter.Data["props"] == nil {
		t.Errorf("front matter after a BOM = %+v", doc.FrontMatter)
	}
	doc = markdown.Parse("x.md", "\ufeff# Handoff\n\n**Goal:** finish\n\n## Facts\n\n- the lexer is done\n")
	if doc.Kind != markdown.KindHandoff {
		t.Errorf("a handoff document with a BOM is %v", doc.Kind)
	}
}

// goldmark reads "-\r\n" as the continuation of the line above; with LF it
// is an empty list item, and so it is with CRLF.
func TestParseEmptyListItemWithCRLF(t *testing.T) {
	for _, text := range []string{"- a\n-\n2.\n", "- a\r\n-\r\n2.\r\n"} {
		doc := markdown.Parse("x.md", text)
		items := 0
		_ = ast.Walk(doc.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, ok := n.(*ast.ListItem); ok && entering {
				items++
			}
			return ast.WalkContinue, nil
		})
		if items != 3 {
			t.Errorf("%q: %d list items, want 3", text, items)
		}
	}
}

// A line opening more than MaxLineNesting containers keeps the first ones
// and reads the rest as text, so the parse stays linear.
func TestParseCapsLineNesting(t *testing.T) {
	deep := strings.Repeat("- ", 40) + "x\n"
	doc := markdown.Parse("x.md", deep)
	depth := 0
	for n := doc.Root.FirstChild(); n != nil; n = n.FirstChild() {
		if _, ok := n.(*ast.ListItem); ok {
			depth++
		}
	}
	if depth != markdown.MaxLineNesting {
		t.Errorf("nesting %d, want %d", depth, markdown.MaxLineNesting)
	}
	if doc.Text != deep {
		t.Error("the text changed")
	}
	shallow := markdown.Parse("x.md", "- > 1. a\n")
	if _, ok := shallow.Root.FirstChild().(*ast.List); !ok {
		t.Error("a line under the cap is not parsed as before")
	}
}
