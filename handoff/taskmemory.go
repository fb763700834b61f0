package handoff

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// The limits of clio-coder's task-memory handoff, as
// src/domains/memory/task-memory-handoff.ts and task-bank.ts state them.
const (
	// TaskMemoryMaxBytes bounds the handoff file (HANDOFF_MAX_BYTES): its
	// size on disk, and its text's length in UTF-16 code units, which is
	// never more.
	TaskMemoryMaxBytes = 1_000_000
	// KnowledgeCap and ProceduralCap bound the snapshot's lists
	// (TASK_MEMORY_DEFAULT_KNOWLEDGE_CAP, TASK_MEMORY_DEFAULT_PROCEDURAL_CAP).
	KnowledgeCap  = 20
	ProceduralCap = 30
	// ContentMaxChars bounds an entry's content, in UTF-16 code units
	// (TASK_MEMORY_CONTENT_MAX_CHARS).
	ContentMaxChars = 1200
)

// clioNotFound is what clio's /memory seed says of every snapshot it
// refuses, and of a newest handoff without one (src/interactive/
// slash-commands.ts); the offer after /resume is simply not made.
const clioNotFound = "no structured task-memory snapshot found in the newest handoff"

// snapshotFence is the pattern parseTaskMemoryHandoffSnapshot finds the
// snapshot with, byte for byte: without the m flag, ^ and $ are the ends of
// the text, so the fence starts a line after a line feed, its JSON is one
// line, and the closing fence is followed by a line feed or the end.
var snapshotFence = lazyre.New("(?:^|\n)```" + regexp.QuoteMeta(TaskMemoryLanguage) + "\r?\n([^\r\n]+)\r?\n```(?:$|\n)")

// findSnapshot is the first match of clio's pattern in text: the opening
// fence's line and the JSON line it reads.
func findSnapshot(text string) (open, payload markdown.Span, ok bool) {
	m := snapshotFence.FindStringSubmatchIndex(text)
	if m == nil {
		return open, payload, false
	}
	start := m[0]
	if text[start] == '\n' {
		start++
	}
	open = markdown.Span{Start: start, End: start + 3 + len(TaskMemoryLanguage)}
	return open, markdown.Span{Start: m[2], End: m[3]}, true
}

// fence is one fenced block of the document tagged clio-task-memory.
type fence struct {
	open markdown.Span // the opening fence line's text
	node *ast.FencedCodeBlock
}

// taskMemory is what clio's reader finds in a document.
type taskMemory struct {
	fences []fence
	// read is true when clio's pattern matches: open is the opening
	// fence it reads, payload the JSON line.
	read          bool
	open, payload markdown.Span
}

func readTaskMemory(doc *markdown.Document) *taskMemory {
	nodes := TaskMemoryFences(doc)
	if len(nodes) == 0 {
		return nil
	}
	tm := &taskMemory{}
	for _, n := range nodes {
		ls, le := lineAround(doc.Text, n.Info.Segment.Start)
		start := ls
		for start < le && (doc.Text[start] == ' ' || doc.Text[start] == '\t') {
			start++
		}
		tm.fences = append(tm.fences, fence{open: markdown.Span{Start: start, End: le}, node: n})
	}
	tm.open, tm.payload, tm.read = findSnapshot(doc.Text)
	return tm
}

// anchor is where a finding about the snapshot as a whole goes: the fence
// clio reads, else the first one written.
func (tm *taskMemory) anchor() markdown.Span {
	if tm.read {
		return tm.open
	}
	return tm.fences[0].open
}

// lineAround is the line holding offset off, without its line break; a
// line ends at a line feed or a carriage return.
func lineAround(text string, off int) (start, end int) {
	start = strings.LastIndexAny(text[:off], "\r\n") + 1
	end = len(text)
	if i := strings.IndexAny(text[off:], "\r\n"); i >= 0 {
		end = off + i
	}
	return start, end
}

// lineBreakAt is the line break at offset end of a line: "" at the end of
// the text.
func lineBreakAt(text string, end int) string {
	switch {
	case end >= len(text):
		return ""
	case text[end] == '\r' && end+1 < len(text) && text[end+1] == '\n':
		return "\r\n"
	}
	return text[end : end+1]
}

// fenceProblem says why clio's pattern does not match the block f, in the
// order the pattern reads it.
func fenceProblem(text string, src []byte, f fence) string {
	const bom = "\ufeff"
	info := f.node.Info.Segment.Start
	ls, le := lineAround(text, info)
	// The fence's own characters run back from the info string.
	fenceEnd := info
	for fenceEnd > ls && (text[fenceEnd-1] == ' ' || text[fenceEnd-1] == '\t') {
		fenceEnd--
	}
	fenceStart := fenceEnd
	for fenceStart > ls && (text[fenceStart-1] == '`' || text[fenceStart-1] == '~') {
		fenceStart--
	}
	prefix := text[ls:fenceStart]
	run := text[fenceStart:fenceEnd]
	switch {
	case run == "":
		// Not a fence the text shows (the parser saw the text otherwise):
		// no reason can be named.
		return "clio's pattern does not match the block"
	case ls == 0 && strings.HasPrefix(prefix, bom):
		return "a byte-order mark comes before the opening fence, and clio reads the fence only at the very start of a line: save the file without the mark (UTF-8 without BOM)"
	case strings.Trim(prefix, " \t") == "" && prefix != "":
		return "the opening fence is indented, and clio reads it only at the very start of a line: move the block to the left margin"
	case prefix != "":
		return fmt.Sprintf("the opening fence is inside %s, and clio reads it only at the very start of a line: move the block out, to the left margin", containerOf(prefix))
	case ls > 0 && text[ls-1] == '\r':
		return "the line before the opening fence ends with a lone carriage return, and clio reads a fence only after a line feed: save the file with LF line endings"
	case run[0] == '~':
		return "the fence is written with tildes, and clio reads only three backticks: write ```" + TaskMemoryLanguage
	case len(run) != 3:
		return fmt.Sprintf("the fence has %d backticks, and clio reads exactly three: write ```%s", len(run), TaskMemoryLanguage)
	case fenceEnd != info:
		return "there is a space between ``` and " + TaskMemoryLanguage + ", and clio reads them together: write ```" + TaskMemoryLanguage
	case text[info:le] != TaskMemoryLanguage:
		return fmt.Sprintf("the opening line goes on after %s (%q), and clio reads the line only as exactly ```%s: remove the rest", TaskMemoryLanguage, text[info+len(TaskMemoryLanguage):le], TaskMemoryLanguage)
	case lineBreakAt(text, le) == "\r":
		return "the opening line ends with a lone carriage return, and clio reads the JSON only after a line feed: save the file with LF line endings"
	}
	lines := f.node.Lines()
	switch {
	case lines.Len() == 0:
		return "the block holds no JSON: clio reads the snapshot from the one line between the fences"
	case lines.Len() > 1:
		return fmt.Sprintf("the JSON is written on %d lines, and clio reads a snapshot only on one: copy the block clio supplied verbatim (JSON.stringify writes it on one line)", lines.Len())
	}
	seg := lines.At(0)
	cs, ce := lineAround(text, seg.Start)
	if strings.TrimRight(string(seg.Value(src)), "\r\n") == "" || cs == ce {
		return "the line between the fences is empty: clio reads the snapshot's JSON there"
	}
	if lineBreakAt(text, ce) == "\r" {
		return "the JSON line ends with a lone carriage return, and clio reads the closing fence only after a line feed: save the file with LF line endings"
	}
	next := ce + len(lineBreakAt(text, ce))
	if next >= len(text) {
		return "the block is not closed: write ``` on the line after the JSON"
	}
	_, closeEnd := lineAround(text, next)
	closing := text[next:closeEnd]
	switch {
	case closing == "```" && lineBreakAt(text, closeEnd) == "\r\n":
		return "the closing ``` ends with a carriage return (Windows line endings), and clio reads the closing fence only when a bare line feed or the end of the file follows it: save the file with LF line endings"
	case closing == "```":
		// The pattern matches such a block; a reader that differs from it
		// still gets an answer.
		return "clio's pattern does not match the block"
	case strings.HasPrefix(strings.TrimLeft(closing, " \t"), "```") || strings.HasPrefix(strings.TrimLeft(closing, " \t"), "~~~"):
		return fmt.Sprintf("the closing fence is %q, and clio reads exactly ``` at the start of a line: write ``` and nothing else", closing)
	}
	return "the block is not closed on the line after the JSON: write ``` there"
}

// containerOf names what a fence's line prefix, not blank, puts it in.
func containerOf(prefix string) string {
	if strings.HasPrefix(strings.TrimLeft(prefix, " \t"), ">") {
		return "a quote"
	}
	return "a list item"
}
