package workflow

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
	"go.yaml.in/yaml/v3"
)

// Component is a parsed XMD document: a component file or a root. Every
// span is a byte offset into Text.
type Component struct {
	Path string // slash path in the workspace FS ("" when not read from it)
	Text string

	FrontMatter *FrontMatter // nil without front matter

	Props    Props
	Required []*Name // the top-level `required` list
	// Returns is nil for a text component (no `returns`).
	Returns *Returns
	Meta    []*Name // meta keys: the front matter's other keys and a `meta` mapping's entries
	// Bundle is the `workflow.components` declaration of a workflow root.
	Bundle []*BundleEntry
	// bundleKey and bundleValue are the declaration the bundle is read
	// from (readBundle), nil without one; bundleValue is nil for a
	// declaration with no value.
	bundleKey, bundleValue *yaml.Node

	Body         []Node // the top-level nodes of the body
	Tags         []*Tag // every tag, flattened in document order
	Placeholders []*Placeholder
	CodeBlocks   []*CodeBlock
	Errors       []SyntaxError // what the parser could not read
}

// FrontMatter is the leading YAML block.
type FrontMatter struct {
	Span markdown.Span // delimiters included
	Body markdown.Span // the YAML
	Err  error         // the YAML does not parse, or is not a mapping

	node *yaml.Node // the engine's parse of Body, when it made one; read once
	// lines are where Body's lines start, made when the front matter is
	// read: yamlSpan looks a node's line up instead of walking to it from
	// the top for every node.
	lines []int
	// root is the front matter's mapping, kept for the checks of its
	// values (frontmatter_rules.go).
	root *yaml.Node
}

// Name is a key or list item of the front matter, with where it is written.
type Name struct {
	Name string
	Span markdown.Span
}

// PropsForm is how `props` is declared.
type PropsForm int

const (
	PropsNone    PropsForm = iota // no `props`: the component accepts no props
	PropsMap                      // a map of prop names to subschemas (closed)
	PropsSchema                   // a full object schema (marked by `type` or `$schema`)
	PropsInvalid                  // `props` is not a mapping
)

// Props is what a component declares its callers may pass.
type Props struct {
	Form PropsForm
	Key  markdown.Span // the `props` key; empty for PropsNone
	List []*Prop
	// Open is true when props beyond List may be passed, or the schema is
	// too dynamic ($ref, allOf, patternProperties…) to know which.
	Open bool
	// insertAt is where a new prop goes: the offset after the last line of
	// the map (or of `properties`), -1 when unknown; insertIndent is the
	// indentation of its entries.
	insertAt     int
	insertIndent string
	// schemas validates the values passed to the declared props; nil
	// without a declaration to read.
	schemas *propSchemas
}

// Prop returns the declared prop named name, or nil.
func (p *Props) Prop(name string) *Prop {
	for _, d := range p.List {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// Prop is one declared prop (or, in Returns, one returned property).
type Prop struct {
	Name       string
	Span       markdown.Span // the key in the front matter
	Schema     string        // a summary: "string", "array of string", "object", "any", …
	Type       string        // the schema's `type`, "" when none
	Required   bool
	HasDefault bool
}

// Returns is a value component's `returns` declaration.
type Returns struct {
	Key    markdown.Span // the `returns` key
	Schema string        // a summary
	Props  []*Prop       // the object's properties (shorthand or `properties`)
	// Proceed is true when the value has a boolean `proceed`: the component
	// is a checkpoint.
	Proceed bool
	// schema validates a literal <Return value>; nil when the declaration
	// is not a mapping.
	schema *returnsSchema
}

// readBundle reads the workflow bundle from the declaration the engine
// reads (packages/cli/src/workflow-bundle.ts, declaredBundle, of the
// definition's meta): a `meta` mapping's `workflow` entry when the front
// matter has a `meta` mapping (packages/core/src/frontmatter.ts, parseMeta:
// its entries are the meta, and the top-level keys are not; an entry with a
// `type` is its `default`), else the top-level `workflow`.
func (c *Component) readBundle(root *yaml.Node) {
	if _, meta := mapGet(root, "meta"); meta != nil && resolveAlias(meta).Kind == yaml.MappingNode {
		c.bundleKey, c.bundleValue = nil, nil
		if k, v := mapGet(resolveAlias(meta), "workflow"); k != nil {
			v = resolveAlias(v)
			if _, typ := mapGet(v, "type"); typ != nil {
				_, v = mapGet(v, "default") // nil when there is none: no mapping
				v = resolveAlias(v)
			}
			c.bundleKey, c.bundleValue = k, v
		}
	}
	if _, comps := mapGet(c.bundleValue, "components"); comps != nil {
		if comps = resolveAlias(comps); comps.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(comps.Content); j += 2 {
				n, p := comps.Content[j], resolveAlias(comps.Content[j+1])
				c.Bundle = append(c.Bundle, &BundleEntry{Name: n.Value, NameSpan: c.yamlSpan(n), Path: p.Value, PathSpan: c.yamlSpan(p), pathNode: p})
			}
		}
	}
}

// BundleEntry is one `workflow.components` entry: a name and the file
// that answers it, relative to the root's folder.
type BundleEntry struct {
	Name     string
	NameSpan markdown.Span
	Path     string // as written
	PathSpan markdown.Span

	pathNode *yaml.Node // the value as written: a string, or what is not one
}

// Parse parses an XMD document: its front matter (props, required,
// returns, meta, workflow.components) and its body's tags, placeholders and
// code blocks. It never fails and never panics; what it cannot read is in
// Errors, and every span lies inside text.
func Parse(text string) *Component {
	fm, body := detectFrontMatter(text)
	return parse(text, fm, body)
}

// parseDoc parses an analysed document, whose front matter the analysis
// engine has already found.
func parseDoc(doc *markdown.Document) *Component {
	code := indentedCode(doc)
	if doc.FrontMatter == nil {
		return parse(doc.Text, nil, markdown.Span{Start: 0, End: 0}, code...)
	}
	return parse(doc.Text, &FrontMatter{Span: doc.FrontMatter.Span, Body: doc.FrontMatter.Body, node: doc.FrontMatter.Node}, doc.FrontMatter.Body, code...)
}

// indentedCode are the spans of the document's indented code blocks, as
// CommonMark reads it, in order: Markdown shows what they hold as
// written.
func indentedCode(doc *markdown.Document) []markdown.Span {
	if doc.Root == nil || !strings.Contains(doc.Text, "    ") && !strings.Contains(doc.Text, "\t") {
		return nil
	}
	var out []markdown.Span
	_ = ast.Walk(doc.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if cb, ok := n.(*ast.CodeBlock); ok {
			if lines := cb.Lines(); lines.Len() > 0 {
				out = append(out, markdown.Span{Start: lines.At(0).Start, End: lines.At(lines.Len() - 1).Stop})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// parse reads text; literal are spans where Markdown shows a tag as
// written (indented code), in order: a tag opened there is Literal.
func parse(text string, fm *FrontMatter, body markdown.Span, literal ...markdown.Span) *Component {
	c := &Component{Text: text, FrontMatter: fm}
	start := 0
	if fm != nil {
		start = fm.Span.End
		c.readFrontMatter()
	} else if strings.HasPrefix(text, bom) {
		start = len(bom) // a byte-order mark is not text: the first line starts after it
	}
	s := &scanner{text: text, c: c, literal: literal}
	// The scanner's working buffers are lent by the pool for the scan.
	bufs := scanBufsPool.Get().(*scanBufs)
	s.stack, s.kidStart, s.kids, s.attrs, s.segs = bufs.stack, bufs.kidStart, bufs.kids, bufs.attrs, bufs.segs
	// Every tag starts at a "<", and an element that is not self-closing
	// has a second one: counting them (a vectorized count) bounds the list
	// of tags, and half of them sizes the body's top-level nodes and the
	// first chunk of tags, all of which would otherwise grow a piece at a
	// time.
	if n := strings.Count(text[start:], "<"); n > 0 {
		c.Tags = make([]*Tag, 0, n)
		c.Body = make([]Node, 0, n/2+1)
		s.tagSlab.reserve(min(n/2+1, maxChunk))
	}
	s.scan(start, len(text))
	bufs.stack, bufs.kidStart, bufs.kids, bufs.attrs, bufs.segs = s.stack, s.kidStart, s.kids, s.attrs, s.segs
	bufs.put()
	if len(c.Tags) == 0 {
		c.Tags = nil // as when appended to: a "<" started no tag
	}
	if len(c.Body) == 0 {
		c.Body = nil
	}
	return c
}

// bom is the UTF-8 byte-order mark some editors write first.
const bom = "\ufeff"

// detectFrontMatter finds a YAML block opened by "---" on the first line
// and closed by a "---" or "..." line, as markdown.Parse does.
func detectFrontMatter(text string) (*FrontMatter, markdown.Span) {
	end := lineEnd(text, 0, len(text))
	if strings.TrimRight(strings.TrimPrefix(text[:end], bom), " \t") != "---" || end == len(text) {
		return nil, markdown.Span{}
	}
	bodyStart := nextLine(text, end, len(text))
	for off := bodyStart; off < len(text); {
		le := lineEnd(text, off, len(text))
		if t := strings.TrimRight(text[off:le], " \t"); t == "---" || t == "..." {
			return &FrontMatter{Span: markdown.Span{Start: 0, End: le}, Body: markdown.Span{Start: bodyStart, End: off}},
				markdown.Span{Start: bodyStart, End: off}
		}
		if le == len(text) {
			break
		}
		off = nextLine(text, le, len(text))
	}
	return nil, markdown.Span{}
}

// lineStart is where line (1-based) of the front matter body starts: the
// body's end past its last line.
func (c *Component) lineStart(line int) int {
	fm := c.FrontMatter
	if fm.lines == nil {
		// One entry per line break, and one for the end: sized by
		// counting them rather than grown an append at a time.
		yaml := c.Text[fm.Body.Start:fm.Body.End]
		fm.lines = make([]int, 0, strings.Count(yaml, "\n")+strings.Count(yaml, "\r")+2)
		for off := fm.Body.Start; ; {
			fm.lines = append(fm.lines, off)
			if off >= fm.Body.End {
				break
			}
			next := nextLine(c.Text, lineEnd(c.Text, off, fm.Body.End), fm.Body.End)
			if next == off {
				break
			}
			off = next
		}
	}
	return fm.lines[min(max(line-1, 0), len(fm.lines)-1)]
}

// yamlSpan converts a node's line and column (1-based, in characters) in
// the front matter body to a span of its scalar text.
func (c *Component) yamlSpan(n *yaml.Node) markdown.Span {
	body := c.FrontMatter.Body
	off := c.lineStart(n.Line)
	le := lineEnd(c.Text, off, body.End)
	for col := 1; col < n.Column && off < le; col++ {
		if c.Text[off] < utf8.RuneSelf {
			off++ // the keys and their indentation are ASCII, mostly
			continue
		}
		_, w := utf8.DecodeRuneInString(c.Text[off:le])
		off += w
	}
	n2 := len(n.Value)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		n2 += 2
	}
	if n.Kind != yaml.ScalarNode {
		n2 = 0
	}
	return markdown.Span{Start: off, End: min(off+n2, le)}
}

func mapGet(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func (c *Component) readFrontMatter() {
	fm := c.FrontMatter
	doc := fm.node // already parsed by the analysis engine
	fm.node = nil
	if doc == nil {
		doc = new(yaml.Node)
		if err := yaml.Unmarshal([]byte(c.Text[fm.Body.Start:fm.Body.End]), doc); err != nil {
			fm.Err = err
			return
		}
	}
	if len(doc.Content) == 0 {
		return
	}
	root := resolveAlias(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		fm.Err = fmt.Errorf("the front matter is not a mapping of keys to values")
		return
	}
	fm.root = root
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolveAlias(root.Content[i+1])
		switch k.Value {
		case "props":
			c.readProps(k, v)
		case "required":
			if v.Kind == yaml.SequenceNode {
				for _, item := range v.Content {
					// A name the engine reads as a number, a boolean or
					// null names no prop (checkRequiredDecl reports it).
					if item = resolveAlias(item); jsYAMLKind(item) == "string" {
						c.Required = append(c.Required, &Name{item.Value, c.yamlSpan(item)})
					}
				}
			}
		case "returns":
			c.readReturns(k, v)
		case "workflow":
			if c.bundleKey == nil {
				c.bundleKey, c.bundleValue = k, v
			}
		case "meta":
			c.Meta = append(c.Meta, &Name{k.Value, c.yamlSpan(k)})
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					c.Meta = append(c.Meta, &Name{v.Content[j].Value, c.yamlSpan(v.Content[j])})
				}
			}
		default:
			c.Meta = append(c.Meta, &Name{k.Value, c.yamlSpan(k)})
		}
	}
	c.readBundle(root)
	// A map's props are required when `required` names them.
	if c.Props.Form == PropsMap {
		for _, r := range c.Required {
			if p := c.Props.Prop(r.Name); p != nil {
				p.Required = true
			}
		}
	}
}

// isSchema reports a full schema: a mapping marked by `type` or `$schema`.
func isSchema(v *yaml.Node) bool {
	k1, _ := mapGet(v, "type")
	k2, _ := mapGet(v, "$schema")
	return k1 != nil || k2 != nil
}

var dynamicSchemaKeys = []string{"$ref", "allOf", "anyOf", "oneOf", "patternProperties", "if", "dependencies", "propertyNames"}

func (c *Component) readProps(k, v *yaml.Node) {
	p := &c.Props
	p.Key = c.yamlSpan(k)
	switch {
	case v.Kind != yaml.MappingNode:
		p.Form, p.Open = PropsInvalid, true
	case isSchema(v):
		p.Form = PropsSchema
		p.schemas = &propSchemas{node: v, form: PropsSchema}
		_, add := mapGet(v, "additionalProperties")
		p.Open = add == nil || add.Value != "false"
		for _, key := range dynamicSchemaKeys {
			if kk, _ := mapGet(v, key); kk != nil {
				p.Open = true
			}
		}
		pk, props := mapGet(v, "properties")
		if props == nil || props.Kind != yaml.MappingNode {
			p.Open = true
			p.insertAt, p.insertIndent = -1, ""
		} else {
			p.List = c.readPropList(props)
			p.insertAt, p.insertIndent = c.mapInsertion(pk, props)
		}
		req := map[string]bool{}
		if _, r := mapGet(v, "required"); r != nil && r.Kind == yaml.SequenceNode {
			for _, item := range r.Content {
				req[item.Value] = true
			}
		}
		for _, d := range p.List {
			d.Required = req[d.Name]
		}
	default:
		p.Form = PropsMap
		p.schemas = &propSchemas{node: v, form: PropsMap}
		p.List = c.readPropList(v)
		p.insertAt, p.insertIndent = c.mapInsertion(k, v)
	}
}

func (c *Component) readPropList(m *yaml.Node) []*Prop {
	var out []*Prop
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], resolveAlias(m.Content[i+1])
		d := &Prop{Name: k.Value, Span: c.yamlSpan(k)}
		d.Type, d.Schema, d.HasDefault = summarize(v)
		out = append(out, d)
	}
	return out
}

// mapInsertion is where a new entry of the block mapping v (under key k)
// goes: after its last line, at its entries' indentation. For a flow
// mapping or an empty one, -1.
func (c *Component) mapInsertion(k, v *yaml.Node) (int, string) {
	if v.Kind != yaml.MappingNode || v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0 {
		return -1, ""
	}
	first := c.yamlSpan(v.Content[0])
	ls := first.Start
	for ls > c.FrontMatter.Body.Start && !isLineBreak(c.Text[ls-1]) {
		ls--
	}
	indent := c.Text[ls:first.Start]
	if strings.TrimLeft(indent, " ") != "" {
		return -1, ""
	}
	// The mapping ends before the next line indented no deeper than k:
	// the new entry goes after its last line.
	body := c.FrontMatter.Body
	kIndent := c.yamlSpan(k).Start
	for kIndent > body.Start && !isLineBreak(c.Text[kIndent-1]) {
		kIndent--
	}
	kCol := c.yamlSpan(k).Start - kIndent
	lastContent := nextLine(c.Text, lineEnd(c.Text, first.Start, body.End), body.End)
	for off := lastContent; off < body.End; {
		le := lineEnd(c.Text, off, body.End)
		line := c.Text[off:le]
		if t := strings.TrimLeft(line, " "); t != "" && !strings.HasPrefix(t, "#") {
			if len(line)-len(t) <= kCol {
				break
			}
			lastContent = nextLine(c.Text, le, body.End)
		}
		if le == body.End {
			break
		}
		off = nextLine(c.Text, le, body.End)
	}
	return min(lastContent, body.End), indent
}

// summarize reads a subschema's type, a summary of it, and whether it
// has a default.
func summarize(v *yaml.Node) (typ, summary string, hasDefault bool) {
	v = resolveAlias(v)
	if v.Kind == yaml.ScalarNode && (v.Value == "true" || v.Value == "") {
		return "", "any", false
	}
	if v.Kind != yaml.MappingNode {
		return "", "any", false
	}
	if len(v.Content) == 0 {
		return "", "any", false
	}
	if _, t := mapGet(v, "type"); t != nil {
		switch t.Kind {
		case yaml.ScalarNode:
			typ = t.Value
		case yaml.SequenceNode:
			var ts []string
			for _, x := range t.Content {
				ts = append(ts, x.Value)
			}
			typ = strings.Join(ts, " | ")
		}
	}
	summary = typ
	if typ == "array" {
		if _, items := mapGet(v, "items"); items != nil {
			if it, _, _ := summarize(items); it != "" {
				summary = "array of " + it
			}
		}
	}
	if _, e := mapGet(v, "enum"); e != nil && e.Kind == yaml.SequenceNode {
		var vs []string
		for _, x := range e.Content {
			vs = append(vs, x.Value)
		}
		summary = strings.TrimSpace(summary + " enum [" + strings.Join(vs, ", ") + "]")
	}
	if summary == "" {
		summary = "any"
	}
	if _, d := mapGet(v, "default"); d != nil {
		hasDefault = true
		if d.Kind == yaml.ScalarNode {
			summary += " = " + d.Value
		}
	}
	return typ, summary, hasDefault
}

func (c *Component) readReturns(k, v *yaml.Node) {
	r := &Returns{Key: c.yamlSpan(k)}
	c.Returns = r
	var props *yaml.Node
	switch {
	case v.Kind != yaml.MappingNode:
		r.Schema = "invalid"
		return
	case isSchema(v):
		_, r.Schema, _ = summarize(v)
		_, props = mapGet(v, "properties")
		r.schema = &returnsSchema{node: v}
	default:
		r.Schema = "object"
		props = v
		r.schema = &returnsSchema{node: v, shorthand: true}
	}
	if props != nil && props.Kind == yaml.MappingNode {
		r.Props = c.readPropList(props)
		for _, p := range r.Props {
			if p.Name == "proceed" && p.Type == "boolean" {
				r.Proceed = true
			}
		}
	}
}
