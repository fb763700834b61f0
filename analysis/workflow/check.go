package workflow

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// checker walks one document's body in execution order.
type checker struct {
	pass *analysis.Pass
	doc  *markdown.Document
	m    *Model
	c    *Component
	r    *resolver

	scopes  []scope                // innermost last: the body, <Each>es, component content
	guards  []Guard                // the <If> branches around the walk's position
	cps     map[string]*Checkpoint // the latest checkpoint bound to each name; made on the first
	pending []*Reference           // unbound names, reported after the walk
	// tags holds, by Tag.Index, what the walk learnt of each tag: cheaper
	// than maps keyed by *Tag, of which a document would need several.
	tags   []tagInfo
	byName map[string][]*Binding // every binding, by name, after the walk (when a name is unbound)
	cd     conds
	expr   exprScratch

	refSlab    slab[Reference]
	bindSlab   slab[Binding]
	cpSlab     slab[Checkpoint]
	gateSlab   slab[Gate]
	firstBinds runs[*Binding]
	guardRuns  runs[Guard] // the bindings' Guards
	// nextBuilt: tagInfo.next is set for every checkpoint (nextSame)
	nextBuilt bool
	// bindsPropsMeta: a binding named props or meta was made
	bindsPropsMeta bool
	outputs        []markdown.Span // the top-level <Output> regions
	nl             string          // the document's line break, once known
	// returnsRefused: the engine refuses the front matter, so no return
	// value is ever validated against its returns.
	returnsRefused bool
	// exprErr is what the parser said of each expression asked about
	// (expressionError), "" when it parses.
	exprErr map[*Attr]string
}

type scope struct {
	tag   *Tag
	names map[string][]*Binding // made on the first binding
}

type tagInfo struct {
	gate ifGate      // for an <If>
	cp   *Checkpoint // the checkpoint the tag invokes, or nil
	// res is what the walk stored in Model.Resolutions for the tag, or nil
	// when unvisited (see resOf): the checks read it here rather than
	// hashing the tag again for each of them.
	res *Resolution
	// next is, for the tag of a checkpoint, the next checkpoint bound to
	// the same name after it, or nil (see nextSame).
	next *Checkpoint
}

// ifGate is what an <If>'s condition says about checkpoints: its
// then-branch runs only when then.proceed, its <Else> only when
// els.proceed.
type ifGate struct{ then, els *Checkpoint }

func run(pass *analysis.Pass) *Model {
	doc := pass.Doc
	c := parseDoc(doc)
	r := resolverIn(pass.Env, c)
	m := &Model{Component: c, Tags: c.Tags, resolved: make([]*Resolution, len(c.Tags)), r: r}
	if r.bundle != nil {
		m.BundleRoot = r.bundle.RootPath
	}
	k := &checker{pass: pass, doc: doc, m: m, c: c, r: r, tags: make([]tagInfo, len(c.Tags))}
	for _, n := range c.Body {
		if t, ok := n.(*Tag); ok && t.Name == "Output" {
			k.outputs = append(k.outputs, t.Span)
		}
	}
	k.scopes = append(make([]scope, 0, 4), scope{})
	// A reference is read from a placeholder or, mostly one each, from an
	// expression: sized for that rather than grown an append at a time.
	n := len(c.Placeholders)
	for _, t := range c.Tags {
		for _, a := range t.Attrs {
			if a.Kind == AttrExpr {
				n++
			}
		}
	}
	if n > 0 {
		m.References = make([]*Reference, 0, n)
		k.refSlab.reserve(min(n, maxChunk))
	}
	k.expr.take()
	k.walk(c.Body)
	k.expr.release()
	if len(m.References) == 0 {
		m.References = nil // as when appended to
	}
	k.reportPending()
	k.checkSyntax()
	k.checkFrontMatter()
	k.checkStructure()
	k.checkInvocations()
	k.checkRegistered()
	k.checkDirectives()
	k.checkHostComponents()
	k.checkSlots()
	k.checkCycles()
	k.checkTests()
	k.checkTestForms()
	k.checkExecutions()
	k.checkRootProps()
	k.checkTestAgents()
	k.checkElicitations()
	k.checkExpressions()
	k.checkEvalBlocks()
	k.checkLiveBindings()
	k.checkCredentials()
	k.checkTSComponents()
	k.checkCheckpoints()
	return m
}

func (k *checker) report(r *analysis.Rule, span markdown.Span, msg string, opts ...func(*analysis.Finding)) {
	if r == RuleReturnsDeclaration || r == RuleFrontMatterJSON || r == RuleSyntax {
		k.returnsRefused = true
	}
	k.pass.Report(r, span, msg, opts...)
}

func (k *checker) line(off int) int { return k.doc.Lines.LineOf(off) + 1 }

// --- the walk ---

func (k *checker) walk(nodes []Node) {
	for _, n := range nodes {
		k.walkNode(n)
	}
}

func (k *checker) walkNode(n Node) {
	switch n := n.(type) {
	case *Placeholder:
		k.refText(n)
	case *CodeBlock:
		if n.Eval {
			k.bindEval(n)
		}
		if n.As != "" {
			// The block's result, for what follows it; its own
			// placeholders are read before it runs (see refText).
			k.bind(n.As, n.AsSpan, BindExec, nil, n)
		}
	case *Tag:
		k.visit(n)
	}
}

func (k *checker) visit(t *Tag) {
	rp := k.r.resolve(t.Name)
	k.m.resolved[t.Index] = rp
	k.tags[t.Index].res = rp
	for _, a := range t.Attrs {
		// A spread is never evaluated: the engine's scanner drops it.
		if a.Kind == AttrExpr {
			for _, ref := range k.expr.freeRefs(a.Value, a.ValueSpan.Start) {
				k.refExpr(ref, t, a)
			}
		}
	}
	// The testing harness publishes an <Execution>'s outcome before its
	// assertion body expands (packages/testing/src/execution-harness.ts,
	// runNestedExecution: binding.publish), so its own body reads it.
	var b *Binding
	early := t.Name == "Execution" && rp.Kind == ResolveRegistered && !rp.Configured
	if a := t.Attr("as"); early && a != nil {
		if name, span, ok := bindingName(t, a); ok && name != "" {
			b = k.bind(name, span, BindAs, t, nil)
		}
	}
	switch t.Name {
	case "If":
		k.tags[t.Index].gate = k.gateOf(t)
		for _, ch := range t.Children {
			if e, ok := ch.(*Tag); ok && e.Name == "Else" {
				rp := k.r.resolve("Else")
				k.m.resolved[e.Index] = rp
				k.tags[e.Index].res = rp
				k.guards = append(k.guards, Guard{If: t, Else: true})
				k.walk(e.Children)
			} else {
				k.guards = append(k.guards, Guard{If: t})
				k.walkNode(ch)
			}
			k.guards = k.guards[:len(k.guards)-1]
		}
	case "Each":
		k.scopes = append(k.scopes, scope{tag: t})
		if a := t.Attr("let"); a != nil {
			if name, span, ok := bindingName(t, a); ok && name != "" {
				k.bind(name, span, BindEachLet, t, nil)
			}
		}
		k.walk(t.Children)
		k.scopes = k.scopes[:len(k.scopes)-1]
	default:
		if (rp.Kind == ResolveFile || rp.Kind == ResolveBundle) && strings.HasSuffix(rp.Path, ".md") {
			// Bindings in a Markdown component's projected content stay there.
			k.scopes = append(k.scopes, scope{tag: t})
			k.walk(t.Children)
			k.scopes = k.scopes[:len(k.scopes)-1]
		} else {
			k.walk(t.Children)
		}
	}
	if a := t.Attr("as"); !early && a != nil {
		if name, span, ok := bindingName(t, a); ok && name != "" {
			b = k.bind(name, span, BindAs, t, nil)
		}
	}
	if cp := k.checkpointOf(t, rp); cp != nil {
		cp.Binding = b
		if b != nil {
			cp.Name = b.Name
			if k.cps == nil {
				k.cps = map[string]*Checkpoint{}
			}
			k.cps[b.Name] = cp
		}
		k.m.Checkpoints = append(k.m.Checkpoints, cp)
		k.tags[t.Index].cp = cp
	}
}

// resOf is Model.Resolution(t): the zero Resolution for a tag the walk
// did not visit. It points at the walk's answer, shared and never
// modified, rather than copying it for every tag of every check.
func (k *checker) resOf(t *Tag) *Resolution {
	if rp := k.tags[t.Index].res; rp != nil {
		return rp
	}
	return &noResolution
}

// noResolution is the answer for an unvisited tag; never modified.
var noResolution Resolution

// checkpointOf returns the checkpoint t invokes, or nil.
func (k *checker) checkpointOf(t *Tag, res *Resolution) *Checkpoint {
	byName := namedCheckpoint(t.Name)
	decision := res.Component != nil && res.Component.Returns != nil && res.Component.Returns.Proceed
	if !byName && !decision {
		return nil
	}
	cp := k.cpSlab.new(t.Span.Start, len(k.c.Text))
	*cp = Checkpoint{Tag: t, Decision: decision, Known: res.Component != nil}
	return cp
}

// namedCheckpoint: UserCheckpoint, or any name whose last segment ends in
// "Checkpoint".
func namedCheckpoint(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	return strings.HasSuffix(last, "Checkpoint")
}

// gateOf reads which checkpoints an <If>'s condition gates on.
func (k *checker) gateOf(t *Tag) ifGate {
	var g ifGate
	a := t.Attr("condition")
	if a == nil || a.Kind != AttrExpr {
		return g
	}
	// The checkpoints the condition names, looked up from its conjuncts
	// (not every checkpoint tried against it: a long workflow has
	// thousands).
	c := k.cd.get(a.Value)
	for _, x := range c.conj {
		name, ok := strings.CutSuffix(x, ".proceed")
		if cp := k.cps[name]; ok && cp != nil && (g.then == nil || cp.Tag.Span.Start > g.then.Tag.Span.Start) {
			g.then = cp
		}
	}
	if name, ok := strings.CutSuffix(c.neg, ".proceed"); c.negated && ok {
		if cp := k.cps[name]; cp != nil {
			g.els = cp
		}
	}
	return g
}

// requires reports whether cond holds only when cp.proceed does.
func (m *conds) requires(cond, cp string) bool {
	return slices.ContainsFunc(m.get(cond).conj, func(x string) bool { return isProceed(x, cp) })
}

// requiresNot reports whether cond is the negation of cp.proceed.
func (m *conds) requiresNot(cond, cp string) bool {
	c := m.get(cond)
	return c.negated && isProceed(c.neg, cp)
}

// isProceed reports whether x is cp+".proceed", without building it: asked
// for every pair of checkpoint and transition.
func isProceed(x, cp string) bool {
	const proceed = ".proceed"
	return len(x) == len(cp)+len(proceed) && strings.HasPrefix(x, cp) && strings.HasSuffix(x, proceed)
}

// conds memoizes what conditions say: they are read for every pair of
// checkpoint and transition.
type conds struct {
	m      map[string]*condInfo // made on the first condition read
	recent recent[*condInfo]    // in front of m
}

type condInfo struct {
	conj    []string // the normalized conjuncts
	norm    string   // the whole condition, normalized
	neg     string   // x, when the condition is !x
	negated bool
}

func (m *conds) get(cond string) *condInfo {
	if c, ok := m.recent.get(cond); ok {
		return c
	}
	c, ok := m.m[cond]
	if !ok {
		c = readCond(cond)
		if m.m == nil {
			m.m = map[string]*condInfo{}
		}
		m.m[cond] = c
	}
	m.recent.put(cond, c)
	return c
}

// condMemo holds what conditions said across documents: a condition's
// reading depends on its text alone, and the same few conditions
// (cp.proceed, !cp.proceed) recur in every workflow. A condInfo is never
// modified once made. Bounded: cleared when full; long conditions are not
// kept.
var condMemo struct {
	sync.Mutex
	m map[string]*condInfo
}

const (
	condMemoMax = 1024
	condMemoLen = 256
)

func readCond(cond string) *condInfo {
	if len(cond) <= condMemoLen {
		condMemo.Lock()
		c := condMemo.m[cond]
		condMemo.Unlock()
		if c != nil {
			return c
		}
	}
	c := &condInfo{conj: conjuncts(cond), norm: normalizeCond(cond)}
	if len(c.conj) == 1 {
		c.neg, c.negated = negated(c.conj[0])
	}
	if len(cond) <= condMemoLen {
		condMemo.Lock()
		if condMemo.m == nil || len(condMemo.m) >= condMemoMax {
			condMemo.m = map[string]*condInfo{}
		}
		condMemo.m[cond] = c
		condMemo.Unlock()
	}
	return c
}

func (k *checker) bind(name string, span markdown.Span, kind BindingKind, t *Tag, block *CodeBlock) *Binding {
	s := &k.scopes[len(k.scopes)-1] // for an <Each let>, the loop's own scope
	if name == "props" || name == "meta" {
		k.bindsPropsMeta = true
	}
	b := k.bindSlab.new(span.Start, len(k.c.Text))
	*b = Binding{Name: name, Span: span, Kind: kind, Tag: t, Block: block, Guards: k.guards[:0:0], Scope: s.tag}
	if len(k.guards) > 0 {
		b.Guards = k.guardRuns.take(k.guards)
	}
	for i := len(b.Guards) - 1; i >= 0; i-- {
		g := b.Guards[i]
		ig := k.tags[g.If.Index].gate
		if cp := ig.then; cp != nil && !g.Else {
			b.Gate = k.gateSlab.new(span.Start, len(k.c.Text))
			*b.Gate = Gate{Checkpoint: cp, If: g.If}
			break
		}
		if cp := ig.els; cp != nil && g.Else {
			b.Gate = k.gateSlab.new(span.Start, len(k.c.Text))
			*b.Gate = Gate{Checkpoint: cp, If: g.If, Else: true}
			break
		}
	}
	if s.names == nil {
		s.names = map[string][]*Binding{}
	}
	if bs := s.names[name]; bs != nil {
		s.names[name] = append(bs, b)
	} else {
		// Most names are bound once: their one-binding slices come from a
		// chunk rather than an allocation each.
		s.names[name] = k.firstBinds.take1(b)
	}
	k.m.Bindings = append(k.m.Bindings, b)
	return b
}

var (
	evalDecl    = lazyre.New(`(?:^|[^\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)`)
	evalDestr   = lazyre.New(`(?:^|[^\w$.])(?:const|let|var)\s*([{\[])`)
	evalFuncCls = lazyre.New(`(?:^|[^\w$.])(?:function\s*\*?|class)\s+([A-Za-z_$][\w$]*)`)
)

// decl is a name an eval block declares, at an offset in its code.
type decl struct {
	name string
	at   int
}

// bindEval binds what an eval block declares (anywhere in it: baton does
// not read JavaScript's block scopes, so it errs towards bound).
func (k *checker) bindEval(cb *CodeBlock) {
	code := k.c.Text[cb.Content.Start:cb.Content.End]
	var decls []decl
	for _, re := range []*lazyre.Regexp{evalDecl, evalFuncCls} {
		for _, m := range re.FindAllStringSubmatchIndex(code, -1) {
			decls = append(decls, decl{code[m[2]:m[3]], m[2]})
		}
	}
	for _, m := range evalDestr.FindAllStringSubmatchIndex(code, -1) {
		if end, ok := skipBrackets(code, m[2]); ok {
			decls = append(decls, destructured(code, m[2]+1, end-1)...)
		}
	}
	slices.SortFunc(decls, func(a, b decl) int { return a.at - b.at })
	for _, d := range decls {
		k.bind(d.name, markdown.Span{Start: cb.Content.Start + d.at, End: cb.Content.Start + d.at + len(d.name)}, BindEval, nil, cb)
	}
}

// skipBrackets returns the offset after the bracket matching code[i].
func skipBrackets(code string, i int) (int, bool) {
	depth := 0
	for _, t := range lex(code[i:]) {
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			depth--
			if depth == 0 {
				return i + t.end, true
			}
		}
	}
	return 0, false
}

// destructured returns the names a destructuring pattern code[start:end]
// binds, at any depth: not keys ("key: name" binds name), not default
// values, not members.
func destructured(code string, start, end int) []decl {
	var out []decl
	toks := lex(code[start:end])
	for i, t := range toks {
		if t.kind != tokIdent || keywords[t.text] {
			continue
		}
		var next, prev token
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		if i > 0 {
			prev = toks[i-1]
		}
		if next.text == ":" || prev.text == "=" || prev.text == "." || prev.text == "?." {
			continue
		}
		out = append(out, decl{t.text, start + t.start})
	}
	return out
}

// --- references ---

// lookup returns the bindings of name the reader here may see, innermost
// scope first: the latest binding certainly made on the way here (its
// branches implied by the ones we are in) and any after it; earlier ones are
// overwritten by it. A name rebound at every stage of a long workflow has
// thousands of bindings, of which a reader sees one.
//
// At most maxBindingsRead are returned, the latest; earlier says how many
// more there were. A reference reading one of hundreds of branch bindings
// is judged by the latest (a binding in both branches of one <If> further
// back than that is not seen): reading them all made a long workflow
// quadratic in time and memory.
func (k *checker) lookup(name string) (out []*Binding, earlier int) {
	for i := len(k.scopes) - 1; i >= 0; i-- {
		bs := k.scopes[i].names[name]
		from, certain, capped := 0, false, false
		for j := len(bs) - 1; j >= 0; j-- {
			if len(out)+len(bs)-j > maxBindingsRead {
				from, capped = j+1, true
				break
			}
			if k.cd.impliedAll(bs[j].Guards, k.guards) {
				from, certain = j, true
				break
			}
		}
		if len(out) == 0 && from < len(bs) {
			// Most names are read from one scope: share its bindings
			// rather than copy them. Capped at their length, so that a
			// later binding appended to the scope, or a further scope's
			// appended here, never writes into the other's.
			out = bs[from:len(bs):len(bs)]
		} else {
			out = append(out, bs[from:]...)
		}
		if capped {
			earlier = from
			for _, s := range k.scopes[:i] {
				earlier += len(s.names[name])
			}
			return out, earlier
		}
		if certain {
			return out, 0
		}
	}
	return out, 0
}

const maxBindingsRead = 64

// bound reports whether name has a binding in scope.
func (k *checker) bound(name string) bool {
	if (name == "props" || name == "meta") && !k.bindsPropsMeta {
		return false // asked of every props.x and meta.x, and almost never bound
	}
	bs, _ := k.lookup(name)
	return len(bs) > 0
}

func (k *checker) refText(p *Placeholder) {
	ref := k.refSlab.new(p.Span.Start, len(k.c.Text))
	*ref = Reference{Ref: Ref{Name: p.Path[0], Path: p.Path[1:], Span: p.PathSpan}, Placeholder: p}
	k.m.References = append(k.m.References, ref)
	if ref.Name == "props" && len(ref.Path) > 0 {
		ref.Prop = k.c.Props.Prop(ref.Path[0])
	}
	if p.InCode && p.Parent == nil && k.outsideOutput(p.Span.Start) {
		return // documentation prose: it never renders
	}
	switch ref.Name {
	case "props":
		k.refProps(ref)
		return
	case "meta":
		if p.Block != nil {
			// An executable block has no text pass (spec §6.4; the engine's
			// eval-interpolate.ts): only bindings are read there.
			if len(ref.Path) > 0 && !k.bound("meta") {
				k.report(RuleUnknownPlaceholder, p.Span, fmt.Sprintf("{meta.%s} is not interpolated in an executable block: meta is read only in text (spec §6.4), so the command receives it as written",
					strings.Join(ref.Path, ".")))
			}
			return
		}
		if len(ref.Path) > 0 && !k.bound("meta") && !k.hasMeta(ref.Path[0]) {
			k.report(RuleUnknownPlaceholder, p.Span, fmt.Sprintf("{meta.%s}: the front matter has no %q key, so this renders as empty text",
				strings.Join(ref.Path, "."), ref.Path[0]))
		}
		return
	}
	ref.Bindings, ref.EarlierBindings = k.lookup(ref.Name)
	if p.Block != nil && p.Block.As == ref.Name {
		ref.Bindings = slices.DeleteFunc(slices.Clone(ref.Bindings), func(b *Binding) bool { return b.Block == p.Block })
	}
	if p.InCode {
		return
	}
	if p.Block != nil && len(ref.Bindings) == 0 && p.Span.Start > 0 && k.c.Text[p.Span.Start-1] == '$' {
		// ${name} in a command is the shell's (or a template literal's)
		// own expansion: an unbound name is left verbatim for it.
		return
	}
	k.checkBound(ref)
}

// outsideOutput reports an offset in the documentation of a body that
// declares top-level <Output> regions: what is rendered there is discarded.
func (k *checker) outsideOutput(off int) bool {
	for _, o := range k.outputs {
		if o.Start <= off && off < o.End {
			return false
		}
	}
	return len(k.outputs) > 0
}

func (k *checker) hasMeta(key string) bool {
	for _, n := range k.c.Meta {
		if n.Name == key {
			return true
		}
	}
	return false
}

func (k *checker) refExpr(r Ref, t *Tag, a *Attr) {
	ref := k.refSlab.new(r.Span.Start, len(k.c.Text))
	*ref = Reference{Ref: r, Tag: t, Attr: a}
	k.m.References = append(k.m.References, ref)
	switch r.Name {
	case "props":
		k.refProps(ref)
		return
	case "meta", "env":
		return
	}
	ref.Bindings, ref.EarlierBindings = k.lookup(r.Name)
	k.checkBound(ref)
}

// refProps checks props.x against the declared props.
func (k *checker) refProps(ref *Reference) {
	if len(ref.Path) == 0 || k.bound("props") {
		return
	}
	name := ref.Path[0]
	p := &k.c.Props
	ref.Prop = p.Prop(name)
	if ref.Prop != nil {
		return
	}
	var why string
	switch {
	case p.Form == PropsNone:
		why = "the front matter declares no props"
	case p.Form == PropsMap || (p.Form == PropsSchema && !p.Open):
		why = fmt.Sprintf("the front matter does not declare %q", name)
	default:
		return
	}
	span := ref.Span
	effect := "it is undefined"
	if ref.Placeholder != nil {
		span = ref.Placeholder.Span
		effect = "it renders as empty text"
		if ref.Placeholder.Block != nil {
			// Read through the props binding (eval-interpolate.ts): an
			// undeclared key is `undefined`.
			effect = "the command receives no value for it (`undefined`, or the placeholder as written where no props are bound)"
		}
	}
	var opts []func(*analysis.Finding)
	if fix, ok := k.declarePropFix(name); ok {
		opts = append(opts, analysis.WithFix(fix))
	}
	k.report(RuleUndeclaredProp, span, fmt.Sprintf("props.%s: %s, so %s", name, why, effect), opts...)
}

// checkBound reports a name read where it may be unset; unbound names are
// reported after the walk.
func (k *checker) checkBound(ref *Reference) {
	if len(ref.Bindings) == 0 {
		k.pending = append(k.pending, ref)
		return
	}
	if k.cd.covered(ref.Bindings, k.guards) {
		return
	}
	// Name the guard the nearest binding is under, and its gate.
	b := ref.Bindings[0]
	for _, x := range ref.Bindings {
		if x.Span.Start > b.Span.Start {
			b = x
		}
	}
	var g Guard
	for _, x := range b.Guards {
		if !k.cd.implied(x, k.guards) {
			g = x
			break
		}
	}
	cond := ""
	if a := g.If.Attr("condition"); a != nil {
		cond = strings.TrimSpace(a.Value)
	}
	contradicted := slices.ContainsFunc(k.guards, func(h Guard) bool { return h.If == g.If && h.Else != g.Else })
	var msg string
	switch gate, nc := b.Gate, normalizeCond(cond); {
	case contradicted && g.Else:
		msg = fmt.Sprintf("%s is bound only in the <Else> of the <If> at line %d: in its then-branch it is never set",
			ref.Name, k.line(g.If.Span.Start))
	case contradicted:
		msg = fmt.Sprintf("%s is bound only in the then-branch of the <If> at line %d: in its <Else> it is never set",
			ref.Name, k.line(g.If.Span.Start))
	case (nc == "false" && !g.Else) || (nc == "true" && g.Else):
		msg = fmt.Sprintf("%s is bound only in a branch that never runs (<If condition={%s}> at line %d): it is never set",
			ref.Name, cond, k.line(g.If.Span.Start))
	case gate != nil && gate.If == g.If && gate.Checkpoint.Name != "":
		msg = fmt.Sprintf("%s is bound only when the user proceeds at checkpoint %s (line %d): read here, outside that gate, it is unset when the user declined",
			ref.Name, gate.Checkpoint.Name, k.line(gate.Checkpoint.Tag.Span.Start))
	case g.Else:
		msg = fmt.Sprintf("%s is bound only in the <Else> of <If condition={%s}> (line %d): read here, outside an equivalent branch, it is unset when the condition holds",
			ref.Name, cond, k.line(g.If.Span.Start))
	default:
		msg = fmt.Sprintf("%s is bound only when {%s} holds (<If> at line %d): read here, outside an equivalent branch, it may be unset",
			ref.Name, cond, k.line(g.If.Span.Start))
	}
	span := ref.Span
	if ref.Placeholder != nil {
		span = ref.Placeholder.Span
	}
	k.report(RuleBindingMaybeUnset, span, msg, analysis.WithRelated(b.Span, "bound here"))
}

// covered reports whether, in the context of the enclosing branches ctx,
// one of the bindings is certainly made. A name bound in both branches of
// one <If> is bound after it.
func (m *conds) covered(bs []*Binding, ctx []Guard) bool {
	// Most names have a binding the context implies outright (one made at
	// the top level, say): no merging needed. A name rebound at every stage
	// of a long workflow has thousands of bindings, and the pairwise merge
	// below is for the rare name bound only in branches.
	if slices.ContainsFunc(bs, func(b *Binding) bool { return m.impliedAll(b.Guards, ctx) }) {
		return true
	}
	sets := make([][]Guard, 0, len(bs))
	for _, b := range bs {
		if len(b.Guards) > 0 {
			sets = append(sets, b.Guards)
		}
	}
	// Merge the two branches of one <If> into the If itself, until nothing
	// merges. Only sets ending in the same <If> can merge, so each round
	// compares within those buckets, not every pair.
	for changed := true; changed; {
		changed = false
		byIf := map[*Tag][]int{}
		for i, s := range sets {
			if len(s) > 0 {
				byIf[s[len(s)-1].If] = append(byIf[s[len(s)-1].If], i)
			}
		}
		drop := map[int]bool{}
		for _, idx := range byIf {
			for x := range idx {
				for _, j := range idx[x+1:] {
					i := idx[x]
					a, b := sets[i], sets[j]
					if drop[i] || drop[j] || len(a) != len(b) {
						continue
					}
					n := len(a) - 1
					if a[n].Else != b[n].Else && slices.Equal(a[:n], b[:n]) {
						sets[i] = a[:n]
						drop[j] = true
						changed = true
					}
				}
			}
		}
		if changed {
			kept := sets[:0]
			for i, s := range sets {
				if !drop[i] {
					kept = append(kept, s)
				}
			}
			sets = kept
		}
	}
	return slices.ContainsFunc(sets, func(s []Guard) bool { return m.impliedAll(s, ctx) })
}

// impliedAll reports whether being inside ctx implies every branch of gs.
func (m *conds) impliedAll(gs []Guard, ctx []Guard) bool {
	for _, g := range gs {
		if !m.implied(g, ctx) {
			return false
		}
	}
	return true
}

// implied reports whether being inside the branches ctx implies being in
// branch g: the same branch, a then-branch whose condition includes every
// conjunct of g's, the <Else> of the same condition, or the opposite branch
// of its negation.
func (m *conds) implied(g Guard, ctx []Guard) bool {
	gc := m.get(condOf(g.If))
	switch gc.norm {
	case "true":
		return !g.Else
	case "false":
		return g.Else
	}
	for _, h := range ctx {
		if h.If == g.If && h.Else == g.Else {
			return true
		}
		hc := m.get(condOf(h.If))
		if gc.norm == "" || hc.norm == "" {
			continue
		}
		switch {
		case !g.Else && !h.Else && subset(gc.conj, hc.conj):
			return true
		case g.Else && h.Else && gc.norm == hc.norm:
			return true
		case g.Else != h.Else:
			// <Else> of x is the then-branch of !x, and the other way round.
			if hc.negated && hc.neg == gc.norm || gc.negated && gc.neg == hc.norm {
				return true
			}
		}
	}
	return false
}

func condOf(t *Tag) string {
	if a := t.Attr("condition"); a != nil && a.Kind == AttrExpr {
		return a.Value
	}
	return ""
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// reportPending reports the names read with no binding in scope.
func (k *checker) reportPending() {
	if len(k.pending) == 0 {
		return
	}
	k.byName = map[string][]*Binding{}
	for _, b := range k.m.Bindings {
		k.byName[b.Name] = append(k.byName[b.Name], b)
	}
	for _, ref := range k.pending {
		if ref.Attr != nil && k.unparsed(ref.Attr) {
			continue // workflow/expression-syntax reports the expression; its names are not names yet
		}
		text := ref.Placeholder != nil
		rule := RuleUndefinedName
		span := ref.Span
		if text {
			rule = RuleUnknownPlaceholder
			span = ref.Placeholder.Span
		}
		if t, res := k.codeComponentAround(ref); t != nil {
			what := "a name a host registers"
			if res.Path != "" {
				what = res.Path
			}
			k.report(RuleInjectedName, span, fmt.Sprintf("%s has no binding baton can see, but it is read in the content of <%s>, a TypeScript component (%s), which may bind it", ref.Name, t.Name, what),
				analysis.WithRelated(t.NameSpan, "the component"))
			continue
		}
		if p := k.c.Props.Prop(ref.Name); p != nil {
			effect := "an unbound name: the expression fails"
			if text {
				effect = "left verbatim"
			}
			k.report(RuleBarePropReference, span,
				fmt.Sprintf("%s is the prop's bare name, the spelling before #372: on main props live only under props (this is %s); write props.%s",
					ref.Name, effect, ref.Name),
				analysis.WithRelated(p.Span, "the prop is declared here"),
				analysis.WithFix(analysis.Fix{Title: "Write props." + ref.Name, Safe: true,
					Edits: []analysis.Edit{{Span: markdown.Span{Start: ref.Span.Start, End: ref.Span.Start + len(ref.Name)}, NewText: "props." + ref.Name}}}))
			continue
		}
		effect := "the expression fails when it runs"
		if text {
			effect = "it is left verbatim"
		}
		if b := k.expiredLet(ref); b != nil {
			k.report(rule, span, fmt.Sprintf("%s is the <Each let> binding of the loop at line %d, which is unset after </Each>: %s",
				ref.Name, k.line(b.Tag.Span.Start), effect), analysis.WithRelated(b.Span, "bound for the loop's body only"))
			continue
		}
		if b := k.boundLater(ref); b != nil {
			where := "in a Markdown component's content, which does not reach its caller"
			switch {
			case b.Kind == BindExec && b.Block.Span.Start <= ref.Span.Start && ref.Span.Start < b.Block.Span.End:
				where = "by this block's as=, to its result, once it has run"
			case b.Span.Start > ref.Span.Start:
				where = fmt.Sprintf("only later, at line %d", k.line(b.Span.Start))
			case b.Scope != nil && b.Scope.Name == "Each":
				where = fmt.Sprintf("inside the <Each> at line %d, whose body's bindings stay in each iteration", k.line(b.Scope.Span.Start))
			case b.Scope != nil:
				where = fmt.Sprintf("in the content of <%s> at line %d, a Markdown component: bindings there do not reach its caller", b.Scope.Name, k.line(b.Scope.Span.Start))
			}
			k.report(rule, span, fmt.Sprintf("%s has no binding in scope here (it is bound %s): %s", ref.Name, where, effect),
				analysis.WithRelated(b.Span, "bound here"))
			continue
		}
		k.report(rule, span, fmt.Sprintf("%s has no binding in scope (props, an as or <Let> above, an enclosing <Each let>): %s", ref.Name, effect))
	}
}

// codeComponentAround is the innermost tag around ref's content that
// resolves to a TypeScript component (a .ts file, or a name a host
// registers), which may bind names for its content, with its resolution.
// The attributes of a tag are read in its caller's scope, so an
// expression's own tag does not count.
func (k *checker) codeComponentAround(ref *Reference) (*Tag, *Resolution) {
	var t *Tag
	switch {
	case ref.Placeholder != nil:
		t = ref.Placeholder.Parent
	case ref.Tag != nil:
		t = ref.Tag.Parent
	}
	for ; t != nil; t = t.Parent {
		res := k.tags[t.Index].res
		if res == nil {
			continue
		}
		if (res.Kind == ResolveFile && strings.HasSuffix(res.Path, ".ts")) || res.Configured {
			return t, res
		}
	}
	return nil, nil
}

func (k *checker) expiredLet(ref *Reference) *Binding {
	var last *Binding
	for _, b := range k.byName[ref.Name] {
		if b.Name == ref.Name && b.Kind == BindEachLet && b.Tag.Span.End <= ref.Span.Start {
			last = b
		}
	}
	if last == nil {
		return nil
	}
	for _, b := range k.byName[ref.Name] {
		if b.Name == ref.Name && b.Kind != BindEachLet && b.Span.Start < ref.Span.Start {
			return nil
		}
	}
	return last
}

func (k *checker) boundLater(ref *Reference) *Binding {
	for _, b := range k.byName[ref.Name] {
		if b.Name == ref.Name && b.Kind != BindEachLet {
			return b
		}
	}
	return nil
}
