package workflow

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	jsparse "github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

var RuleExpressionSyntax = &analysis.Rule{
	ID:       "workflow/expression-syntax",
	Summary:  "A `{…}` prop is not a JavaScript expression.",
	Severity: analysis.Error,
	Doc: "The engine evaluates an expression prop as JavaScript, the body of " +
		"`new Function(...names, \"return (\" + expression + \")\")` (packages/core/src/expand.ts, evaluateIn), when " +
		"execution reaches the element: `condition={plan.steps.length >}`, `value={x: 1}` (an object needs its own " +
		"braces: `value={{ x: 1 }}`) or a TypeScript annotation do not parse, and a `// comment` at the end comments " +
		"out the closing parenthesis. Fix the expression; what the parser says is in the message.\n\n" +
		"Checked: every expression prop of an element the engine reads, structural or a component, that the scanner " +
		"does not resolve to a literal first (a JSON literal never meets the parser). Not checked: a captured prop " +
		"(`<Assert expr>`), which its component evaluates in its own way; a spread; an element inside the testing " +
		"package's `<AssertThrows>`; a tag that resolves to no component (workflow/unresolved-component says so). " +
		"The parser is tdewolff/parse's JavaScript parser; where it refuses what a sloppy-mode function body " +
		"accepts (a legacy octal literal such as `010`), baton says nothing.\n\n" +
		"**The engine** fails the element when it evaluates the expression: `Failed to evaluate expression prop " +
		"\"condition={…}\" on <If />: Unexpected token …` — a printed error, or a failed run under a throwing error mode.",
	Follows: []string{"executable.md packages/core/src/expand.ts evaluateIn (new Function)"},
}

var RuleEvalSyntax = &analysis.Rule{
	ID:       "workflow/eval-syntax",
	Summary:  "An eval block is not JavaScript (TypeScript annotations included).",
	Severity: analysis.Error,
	Doc: "The engine parses an eval block's source with acorn as JavaScript, the body of an async generator " +
		"function (packages/core/src/eval-transform.ts, transformBlock: `ecmaVersion: \"latest\"`, `import` " +
		"declarations anywhere, `import type` read as `import`), whatever the block's language: a ```` ```ts eval ```` " +
		"block with a type annotation (`const n: number = 1`), an interface or a `as` cast does not parse, and " +
		"neither does a block with a syntax error. Write the block in JavaScript, or move typed code into a TypeScript " +
		"component. A block with `yield*` and `await` both at its top level (outside any nested function or " +
		"class) parses, but the engine refuses it too (detectMode: ``Cannot mix `yield*` and `await` at the top " +
		"level.``): bridge the async code with `yield* call(async () => { … })`.\n\n" +
		"Checked: eval blocks written as JavaScript or TypeScript (`js`, `ts`, no language, …) whose fence starts its " +
		"line. Not checked: an `import` or `export` form baton does not read (it leaves the block alone), a block in " +
		"a quote, and a block inside the testing package's `<AssertThrows>`. The parser is tdewolff/parse's, held to " +
		"acorn's verdicts (analysis/workflow/testdata/evalblocks.json).\n\n" +
		"**The engine** fails the block when execution reaches it: acorn's `SyntaxError` — a printed error, or a " +
		"failed run under a throwing error mode.",
	Follows: []string{"executable.md packages/core/src/eval-transform.ts transformBlock (acorn)", "executable.md packages/core/src/eval-transform.ts detectMode"},
}

// maxExprDepth bounds the bracket nesting of an expression baton parses:
// the parser recurses on it, and a hostile document must not take the
// stack. Deeper expressions are left alone.
const maxExprDepth = 200

// checkExpressions parses each expression prop as the engine evaluates it.
func (k *checker) checkExpressions() {
	for _, t := range k.c.Tags {
		if !t.Closed {
			continue
		}
		var reg *RegisteredComponent
		res := k.resOf(t)
		switch res.Kind {
		case ResolveUnresolved:
			continue
		case ResolveRegistered:
			if !res.Configured {
				reg = RegisteredComponents()[t.Name]
			}
		}
		checked := false
		for _, a := range t.Attrs {
			if a.Kind != AttrExpr || reg.captures(a.Name) {
				continue
			}
			if _, ok := literalValue(t, a); ok {
				continue
			}
			if !checked {
				if k.failureExpected(t) {
					break
				}
				checked = true
			}
			if k.unparsed(a) {
				why := k.exprErr[a]
				k.report(RuleExpressionSyntax, a.ValueSpan, fmt.Sprintf("{%s} is not a JavaScript expression (%s): the engine fails <%s> when it evaluates it (\"Failed to evaluate expression prop %q\")",
					clip(a.Value), why, t.Name, a.Name+"={…}"))
			}
		}
	}
}

// unparsed reports an expression prop the parser refuses, remembered.
func (k *checker) unparsed(a *Attr) bool {
	why, ok := k.exprErr[a]
	if !ok {
		if k.exprErr == nil {
			k.exprErr = map[*Attr]string{}
		}
		why = expressionError(a.Value)
		k.exprErr[a] = why
	}
	return why != ""
}

// tooDeep reports text whose brackets nest deeper than maxExprDepth.
func tooDeep(text string) bool {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '[', '{':
			if depth++; depth > maxExprDepth {
				return true
			}
		case ')', ']', '}':
			depth--
		}
	}
	return false
}

// expressionError is what the parser says of `return (expr)`, "" when it
// parses (or baton does not judge it).
func expressionError(expr string) string {
	if isMemberPath(expr) {
		return "" // the common case, props.title or !plan.done: no parse needed
	}
	if tooDeep(expr) {
		return ""
	}
	_, err := js.Parse(jsparse.NewInputString("("+expr+")"), js.Options{})
	if err == nil {
		return ""
	}
	msg := err.Error()
	if pe, ok := err.(*jsparse.Error); ok {
		msg = pe.Message
	}
	if strings.Contains(msg, "legacy octal") {
		return "" // a sloppy-mode function body takes them
	}
	return msg
}

// clip shortens an expression for a message.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		cut := 57
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// evalLanguages are the info-string languages of the eval blocks baton
// parses: the engine parses every eval block as JavaScript (acorn), and
// these are the ones written as JavaScript or TypeScript.
var evalLanguages = map[string]bool{"": true, "js": true, "javascript": true, "mjs": true, "ts": true, "typescript": true, "mts": true}

// checkEvalBlocks parses each eval block as the engine does
// (packages/core/src/eval-transform.ts, transformBlock): JavaScript, the
// body of an async generator function, with `import` declarations
// anywhere (hoisted) and `import type` read as `import`.
func (k *checker) checkEvalBlocks() {
	for _, cb := range k.c.CodeBlocks {
		if !cb.Eval || cb.Content.Len() == 0 || (cb.Parent != nil && k.failureExpected(cb.Parent)) {
			continue
		}
		lang, _, _ := strings.Cut(strings.TrimSpace(cb.Info), " ")
		if !evalLanguages[strings.ToLower(lang)] {
			continue
		}
		// Only a fence at the start of its line whose lines carry no
		// container markers: there the block's text is its content as the
		// engine's Markdown parser gives it.
		if ls := strings.LastIndexByte(k.c.Text[:cb.Span.Start], '\n'); cb.Span.Start != ls+1 {
			continue
		}
		src := k.c.Text[cb.Content.Start:cb.Content.End]
		why := evalBlockError(src)
		if why == mixedModes {
			k.report(RuleEvalSyntax, markdown.Span{Start: cb.Span.Start, End: cb.Content.Start - 1},
				"this eval block has `yield*` and `await` both at its top level: the engine refuses it when it reaches it (\"Cannot mix `yield*` and `await` at the top level.\"); bridge the async code with yield* call(async () => { … }), or split the block")
			continue
		}
		if why != "" {
			k.report(RuleEvalSyntax, markdown.Span{Start: cb.Span.Start, End: cb.Content.Start - 1},
				fmt.Sprintf("this eval block is not JavaScript (%s): the engine parses it as JavaScript, TypeScript annotations included, and fails the block when it reaches it; write the block in JavaScript, or move typed code into a TypeScript component", why))
		}
	}
}

// evalBlockError is what the parser says of an eval block's source as the
// engine wraps it, "" when it parses or baton does not judge it.
func evalBlockError(src string) string {
	if strings.Contains(src, "\n>") || strings.HasPrefix(src, ">") {
		return "" // a quoted block: its lines carry markers
	}
	body, ok := hoistImports(src)
	if !ok {
		return ""
	}
	if tooDeep(body) {
		return ""
	}
	ast, err := js.Parse(jsparse.NewInputString("(async function*() {\n"+body+"\n})"), js.Options{})
	if err == nil {
		if mixesYieldAndAwait(ast) {
			return mixedModes
		}
		return ""
	}
	msg := err.Error()
	if pe, ok := err.(*jsparse.Error); ok {
		msg = pe.Message
		if pe.Line > 1 {
			msg += fmt.Sprintf(", line %d of the block", pe.Line-1)
		}
	}
	return msg // a block is strict (a module): a legacy octal is refused too
}

// importDecl is an import declaration starting a line: the engine's
// parser takes them anywhere in a block and hoists them (acorn's
// allowImportExportEverywhere); the parser baton uses takes them only at
// a module's top. Each is blanked before the block is parsed.
var importDecl = lazyre.New(`(?m)^[ \t]*import(?:[ \t]+type)?[ \t]+(?:[\w$]+[ \t]*,?[ \t]*)?(?:\*[ \t]*as[ \t]+[\w$]+|\{[^{}]*\})?[ \t]*(?:from[ \t]*)?(?:"[^"\n]*"|'[^'\n]*')[ \t]*(?:with[ \t]*\{[^{}]*\}[ \t]*)?;?`)

// hoistImports is src with its import declarations blanked (line breaks
// kept, so that positions hold), and whether baton reads the block: an
// `import` or `export` at the start of a line that is not such a
// declaration (a form the pattern does not know) leaves it unjudged.
func hoistImports(src string) (string, bool) {
	if !strings.Contains(src, "import") && !strings.Contains(src, "export") {
		return src, true
	}
	b := []byte(src)
	for _, loc := range importDecl.FindAllStringIndex(src, -1) {
		for i := loc[0]; i < loc[1]; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	out := string(b)
	for line := range strings.SplitSeq(out, "\n") {
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "export") || (strings.HasPrefix(t, "import") && !strings.HasPrefix(t, "import(") && !strings.HasPrefix(t, "import.")) {
			return "", false
		}
	}
	return out, true
}

// mixedModes is evalBlockError's answer for a block that parses but has
// both yield* and await at its top level.
const mixedModes = "`yield*` and `await` both at its top level"

// mixesYieldAndAwait reports a block with a yield and an await outside
// any nested function or class (packages/core/src/eval-transform.ts,
// detectMode and walkTopLevel): the engine refuses to choose how to run
// it. ast is the parse of the wrapped block.
func mixesYieldAndAwait(ast *js.AST) bool {
	if len(ast.List) != 1 {
		return false
	}
	stmt, ok := ast.List[0].(*js.ExprStmt)
	if !ok {
		return false
	}
	group, ok := stmt.Value.(*js.GroupExpr)
	if !ok {
		return false
	}
	fn, ok := group.X.(*js.FuncDecl)
	if !ok {
		return false
	}
	v := &modeVisitor{}
	js.Walk(v, &fn.Body)
	return v.yield && v.await
}

type modeVisitor struct{ yield, await bool }

func (v *modeVisitor) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
		return nil // a body of its own
	case *js.YieldExpr:
		v.yield = true
	case *js.UnaryExpr:
		if n.Op == js.AwaitToken {
			v.await = true
		}
	}
	return v
}

func (v *modeVisitor) Exit(js.INode) {}

// isMemberPath reports an expression that is a name or a path of names
// (a.b.c), perhaps negated and spaced: always JavaScript, unless a name is
// a reserved word, which it leaves to the parser.
func isMemberPath(expr string) bool {
	e := strings.TrimSpace(expr)
	e = strings.TrimLeft(e, "! ")
	if e == "" {
		return false
	}
	for part := range strings.SplitSeq(e, ".") {
		if part == "" || !isBindingName(part) || reservedWords[part] {
			return false
		}
	}
	return true
}
