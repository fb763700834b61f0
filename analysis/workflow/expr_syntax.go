package workflow

import (
	"fmt"
	"strings"

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
				reg = RegisteredComponents[t.Name]
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

// expressionError is what the parser says of `return (expr)`, "" when it
// parses (or baton does not judge it).
func expressionError(expr string) string {
	depth, deepest := 0, 0
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ')', ']', '}':
			depth--
		}
	}
	if deepest > maxExprDepth {
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
