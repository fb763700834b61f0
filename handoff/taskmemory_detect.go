package handoff

import (
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis/packet"

	"github.com/yuin/goldmark/ast"
)

// TaskMemoryLanguage is the info string of the fenced block that carries a
// clio-coder task-memory snapshot (TASK_MEMORY_HANDOFF_LANGUAGE in
// clio-coder's src/domains/memory/task-memory-handoff.ts).
const TaskMemoryLanguage = "clio-task-memory"

// TaskMemoryFences are the document's fenced code blocks whose info
// string's first word is TaskMemoryLanguage, in document order, at any
// depth (a fence in a list item or a quote is one an agent meant, which
// clio's reader does not see). A line that only looks like such a fence,
// inside another code block, is not one.
func TaskMemoryFences(d *markdown.Document) []*ast.FencedCodeBlock {
	if d.Root == nil || !holdsTaskMemoryLanguage(d.Text) {
		return nil
	}
	var out []*ast.FencedCodeBlock
	_ = ast.Walk(d.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			if n.Info != nil {
				info := string(n.Info.Segment.Value(d.Source))
				if first, _, _ := strings.Cut(strings.TrimSpace(info), " "); first == TaskMemoryLanguage {
					out = append(out, n)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.Heading, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// holdsTaskMemoryLanguage is strings.Contains(text, TaskMemoryLanguage),
// searched from its hyphen: every document is asked, and a search from
// the "c" stopped at most words of a long one.
func holdsTaskMemoryLanguage(text string) bool {
	const rest = "-task-memory"
	head := TaskMemoryLanguage[:len(TaskMemoryLanguage)-len(rest)]
	for from := len(head); from <= len(text); {
		i := strings.Index(text[from:], rest)
		if i < 0 {
			return false
		}
		if at := from + i; text[at-len(head):at] == head {
			return true
		}
		from += i + 1
	}
	return false
}

// IsTaskMemoryHandoff recognises the brief clio-coder's context-handoff
// skill writes with a task-memory snapshot in it: a fenced block whose
// info string is clio-task-memory (TaskMemoryFences), the one thing
// clio's parseTaskMemoryHandoffSnapshot looks for. The brief itself has
// no fixed shape (the skill's template is a suggestion), and clio reads
// nothing else of it. A stop message quoting such a block stays a stop
// message: its packet is what a stop is judged by.
func IsTaskMemoryHandoff(d *markdown.Document) bool {
	return len(TaskMemoryFences(d)) > 0 && !packet.IsStopMessage(d)
}

// IsClioHandoff is the handoff kind's detector: clio-coder's /handoff
// review document (IsHandoff), or a brief carrying a task-memory snapshot
// (IsTaskMemoryHandoff).
func IsClioHandoff(d *markdown.Document) bool { return IsHandoff(d) || IsTaskMemoryHandoff(d) }
