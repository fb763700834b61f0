package reliability

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"

	"github.com/baton-md/baton/agenthost/gemini"
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// growthShapes are the documents shaped to be slow, each as a function of
// a size; the size is what the shape's cost grew with before it was
// bounded (a depth, a count of markers or openers). Each size must be past
// the shape's cap, where there is one. run is the work measured on the
// text, when it is not baton's analysis of it as a document: a stop
// message's (read as a packet, as the stop hooks read it), or a host's
// reading of its session file.
var growthShapes = []struct {
	name string
	base int
	gen  func(n int) string
	run  func(reg *analysis.Registry, text string)
}{
	{"list items each indented two spaces more", 300, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- item\n")
		}
		return b.String()
	}, nil},
	{"ordered items each indented three columns more", 200, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("   ", i))
			b.WriteString("1. item\n")
		}
		return b.String()
	}, nil},
	{"block quotes within list items, one more a line", 250, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- > item\n")
		}
		return b.String()
	}, nil},
	// A workflow whose credential-named fields open with \' : one of the
	// engine's readings of each value (an apostrophe one level deeper,
	// closed only by an apostrophe after four backslashes) runs to the
	// end of the document.
	{"credential-named fields whose quoted values never close", 2_000, func(n int) string {
		return "```ts eval\n" + strings.Repeat("  password: \\'x1\n", n) + "```\n"
	}, nil},
	// Provider tokens, each found and its place in the document read
	// back from the journaled text.
	{"provider tokens in a workflow", 2_000, func(n int) string {
		return "```ts eval\n" + strings.Repeat("const t = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\";\n", n) + "```\n"
	}, nil},
	// Expression props and eval blocks, each parsed as JavaScript.
	{"expression props and eval blocks", 500, func(n int) string {
		return strings.Repeat("<If condition={a.b > (c ?? 1)}>x</If>\n\n```js eval\nconst v = yield* f(a, b);\n```\n\n", n)
	}, nil},
	{"- - - … x on one line", 2_000, func(n int) string { return strings.Repeat("- ", n) + "x\n" }, nil},
	{"> > > … x on each line", 300, func(n int) string {
		return strings.Repeat(strings.Repeat("> ", n)+"x\n", 50)
	}, nil},
	// Scans that read on from each of many openers to the end of a line
	// or a paragraph (issue 35): each was quadratic, ×3.2 to ×4 a doubling.
	{"fences opening no executable block, on one line of a stop message", 10_000, func(n int) string {
		return strings.Repeat("```ts ", n) + "\n"
	}, stopMessage},
	{"backtick runs of every length from 1 to n, the odd ones closed", 300, backtickRuns, nil},
	{"link destinations with no closing parenthesis, on one line of a stop message", 10_000, func(n int) string {
		return strings.Repeat("[x](", n) + "\n"
	}, stopMessage},
	// specrew's validator's checks (analysis/packet/governance) on one
	// boundary packet: each reads every line, paragraph or word once.
	{"bare paths on one line of a boundary packet", 5_000, func(n int) string {
		return boundaryPacket + strings.Repeat("specs/a.md ", n) + "\n"
	}, nil},
	{"bare ids in one paragraph of a boundary packet", 5_000, func(n int) string {
		return boundaryPacket + strings.Repeat("T001, FR-2, ", n) + "\n"
	}, nil},
	// Each line that may hold a bare path is found by a search over the
	// text: the search for the one slash at the end is made once.
	{"lines each with a backslash, then prose, one slash at the end, in a boundary packet", 1_000, func(n int) string {
		return boundaryPacket + strings.Repeat("a\\b\n"+strings.Repeat("word ", 40)+"\n", n) + "end/x\n"
	}, nil},
	{"Markdown file links and URLs on one line of a boundary packet", 5_000, func(n int) string {
		return boundaryPacket + strings.Repeat("[a](file:///x/y.md) file:///z ", n) + "\n"
	}, nil},
	{"lines holding only a section title, bare", 2_000, func(n int) string {
		return strings.Repeat("What I just did\nwork\nWhy I stopped\nreview\n", n)
	}, nil},
	{"a Gemini CLI chat file of n messages (JSON lines)", 10_000, func(n int) string {
		return geminiChat(n, false)
	}, readGemini},
	{"a Gemini CLI chat file of n messages (one JSON document)", 10_000, func(n int) string {
		return geminiChat(n, true)
	}, readGemini},
	{"unclosed HTML comments in Gemini CLI's prompt_response", 10_000, func(n int) string {
		return strings.Repeat("<!-- x ", n)
	}, geminiResponse},
}

// backtickRuns is runs of 1, 2, … n backticks on one line, the odd ones
// closed as code spans and the even ones not.
func backtickRuns(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		run := strings.Repeat("`", i)
		b.WriteString(run + " x ")
		if i%2 == 1 {
			b.WriteString(run + " ")
		}
	}
	return b.String() + "\n"
}

// boundaryPacket opens a six-section packet, whose last section the
// shapes above fill.
const boundaryPacket = "## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nThe plan boundary.\n\n## What Needs Your Review\n\nThe plan.\n\n" +
	"## What Happens Next\n\nOn approval, the tasks.\n\n## Discussion Prompts\n\nShould we?\n\n## What I Need From You\n\n"

// stopMessage analyses text as the stop hooks do: a message that reads as
// no kind of document is read as a packet.
func stopMessage(reg *analysis.Registry, text string) {
	doc := markdown.Parse("last-message.md", text)
	if doc.Kind == markdown.KindOther {
		doc.Kind = markdown.KindPacket
	}
	reg.Analyze(doc, nil)
}

// geminiChat is a Gemini CLI chat file of n messages of a turn each, every
// tenth written again (its tool calls, its tokens) and every hundredth
// followed by a rewind to the message before it.
func geminiChat(n int, whole bool) string {
	var b strings.Builder
	msg := func(i int) string {
		typ := "user"
		if i%2 == 1 {
			typ = "gemini"
		}
		return fmt.Sprintf(`{"id":"m%d","timestamp":"2026-11-28T09:12:00Z","type":%q,"content":"message %d"}`, i, typ, i)
	}
	if whole {
		b.WriteString(`{"sessionId":"s","projectHash":"p","messages":[`)
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(msg(i))
		}
		return b.String() + "]}\n"
	}
	b.WriteString(`{"sessionId":"s","projectHash":"p","startTime":"2026-11-28T09:12:00Z"}` + "\n")
	for i := range n {
		b.WriteString(msg(i) + "\n")
		if i%10 == 9 {
			b.WriteString(msg(i) + "\n")
		}
		if i%100 == 99 {
			fmt.Fprintf(&b, `{"$rewindTo":"m%d"}`+"\n", i)
			b.WriteString(msg(i) + "\n")
		}
	}
	return b.String()
}

func readGemini(_ *analysis.Registry, text string) {
	gemini.Format.ReadWhole([]byte(text), &transcript.Session{})
}

// geminiResponse is the stop hook's reading of Gemini CLI's
// prompt_response against the chat file's last response.
func geminiResponse(_ *analysis.Registry, text string) {
	// The state it keeps goes beside the binary TestMain builds, and
	// with it.
	state := filepath.Join(filepath.Dir(batonBin), "growth-state")
	gemini.Response(stoppolicy.Stop{SessionID: "s", Message: text}, stoppolicy.Options{StateDir: state}, text)
}

// TestGrowthIsLinear does each slow shape's work at 1×, 2× and 4× its
// base size and fails when the time per byte at 4× is more than
// maxPerByte times that at 1×: linear work keeps it flat, and the shapes
// fixed so far were quadratic or cubic in their size (a ratio of 3 to 16
// before their caps and fixes). The times come from testing.Benchmark, the best of five,
// so that a busy machine does not fail the test; a ratio, not a time, is
// asserted.
func TestGrowthIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures times: not with -short")
	}
	const maxPerByte = 2.0
	// A twentieth of a second a measure, not a second: 15 a shape.
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("50ms"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	reg := engine.Registry()
	for _, s := range growthShapes {
		t.Run(s.name, func(t *testing.T) {
			run := s.run
			if run == nil {
				run = func(reg *analysis.Registry, text string) { reg.Analyze(markdown.Parse("shape.md", text), nil) }
			}
			work := func(text string) { run(reg, text) }
			ratio, report := growth(s.base, s.gen, work)
			t.Log(report)
			if ratio > maxPerByte {
				// Measured again before failing: a machine busy for the
				// whole of one 4× measure is not a slow shape.
				ratio, report = growth(s.base, s.gen, work)
			}
			if ratio > maxPerByte {
				t.Errorf("time per byte grew %.1f× from 1× to 4× the size, twice (at most %.1f× is linear enough):\n%s", ratio, maxPerByte, report)
			}
		})
	}
}

// growth does work on gen(base), gen(2*base) and gen(4*base), and returns
// how many times the time per byte at 4× is that at 1×, and the figures.
func growth(base int, gen func(int) string, work func(text string)) (float64, string) {
	var perByte [3]float64
	var report []string
	for k, mult := range []int{1, 2, 4} {
		text := gen(base * mult)
		best := 0.0
		for range 5 {
			r := testing.Benchmark(func(b *testing.B) {
				for b.Loop() {
					work(text)
				}
			})
			if ns := float64(r.NsPerOp()); best == 0 || ns < best {
				best = ns
			}
		}
		perByte[k] = best / float64(len(text))
		report = append(report, fmt.Sprintf("%d× (%d bytes): %.2f ms, %.1f ns/byte", mult, len(text), best/1e6, perByte[k]))
	}
	return perByte[2] / perByte[0], strings.Join(report, "; ")
}

// Lists nest across lines up to the cap and no deeper; a list of ordinary
// depth is read as it is written.
func TestNestingDepthBounded(t *testing.T) {
	depth := func(text string) int {
		deepest := 0
		var walk func(n ast.Node, d int)
		walk = func(n ast.Node, d int) {
			if _, ok := n.(*ast.List); ok {
				d++
				deepest = max(deepest, d)
			}
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				walk(c, d)
			}
		}
		walk(markdown.Parse("x.md", text).Root, 0)
		return deepest
	}
	gen := growthShapes[0].gen
	if got := depth(gen(12)); got != 12 {
		t.Errorf("12 nested list items: depth %d, want 12", got)
	}
	if got, want := depth(gen(500)), markdown.MaxNestingIndent/2+1; got != want {
		t.Errorf("500 nested list items: depth %d, want the cap, %d", got, want)
	}
}

// A document the nesting caps cut says so, once, where the cut is: a
// baton/nesting-too-deep finding at the first marker read as text. A list
// of ordinary depth gets none; the finding's severity is configurable.
func TestNestingCutSaysSo(t *testing.T) {
	reg := engine.Registry()
	findings := func(text string, cfg *analysis.Config) []analysis.Finding {
		var out []analysis.Finding
		for _, f := range reg.Analyze(markdown.Parse("x.md", text), cfg).Findings {
			if f.Rule == analysis.RuleNestingTooDeep.ID {
				out = append(out, f)
			}
		}
		return out
	}
	gen := growthShapes[0].gen
	if got := findings(gen(12), nil); len(got) != 0 {
		t.Errorf("12 nested list items: %v, want no cut", got)
	}
	text := gen(500)
	got := findings(text, nil)
	if len(got) != 1 || got[0].Severity != analysis.Warning {
		t.Fatalf("500 nested list items: %v, want one warning", got)
	}
	at, ok := markdown.Parse("x.md", text).NestingCutAt()
	if !ok || got[0].Span.Start != at || !strings.Contains(got[0].Message, "checked only as so cut") {
		t.Errorf("the finding %+v, want it at the cut %d", got[0], at)
	}
	// The marker cut is the first past column MaxNestingIndent.
	line := text[strings.LastIndexByte(text[:at], '\n')+1 : at]
	if len(line) <= markdown.MaxNestingIndent || strings.TrimLeft(line, " ") != "" {
		t.Errorf("cut at column %d, want the first marker past %d", len(line), markdown.MaxNestingIndent)
	}
	// On one line: 40 markers.
	if got := findings(strings.Repeat("- ", 40)+"x\n", nil); len(got) != 1 || got[0].Span.Start != 2*markdown.MaxLineNesting {
		t.Errorf("40 markers on one line: %v, want one at offset %d", got, 2*markdown.MaxLineNesting)
	}
	off := &analysis.Config{Severity: map[string]analysis.Severity{analysis.RuleNestingTooDeep.ID: analysis.Off}}
	if got := findings(text, off); len(got) != 0 {
		t.Errorf("configured off: %v", got)
	}
}
