package packet

import (
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// The prose baton reads blanks code, but a packet often names the reply in
// code: "Type one of these:" over a fenced block of replies, "Send
// `approved for tasks`", the gate-stop skill's verdict menu copied with its
// fence. specrew reads code there too: its validator matches What I Need
// From You's raw text, code and all (Test-HasEmptyUserActionSection over
// Get-InteractionModelSectionMap's lines), and its design-analysis gate
// finds the verdict shape `approved for plan with Option <X>` before it
// strips code (Test-SpecrewDesignAnalysisGatePacket). So the section's code
// is read on its own, for the replies it names.

// verdictReply is a reply specrew's verdict reader takes as a verdict
// (Test-SpecrewHumanVerdictToken, scripts/internal/bootstrap/
// ConversationCaptureAccessor.ps1): an approval that starts the reply
// ("approve", "approved for tasks", after an optional option label, "yes,"
// or "I"/"we"), a send-back, a rejection, or a request to discuss. specrew
// takes the last three anywhere in the reply; here they start the line too,
// so that a log line that mentions a rejection is not read as an option.
var verdictReply = lazyre.New(`^(?:[-*+•]\s+)?(?:(?:option\s*)?\d+\s*[.):\-–—]\s*)?(?:(?:yes|confirmed)\s*[,;:\-–—]\s*)?(?:(?:i|we)\s+)?(?:approv(?:e|ed|es)|send\s*back|reject(?:ed|ing)?|discuss)\b`)

// deferredApproval is an approval put off ("approve once the tests pass"):
// specrew's reader does not take it as one.
var deferredApproval = lazyre.New(`\bapprov\w*\b[^.!?]{0,16}\b(?:later|after|once|when|unless)\b`)

// isVerdictReply reports whether a line of code is a verdict reply. A
// question is not one: specrew's reader never takes an approval that asks.
func isVerdictReply(line string) bool {
	s := strings.ToLower(strings.TrimSpace(line))
	if s == "" || strings.HasSuffix(s, "?") {
		return false
	}
	m := verdictReply.FindString(s)
	return m != "" && !(strings.Contains(m, "approv") && deferredApproval.MatchString(s))
}

// replyVerbs ask the user to give a reply: they state the response wanted
// when they name it (replyRequest), unlike the request list's verbs, which do
// on their own. "Type" and "enter" are as often nouns or the agent's own
// steps ("the type of change", "enter the plan phase").
var replyVerbs = []string{"type", "enter", "paste", "say", "write", "send"}

// namedReply reads What I Need From You for a reply named in code: a code
// span or a line of a code block that is a verdict reply (isVerdictReply),
// or a reply verb asking for a reply it names (replyRequest).
func namedReply(pt *proseText, ph *phrases, body markdown.Span) Fact {
	var f Fact
	walkSection(pt, body, func(n ast.Node) ast.WalkStatus {
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				if isVerdictReply(pt.text[seg.Start:seg.Stop]) {
					f = Fact{Value: true, Spans: []markdown.Span{trimLine(pt.text, seg.Start, seg.Stop)},
						Why: "What I Need From You names a verdict reply in code"}
					return ast.WalkStop
				}
			}
			return ast.WalkSkipChildren
		case *ast.CodeSpan:
			if s, ok := codeSpan(pt.text, n); ok && isVerdictReply(pt.text[s.Start:s.End]) {
				f = Fact{Value: true, Spans: []markdown.Span{s}, Why: "What I Need From You names a verdict reply in code"}
				return ast.WalkStop
			}
			return ast.WalkSkipChildren
		case *ast.Paragraph: // a tight list item's too (markdown keeps them Paragraphs)
			if s, ok := replyRequest(pt, ph, n); ok {
				f = Fact{Value: true, Spans: []markdown.Span{s}, Why: "What I Need From You asks for a reply it names"}
				return ast.WalkStop
			}
		}
		return ast.WalkContinue
	})
	return f
}

// walkSection walks the blocks of span, less block quotes and HTML (quoted
// material, as everywhere), until visit says stop.
func walkSection(pt *proseText, span markdown.Span, visit func(ast.Node) ast.WalkStatus) {
	for _, b := range pt.blocksIn(span) {
		stopped := false
		_ = ast.Walk(b.n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n.(type) {
			case *ast.Blockquote, *ast.HTMLBlock:
				return ast.WalkSkipChildren, nil
			}
			st := visit(n)
			stopped = st == ast.WalkStop
			return st, nil
		})
		if stopped {
			return
		}
	}
}

// trimLine is text[start:end] without the space around it, as a span.
func trimLine(text string, start, end int) markdown.Span {
	for start < end && isSpace(text[start]) {
		start++
	}
	for end > start && isSpace(text[end-1]) {
		end--
	}
	return markdown.Span{Start: start, End: end}
}

// hasCode reports whether span holds code with text (outside block quotes):
// prose blanks it, so a section of "- `approved for tasks`" reads as the
// placeholder "-" there.
func hasCode(pt *proseText, span markdown.Span) bool {
	found := false
	walkSection(pt, span, func(n ast.Node) ast.WalkStatus {
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			found = namesOptions(pt, n)
		case *ast.CodeSpan:
			_, found = codeSpan(pt.text, n)
		}
		if found {
			return ast.WalkStop
		}
		return ast.WalkContinue
	})
	return found
}

// codeSpan is the extent of a code span's text, when it has any but space.
func codeSpan(text string, n *ast.CodeSpan) (markdown.Span, bool) {
	s := markdown.Span{Start: -1}
	blank := true
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			if s.Start < 0 {
				s.Start = t.Segment.Start
			}
			s.End = t.Segment.Stop
			blank = blank && strings.TrimSpace(text[t.Segment.Start:t.Segment.Stop]) == ""
		}
	}
	return s, s.Start >= 0 && !blank
}

// replyRequest finds in a paragraph a reply verb put to the user ("Type
// one of these:", "please send …", "you can say …") that names the reply:
// a code span later in its sentence ("Send `approved for tasks`"), a
// response word as its object ("type your verdict"), or, right after the
// paragraph, a code block with text or a list ("Type one of these:" over
// the replies). It returns the verb.
func replyRequest(pt *proseText, ph *phrases, n ast.Node) (markdown.Span, bool) {
	lines := n.Lines()
	if lines.Len() == 0 {
		return markdown.Span{}, false
	}
	start, end := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	toks := tokens(pt.flat, pt.base, start, end)
	var w []string
	for i, t := range toks {
		if !in(t.s, replyVerbs...) || !imperative(toks, i) {
			continue
		}
		verb := markdown.Span{Start: t.at, End: t.at + len(t.s)}
		if next := tokAt(toks, i+1); next == ":" || next == "of" || next == "is" {
			continue // "Type: tooling", "the type of change"
		}
		// The sentence's end: its reply, if in code, lies before.
		stop := end
		w = w[:0]
		for _, u := range toks[i+1:] {
			if in(u.s, ".", "!", "?") {
				stop = u.at
				break
			}
			w = append(w, u.s)
		}
		inSentence := false
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if cs, ok := c.(*ast.CodeSpan); ok && entering {
				if s, ok := codeSpan(pt.text, cs); ok && s.Start > verb.End && s.Start < stop {
					inSentence = true
					return ast.WalkStop, nil
				}
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
		if inSentence {
			return verb, true
		}
		k := 0 // "type your verdict", "write back your answer", "send me your approval"
		for k < len(w) && k < 3 && in(w[k], "your", "the", "a", "an", "me", "us", "back", "in", "one", "of") {
			k++
		}
		if ph.responseAt(w, k) {
			return verb, true
		}
		if namesOptions(pt, n.NextSibling()) {
			return verb, true
		}
	}
	return markdown.Span{}, false
}

// namesOptions reports whether n is a code block with text, or a list with
// an item with text: the replies a reply verb before it asks for.
func namesOptions(pt *proseText, n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			if seg := lines.At(i); strings.TrimSpace(pt.text[seg.Start:seg.Stop]) != "" {
				return true
			}
		}
	case *ast.List:
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			if s, ok := blockSpan(it); ok && strings.TrimSpace(pt.text[s.Start:s.End]) != "" {
				return true
			}
		}
	}
	return false
}

// token is a word or a clause mark of the prose, and where it starts.
type token struct {
	s  string
	at int
}

// tokens splits flat[start:end] (lower-cased prose: code is blanked) into
// ASCII words and the clause marks ".", "!", "?", ",", ";", ":", "(" and a
// dash (as "—").
func tokens(flat string, base, start, end int) []token {
	// In the window's offsets; the tokens' in the text's.
	flat, start, end = flat[:end-base], start-base, end-base
	var out []token
	defer func() {
		for k := range out {
			out[k].at += base
		}
	}()
	for i := start; i < end; {
		c := flat[i]
		switch {
		case alnum[c]:
			j := i + 1
			for j < end && (alnum[flat[j]] || flat[j] == '\'' || flat[j] == '-') {
				j++
			}
			out = append(out, token{trimWord(flat[i:j]), i})
			i = j
			continue
		case strings.IndexByte(".!?,;:(", c) >= 0:
			// A mark within a word run ("file.md", "3.5") is no clause mark;
			// a parenthesis always opens one.
			if c == '(' || i+1 >= end || !alnum[flat[i+1]] {
				out = append(out, token{flat[i : i+1], i})
			}
		case strings.HasPrefix(flat[i:end], "—") || strings.HasPrefix(flat[i:end], "–"):
			out = append(out, token{"—", i})
			i += len("—") // both dashes are three bytes
			continue
		}
		i++
	}
	return out
}

func tokAt(t []token, i int) string {
	if i < 0 || i >= len(t) {
		return ""
	}
	return t[i].s
}

// imperative reports whether the word at i is put to the reader: it starts
// a clause, after at most a softener ("please", "just", "you can", "then").
func imperative(t []token, i int) bool {
	j := i - 1
	for j >= 0 && in(t[j].s, "please", "just", "simply", "then", "now", "so", "and", "or", "either", "kindly") {
		j--
	}
	if j >= 1 && in(t[j].s, "can", "may", "could") && in(t[j-1].s, "you") {
		j -= 2
	} else if j >= 1 && t[j].s == "you" && in(t[j-1].s, "can", "could", "would") {
		j -= 2 // "can you paste …"
	}
	return j < 0 || in(t[j].s, ".", "!", "?", ",", ";", ":", "(", "—")
}
