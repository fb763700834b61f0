package workflow

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"
	"github.com/yuin/goldmark/ast"
	"golang.org/x/text/unicode/norm"
)

// The document targets of a root document (specs §5.4;
// packages/core/src/document-targets.ts): the static headings of its body,
// each addressed by the path of labels that reaches it, which a reference
// `doc.md#Selector` names. baton builds the outline as the engine does —
// the body with its top-level components blanked, read as CommonMark; a
// sole outermost heading is the title and takes no level; a heading whose
// text is empty, computed ({props.x}) or overlaps a component is not
// addressable, nor is anything under it — but it reads a heading's label
// only where its text is plain: a heading with emphasis, code, a link, an
// image, HTML, an escape, an entity or a hard break has a label baton does
// not compute, and an entry reached through one is uncertain. A verdict
// that an uncertain entry could change is not given. Held to the engine's
// verdicts in testdata/doctargets.json.

// targetOutline is what baton knows of a document's targets.
type targetOutline struct {
	entries []targetEntry
}

// targetEntry is one addressable heading, or one that may be.
type targetEntry struct {
	labels []string
	// sure: the heading is an entry, and every label is known.
	sure bool
}

// outlineHeading is one heading of the outline.
type outlineHeading struct {
	depth  int
	parent int // -1 at the top
	label  string
	known  bool // label is the engine's
	// addressable is 1 yes, 0 no, -1 unknown.
	addressable int
}

// documentOutline builds the outline of c, false when baton cannot read it
// as the engine would: a syntax error, front matter gray-matter would read
// otherwise, a document too large or too deeply nested to parse whole.
func documentOutline(c *Component) (targetOutline, bool) {
	if c == nil || len(c.Errors) > 0 || strings.HasPrefix(c.Text, bom) || strings.IndexByte(c.Text, 0) >= 0 {
		return targetOutline{}, false
	}
	bodyStart, ok := matterEnd(c)
	if !ok {
		return targetOutline{}, false
	}
	// The top-level components the engine's scanner finds
	// (scanComponentSpans): an element never closed is text.
	var spans []markdown.Span
	for _, t := range c.Tags {
		if t.Parent == nil && t.Closed && t.Span.Start >= bodyStart {
			spans = append(spans, t.Span)
		}
	}
	masked, mspans := maskBody(c.Text, bodyStart, spans)
	d := markdown.Parse("", masked)
	if d.TooLarge > 0 || d.FrontMatter != nil || d.Root == nil {
		return targetOutline{}, false
	}
	if _, cut := d.NestingCutAt(); cut {
		return targetOutline{}, false
	}
	var hs []outlineHeading
	k := 0 // d.Headings holds the headings with content, in order
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		oh := outlineHeading{depth: h.Level, known: true}
		if h.Lines().Len() == 0 || k >= len(d.Headings) {
			hs = append(hs, oh) // an empty heading: no label, not addressable
			continue
		}
		hd := d.Headings[k]
		k++
		oh.label, oh.known = plainLabel(masked[hd.Inner.Start:hd.Inner.End])
		overlaps := slices.ContainsFunc(mspans, func(s markdown.Span) bool { return s.Start < hd.Span.End && hd.Span.Start < s.End })
		switch {
		case overlaps || hasInterpolation(masked[hd.Span.Start:hd.Span.End]) || (oh.known && oh.label == ""):
			oh.addressable = 0
		case oh.known:
			oh.addressable = 1
		default:
			oh.addressable = -1
		}
		hs = append(hs, oh)
	}
	if len(hs) == 0 {
		return targetOutline{}, true
	}
	outer := hs[0].depth
	for _, h := range hs {
		outer = min(outer, h.depth)
	}
	title := -1
	for i, h := range hs {
		if h.depth == outer {
			if title != -1 {
				title = -1
				break
			}
			title = i
		}
	}
	var stack []int
	for i := range hs {
		for len(stack) > 0 && hs[stack[len(stack)-1]].depth >= hs[i].depth {
			stack = stack[:len(stack)-1]
		}
		hs[i].parent = -1
		if len(stack) > 0 {
			hs[i].parent = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	var o targetOutline
	for i := range hs {
		if i == title {
			continue
		}
		e, exists := targetEntry{sure: true}, true
		for cur := i; cur != -1; cur = hs[cur].parent {
			if cur == title {
				continue
			}
			switch hs[cur].addressable {
			case 0:
				exists = false
			case -1:
				e.sure = false
			}
			if !hs[cur].known {
				e.sure = false
			}
			e.labels = append(e.labels, hs[cur].label)
		}
		if !exists {
			continue
		}
		slices.Reverse(e.labels)
		o.entries = append(o.entries, e)
	}
	return o, true
}

// matterEnd is where the body gray-matter leaves the engine starts
// (packages/core/src/definition.ts, parseSource): after a first line "---"
// and the first later line that begins "---", which baton must read as its
// front matter too; 0 without one. false where the two may differ.
func matterEnd(c *Component) (int, bool) {
	text := c.Text
	if !strings.HasPrefix(text, "---") {
		return 0, c.FrontMatter == nil
	}
	fm := c.FrontMatter
	if fm == nil || fm.Err != nil || (len(text) > 3 && text[3] == '-') {
		return 0, false
	}
	first := strings.IndexByte(text, '\n')
	if first < 0 || strings.TrimRight(text[3:first], "\r") != "" {
		return 0, false
	}
	i := strings.Index(text[first:], "\n---")
	if i < 0 {
		return 0, false
	}
	closeAt := first + i + 1
	end := closeAt + 3
	rest := text[end:]
	switch {
	case rest == "":
	case strings.HasPrefix(rest, "\n"):
		end++
	case strings.HasPrefix(rest, "\r\n"):
		end += 2
	default:
		return 0, false
	}
	// baton's front matter ends on the same line.
	if fm.Span.End != closeAt+3 && strings.TrimRight(text[closeAt:fm.Span.End], "\r") != "---" {
		return 0, false
	}
	if fm.Span.End < closeAt+3 || fm.Span.End > closeAt+4 {
		return 0, false
	}
	return end, true
}

// maskBody is the body the engine outlines (maskComponents): the front
// matter left out (here blanked: blank lines start no block), and each
// component span replaced by spaces, one per UTF-16 code unit as the
// engine writes them, its line breaks kept. It returns the spans where
// they fall in the masked text.
func maskBody(text string, bodyStart int, spans []markdown.Span) (string, []markdown.Span) {
	var b strings.Builder
	b.Grow(len(text))
	blank := func(s string) {
		for _, r := range s {
			switch {
			case r == '\n':
				b.WriteByte('\n')
			case r >= 0x10000:
				b.WriteString("  ")
			default:
				b.WriteByte(' ')
			}
		}
	}
	blank(text[:bodyStart])
	cursor := bodyStart
	out := make([]markdown.Span, 0, len(spans))
	for _, s := range spans {
		if s.Start < cursor {
			continue
		}
		b.WriteString(text[cursor:s.Start])
		start := b.Len()
		blank(text[s.Start:s.End])
		out = append(out, markdown.Span{Start: start, End: b.Len()})
		cursor = s.End
	}
	b.WriteString(text[cursor:])
	return b.String(), out
}

// plainLabel is the engine's label of a heading's content (mdast's text,
// normalized: normalizeLabel), known only when the content is plain text:
// nothing CommonMark reads as other than text, and no hard line break.
func plainLabel(raw string) (string, bool) {
	if strings.ContainsAny(raw, "\\`*_[]<>!&\x00") || !utf8.ValidString(raw) {
		return "", false
	}
	if strings.Contains(raw, "  \n") || strings.Contains(raw, "\t\n") || strings.Contains(raw, " \t\n") {
		return "", false
	}
	return normalizeLabel(raw), true
}

// jsWhite is the white space of a JavaScript regular expression's \s and of
// String.prototype.trim.
func jsWhite(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// collapseSpace is text with each run of white space made one space.
func collapseSpace(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		if jsWhite(r) {
			if !in {
				b.WriteByte(' ')
			}
			in = true
			continue
		}
		in = false
		b.WriteRune(r)
	}
	return b.String()
}

// normalizeLabel is the engine's canonical label: NFC, white space
// collapsed, trimmed.
func normalizeLabel(s string) string {
	return strings.TrimFunc(collapseSpace(norm.NFC.String(s)), jsWhite)
}

// hasInterpolation reports an unescaped `{meta.…}`, `{props.…}` or
// `{name.path}` in a heading's source (INTERPOLATION): its text is
// computed, and it is no target.
func hasInterpolation(src string) bool {
	for i := 0; i < len(src); i++ {
		if src[i] != '{' || (i > 0 && src[i-1] == '\\') {
			continue
		}
		rest := src[i+1:]
		if strings.HasPrefix(rest, "meta.") || strings.HasPrefix(rest, "props.") {
			p := strings.IndexByte(rest, '.') + 1
			if j := strings.IndexByte(rest[p:], '}'); j > 0 {
				return true
			}
		}
		j := 0
		for {
			k := j
			for k < len(rest) && (rest[k] == '_' || rest[k] == '$' || isASCIILetter(rest[k]) || (k > j && rest[k] >= '0' && rest[k] <= '9')) {
				k++
			}
			if k == j || (rest[j] >= '0' && rest[j] <= '9') {
				break
			}
			if k < len(rest) && rest[k] == '}' {
				return true
			}
			if k < len(rest) && rest[k] == '.' {
				j = k + 1
				continue
			}
			break
		}
	}
	return false
}

// selectorLevel is one level of a target selector: "**", or a label
// pattern of literal parts and wildcards ("" a wildcard).
type selectorLevel struct {
	recursive bool
	parts     []selectorPart
}

type selectorPart struct {
	wildcard bool
	text     []rune
}

// parseTargetSelector is the engine's parseSelector: raw "/" separates
// levels, a level "**" matches any number of levels, a raw "*" any run of
// characters, and the chunks between them are percent-decoded and
// normalized. ok is false for a selector the engine calls invalid.
func parseTargetSelector(sel string) ([]selectorLevel, bool) {
	if sel == "" || strings.HasPrefix(sel, "/") || strings.HasSuffix(sel, "/") || strings.Contains(sel, "#") {
		return nil, false
	}
	var levels []selectorLevel
	for raw := range strings.SplitSeq(sel, "/") {
		if raw == "" {
			return nil, false
		}
		if raw == "**" {
			levels = append(levels, selectorLevel{recursive: true})
			continue
		}
		chunks := strings.Split(raw, "*")
		for i, chunk := range chunks {
			d, ok := decodePercent(chunk)
			if !ok {
				return nil, false
			}
			chunks[i] = collapseSpace(norm.NFC.String(d))
		}
		chunks[0] = strings.TrimLeftFunc(chunks[0], jsWhite)
		chunks[len(chunks)-1] = strings.TrimRightFunc(chunks[len(chunks)-1], jsWhite)
		var parts []selectorPart
		for i, chunk := range chunks {
			if i > 0 && (len(parts) == 0 || !parts[len(parts)-1].wildcard) {
				parts = append(parts, selectorPart{wildcard: true})
			}
			if chunk != "" {
				parts = append(parts, selectorPart{text: []rune(chunk)})
			}
		}
		levels = append(levels, selectorLevel{parts: parts})
	}
	return levels, true
}

// decodePercent is the engine's decodePercentEncoded: "%XX" escapes
// decoded, the bytes UTF-8 with no NUL; ok is false otherwise.
func decodePercent(s string) (string, bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	if !utf8.Valid(b) || slices.Contains(b, 0) {
		return "", false
	}
	// UTF-8 that encodes a surrogate is not valid UTF-8: utf8.Valid refuses it.
	return string(b), true
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// matchLabel is the engine's matchLabel: the parts consume the label's
// code points exactly.
func matchLabel(parts []selectorPart, label []rune) bool {
	reach := make([]bool, len(label)+1)
	reach[0] = true
	for _, p := range parts {
		next := make([]bool, len(label)+1)
		if p.wildcard {
			open := false
			for i := range next {
				open = open || reach[i]
				next[i] = open
			}
		} else {
			for i := 0; i+len(p.text) <= len(label); i++ {
				if reach[i] && slices.Equal(label[i:i+len(p.text)], p.text) {
					next[i+len(p.text)] = true
				}
			}
		}
		reach = next
	}
	return reach[len(label)]
}

// matchTargetPath is the engine's matchPath.
func matchTargetPath(levels []selectorLevel, path []string) bool {
	reach := make([]bool, len(path)+1)
	reach[0] = true
	for _, l := range levels {
		next := make([]bool, len(path)+1)
		if l.recursive {
			open := false
			for i := range next {
				open = open || reach[i]
				next[i] = open
			}
		} else {
			for i := range path {
				if reach[i] && matchLabel(l.parts, []rune(path[i])) {
					next[i+1] = true
				}
			}
		}
		reach = next
	}
	return reach[len(path)]
}

// encodeTarget is an entry's canonical fragment (encodeTargetLabel of each
// label, joined by "/").
func encodeTarget(labels []string) string {
	var b strings.Builder
	for i, l := range labels {
		if i > 0 {
			b.WriteByte('/')
		}
		for _, r := range l {
			if r < utf8.RuneSelf && (isASCIILetter(byte(r)) || (r >= '0' && r <= '9') || strings.ContainsRune("-._~", r)) {
				b.WriteRune(r)
				continue
			}
			var buf [4]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
	}
	return b.String()
}

// targetVerdict is what the engine's findTarget says of sel against o:
// kind "" when it names exactly one entry (one ok says baton knows it), else
// "invalid-selector", "no-match" or "multiple-matches" with the engine's
// message; ok is false when the outline's uncertain entries could change it.
func (o targetOutline) targetVerdict(sel string) (kind, msg string, ok bool) {
	levels, valid := parseTargetSelector(sel)
	sure := !slices.ContainsFunc(o.entries, func(e targetEntry) bool { return !e.sure })
	list := func(heading string, entries []targetEntry) string {
		if !sure {
			return heading + "\n  …"
		}
		if len(entries) == 0 {
			return "The document has no targets."
		}
		var b strings.Builder
		b.WriteString(heading)
		for _, e := range entries {
			b.WriteString("\n  " + encodeTarget(e.labels))
		}
		return b.String()
	}
	quoted := jsonQuote(sel)
	if !valid {
		return "invalid-selector", quoted + " is not a valid document target selector.\n" + list("Available targets:", o.entries), true
	}
	var matched []targetEntry
	for _, e := range o.entries {
		if e.sure && matchTargetPath(levels, e.labels) {
			matched = append(matched, e)
		}
	}
	switch {
	case len(matched) > 1:
		head := "Matched targets:"
		var b strings.Builder
		b.WriteString(head)
		for _, e := range matched {
			b.WriteString("\n  " + encodeTarget(e.labels))
		}
		if !sure {
			b.WriteString("\n  …")
		}
		return "multiple-matches", quoted + " matches more than one document target.\n" + b.String(), true
	case !sure:
		return "", "", false
	case len(matched) == 0:
		return "no-match", quoted + " matches no document target.\n" + list("Available targets:", o.entries), true
	}
	return "", "", true
}

// jsonQuote is JSON.stringify of a string.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
