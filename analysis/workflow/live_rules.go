package workflow

import (
	"fmt"
	"slices"
	"strings"

	jsparse "github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
)

var RuleLiveBinding = &analysis.Rule{
	ID:       "workflow/live-binding",
	Summary:  "A live binding (a `service=name`, an `ephemeral eval` block's declaration) collides with another binding, or an ephemeral block produces output.",
	Severity: analysis.Error,
	Doc: "A component's (or the root document's) bindings are of two kinds (packages/core/src/live-env.ts). " +
		"*Durable* ones are journaled and restored on replay: `props`, an `as=\"name\"` (of a component, `<Let>`, " +
		"`<Each>` or an exec block), and what a plain `eval` block declares at its top level; a plain `eval` " +
		"block also binds `output`. *Live* ones exist only while the run does: the endpoint a ```` ```bash " +
		"service=api exec ```` block binds, and what an ```` ```js ephemeral eval ```` block declares at its top " +
		"level. One name is never both, and the engine refuses, before the block runs:\n\n" +
		"- a `service=name` whose name is already bound, durably or live (validateServiceBinding: `service " +
		"binding \"api\" collides with a durable binding`, `… with a live binding`);\n" +
		"- an ephemeral block declaring a name bound durably (validateLiveExports: `ephemeral eval export " +
		"\"props\" collides with a durable binding`);\n" +
		"- a plain `eval` block declaring a live name (validateDurableExports: `durable eval export \"x\" " +
		"collides with a live binding`);\n" +
		"- an ephemeral block, when a live name has since been bound durably too (validateLiveOverlay: `live " +
		"binding \"x\" collides with a durable binding`).\n\n" +
		"An ephemeral block renders nothing, so one that calls `output(…)` or returns a value other than `null` " +
		"or `undefined` is refused (packages/core/src/eval-handler.ts, runEphemeralEval: `ephemeral eval cannot " +
		"produce document output`, `ephemeral eval cannot return document output`).\n\n" +
		"baton follows the bindings in document order at the top of the body and in the branches of a top-level " +
		"`<If>`, where every binding lands in one environment: a binding made in a branch counts only in that " +
		"branch. `props` is always bound. What a block's code does is read only where it is certain: a " +
		"declaration at the block's top level, an `output(…)` call or a `return` of a literal at its top level " +
		"with nothing before it that may end the block or wait on the run (a `return`, `throw`, loop, `yield` " +
		"or `await`); a block baton's parser does not read is not judged. Rename one " +
		"of the two bindings; render from a plain `eval` block.\n\n" +
		"**The engine** fails the block when execution reaches it, before it runs: a printed error, or a failed " +
		"run under a throwing error mode.",
	Follows: []string{
		"executable.md packages/core/src/live-env.ts validateServiceBinding (collisions)",
		"executable.md packages/core/src/live-env.ts validateLiveExports (an ephemeral export)",
		"executable.md packages/core/src/live-env.ts validateDurableExports (a durable export)",
		"executable.md packages/core/src/live-env.ts validateLiveOverlay (a live name bound durably since)",
		"executable.md packages/core/src/eval-handler.ts runEphemeralEval (output)",
	},
}

// liveEnv is what baton knows is bound at a point of the body: names
// certainly bound, durably and live (packages/core/src/live-env.ts).
type liveEnv struct {
	durable, live map[string]bool
	// order is the live names in the order they were bound, as the engine
	// finds the first collision among them.
	order *[]string
	// shared says the maps and order are the environment's it was cloned
	// from, copied before the first binding: most branches of an <If> bind
	// nothing, and a copy for each was most of the rule's allocations.
	shared bool
}

// clone is the environment of a branch: the bindings so far, and its own
// from here. The environment cloned is not bound in before the branch is
// followed to its end.
func (e *liveEnv) clone() *liveEnv {
	return &liveEnv{durable: e.durable, live: e.live, order: e.order, shared: true}
}

// own copies what a clone shares, before it binds a name.
func (e *liveEnv) own() {
	if !e.shared {
		return
	}
	durable, live := make(map[string]bool, len(e.durable)+1), make(map[string]bool, len(e.live)+1)
	for n := range e.durable {
		durable[n] = true
	}
	for n := range e.live {
		live[n] = true
	}
	order := slices.Clone(*e.order)
	e.durable, e.live, e.order, e.shared = durable, live, &order, false
}

func (e *liveEnv) bindDurable(name string) {
	if !e.durable[name] {
		e.own()
		e.durable[name] = true
	}
}

func (e *liveEnv) bindLive(name string) {
	if !e.live[name] {
		e.own()
		e.live[name] = true
		*e.order = append(*e.order, name)
	}
}

// checkLiveBindings follows the body's bindings in document order, as the
// engine makes them in the environment of the component (or root): the top
// level of the body and the branches of a top-level <If>, which expand in
// that same environment (a branch's bindings count in it alone).
func (k *checker) checkLiveBindings() {
	env := &liveEnv{durable: map[string]bool{"props": true}, live: map[string]bool{}, order: new([]string)}
	k.followLive(k.c.Body, env)
}

func (k *checker) followLive(nodes []Node, env *liveEnv) { k.followLiveBut(nodes, "", env) }

// followLiveBut is followLive of the nodes but the tags named skip (the
// <Else> among an <If>'s children, which is its other branch).
func (k *checker) followLiveBut(nodes []Node, skip string, env *liveEnv) {
	for _, n := range nodes {
		if t, ok := n.(*Tag); ok && skip != "" && t.Name == skip {
			continue
		}
		switch n := n.(type) {
		case *CodeBlock:
			k.liveBlock(n, env)
		case *Tag:
			if !n.Closed || k.failureExpected(n) {
				continue
			}
			if n.Name == "If" && k.resOf(n).Kind == ResolveStructural {
				for _, ch := range n.Children {
					if e, ok := ch.(*Tag); ok && e.Name == "Else" {
						k.followLive(e.Children, env.clone())
					}
				}
				k.followLiveBut(n.Children, "Else", env.clone())
			}
			// The tag's as binds in this environment once it has run
			// (expand.ts: parentEnv.values[asBinding]).
			if a := n.Attr("as"); a != nil && (n.Name != "Json" || k.resOf(n).Kind != ResolveRegistered) {
				if name, _, ok := bindingName(n, a); ok && isBindingName(name) && !reservedWords[name] {
					env.bindDurable(name)
				}
			}
		}
	}
}

// liveBlock checks one code block against what is bound before it, and
// records what it binds.
func (k *checker) liveBlock(cb *CodeBlock, env *liveEnv) {
	mods := parseInfo(cb.Info)
	chain, as := splitAs(mods)
	if !cb.Exec && !cb.Eval || !knownChain(chain) || k.refusedTimeout(chain) {
		return // no executable block, or one exec-info refuses
	}
	if len(as) > 0 {
		// exec as="name" binds the block's result (expand.ts), when
		// exec-info takes the annotation: one, last, on exec wrapped by
		// timeout alone.
		bound := len(as) == 1 && cb.As != "" && mods[len(mods)-1].name == "as" && chain[len(chain)-1].name == "exec"
		for _, m := range chain[:len(chain)-1] {
			bound = bound && m.name == "timeout"
		}
		if bound && isBindingName(cb.As) && !reservedWords[cb.As] {
			env.bindDurable(cb.As)
		}
		return
	}
	info := markdown.Span{Start: cb.Span.Start, End: cb.Content.Start}
	if i := strings.IndexByte(k.c.Text[info.Start:info.End], '\n'); i >= 0 {
		info.End = info.Start + i
	}
	if chain[0].name == "service" {
		if serviceBindingRefusal(chain[0]) != "" || !hasModifier(chain, "exec") {
			return
		}
		name := chain[0].params
		span := info
		if i := strings.Index(k.c.Text[info.Start:info.End], chain[0].word); i >= 0 {
			span = markdown.Span{Start: info.Start + i, End: info.Start + i + len(chain[0].word)}
		}
		switch {
		case env.durable[name]:
			k.report(RuleLiveBinding, span, fmt.Sprintf("%s: %s is already bound durably (%s): the engine refuses the block when it reaches it, before the process starts (\"service binding %q collides with a durable binding\"); name the service another binding", chain[0].word, name, k.durableWhy(name), name))
		case env.live[name]:
			k.report(RuleLiveBinding, span, fmt.Sprintf("%s: %s is already a live binding, of an earlier service or ephemeral block: the engine refuses the block when it reaches it, before the process starts (\"service binding %q collides with a live binding\"); name the service another binding", chain[0].word, name, name))
		default:
			env.bindLive(name) // once the process has started
		}
		return
	}
	if !cb.Eval {
		return
	}
	ephemeral := hasModifier(chain, "ephemeral")
	if ephemeral {
		// validateLiveOverlay, before anything of the block is read.
		for _, name := range *env.order {
			if env.durable[name] {
				k.report(RuleLiveBinding, info, fmt.Sprintf("%s is a live binding and has since been bound durably too: the engine refuses this ephemeral block when it reaches it (\"live binding %q collides with a durable binding\"); rename one of them", name, name))
				return
			}
		}
	} else {
		env.bindDurable("output") // the block's own output(), set before it is read (eval-handler.ts)
	}
	decls, facts, ok := k.evalTopLevel(cb)
	if !ok {
		return
	}
	if ephemeral {
		for _, d := range decls {
			if env.durable[d.name] {
				k.report(RuleLiveBinding, d.span, fmt.Sprintf("this ephemeral block declares %s, already bound durably (%s): the engine refuses it when it reaches it (\"ephemeral eval export %q collides with a durable binding\"); rename it", d.name, k.durableWhy(d.name), d.name))
				return
			}
		}
		if facts.output.Len() > 0 {
			k.report(RuleLiveBinding, facts.output, "an ephemeral block renders nothing: the engine refuses this call when the block runs (\"ephemeral eval cannot produce document output\"); render from a plain eval block")
			return
		}
		if facts.ret.Len() > 0 {
			k.report(RuleLiveBinding, facts.ret, "an ephemeral block renders nothing: the engine refuses the value it returns (\"ephemeral eval cannot return document output\"); return nothing, or render from a plain eval block")
			return
		}
		for _, d := range facts.committed {
			env.bindLive(d)
		}
		return
	}
	for _, d := range decls {
		if env.live[d.name] {
			k.report(RuleLiveBinding, d.span, fmt.Sprintf("this eval block declares %s, a live binding of an earlier service or ephemeral block: the engine refuses it when it reaches it (\"durable eval export %q collides with a live binding\"); rename it", d.name, d.name))
			return
		}
	}
	for _, d := range facts.committed {
		env.bindDurable(d)
	}
}

// knownChain reports an info string exec-info does not refuse, read far
// enough for the bindings: known modifiers, service first.
func knownChain(chain []modifier) bool {
	if len(chain) == 0 {
		return false
	}
	for i, m := range chain {
		if !modifiers[m.name] || (m.name == "service" && i > 0) {
			return false
		}
	}
	return true
}

// refusedTimeout reports a timeout= exec-info refuses: the block never runs.
func (k *checker) refusedTimeout(chain []modifier) bool {
	for _, m := range chain {
		if m.name == "timeout" && m.hasParams && !isDuration(m.params) {
			return true
		}
	}
	return false
}

// durableWhy says how a name is bound durably.
func (k *checker) durableWhy(name string) string {
	switch name {
	case "props":
		return "props is always bound"
	case "output":
		return "an eval block binds output"
	}
	return "by an earlier as, <Let>, exec or eval block"
}

// topDecl is a name an eval block declares at its top level.
type topDecl struct {
	name string
	span markdown.Span
}

// evalFacts are what a block certainly does, read from its top level.
type evalFacts struct {
	// committed are the names declared before any top-level statement
	// after which the rest may not run (mayLeave): the ones a run of it
	// certainly publishes.
	committed []string
	// output is an output(…) call at the top level with no such statement
	// before it; ret a return of a literal that is neither null nor
	// undefined, likewise.
	output, ret markdown.Span
}

// evalTopLevel reads an eval block's top level as the engine's transform
// does (packages/core/src/eval-transform.ts: collectExports takes the
// declarations of its top-level statements), and false when baton does not
// read the block.
func (k *checker) evalTopLevel(cb *CodeBlock) ([]topDecl, evalFacts, bool) {
	var facts evalFacts
	if ls := strings.LastIndexByte(k.c.Text[:cb.Span.Start], '\n'); cb.Span.Start != ls+1 {
		return nil, facts, false // a fence with container markers
	}
	lang, _, _ := strings.Cut(strings.TrimSpace(cb.Info), " ")
	if !evalLanguages[strings.ToLower(lang)] {
		return nil, facts, false
	}
	src := k.c.Text[cb.Content.Start:cb.Content.End]
	if evalBlockError(src) != "" {
		return nil, facts, false // workflow/eval-syntax's, or not judged
	}
	body, ok := hoistImports(src)
	if !ok || tooDeep(body) || strings.Contains(src, "\n>") {
		return nil, facts, false
	}
	const prefix = "(async function*() {\n"
	ast, err := js.Parse(jsparse.NewInputString(prefix+body+"\n})"), js.Options{})
	if err != nil || len(ast.List) != 1 {
		return nil, facts, false
	}
	stmt, ok := ast.List[0].(*js.ExprStmt)
	if !ok {
		return nil, facts, false
	}
	group, ok := stmt.Value.(*js.GroupExpr)
	if !ok {
		return nil, facts, false
	}
	fn, ok := group.X.(*js.FuncDecl)
	if !ok {
		return nil, facts, false
	}
	// Where a name is written in the block: its first occurrence as a
	// word, at or after where its statement starts being searched.
	at := 0
	spanOf := func(name string) markdown.Span {
		for i := at; ; {
			j := strings.Index(src[i:], name)
			if j < 0 {
				return markdown.Span{Start: cb.Content.Start, End: cb.Content.Start}
			}
			j += i
			if (j == 0 || !isJSNameByte(src[j-1])) && (j+len(name) == len(src) || !isJSNameByte(src[j+len(name)])) {
				at = j + len(name)
				return markdown.Span{Start: cb.Content.Start + j, End: cb.Content.Start + j + len(name)}
			}
			i = j + 1
		}
	}
	var decls []topDecl
	declared := map[string]bool{}
	for _, s := range fn.Body.List {
		for _, n := range declaredNames(s) {
			declared[n] = true
		}
	}
	if strings.Contains(src, "import") {
		declared["output"] = true // an import may bind it: not judged
	}
	leaves := false
	for _, s := range fn.Body.List {
		names := declaredNames(s)
		for _, n := range names {
			decls = append(decls, topDecl{n, spanOf(n)})
			if !leaves {
				facts.committed = append(facts.committed, n)
			}
		}
		if !leaves {
			switch s := s.(type) {
			case *js.ExprStmt:
				if call, ok := s.Value.(*js.CallExpr); ok && !declared["output"] && facts.output.Len() == 0 && !mayLeave(s) {
					if v, ok := call.X.(*js.Var); ok && string(v.Data) == "output" {
						facts.output = spanOf("output")
					}
				}
			case *js.ReturnStmt:
				if s.Value != nil && facts.ret.Len() == 0 && facts.output.Len() == 0 && nonNullLiteral(s.Value) {
					facts.ret = spanOf("return")
				}
			}
		}
		if mayLeave(s) {
			leaves = true
		}
	}
	return decls, facts, true
}

func isJSNameByte(c byte) bool { return isIdentPart(c) || c >= 0x80 }

// declaredNames are the names a top-level statement declares
// (eval-transform.ts, extractDeclaredNames): a variable declaration's
// bindings, destructured ones included, and a function's or class's name.
func declaredNames(s js.IStmt) []string {
	switch s := s.(type) {
	case *js.VarDecl:
		var out []string
		for _, b := range s.List {
			out = bindingNames(b.Binding, out)
		}
		return out
	case *js.FuncDecl:
		if s.Name != nil {
			return []string{string(s.Name.Data)}
		}
	case *js.ClassDecl:
		if s.Name != nil {
			return []string{string(s.Name.Data)}
		}
	}
	return nil
}

func bindingNames(b js.IBinding, out []string) []string {
	switch b := b.(type) {
	case *js.Var:
		out = append(out, string(b.Data))
	case *js.BindingArray:
		for _, e := range b.List {
			out = bindingNames(e.Binding, out)
		}
		if b.Rest != nil {
			out = bindingNames(b.Rest, out)
		}
	case *js.BindingObject:
		for _, item := range b.List {
			out = bindingNames(item.Value.Binding, out)
		}
		if b.Rest != nil {
			out = append(out, string(b.Rest.Data))
		}
	}
	return out
}

// mayLeave reports a statement after which what follows may not run: one
// that may end the block (a return or throw), or wait on what the run does
// or never end (a yield, an await, a loop), anywhere in it outside a
// function or class of its own.
func mayLeave(s js.IStmt) bool {
	v := &leaveVisitor{}
	js.Walk(v, s)
	return v.found
}

type leaveVisitor struct{ found bool }

func (v *leaveVisitor) Enter(n js.INode) js.IVisitor {
	if v.found {
		return nil
	}
	switch n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
		return nil
	case *js.ReturnStmt, *js.ThrowStmt, *js.YieldExpr, *js.ForStmt, *js.ForInStmt, *js.ForOfStmt, *js.WhileStmt, *js.DoWhileStmt:
		v.found = true
		return nil
	case *js.UnaryExpr:
		if n.(*js.UnaryExpr).Op == js.AwaitToken {
			v.found = true
			return nil
		}
	}
	return v
}

func (v *leaveVisitor) Exit(js.INode) {}

// nonNullLiteral reports an expression whose value is certainly neither
// null nor undefined: a literal other than null, an array, object, template,
// function or class.
func nonNullLiteral(e js.IExpr) bool {
	switch e := e.(type) {
	case *js.LiteralExpr:
		switch e.TokenType {
		case js.StringToken, js.TrueToken, js.FalseToken, js.RegExpToken, js.DecimalToken, js.BinaryToken,
			js.OctalToken, js.HexadecimalToken, js.IntegerToken:
			return true
		}
		return false
	case *js.TemplateExpr:
		return e.Tag == nil // a tagged template is a call
	case *js.ArrayExpr, *js.ObjectExpr, *js.ArrowFunc, *js.FuncDecl, *js.ClassDecl:
		return true
	case *js.GroupExpr:
		return nonNullLiteral(e.X)
	}
	return false
}
