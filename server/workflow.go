package server

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/internal/workspace"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Workflow documents (Executable Markdown) get hover, go-to-definition,
// completion and an outline from the workflow analyzer's Model: every
// span in it is a byte offset into the document.

// workflowModel is the workflow analyzer's model of a snapshot, or nil.
func workflowModel(snap *snapshot) *workflow.Model {
	if snap == nil || snap.res == nil {
		return nil
	}
	m, _ := snap.res.Model(workflow.Analyzer).(*workflow.Model)
	return m
}

// within reports off inside s, its end included (the cursor just after a
// name is on it).
func within(s analysis.Span, off int) bool {
	return off >= s.Start && off <= s.End && s.End > s.Start
}

// tagAt is the tag whose name (opening or closing) holds off.
func tagAt(model *workflow.Model, off int) *workflow.Tag {
	for _, t := range model.Tags {
		if within(t.NameSpan, off) || within(t.CloseName, off) {
			return t
		}
	}
	return nil
}

// referenceAt is the name read at off.
func referenceAt(model *workflow.Model, off int) *workflow.Reference {
	for _, r := range model.References {
		if within(r.Span, off) {
			return r
		}
	}
	return nil
}

// bindingAt is the binding whose name, as written, holds off.
func bindingAt(model *workflow.Model, off int) *workflow.Binding {
	for _, b := range model.Bindings {
		if within(b.Span, off) {
			return b
		}
	}
	return nil
}

func checkpointOf(model *workflow.Model, t *workflow.Tag) *workflow.Checkpoint {
	for _, cp := range model.Checkpoints {
		if cp.Tag == t {
			return cp
		}
	}
	return nil
}

// workflowHover explains the tag name or the binding under the cursor.
func workflowHover(snap *snapshot, off int) (string, *analysis.Span) {
	model := workflowModel(snap)
	if model == nil {
		return "", nil
	}
	doc := snap.res.Doc
	if t := tagAt(model, off); t != nil {
		sp := t.NameSpan
		if within(t.CloseName, off) {
			sp = t.CloseName
		}
		return tagHover(doc, model, t), &sp
	}
	if r := referenceAt(model, off); r != nil {
		sp := r.Span
		return referenceHover(doc, r), &sp
	}
	if b := bindingAt(model, off); b != nil {
		sp := b.Span
		return "**" + b.Name + "** " + bindingText(doc, b), &sp
	}
	return "", nil
}

func tagHover(doc *analysis.Document, model *workflow.Model, t *workflow.Tag) string {
	res := model.Resolutions[t]
	var b strings.Builder
	fmt.Fprintf(&b, "**<%s>**: ", t.Name)
	switch res.Kind {
	case workflow.ResolveStructural:
		b.WriteString("structural syntax of the workflow language.")
	case workflow.ResolveRegistered:
		if res.Host {
			b.WriteString("a registered component (registered only by the workflow host, `xmd workflow start`).")
		} else {
			b.WriteString("a registered component.")
		}
	case workflow.ResolveFile:
		fmt.Fprintf(&b, "a component file, `%s`.", res.Path)
		if res.OutsideBundle {
			b.WriteString(" A workflow bundle applies, so a workflow run does not find it.")
		}
	case workflow.ResolveBundle:
		fmt.Fprintf(&b, "an entry of the workflow bundle, `%s`", res.Path)
		if model.BundleRoot != "" {
			fmt.Fprintf(&b, " (declared by `%s`)", model.BundleRoot)
		}
		b.WriteString(".")
	case workflow.ResolveUnresolved:
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

// componentSummary lists a component's props and returns.
func componentSummary(c *workflow.Component) string {
	var b strings.Builder
	switch c.Props.Form {
	case workflow.PropsNone:
		b.WriteString("Accepts no props.")
	case workflow.PropsInvalid:
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
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, escapeCell(nonEmptyOr(p.Schema, "any")), req)
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
func sortedProps(list []*workflow.Prop) []*workflow.Prop {
	out := append([]*workflow.Prop(nil), list...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Required && !out[j].Required })
	return out
}

func referenceHover(doc *analysis.Document, r *workflow.Reference) string {
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
	return b.String()
}

// bindingText says where and under which gate a binding is made.
func bindingText(doc *analysis.Document, b *workflow.Binding) string {
	line := doc.Lines.LineOf(b.Span.Start) + 1
	var s string
	switch {
	case b.Kind == workflow.BindEval:
		s = fmt.Sprintf("is declared in the eval block on line %d", line)
	case b.Kind == workflow.BindExec:
		s = fmt.Sprintf("is the result of the executable block on line %d (`as=\"%s\"`)", line, b.Name)
	case b.Kind == workflow.BindEachLet:
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

// definition goes from a component tag to its file, from a name read to
// where it is bound, and from props.x to the prop's declaration.
func (s *Server) definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	out := protocol.LocationSlice{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	model := workflowModel(snap)
	if model == nil {
		return out, nil
	}
	m := mapper{snap.res.Doc.Lines, snap.enc}
	off := m.offset(p.Position)
	here := func(sp analysis.Span) protocol.Location {
		return protocol.Location{URI: p.TextDocument.URI, Range: m.rangeOf(sp)}
	}
	if t := tagAt(model, off); t != nil {
		res := model.Resolutions[t]
		if res.Path != "" && (res.Kind == workflow.ResolveFile || res.Kind == workflow.ResolveBundle) && isFileURI(p.TextDocument.URI) {
			root := workspace.Root(p.TextDocument.URI.FsPath())
			out = append(out, protocol.Location{URI: uri.File(filepath.Join(root, filepath.FromSlash(res.Path)))})
		}
		return out, nil
	}
	if r := referenceAt(model, off); r != nil {
		if r.Prop != nil {
			return append(out, here(r.Prop.Span)), nil
		}
		for _, b := range r.Bindings {
			out = append(out, here(b.Span))
		}
		return out, nil
	}
	if b := bindingAt(model, off); b != nil {
		out = append(out, here(b.Span))
	}
	return out, nil
}

func isFileURI(u uri.URI) bool { return len(u) > 7 && string(u[:7]) == "file://" }

// workflowCompletion offers component names after "<" and the props of
// the component an open tag invokes; nil when the cursor is in neither.
func (s *Server) workflowCompletion(snap *snapshot, off int) protocol.CompletionItemSlice {
	model := workflowModel(snap)
	if model == nil {
		return nil
	}
	doc := snap.res.Doc
	text := doc.Text
	m := mapper{doc.Lines, snap.enc}
	edit := func(from int, newText string) protocol.CompletionItemTextEdit {
		return &protocol.TextEdit{Range: protocol.Range{Start: m.position(from), End: m.position(off)}, NewText: newText}
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
		items := protocol.CompletionItemSlice{}
		for _, c := range s.componentNames(snap, model) {
			items = append(items, protocol.CompletionItem{
				Label: c.name, Kind: protocol.CompletionItemKindClass,
				Detail:   protocol.NewOptional(c.detail),
				SortText: protocol.NewOptional(fmt.Sprintf("%d%s", c.rank, c.name)),
				TextEdit: edit(lt+1, c.name),
			})
		}
		return items
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
	c := s.componentFor(snap, model, name, lt)
	if c == nil {
		return protocol.CompletionItemSlice{}
	}
	written := map[string]bool{}
	for _, a := range attrNames(text[nameEnd:off]) {
		written[a] = true
	}
	items := protocol.CompletionItemSlice{}
	for i, p := range sortedProps(c.Props.List) {
		if written[p.Name] {
			continue
		}
		detail := nonEmptyOr(p.Schema, "any")
		if p.Required {
			detail += " (required)"
		}
		items = append(items, protocol.CompletionItem{
			Label: p.Name, Kind: protocol.CompletionItemKindProperty,
			Detail:   protocol.NewOptional(detail),
			SortText: protocol.NewOptional(fmt.Sprintf("%03d", i)),
			TextEdit: edit(from, p.Name+"="),
		})
	}
	return items
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

type componentName struct {
	name, detail string
	rank         int
}

// componentNames are the names a tag may use: structural, registered,
// the bundle's entries and the component files the document resolves.
func (s *Server) componentNames(snap *snapshot, model *workflow.Model) []componentName {
	seen := map[string]bool{}
	var out []componentName
	add := func(name, detail string, rank int) {
		if name == "" || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, componentName{name, detail, rank})
	}
	fsys, docPath, dirs := s.workflowFS(snap.uri)
	if model.Component != nil {
		for _, e := range model.Component.Bundle {
			add(e.Name, "workflow bundle: "+e.Path, 0)
		}
	}
	if model.BundleRoot != "" && fsys != nil && model.BundleRoot != docPath {
		if data, err := fs.ReadFile(fsys, model.BundleRoot); err == nil {
			for _, e := range workflow.Parse(string(data)).Bundle {
				add(e.Name, "workflow bundle: "+e.Path, 0)
			}
		}
	}
	if fsys != nil {
		for _, f := range componentFiles(fsys, docPath, dirs) {
			add(f.name, "component file: "+f.path, 1)
		}
	}
	for _, set := range []struct {
		names  map[string]bool
		detail string
		rank   int
	}{
		{workflow.Structural, "structural", 2},
		{workflow.Registered, "registered component", 3},
		{workflow.HostRegistered, "registered by the workflow host", 4},
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

// workflowFS is the workspace view the analyzer resolved against, with
// the configured component folders (nil: the engine's defaults).
func (s *Server) workflowFS(u uri.URI) (fs.FS, string, []string) {
	env, _, _ := s.envFor(u)
	fsys, _ := env[workflow.EnvFS].(fs.FS)
	docPath, _ := env[workflow.EnvPath].(string)
	dirs, _ := env[workflow.EnvComponentDirs].([]string)
	return fsys, docPath, dirs
}

type componentFile struct{ name, path string }

// Limits of the walk for component files.
const (
	componentWalkDepth = 4
	componentWalkFiles = 500
)

// componentFiles walks fsys (boundedly) for Markdown files with front
// matter that a tag in the document at docPath would resolve to: N.md or
// N/index.md (N.M for N/M.md) in a search folder (workflow.SearchDirs).
func componentFiles(fsys fs.FS, docPath string, dirs []string) []componentFile {
	search := workflow.SearchDirs(docPath, dirs)
	var out []componentFile
	files := 0
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && !slices.Contains(search, p) && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || strings.Count(p, "/") >= componentWalkDepth) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".md") || p == docPath {
			return nil
		}
		if files++; files > componentWalkFiles {
			return fs.SkipAll
		}
		name := componentNameOf(p, search)
		if name == "" || !hasFrontMatter(fsys, p) {
			return nil
		}
		out = append(out, componentFile{name, p})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
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
		segs := strings.Split(strings.TrimSuffix(rest, ".md"), "/")
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
	f, err := fsys.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 4)
	n, _ := f.Read(buf)
	return strings.HasPrefix(string(buf[:n]), "---")
}

// componentFor is the parsed component a tag named name invokes: from the
// analysis when a tag of that name resolved, else read from the
// workspace by the same search order (Markdown files only).
func (s *Server) componentFor(snap *snapshot, model *workflow.Model, name string, at int) *workflow.Component {
	for _, t := range model.Tags {
		if t.Name == name {
			if res, ok := model.Resolutions[t]; ok && res.Component != nil {
				return res.Component
			}
		}
	}
	fsys, docPath, dirs := s.workflowFS(snap.uri)
	if fsys == nil {
		return nil
	}
	n := strings.ReplaceAll(name, ".", "/")
	for _, dir := range workflow.SearchDirs(docPath, dirs) {
		for _, c := range []string{path.Join(dir, n+".md"), path.Join(dir, n, "index.md")} {
			if data, err := fs.ReadFile(fsys, c); err == nil {
				return workflow.Parse(string(data))
			}
		}
	}
	return nil
}

// workflowSymbols outlines a workflow: checkpoints, stages (tags that
// resolve to a file or a bundle entry) and the other bindings, nested by
// tag containment.
func workflowSymbols(doc *analysis.Document, m mapper, model *workflow.Model) protocol.DocumentSymbolSlice {
	type node struct {
		sym  protocol.DocumentSymbol
		kids []*node
	}
	byTag := map[*workflow.Tag]*node{}
	var roots []*node
	parentOf := func(t *workflow.Tag) *node {
		for ; t != nil; t = t.Parent {
			if n := byTag[t]; n != nil {
				return n
			}
		}
		return nil
	}
	attach := func(n *node, parent *workflow.Tag) {
		if p := parentOf(parent); p != nil {
			p.kids = append(p.kids, n)
		} else {
			roots = append(roots, n)
		}
	}
	cps := map[*workflow.Tag]*workflow.Checkpoint{}
	for _, cp := range model.Checkpoints {
		cps[cp.Tag] = cp
	}
	bound := map[*workflow.Binding]bool{}
	for _, t := range model.Tags { // document order: parents before children
		var sym protocol.DocumentSymbol
		if cp := cps[t]; cp != nil {
			name := cp.Name
			if name == "" {
				name = t.Name
			}
			detail := "checkpoint <" + t.Name + ">"
			sym = protocol.DocumentSymbol{Name: name, Detail: &detail, Kind: protocol.SymbolKindEvent}
			if cp.Binding != nil {
				bound[cp.Binding] = true
			}
		} else if res := model.Resolutions[t]; res.Kind == workflow.ResolveFile || res.Kind == workflow.ResolveBundle {
			detail := res.Path
			sym = protocol.DocumentSymbol{Name: t.Name, Detail: &detail, Kind: protocol.SymbolKindFunction}
		} else {
			continue
		}
		sym.Range = m.rangeOf(trimmed(doc, t.Span))
		sym.SelectionRange = m.rangeOf(t.NameSpan)
		n := &node{sym: sym}
		attach(n, t.Parent)
		byTag[t] = n
	}
	for _, b := range model.Bindings {
		if bound[b] {
			continue
		}
		detail := "binding"
		var parent *workflow.Tag
		rng := b.Span
		switch {
		case b.Tag != nil:
			detail = "bound by <" + b.Tag.Name + ">"
			parent = b.Tag
		case b.Block != nil:
			detail = "eval block"
			parent = b.Block.Parent
		}
		n := &node{sym: protocol.DocumentSymbol{Name: b.Name, Detail: &detail, Kind: protocol.SymbolKindVariable,
			Range: m.rangeOf(rng), SelectionRange: m.rangeOf(b.Span)}}
		attach(n, parent)
	}
	var build func(ns []*node) []protocol.DocumentSymbol
	build = func(ns []*node) []protocol.DocumentSymbol {
		var out []protocol.DocumentSymbol
		for _, n := range ns {
			n.sym.Children = build(n.kids)
			out = append(out, n.sym)
		}
		return out
	}
	return protocol.DocumentSymbolSlice(build(roots))
}
