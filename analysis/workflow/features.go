package workflow

import (
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// The editor features of workflow documents, on the analyzer's Model: the
// tags, names and bindings it read and what the resolver answered for
// each component name, so that hover, completion and go-to-definition see
// the components the diagnostics see (the bundle's, .ts files).

// Features are the editor features of workflow documents.
var Features = &analysis.Features{Hover: Hover, Complete: Complete, Definition: Definition, Symbols: Symbols}

// ModelOf is the workflow analyzer's model of an analysed document, or nil.
func ModelOf(res *analysis.Result) *Model {
	if res == nil {
		return nil
	}
	m, _ := res.Model(Analyzer).(*Model)
	return m
}

// within reports off inside s, its end included (the cursor just after a
// name is on it).
func within(s markdown.Span, off int) bool {
	return off >= s.Start && off <= s.End && s.End > s.Start
}

// tagAt is the tag whose name (opening or closing) holds off.
func tagAt(model *Model, off int) *Tag {
	for _, t := range model.Tags {
		if within(t.NameSpan, off) || within(t.CloseName, off) {
			return t
		}
	}
	return nil
}

// referenceAt is the name read at off.
func referenceAt(model *Model, off int) *Reference {
	for _, r := range model.References {
		if within(r.Span, off) {
			return r
		}
	}
	return nil
}

// bindingAt is the binding whose name, as written, holds off.
func bindingAt(model *Model, off int) *Binding {
	for _, b := range model.Bindings {
		if within(b.Span, off) {
			return b
		}
	}
	return nil
}

func checkpointOf(model *Model, t *Tag) *Checkpoint {
	for _, cp := range model.Checkpoints {
		if cp.Tag == t {
			return cp
		}
	}
	return nil
}

// Hover explains the tag name, the name read or the binding at off.
func Hover(res *analysis.Result, off int) []analysis.HoverResult {
	model := ModelOf(res)
	if model == nil {
		return nil
	}
	doc := res.Doc
	if t := tagAt(model, off); t != nil {
		sp := t.NameSpan
		if within(t.CloseName, off) {
			sp = t.CloseName
		}
		return []analysis.HoverResult{{Span: sp, Markdown: tagHover(doc, model, t)}}
	}
	if r := referenceAt(model, off); r != nil {
		return []analysis.HoverResult{{Span: r.Span, Markdown: referenceHover(doc, r)}}
	}
	if b := bindingAt(model, off); b != nil {
		return []analysis.HoverResult{{Span: b.Span, Markdown: "**" + b.Name + "** " + bindingText(doc, b)}}
	}
	return nil
}

func tagHover(doc *markdown.Document, model *Model, t *Tag) string {
	res := model.Resolution(t)
	var b strings.Builder
	fmt.Fprintf(&b, "**<%s>**: ", t.Name)
	switch res.Kind {
	case ResolveStructural:
		b.WriteString("structural syntax of the workflow language.")
	case ResolveRegistered:
		if res.Host {
			b.WriteString("a registered component (registered only by the workflow host, `xmd workflow start`).")
		} else {
			b.WriteString("a registered component.")
		}
	case ResolveFile:
		fmt.Fprintf(&b, "a component file, `%s`.", res.Path)
		if res.OutsideBundle {
			b.WriteString(" A workflow bundle applies, so a workflow run does not find it.")
		}
	case ResolveBundle:
		fmt.Fprintf(&b, "an entry of the workflow bundle, `%s`", res.Path)
		if model.BundleRoot != "" {
			fmt.Fprintf(&b, " (declared by `%s`)", model.BundleRoot)
		}
		b.WriteString(".")
	case ResolveUnresolved:
		b.WriteString("unresolved.")
		if len(res.Looked) > 0 {
			looked := res.Looked
			more := ""
			if len(looked) > 6 {
				looked, more = looked[:6], fmt.Sprintf(", … (%d more)", len(res.Looked)-6)
			}
			fmt.Fprintf(&b, " Looked for `%s`%s.", strings.Join(looked, "`, `"), more)
		}
	default:
		b.WriteString("not resolved: no workspace to look in.")
	}
	if c := res.Component; c != nil {
		b.WriteString("\n\n")
		b.WriteString(componentSummary(c))
	} else if rc := registeredOf(res, t.Name); rc != nil {
		b.WriteString("\n\n")
		b.WriteString(registeredSummary(rc))
	}
	if cp := checkpointOf(model, t); cp != nil {
		b.WriteString("\n\n**Checkpoint**")
		if cp.Name != "" {
			fmt.Fprintf(&b, " bound as `%s`", cp.Name)
		}
		switch {
		case cp.Known && cp.Decision:
			b.WriteString(": asks the user to decide; it returns a boolean `proceed`.")
		case cp.Known:
			b.WriteString(": its target returns no boolean `proceed`.")
		default:
			b.WriteString(": the target was not read, so its decision is not known.")
		}
	}
	return b.String()
}

// registeredOf is the engine's registration a resolution answers name
// with, or nil.
func registeredOf(res Resolution, name string) *RegisteredComponent {
	if res.Kind != ResolveRegistered || res.Configured {
		return nil
	}
	return RegisteredComponents()[name]
}

// registeredSummary lists a registered component's props, as the engine
// registers them, and says where.
func registeredSummary(rc *RegisteredComponent) string {
	var b strings.Builder
	b.WriteString(componentSummary(rc.Component()))
	if len(rc.Captures) > 0 {
		caps := make([]string, len(rc.Captures))
		for i, c := range rc.Captures {
			caps[i] = "`" + c + "`"
			if slices.Contains(rc.Requires, c) {
				caps[i] += " (required)"
			}
		}
		fmt.Fprintf(&b, "\n\nCaptured, handed over unevaluated: %s.", strings.Join(caps, ", "))
	}
	if rc.Returns {
		b.WriteString("\n\n**Returns** a value: invoke it with `as`.")
	}
	fmt.Fprintf(&b, "\n\nRegistered in %s; props declared in %s (%s).", rc.Registered, rc.Declared, RegisteredEngine())
	return b.String()
}

// componentSummary lists a component's props and returns.
func componentSummary(c *Component) string {
	var b strings.Builder
	switch c.Props.Form {
	case PropsNone:
		b.WriteString("Accepts no props.")
	case PropsInvalid:
		b.WriteString("Its `props` is not a mapping.")
	default:
		if len(c.Props.List) == 0 {
			b.WriteString("Declares no props.")
			break
		}
		b.WriteString("| prop | schema | required |\n|---|---|---|\n")
		for _, p := range sortedProps(c.Props.List) {
			req := ""
			switch {
			case p.Required:
				req = "yes"
			case p.HasDefault:
				req = "no (has a default)"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, analysis.EscapeCell(nonEmptyOr(p.Schema, "any")), req)
		}
		if c.Props.Open {
			b.WriteString("\nOther props are accepted too.")
		}
	}
	if r := c.Returns; r != nil {
		fmt.Fprintf(&b, "\n\n**Returns** %s", nonEmptyOr(r.Schema, "a value"))
		var names []string
		for _, p := range r.Props {
			names = append(names, fmt.Sprintf("`%s` (%s)", p.Name, nonEmptyOr(p.Schema, "any")))
		}
		if len(names) > 0 {
			b.WriteString(": " + strings.Join(names, ", "))
		}
		if r.Proceed {
			b.WriteString(". A checkpoint: it returns a boolean `proceed`.")
		}
	}
	return b.String()
}

func nonEmptyOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// sortedProps puts the required props first, keeping the declared order.
func sortedProps(list []*Prop) []*Prop {
	out := append([]*Prop(nil), list...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Required && !out[j].Required })
	return out
}

func referenceHover(doc *markdown.Document, r *Reference) string {
	name := r.Name
	if len(r.Path) > 0 {
		name += "." + strings.Join(r.Path, ".")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", name)
	switch {
	case r.Prop != nil:
		fmt.Fprintf(&b, ": the prop `%s` (%s", r.Prop.Name, nonEmptyOr(r.Prop.Schema, "any"))
		if r.Prop.Required {
			b.WriteString(", required")
		}
		fmt.Fprintf(&b, "), declared on line %d.", doc.Lines.LineOf(r.Prop.Span.Start)+1)
	case len(r.Bindings) == 0:
		switch r.Name {
		case "props", "meta":
			fmt.Fprintf(&b, ": read from the component's %s.", r.Name)
		default:
			b.WriteString(": no binding in scope.")
		}
	case len(r.Bindings) == 1 && r.EarlierBindings == 0:
		b.WriteString(" " + bindingText(doc, r.Bindings[0]))
	default:
		b.WriteString(": one of these bindings, depending on the branches taken:")
		for _, bd := range r.Bindings {
			b.WriteString("\n- " + bindingText(doc, bd))
		}
		if n := r.EarlierBindings; n > 0 {
			fmt.Fprintf(&b, "\n- or one of %d earlier bindings.", n)
		}
	}
	if r.Attr != nil && r.Tag != nil && !Structural[r.Tag.Name] {
		// What it holds depends on the run: say so rather than guess.
		fmt.Fprintf(&b, "\n\nIts value is known only when the workflow runs: the engine evaluates `%s={…}` when execution reaches `<%s>`, "+
			"and validates the result against the prop's schema there. baton checks that the expression parses and that its names are bound.",
			r.Attr.Name, r.Tag.Name)
	}
	return b.String()
}

// bindingText says where and under which gate a binding is made.
func bindingText(doc *markdown.Document, b *Binding) string {
	line := doc.Lines.LineOf(b.Span.Start) + 1
	var s string
	switch {
	case b.Kind == BindEval:
		s = fmt.Sprintf("is declared in the eval block on line %d", line)
	case b.Kind == BindExec:
		s = fmt.Sprintf("is the result of the executable block on line %d (`as=\"%s\"`)", line, b.Name)
	case b.Kind == BindEachLet:
		s = fmt.Sprintf("is bound by `<Each let>` on line %d, inside the loop only", line)
	case b.Tag != nil:
		s = fmt.Sprintf("is bound on line %d by `<%s as>`", line, b.Tag.Name)
	default:
		s = fmt.Sprintf("is bound on line %d", line)
	}
	if g := b.Gate; g != nil {
		cp := "a checkpoint"
		if g.Checkpoint != nil && g.Checkpoint.Name != "" {
			cp = "the checkpoint `" + g.Checkpoint.Name + "`"
		}
		branch := "the `<If>`"
		if g.Else {
			branch = "the `<Else>` of the `<If>`"
		}
		s += fmt.Sprintf(", gated by %s (%s on line %d)", cp, branch, doc.Lines.LineOf(g.If.Span.Start)+1)
	} else if n := len(b.Guards); n > 0 {
		s += fmt.Sprintf(", under the `<If>` on line %d", doc.Lines.LineOf(b.Guards[n-1].If.Span.Start)+1)
	}
	return s + "."
}

// Definition goes from a component tag to its file, from a name read to
// where it is bound, and from props.x to the prop's declaration.
func Definition(res *analysis.Result, off int) []analysis.Location {
	model := ModelOf(res)
	if model == nil {
		return nil
	}
	if t := tagAt(model, off); t != nil {
		r := model.Resolution(t)
		if r.Path != "" && (r.Kind == ResolveFile || r.Kind == ResolveBundle) {
			return []analysis.Location{{Path: r.Path}}
		}
		return nil
	}
	if r := referenceAt(model, off); r != nil {
		if r.Prop != nil {
			return []analysis.Location{{Span: r.Prop.Span}}
		}
		var out []analysis.Location
		for _, b := range r.Bindings {
			out = append(out, analysis.Location{Span: b.Span})
		}
		return out
	}
	if b := bindingAt(model, off); b != nil {
		return []analysis.Location{{Span: b.Span}}
	}
	return nil
}

// Complete offers component names after "<" and the props of the
// component an open tag invokes, as the resolver answers its name; nil
// when off is in neither.
func Complete(res *analysis.Result, off int) *analysis.Completion {
	model := ModelOf(res)
	if model == nil {
		return nil
	}
	text := res.Doc.Text
	edit := func(from int, newText string) analysis.Edit {
		return analysis.Edit{Span: markdown.Span{Start: from, End: off}, NewText: newText}
	}
	lt, ok := openTagStart(text, off)
	if !ok {
		return nil
	}
	nameEnd := lt + 1
	for nameEnd < off && isNameByte(text[nameEnd]) {
		nameEnd++
	}
	if nameEnd == off { // typing the name
		typed := text[lt+1 : off]
		if typed != "" && !(typed[0] >= 'A' && typed[0] <= 'Z') {
			return nil
		}
		out := &analysis.Completion{}
		for _, c := range model.componentNames() {
			out.Items = append(out.Items, analysis.CompletionItem{
				Label: c.name, Kind: analysis.CompleteClass, Detail: c.detail,
				SortText: fmt.Sprintf("%d%s", c.rank, c.name),
				Edit:     edit(lt+1, c.name),
			})
		}
		return out
	}
	name := text[lt+1 : nameEnd]
	if name == "" || !(name[0] >= 'A' && name[0] <= 'Z') {
		return nil
	}
	// The prop being typed: an identifier right after white space.
	from := off
	for from > nameEnd && isNameByte(text[from-1]) && text[from-1] != '.' {
		from--
	}
	if from == nameEnd || !isSpaceByte(text[from-1]) {
		return nil
	}
	out := &analysis.Completion{}
	c := model.component(name)
	if c == nil {
		return out
	}
	written := map[string]bool{}
	for _, a := range attrNames(text[nameEnd:off]) {
		written[a] = true
	}
	for i, p := range sortedProps(c.Props.List) {
		if written[p.Name] {
			continue
		}
		detail := nonEmptyOr(p.Schema, "any")
		if p.Required {
			detail += " (required)"
		}
		out.Items = append(out.Items, analysis.CompletionItem{
			Label: p.Name, Kind: analysis.CompleteProperty, Detail: detail,
			SortText: fmt.Sprintf("%03d", i),
			Edit:     edit(from, p.Name+"="),
		})
	}
	// A registered component's captures are props too, after its schema's.
	if rc := RegisteredComponents()[name]; rc != nil && rc.Component() == c {
		for i, p := range rc.Captures {
			if written[p] {
				continue
			}
			detail := "captured: handed over unevaluated"
			if slices.Contains(rc.Requires, p) {
				detail += " (required)"
			}
			out.Items = append(out.Items, analysis.CompletionItem{
				Label: p, Kind: analysis.CompleteProperty, Detail: detail,
				SortText: fmt.Sprintf("%03d", len(c.Props.List)+i),
				Edit:     edit(from, p+"="),
			})
		}
	}
	return out
}

// component is the parsed component a tag named name invokes, as the
// resolver answers the name: for one the engine registers, its props as
// registered (nil for a .ts component or a name a host registers).
func (m *Model) component(name string) *Component {
	if m.r == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	res := m.r.resolve(name)
	if rc := registeredOf(*res, name); rc != nil {
		return rc.Component()
	}
	return res.Component
}

type componentName struct {
	name, detail string
	rank         int
}

// componentNames are the names a tag may use: the bundle's entries, the
// component files of the search folders, structural and registered names.
func (m *Model) componentNames() []componentName {
	seen := map[string]bool{}
	var out []componentName
	add := func(name, detail string, rank int) {
		if name == "" || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, componentName{name, detail, rank})
	}
	if m.r != nil {
		m.mu.Lock()
		for _, e := range m.r.bundleDeclared() {
			add(e.Name, "workflow bundle: "+e.Path, 0)
		}
		files := m.r.componentFiles()
		m.mu.Unlock()
		for _, f := range files {
			add(f.name, "component file: "+f.path, 1)
		}
	}
	for _, set := range []struct {
		names  map[string]bool
		detail string
		rank   int
	}{
		{Structural, "structural", 2},
		{Registered, "registered component", 3},
		{HostRegistered, "registered by the workflow host", 4},
	} {
		names := make([]string, 0, len(set.names))
		for n := range set.names {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			add(n, set.detail, set.rank)
		}
	}
	return out
}

// bundleDeclared are the entries, as written, of the workflow bundle that
// applies to the document.
func (r *resolver) bundleDeclared() []*BundleEntry {
	switch {
	case r.bundle == nil:
		return nil
	case len(r.self.Bundle) > 0:
		return r.self.Bundle
	}
	if c := r.read(r.bundle.RootPath); c != nil {
		return c.Bundle
	}
	return nil
}

type componentFile struct{ name, path string }

// Limits of the walk for component files.
const (
	componentWalkDepth = 4
	componentWalkFiles = 500
)

// componentFiles walks the workspace (boundedly) for the files a tag
// would resolve to from a search folder: N.md (with front matter) or N.ts,
// N/index.md or N/index.ts, N.M for N/M.md. The walk is in lexical order,
// which puts N.md, N.ts, N/index.md and N/index.ts in the engine's order.
func (r *resolver) componentFiles() []componentFile {
	if r.fsys == nil {
		return nil
	}
	var out []componentFile
	files := 0
	_ = fs.WalkDir(r.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && !slices.Contains(r.search, p) && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || strings.Count(p, "/") >= componentWalkDepth) {
				return fs.SkipDir
			}
			return nil
		}
		md := strings.HasSuffix(p, ".md")
		if !md && !strings.HasSuffix(p, ".ts") || p == r.docPath {
			return nil
		}
		if files++; files > componentWalkFiles {
			return fs.SkipAll
		}
		name := componentNameOf(p, r.search)
		if name == "" || md && !hasFrontMatter(r.fsys, p) {
			return nil
		}
		out = append(out, componentFile{name, p})
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// componentNameOf is the tag name that resolves to the file at p from one
// of the search folders, or "": the first folder that holds it names it.
func componentNameOf(p string, search []string) string {
	for _, dir := range search {
		rest := p
		if dir != "." {
			var ok bool
			if rest, ok = strings.CutPrefix(p, dir+"/"); !ok {
				continue
			}
		}
		segs := strings.Split(rest[:len(rest)-len(".md")], "/")
		if len(segs) > 1 && segs[len(segs)-1] == "index" {
			segs = segs[:len(segs)-1]
		}
		if name := strings.Join(segs, "."); validComponentName(name) {
			return name
		}
	}
	return ""
}

func validComponentName(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

func hasFrontMatter(fsys fs.FS, p string) bool {
	f, _, err := safefile.OpenFS(fsys, p) // a regular file only: a named pipe would block
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 4)
	n, _ := f.Read(buf)
	return strings.HasPrefix(string(buf[:n]), "---")
}

func isNameByte(c byte) bool {
	return c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// openTagStart finds the "<" of the opening tag the cursor is in: looking
// back (at most 4 KiB) for a "<" that no ">" follows, outside quoted and
// braced attribute values.
func openTagStart(text string, off int) (int, bool) {
	lo := max(0, off-4096)
	lt := -1
	for i := off - 1; i >= lo; i-- {
		if text[i] == '>' {
			return 0, false
		}
		if text[i] == '<' {
			lt = i
			break
		}
	}
	if lt < 0 || lt+1 < len(text) && text[lt+1] == '/' {
		return 0, false
	}
	// The cursor must not be inside a quoted or braced value.
	var v valueScan
	for i := lt + 1; i < off; i++ {
		v.step(text[i])
	}
	return lt, v.quote == 0 && v.depth == 0
}

// valueScan follows an open tag's text byte by byte, tracking quoted and
// braced attribute values.
type valueScan struct {
	quote byte // the open quote, or 0
	depth int  // braces open
}

// step reads c and reports whether it is an ordinary byte outside any
// value (not a quote or brace, nor inside one).
func (v *valueScan) step(c byte) bool {
	switch {
	case v.quote != 0:
		if c == v.quote {
			v.quote = 0
		}
	case c == '"' || c == '\'' || c == '`':
		v.quote = c
	case c == '{':
		v.depth++
	case c == '}':
		if v.depth > 0 {
			v.depth--
		}
	default:
		return v.depth == 0
	}
	return false
}

// attrNames are the attribute names written in an open tag's text after
// its name.
func attrNames(s string) []string {
	var out []string
	var v valueScan
	for i := 0; i < len(s); i++ {
		if c := s[i]; v.step(c) && isNameByte(c) && (i == 0 || isSpaceByte(s[i-1])) {
			j := i
			for j < len(s) && (isNameByte(s[j]) || s[j] == '-') {
				j++
			}
			out = append(out, s[i:j])
			i = j - 1
		}
	}
	return out
}

// Symbols outline a workflow: checkpoints, stages (tags that resolve to a
// file or a bundle entry) and the other bindings, nested by tag
// containment; nil when it has none.
func Symbols(res *analysis.Result) []analysis.Symbol {
	model := ModelOf(res)
	if model == nil {
		return nil
	}
	doc := res.Doc
	type node struct {
		sym  analysis.Symbol
		kids []*node
	}
	byTag := map[*Tag]*node{}
	var roots []*node
	parentOf := func(t *Tag) *node {
		for ; t != nil; t = t.Parent {
			if n := byTag[t]; n != nil {
				return n
			}
		}
		return nil
	}
	attach := func(n *node, parent *Tag) {
		if p := parentOf(parent); p != nil {
			p.kids = append(p.kids, n)
		} else {
			roots = append(roots, n)
		}
	}
	cps := map[*Tag]*Checkpoint{}
	for _, cp := range model.Checkpoints {
		cps[cp.Tag] = cp
	}
	bound := map[*Binding]bool{}
	for _, t := range model.Tags { // document order: parents before children
		var sym analysis.Symbol
		if cp := cps[t]; cp != nil {
			name := cp.Name
			if name == "" {
				name = t.Name
			}
			sym = analysis.Symbol{Name: name, Detail: "checkpoint <" + t.Name + ">", Kind: analysis.SymbolEvent}
			if cp.Binding != nil {
				bound[cp.Binding] = true
			}
		} else if r := model.Resolution(t); r.Kind == ResolveFile || r.Kind == ResolveBundle {
			sym = analysis.Symbol{Name: t.Name, Detail: r.Path, Kind: analysis.SymbolFunction}
		} else {
			continue
		}
		sym.Span = doc.Trimmed(t.Span)
		sym.Selection = t.NameSpan
		n := &node{sym: sym}
		attach(n, t.Parent)
		byTag[t] = n
	}
	for _, b := range model.Bindings {
		if bound[b] {
			continue
		}
		detail := "binding"
		var parent *Tag
		switch {
		case b.Tag != nil:
			detail = "bound by <" + b.Tag.Name + ">"
			parent = b.Tag
		case b.Block != nil:
			detail = "eval block"
			parent = b.Block.Parent
		}
		attach(&node{sym: analysis.Symbol{Name: b.Name, Detail: detail, Kind: analysis.SymbolVariable,
			Span: b.Span, Selection: b.Span}}, parent)
	}
	var build func(ns []*node) []analysis.Symbol
	build = func(ns []*node) []analysis.Symbol {
		var out []analysis.Symbol
		for _, n := range ns {
			n.sym.Children = build(n.kids)
			out = append(out, n.sym)
		}
		return out
	}
	return build(roots)
}
