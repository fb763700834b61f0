package hostsettings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// style is how a settings file is laid out, so that what baton adds looks
// like what is there.
type style struct {
	nl       string // "\n", or "\r\n" in a file with CRLF line ends
	unit     string // one level of indentation
	minified bool   // no line break in the file: everything on one line
}

func detectStyle(text []byte) style {
	st := style{nl: "\n", unit: "  "}
	if bytes.Contains(text, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	if !bytes.ContainsAny(text, "\n") {
		st.minified = true
		return st
	}
	// The indentation of the first indented line is one level.
	for _, line := range strings.Split(string(text), "\n") {
		ind := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if ind != "" && strings.TrimSpace(line) != "" {
			st.unit = ind
			break
		}
	}
	return st
}

// lineIndent is the leading white space of the line holding offset i.
func lineIndent(text []byte, i int) string {
	start := bytes.LastIndexByte(text[:i], '\n') + 1
	end := start
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return string(text[start:end])
}

// startsLine says whether only white space precedes offset i on its line.
func startsLine(text []byte, i int) bool {
	start := bytes.LastIndexByte(text[:i], '\n') + 1
	return strings.Trim(string(text[start:i]), " \t") == ""
}

// items is the number of members of an object or elements of an array.
func (n *node) items() int {
	if n.kind == '{' {
		return len(n.members)
	}
	return len(n.elems)
}

// span is the bytes of item i: a member from its key to the end of its
// value, an element whole.
func (n *node) span(i int) (int, int) {
	if n.kind == '{' {
		return n.members[i].keyStart, n.members[i].val.end
	}
	return n.elems[i].start, n.elems[i].end
}

// item is something to add to a container: a member ("key": value) of an
// object, or an element of an array.
type item struct {
	key   string // "" for an array element
	value any    // obj, []any, string, int, bool
}

// obj is a JSON object with its keys in order.
type obj []kv

type kv struct {
	K string
	V any
}

// Obj is a JSON object with its keys in order, as a host's entry is
// written: Object("command", line, "timeout", 20).
type Obj = obj

// Object is the object of these keys and values, in order: each key a
// string followed by its value (an Obj, []any, string, int or bool).
func Object(keysAndValues ...any) Obj {
	if len(keysAndValues)%2 != 0 {
		panic("hostsettings.Object: a key without its value")
	}
	o := make(Obj, 0, len(keysAndValues)/2)
	for i := 0; i < len(keysAndValues); i += 2 {
		o = append(o, kv{K: keysAndValues[i].(string), V: keysAndValues[i+1]})
	}
	return o
}

// render writes an item as the file would hold it at indentation indent
// (its first line is not indented: it goes where the writing stands).
func (it item) render(st style, indent string, oneLine bool) string {
	var b strings.Builder
	if it.key != "" {
		b.WriteString(quote(it.key))
		if st.minified {
			b.WriteString(":")
		} else {
			b.WriteString(": ")
		}
	}
	renderValue(&b, it.value, st, indent, oneLine)
	return b.String()
}

func renderValue(b *strings.Builder, v any, st style, indent string, oneLine bool) {
	colon := ": "
	if st.minified {
		colon = ":"
	}
	switch v := v.(type) {
	case obj:
		renderSeq(b, "{", "}", len(v), st, indent, oneLine, func(i int) {
			b.WriteString(quote(v[i].K))
			b.WriteString(colon)
			renderValue(b, v[i].V, st, indent+st.unit, oneLine)
		})
	case []any:
		renderSeq(b, "[", "]", len(v), st, indent, oneLine, func(i int) {
			renderValue(b, v[i], st, indent+st.unit, oneLine)
		})
	case string:
		b.WriteString(quote(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	default:
		panic(fmt.Sprintf("hostsettings: cannot render a %T", v))
	}
}

// renderSeq writes an object or an array of n members between open and
// close, each written by member: on one line, or one member a line at
// indent plus one unit.
func renderSeq(b *strings.Builder, open, close string, n int, st style, indent string, oneLine bool, member func(i int)) {
	if n == 0 {
		b.WriteString(open + close)
		return
	}
	sep := ", "
	if st.minified {
		sep = ","
	}
	b.WriteString(open)
	for i := range n {
		if i > 0 {
			if oneLine {
				b.WriteString(sep)
			} else {
				b.WriteString(",")
			}
		}
		if !oneLine {
			b.WriteString(st.nl + indent + st.unit)
		}
		member(i)
	}
	if !oneLine {
		b.WriteString(st.nl + indent)
	}
	b.WriteString(close)
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) //nolint:errcheck // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

func splice(text []byte, start, end int, with string) []byte {
	out := make([]byte, 0, len(text)-(end-start)+len(with))
	out = append(out, text[:start]...)
	out = append(out, with...)
	return append(out, text[end:]...)
}

// appendItem adds it at the end of container c. After the last item it
// goes on a line of its own at that item's indentation (or on the same
// line, when the items share one); in an empty container it goes one
// level in from the container's line.
func appendItem(text []byte, c *node, it item, st style) []byte {
	if n := c.items(); n > 0 {
		s, e := c.span(n - 1)
		if st.minified || !startsLine(text, s) {
			sep := ", "
			if st.minified {
				sep = ","
			}
			return splice(text, e, e, sep+it.render(st, "", true))
		}
		ind := lineIndent(text, s)
		return splice(text, e, e, ","+st.nl+ind+it.render(st, ind, false))
	}
	at := c.start + 1
	if st.minified {
		return splice(text, at, at, it.render(st, "", true))
	}
	base := lineIndent(text, c.start)
	ind := base + st.unit
	add := st.nl + ind + it.render(st, ind, false)
	if c.end-c.start == 2 { // "{}" or "[]": close it on a line of its own
		add += st.nl + base
	}
	return splice(text, at, at, add)
}

// removeItem takes item i out of container c: the inverse of appendItem
// for the item appendItem added, so that appending then removing gives
// the text back byte for byte. A container left empty comes back as it
// was before the append: "{}" if appendItem had to open it. (A container
// that held only white space with a line break, "{\n}", comes back as
// "{}": the two give the same text once an item is in. Uninstall then
// puts back the white space install recorded: restore, in record.go.)
func removeItem(text []byte, c *node, i int, st style) []byte {
	n := c.items()
	s, e := c.span(i)
	switch {
	case n == 1:
		before, after := string(text[c.start+1:s]), string(text[e:c.end-1])
		base := lineIndent(text, c.start)
		if !st.minified && strings.HasPrefix(before, st.nl) && strings.Trim(before, " \t\r\n") == "" && after == st.nl+base {
			return splice(text, c.start+1, c.end-1, "")
		}
		return splice(text, c.start+1, e, "")
	case i == n-1:
		_, prevEnd := c.span(i - 1)
		return splice(text, prevEnd, e, "")
	default:
		nextStart, _ := c.span(i + 1)
		return splice(text, s, nextStart, "")
	}
}
