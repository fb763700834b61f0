package gemini

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/baton-md/baton/stoppolicy"
)

// Response is the response to judge when the input holds every
// response of the turn so far (Gemini CLI's prompt_response), and what to
// say on standard error about it. prompt_response is no faithful copy of
// the text: Gemini CLI joins a response's streamed chunks with a space
// (Turn.getResponseText), may hold a chunk twice, and joins the turn's
// responses with a newline (cumulativeResponse). The chat file holds the
// last response as the model wrote it, but without its HTML comments
// (where specrew's verdict marker is) and zero-width characters, trimmed.
// So: where the input ends with the chat file's response, compared as
// Gemini CLI records them, white space aside, the response is cut from the
// input, comments and all; else the chat file's response is judged, with
// the HTML comments of the input's own part (on a retry, what it added to
// the last stop's text) put back at its end. Without the chat file's
// response, the retry's added part, or the whole text.
func Response(stop stoppolicy.Stop, o stoppolicy.Options, last string) (msg, note string) {
	all := stop.Message
	own := all
	if added, split := (stoppolicy.Counter{Dir: o.StateDir, Session: stop.SessionID}).Appended(all); stop.Active && split {
		own = added
	}
	kept, _ := geminiKept(last)
	if len(kept) == 0 {
		return own, ""
	}
	if keptAll, at := geminiKept(all); bytes.HasSuffix(keptAll, kept) {
		start := at[len(keptAll)-len(kept)]
		cut := all[strings.LastIndexByte(all[:start], '\n')+1:]
		// Only a faithful cut: a space joining two chunks inside a word
		// or a heading would be judged as the model's.
		if geminiWords(cut) == geminiWords(last) {
			return cut, ""
		}
	}
	note = "judging the response as the chat file holds it: prompt_response does not end with it as the model wrote it"
	comments := htmlComments(own)
	if len(comments) == 0 {
		return last, note
	}
	return strings.TrimRight(last, "\n") + "\n\n" + strings.Join(comments, "\n") + "\n",
		fmt.Sprintf("%s; its HTML comments (%d) are put back at the end", note, len(comments))
}

// geminiWords is text as Gemini CLI's chat file keeps it (geminiKept),
// with each run of white space one space: two texts the same but for the
// white space a chunk's join may add or the file's trim removes.
func geminiWords(text string) string {
	var b strings.Builder
	space := false
	kept := geminiStripped(text)
	for _, r := range kept {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// geminiStripped is text without its HTML comments and zero-width
// characters. Once a "<!--" is found unclosed, no later one is looked
// for "-->" again: 40,000 of them, unclosed, took 5 s.
func geminiStripped(text string) string {
	var b strings.Builder
	unclosed := false // a comment with no "-->" after it: none after it closes either
	for i := 0; i < len(text); {
		if !unclosed && strings.HasPrefix(text[i:], "<!--") {
			if end := strings.Index(text[i+4:], "-->"); end >= 0 {
				i += 4 + end + 3
				continue
			}
			unclosed = true
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !(r >= 0x200B && r <= 0x200F) && r != 0xFEFF {
			b.WriteString(text[i : i+n])
		}
		i += n
	}
	return b.String()
}

// htmlComments are the HTML comments of text, in order.
func htmlComments(text string) []string {
	var out []string
	for {
		i := strings.Index(text, "<!--")
		if i < 0 {
			return out
		}
		j := strings.Index(text[i+4:], "-->")
		if j < 0 {
			return out
		}
		out = append(out, text[i:i+4+j+3])
		text = text[i+4+j+3:]
	}
}

// geminiKept is what of a response's text Gemini CLI's chat file keeps,
// less all white space, for comparing: no HTML comment, no zero-width
// character. at holds each kept byte's offset in text.
func geminiKept(text string) (kept []byte, at []int) {
	unclosed := false // as in geminiStripped
	for i := 0; i < len(text); {
		if !unclosed && strings.HasPrefix(text[i:], "<!--") {
			if end := strings.Index(text[i+4:], "-->"); end >= 0 {
				i += 4 + end + 3
				continue
			}
			unclosed = true
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) && !(r >= 0x200B && r <= 0x200F) && r != 0xFEFF {
			for k := range n {
				kept = append(kept, text[i+k])
				at = append(at, i+k)
			}
		}
		i += n
	}
	return kept, at
}
