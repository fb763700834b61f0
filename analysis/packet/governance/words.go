package governance

import (
	"bytes"
	"iter"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/baton-md/baton/internal/ascii"
)

// wordList finds, in a text, the first of a list of words and phrases as
// a case-insensitive \b(…)\b alternation finds it, without a regular
// expression: the validator asks it of whole messages, and Go's regexp
// took most of a check's time there. A word is a run of ASCII letters,
// digits and underscores (\w); a phrase is words joined by single spaces.
type wordList struct {
	words   map[string]bool
	phrases []string
}

func newWordList(list ...string) wordList {
	w := wordList{words: map[string]bool{}}
	for _, s := range list {
		if strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !isWord(byte(r)) }) >= 0 {
			w.phrases = append(w.phrases, s)
		} else {
			w.words[s] = true
		}
	}
	return w
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// index is where the first word or phrase of the list is, or -1, -1.
func (w wordList) index(text string) (int, int) {
	start, end := -1, -1
	if len(w.words) > 0 {
		var buf [32]byte
		for i := 0; i < len(text); {
			if !isWord(text[i]) {
				i++
				continue
			}
			j := i
			for j < len(text) && isWord(text[j]) {
				j++
			}
			if j-i <= len(buf) {
				n := copy(buf[:], text[i:j])
				for k := range n {
					if c := buf[k]; c >= 'A' && c <= 'Z' {
						buf[k] = c | 0x20
					}
				}
				if w.words[string(buf[:n])] {
					start, end = i, j
					break
				}
			}
			i = j
		}
	}
	for _, p := range w.phrases {
		limit := len(text)
		if start >= 0 {
			limit = start + len(p) // only an earlier match counts
		}
		if s := phraseIndex(text[:min(limit, len(text))], p); s >= 0 && (start < 0 || s < start) {
			start, end = s, s+len(p)
		}
	}
	return start, end
}

func (w wordList) match(text string) bool {
	s, _ := w.index(text)
	return s >= 0
}

// phraseIndex is the first place lower (lower-case ASCII) is in text, any
// case, on word boundaries; -1 when it is not.
func phraseIndex(text, lower string) int {
	for i := 0; i+len(lower) <= len(text); i++ {
		if i > 0 && isWord(text[i-1]) {
			continue
		}
		k := 0
		for k < len(lower) {
			c := text[i+k]
			if c >= 'A' && c <= 'Z' {
				c |= 0x20
			}
			if c != lower[k] {
				break
			}
			k++
		}
		if k == len(lower) && (i+k == len(text) || !isWord(text[i+k])) {
			return i
		}
	}
	return -1
}

// opaqueRefs are the spans of the validator's references in a paragraph,
// as (?i)\b(?:feature\s+\d+|iteration\s+\d+|T\d{3,}|FR-\d+|TG-[A-Za-z0-9-]+|[0-9a-f]{7,40})\b
// finds them (Get-OpaqueReferenceCount), read word by word: a regular
// expression over every paragraph of a long message was most of a check.
func opaqueRefs(p string) [][]int {
	var out [][]int
	for i := 0; i < len(p); {
		if !isWord(p[i]) || i > 0 && isWord(p[i-1]) {
			i++
			continue
		}
		if e := refAt(p, i); e > i {
			out = append(out, []int{i, e})
			i = e
			continue
		}
		for i < len(p) && isWord(p[i]) {
			i++
		}
	}
	return out
}

// refAt is the end of the reference that starts at the word start i, or i.
func refAt(p string, i int) int {
	boundary := func(e int) bool { return e == len(p) || !isWord(p[e]) }
	digits := func(j int) int {
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		return j
	}
	// s is lower-case ASCII: a byte of p matches it folded (EqualFold's
	// answer, as no rune outside ASCII folds to one of its letters), and
	// most words differ at their second byte.
	hasPrefix := func(s string) bool { return len(p)-i >= len(s) && equalFoldASCII(p[i:i+len(s)], s) }
	switch p[i] | 0x20 {
	case 'f', 'i', 't':
	default:
		if !isHex(p[i]) {
			return i // no reference starts so
		}
	}
	for _, w := range [...]string{"feature", "iteration"} {
		if hasPrefix(w) {
			j := i + len(w)
			k := j
			for k < len(p) && isSpace(p[k]) {
				k++
			}
			if k > j {
				if e := digits(k); e > k && boundary(e) {
					return e
				}
			}
		}
	}
	if p[i] == 'T' || p[i] == 't' {
		if e := digits(i + 1); e-i-1 >= 3 && boundary(e) {
			return e
		}
	}
	if hasPrefix("fr-") {
		if e := digits(i + 3); e > i+3 && boundary(e) {
			return e
		}
	}
	if hasPrefix("tg-") {
		e := i + 3
		for e < len(p) && (isWord(p[e]) && p[e] != '_' || p[e] == '-') {
			e++
		}
		for ; e > i+3; e-- { // back off to a word boundary, as the regexp does
			if (e == len(p) || !isWord(p[e])) != !isWord(p[e-1]) {
				return e
			}
		}
	}
	e := i
	for e < len(p) && isHex(p[e]) {
		e++
	}
	if n := e - i; n >= 7 && n <= 40 && boundary(e) {
		return e
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// blankFences blanks what (?s)```.*?``` finds: from each ``` to the next.
func blankFences(b []byte) {
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("```"))
		if k < 0 {
			return
		}
		start := i + k
		e := bytes.Index(b[start+3:], []byte("```"))
		if e < 0 {
			return
		}
		end := start + 3 + e + 3
		blank(b, start, end)
		i = end
	}
}

// blankInlineCode blanks what `[^`\r\n]+` finds.
func blankInlineCode(b []byte) {
	for i := 0; i < len(b); i++ {
		k := bytes.IndexByte(b[i:], '`') // most messages have few backticks
		if k < 0 {
			return
		}
		i += k
		j := i + 1
		for j < len(b) && b[j] != '`' && b[j] != '\r' && b[j] != '\n' {
			j++
		}
		if j > i+1 && j < len(b) && b[j] == '`' {
			blank(b, i, j+1)
			i = j
		}
	}
}

// blankURLs blanks what (?i)\b[a-z][a-z0-9+.-]*://[^\s)]+ finds.
func blankURLs(b []byte) {
	scheme := func(c byte) bool {
		c |= 0x20
		return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+'|0x20 || c == '.'|0x20 || c == '-'|0x20
	}
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("://"))
		if k < 0 {
			return
		}
		k += i
		s0 := k
		for s0 > i && scheme(b[s0-1]) {
			s0--
		}
		p := -1
		for q := s0; q < k; q++ {
			if c := b[q] | 0x20; c >= 'a' && c <= 'z' && (q == 0 || !isWord(b[q-1])) {
				p = q
				break
			}
		}
		e := k + 3
		for e < len(b) && !isSpace(b[e]) && b[e] != ')' {
			e++
		}
		if p >= 0 && e > k+3 {
			blank(b, p, e)
			i = e
			continue
		}
		i = k + 3
	}
}

// blankLines blanks each line that, past its leading blanks, starts with
// one of prefixes and holds something after it.
func blankLines(b []byte, prefixes ...string) {
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		line := b[start:end]
		t := bytes.TrimLeft(line, " \t\r\f\v")
		for _, p := range prefixes {
			if len(t) > len(p) && bytes.HasPrefix(t, []byte(p)) {
				blank(b, start, end)
				break
			}
		}
		start = end + 1
	}
}

// wordCount is the number of matches of [\p{L}\p{N}][\p{L}\p{N}\-/]*\b:
// words of letters and digits, joined by hyphens and slashes.
func wordCount(s string) int { return wordCountUpTo(s, math.MaxInt) }

// wordCountUpTo is wordCount, counted no further than limit.
func wordCountUpTo(s string, limit int) int {
	n := 0
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	// Read a rune at a time in place: the section's text as runes was a
	// copy four times its length, made to count up to 50 words of it.
	for i := 0; i < len(s) && n < limit; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !alnum(r) {
			i += size
			continue
		}
		j := i + size
		next := j // past the word's last letter or digit
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !alnum(r) && r != '-' && r != '/' {
				break
			}
			j += size
			if alnum(r) {
				next = j
			}
		}
		n++
		i = next
	}
	return n
}

// words yields the start and end of each word of s (a run of isWord
// bytes), in order.
func words(s string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(s); {
			if !isWord(s[i]) {
				i++
				continue
			}
			j := ascii.WordEnd(s, i+1)
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

func allDigits(s string) bool {
	for k := range len(s) {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return true
}

func allHex(s string) bool {
	for k := range len(s) {
		if !isHex(s[k]) {
			return false
		}
	}
	return true
}

// identifiers counts, up to limit, the validator's concrete identifiers
// (Get-IdentifierCount: the matches of (?i)\bFR-\d+\b, (?i)\bT\d{3,}\b,
// (?i)\b[a-f0-9]{7,40}\b, (?i)\b(?:authorization|decision|sign-off)-[a-z0-9-]+\b
// and (?i)file:///[^\s)]+, each pattern's matches counted).
func identifiers(s string, limit int) int {
	n := 0
	boundary := func(e int) bool { return e == len(s) || !isWord(s[e]) }
	// Word by word (each pattern's match is a whole word, or FR and the
	// number after its hyphen): a word is at most one identifier.
	for i, j := range words(s) {
		if n >= limit {
			break
		}
		w := s[i:j]
		switch {
		case len(w) == 2 && w[0]|0x20 == 'f' && w[1]|0x20 == 'r' && j < len(s) && s[j] == '-':
			k := j + 1
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			if k > j+1 && boundary(k) {
				n++
			}
		case (w[0] == 'T' || w[0] == 't') && len(w) >= 4 && allDigits(w[1:]):
			n++
		case len(w) >= 7 && len(w) <= 40 && allHex(w):
			n++
		}
	}
	for from := 0; n < limit; {
		k := indexFoldASCII(s[from:], "file:///")
		if k < 0 {
			break
		}
		e := from + k + len("file:///")
		end := e
		for end < len(s) && !isSpace(s[end]) && s[end] != ')' {
			end++
		}
		if end > e {
			n++
		}
		from = end
	}
	// Found from their punctuation (indexFoldASCII), not tried at every byte.
	if n < limit && (indexFoldASCII(s, "authorization-") >= 0 || indexFoldASCII(s, "decision-") >= 0 || indexFoldASCII(s, "sign-off-") >= 0) {
		n += len(decisionID.FindAllStringIndex(s, limit-n))
	}
	return min(n, limit)
}

// governanceHits is Get-GovernanceHitCount: the matches in a lead
// sentence of the governance terms, each pattern's counted on its own, as
// each regular expression is run on its own (they may overlap one
// another). One pass: a lead is read for every section of every message.
func governanceHits(s string) int {
	n, refFrom := 0, 0 // refFrom: where the next FR-/TG- match may start
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c|0x20 < 'a' || c|0x20 > 'z' {
			continue
		}
		if t := governanceTerms[c|0x20-'a']; t.whole {
			n += wordFoldAt(s, i, t.text)
		} else if t.text != "" {
			n += hasFoldAt(s, i, t.text)
		}
		if (c == 'F' || c == 'T') && i >= refFrom && (i == 0 || !isWord(s[i-1])) {
			if e := lifecycleRefEnd(s, i); e > 0 {
				n++
				refFrom = e
			}
		}
	}
	return n
}

// governanceTerms are the validator's case-insensitive governance terms
// by their first letter (no two share one); whole: only as a whole word.
var governanceTerms = [26]struct {
	text  string
	whole bool
}{
	'b' - 'a': {text: "before-implement"},
	'h' - 'a': {text: "hardening-gate"},
	'a' - 'a': {text: "approval ref"},
	'i' - 'a': {text: "implementation approval"},
	't' - 'a': {text: "traceability"},
	's' - 'a': {text: "schema"},
	'g' - 'a': {text: "gate", whole: true},
	'v' - 'a': {text: "validator", whole: true},
}

// hasFoldAt is 1 when s holds lower at i, ASCII letters folded, else 0.
func hasFoldAt(s string, i int, lower string) int {
	if i+len(lower) <= len(s) && equalFoldASCII(s[i:i+len(lower)], lower) {
		return 1
	}
	return 0
}

// wordFoldAt is hasFoldAt of a whole word: (?i)\blower\b.
func wordFoldAt(s string, i int, lower string) int {
	if e := i + len(lower); (i == 0 || !isWord(s[i-1])) && (e >= len(s) || !isWord(s[e])) {
		return hasFoldAt(s, i, lower)
	}
	return 0
}

// lifecycleRefEnd is the end of \bFR-\d+\b or \bTG-[A-Za-z0-9-]+\b
// (case-sensitive) at i, which a word boundary precedes, or 0.
func lifecycleRefEnd(s string, i int) int {
	switch {
	case strings.HasPrefix(s[i:], "FR-"):
		j := i + 3
		e := j
		for e < len(s) && s[e] >= '0' && s[e] <= '9' {
			e++
		}
		if e > j && (e == len(s) || !isWord(s[e])) {
			return e
		}
	case strings.HasPrefix(s[i:], "TG-"):
		j := i + 3
		e := j
		for e < len(s) && (isWord(s[e]) && s[e] != '_' || s[e] == '-') {
			e++
		}
		for ; e > j; e-- { // back to the last word boundary
			if (e == len(s) || !isWord(s[e])) != !isWord(s[e-1]) {
				return e
			}
		}
	}
	return 0
}
