package workflow

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// checkSyntax reports what the parser could not read.
func (k *checker) checkSyntax() {
	if fm := k.c.FrontMatter; fm != nil && fm.Err != nil {
		k.report(RuleSyntax, markdown.Span{Start: fm.Span.Start, End: k.doc.Lines.LineEnd(0)},
			"the front matter cannot be read: "+fm.Err.Error())
	}
	if lang, span, ok := grayMatterLanguage(k.c.Text); ok {
		k.report(RuleSyntax, span, fmt.Sprintf("the front matter is opened by ---%s, which asks gray-matter, the engine's front matter reader, to parse it as %s, and it has no parser of that name: the engine refuses the document when it loads it (gray-matter engine %q is not registered); write the front matter in YAML between --- lines", lang, lang, lang))
	}
	for _, e := range k.c.Errors {
		if e.Text {
			k.report(RuleStrayClose, e.Span, e.Message)
		} else {
			k.report(RuleSyntax, e.Span, e.Message)
		}
	}
}

// checkFrontMatter checks the props declaration and a root's bundle.
func (k *checker) checkFrontMatter() {
	c := k.c
	k.checkDeclarations()
	p := &c.Props
	for _, d := range p.List {
		if d.Name == "slot" || d.Name == "as" {
			k.report(RulePropsDeclaration, d.Span, fmt.Sprintf("%q is reserved (the engine consumes it before validation) and cannot be declared as a prop", d.Name))
		}
	}
	k.checkPropBindings()
	k.checkRootPropsReadable()
	k.checkBundle()
}

// bindingName is the name an as or let attribute binds, as the engine
// reads it, and where it is written: a quoted value, or an expression its
// scanner resolves to a string before anything runs (as={"plan"} is the
// prop "plan", not an expression: packages/core/src/scanner.ts,
// parseAttributes and parseExpressionValue), which every check of a binding
// name then takes (expand.ts: "as" in segment.expressions refuses only an
// expression). ok is false for what the engine refuses whatever it holds:
// an expression, a bare attribute, a literal that is not a string.
func bindingName(t *Tag, a *Attr) (name string, span markdown.Span, ok bool) {
	switch a.Kind {
	case AttrString:
		return a.Value, a.ValueSpan, true
	case AttrExpr:
		v, known := literalValue(t, a)
		s, isString := v.(string)
		if !known || !isString {
			return "", markdown.Span{}, false
		}
		span = a.ValueSpan
		// The name inside its quotes, when written without escapes.
		lead := len(a.Value) - len(strings.TrimLeft(a.Value, " \t\r\n"))
		if strings.HasPrefix(a.Value[lead:], `"`+s+`"`) {
			span = markdown.Span{Start: a.ValueSpan.Start + lead + 1, End: a.ValueSpan.Start + lead + 1 + len(s)}
		}
		return s, span, true
	}
	return "", markdown.Span{}, false
}

// isBindingName matches ^[a-zA-Z_$][a-zA-Z0-9_$]*$ (ASCII only), without
// a regular expression: it is asked of every as and let.
func isBindingName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentPart(s[i]) {
			return false
		}
	}
	return true
}

var reservedWords = set("break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
	"do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in",
	"instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var",
	"void", "while", "with", "yield", "let", "static", "implements", "interface", "package", "private",
	"protected", "public", "await", "arguments", "eval")

var directiveProps = map[string][]string{
	"If":      {"condition"},
	"Else":    {},
	"Each":    {"in", "let", "as"},
	"Loop":    {"max", "name"},
	"Break":   {},
	"Let":     {"as", "value", "select"},
	"Output":  {},
	"Return":  {"value"},
	"Content": {"slot"},
	// The element names a region and nothing else: not even as or slot
	// (expand.ts, expandPrintErrors).
	"PrintErrors": {},
	"Answers":     {"delegate"},
	"Answer":      {"template", "value"},
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// checkStructure checks the placement and form of the structural
// directives, and reports unresolved names.
func (k *checker) checkStructure() {
	c := k.c
	var returns []*Tag
	for _, t := range c.Tags {
		res := k.resOf(t)
		// Every directive is structural: the other tags, most of them,
		// are not looked up (an unvisited tag has no kind, and is).
		if res.Kind == ResolveStructural || res.Kind == ResolveUnknown {
			if allowed, ok := directiveProps[t.Name]; ok {
				for _, a := range t.Attrs {
					if a.Kind != AttrSpread && !slices.Contains(allowed, a.Name) {
						k.report(RuleDirectiveForm, a.NameSpan, fmt.Sprintf("<%s> does not take %s%s", t.Name, a.Name, allowedList(allowed)))
					}
				}
			}
		}
		for _, n := range []string{"as", "let"} {
			a := t.Attr(n)
			if a == nil || (n == "let" && t.Name != "Each") {
				continue
			}
			name, span, ok := bindingName(t, a)
			switch {
			case !ok:
				k.report(RuleDirectiveForm, a.Span, fmt.Sprintf("%s must be a string literal naming the binding (%s=\"name\")", n, n))
			case !isBindingName(name) || reservedWords[name]:
				k.report(RuleDirectiveForm, span, fmt.Sprintf("%q is not a legal binding name: a JavaScript identifier that is not a reserved word", name))
			}
		}
		switch t.Name {
		case "Output":
			if c.Returns != nil {
				k.report(RuleOutputPlacement, t.NameSpan, "<Output> in a value component: a component that declares returns renders nothing, so it may not declare an output region",
					analysis.WithRelated(c.Returns.Key, "returns is declared here"))
			} else if t.Parent != nil {
				k.report(RuleOutputPlacement, t.NameSpan, fmt.Sprintf("<Output> inside <%s>: only a direct top-level <Output> declares an output region, and a misplaced one makes the component run nothing (write the condition as an <If> inside <Output>)", t.Parent.Name))
			}
		case "Return":
			switch {
			case c.Returns == nil:
				k.report(RuleReturnPlacement, t.NameSpan, "<Return> in a text component: declare returns in the front matter, or remove it")
			case t.Parent != nil:
				k.report(RuleReturnPlacement, t.NameSpan, fmt.Sprintf("<Return> inside <%s>: it must be a direct top-level element", t.Parent.Name))
			default:
				returns = append(returns, t)
				k.checkReturnValue(t)
			}
			if t.Attr("value") == nil {
				k.report(RuleDirectiveForm, t.NameSpan, "<Return> needs value={…}")
			}
			// Any child, a line break included, is one (expand.ts,
			// returnElementViolations: the scanner keeps whitespace text).
			k.checkNoContent(t, "<Return> takes no children, not even a line break: write <Return value={…} />")
		case "Else":
			k.checkElse(t)
		case "Break":
			inLoop := false
			for p := t.Parent; p != nil; p = p.Parent {
				if p.Name == "Loop" {
					inLoop = true
					break
				}
			}
			if !inLoop {
				k.report(RuleBreakOutsideLoop, t.NameSpan, "<Break> outside any <Loop> is a printed error, not a loop exit")
			}
			// Only the self-closing form ends a loop (expand.ts,
			// breakElementViolations): <Break></Break> is refused too.
			k.checkNoContent(t, "<Break> takes no content: write it self-closing, <Break />; a malformed <Break> ends no loop")
		case "Loop":
			// Its name is read before its bound (packages/core/src/expand.ts,
			// expandLoop): a string literal, not empty.
			if a := t.Attr("name"); a != nil && t.Closed && !k.failureExpected(t) {
				v, ok := literalValue(t, a)
				if s, isString := v.(string); !ok || !isString || s == "" {
					msg := `Prop "name" on <Loop /> must be a non-empty string.`
					if !ok {
						msg = `Prop "name" on <Loop /> must be a string literal.`
					}
					k.report(RuleDirectiveForm, a.Span, fmt.Sprintf("%s: the engine refuses the loop when it reaches it, and runs nothing (%q)", k.c.Text[a.Span.Start:a.Span.End], msg))
				}
			}
			if a := t.Attr("max"); a == nil {
				k.report(RuleLoopWithoutMax, t.NameSpan, "<Loop> without max: the bound is required (max={5})")
			} else if v, ok := literalValue(t, a); ok && t.Closed && !k.failureExpected(t) {
				if msg := loopMaxRefusal(t, v); msg != "" {
					k.report(RuleLoopWithoutMax, a.Span, fmt.Sprintf("%s: the engine refuses the loop when it reaches it, and runs nothing (%q)", k.c.Text[a.Span.Start:a.Span.End], msg))
				}
			}
		case "If":
			if t.Attr("condition") == nil {
				k.report(RuleDirectiveForm, t.NameSpan, "<If> needs condition={…}")
			}
		case "Each":
			if t.Attr("in") == nil {
				k.report(RuleDirectiveForm, t.NameSpan, "<Each> needs in={…}, the array to iterate")
			}
			if t.Attr("let") == nil {
				k.report(RuleDirectiveForm, t.NameSpan, "<Each> needs let=\"name\", the per-item binding")
			}
			k.checkEachIn(t)
		case "Let":
			k.checkLet(t)
		case "Content":
			if res.Kind == ResolveStructural || res.Kind == ResolveUnknown {
				k.checkContentPlacement(t)
			}
		case "Capture":
			if res.Kind != ResolveFile && res.Kind != ResolveBundle {
				edits := []analysis.Edit{{Span: t.NameSpan, NewText: "Let"}}
				if t.CloseName.Len() > 0 {
					edits = append(edits, analysis.Edit{Span: t.CloseName, NewText: "Let"})
				}
				msg := "<Capture> was renamed <Let>; on main Capture resolves like any component name"
				if res.Kind == ResolveUnresolved {
					msg += " (here, to nothing)"
				}
				k.report(RuleCaptureRenamed, t.NameSpan, msg,
					analysis.WithFix(analysis.Fix{Title: "Rename <Capture> to <Let>", Safe: true, Edits: edits}))
			}
		}
		// The engine never resolves a tag it never closed: its scanner reads
		// it as text (the syntax finding says so), so it is not unresolved.
		if res.Kind == ResolveUnresolved && t.Name != "Capture" && t.Closed {
			k.reportUnresolved(t, *res)
		}
		if res.OutsideBundle {
			k.report(RuleUnresolvedComponent, t.NameSpan, fmt.Sprintf("<%s> is not in the workflow bundle of %s: `xmd run` finds %s, but a workflow run searches no files and resolves it to nothing; declare it under workflow.components",
				t.Name, k.r.bundle.RootPath, res.Path))
		}
	}
	if c.Returns != nil {
		switch {
		case len(returns) == 0:
			k.report(RuleReturnPlacement, c.Returns.Key, "this value component (it declares returns) has no top-level <Return value={…} />")
		case len(returns) > 1:
			for _, t := range returns[1:] {
				k.report(RuleReturnPlacement, t.NameSpan, "a second top-level <Return>: a value component has exactly one",
					analysis.WithRelated(returns[0].NameSpan, "the first <Return>"))
			}
		}
	}
}

// loopMaxRefusal is the engine's error for a <Loop> bound it refuses, ""
// for one it takes (packages/core/src/expand.ts, loopBound): max must be a
// number, an integer, at least 1.
func loopMaxRefusal(t *Tag, max any) string {
	tag := "<Loop>"
	if a := t.Attr("name"); a != nil {
		if v, ok := literalValue(t, a); ok {
			if s, ok := v.(string); ok && s != "" {
				tag = "<Loop name=\"" + s + "\">"
			}
		}
	}
	n, ok := max.(json.Number)
	if !ok {
		return fmt.Sprintf("Prop \"max\" on %s must be a positive integer, not %s.", tag, jsonKind(max))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err == nil && f >= 1 && f == math.Trunc(f) {
		return ""
	}
	got := string(n)
	if err == nil && math.Abs(f) < 1e21 {
		got = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprintf("Prop \"max\" on %s must be a positive integer. Got: %s.", tag, got)
}

// jsonKind names a JSON value's kind as the engine's messages do
// (packages/core/src/expand.ts, jsonKind).
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

func allowedList(allowed []string) string {
	if len(allowed) == 0 {
		return " (it takes no props)"
	}
	return " (it takes " + strings.Join(allowed, ", ") + ")"
}

func (k *checker) checkElse(t *Tag) {
	if t.Parent == nil || t.Parent.Name != "If" {
		where := "at the top level"
		if t.Parent != nil {
			where = "inside <" + t.Parent.Name + ">"
		}
		k.report(RuleElsePlacement, t.NameSpan, "<Else> "+where+": it is only the last child of an <If>")
		return
	}
	ifTag := t.Parent
	for _, ch := range ifTag.Children {
		if e, ok := ch.(*Tag); ok && e.Name == "Else" && e != t && e.Span.Start < t.Span.Start {
			k.report(RuleElsePlacement, t.NameSpan, "a second <Else> in one <If>", analysis.WithRelated(e.NameSpan, "the first <Else>"))
			return
		}
	}
	// A first <Else> with no content is refused, even in the branch the condition
	// takes (expand.ts, elseElementViolations); an empty alternative is no
	// alternative, so the fix removes it. Whitespace is content to the
	// scanner, and taken.
	last := blank(k.c.Text[t.Span.End:ifTag.Inner.End])
	if t.Closed && (t.SelfClosing || t.Inner.Len() == 0) {
		var opts []func(*analysis.Finding)
		if last { // else what follows would join the then-branch
			opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Remove the empty <Else>", Safe: true, Edits: []analysis.Edit{{Span: t.Span}}}))
		}
		k.report(RuleDirectiveForm, t.NameSpan, "<Else> has no content: the engine refuses it (\"<Else> must have content. Use <Else>...</Else>.\"); remove it, or give it the alternative branch", opts...)
	}
	if !last {
		k.report(RuleElsePlacement, t.NameSpan, "<Else> is not the last child of its <If>: move what follows it into one of the branches")
	}
}

// checkNoContent reports a <Return> or <Break> written with a closing tag
// and anything between, whitespace included: the engine takes only the
// self-closing form (expand.ts, returnElementViolations and
// breakElementViolations). When what is between is blank, the fix writes
// the element self-closing.
func (k *checker) checkNoContent(t *Tag, msg string) {
	if t.SelfClosing || !t.Closed {
		return
	}
	if t.Name == "Return" && t.Inner.Len() == 0 {
		return // <Return value={x}></Return> has no children
	}
	var opts []func(*analysis.Finding)
	if blank(k.c.Text[t.Inner.Start:t.Inner.End]) {
		open := strings.TrimRight(k.c.Text[t.Open.Start:t.Open.End-1], " \t\r\n")
		opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Write <" + t.Name + "> self-closing", Safe: true,
			Edits: []analysis.Edit{{Span: t.Span, NewText: open + " />"}}}))
	}
	k.report(RuleDirectiveForm, t.NameSpan, msg, opts...)
}

// checkEachIn reports an <Each in> the engine refuses whatever the
// bindings hold: a quoted or bare in is a string or true, and a JSON
// literal that is not an array is not one either (expand.ts, expandEach:
// "Prop \"in\" on <Each /> must resolve to an array.").
func (k *checker) checkEachIn(t *Tag) {
	a := t.Attr("in")
	if a == nil || !t.Closed || k.failureExpected(t) {
		return
	}
	const refusal = `("Prop \"in\" on <Each /> must resolve to an array.")`
	src := k.c.Text[a.Span.Start:a.Span.End]
	switch a.Kind {
	case AttrString:
		var opts []func(*analysis.Finding)
		if v := strings.TrimSpace(a.Value); isNamePath(v) {
			opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Write in={" + v + "}",
				Edits: []analysis.Edit{{Span: a.Span, NewText: "in={" + v + "}"}}}))
		}
		k.report(RuleDirectiveForm, a.Span, fmt.Sprintf("%s is the string %q, not an array: the engine refuses the loop %s; write the array as an expression, in={%s}",
			src, a.Value, refusal, strings.TrimSpace(a.Value)), opts...)
	case AttrBool:
		k.report(RuleDirectiveForm, a.Span, "in alone is true, not an array: the engine refuses the loop "+refusal+"; write in={items}")
	case AttrExpr:
		if v, ok := literalValue(t, a); ok {
			if _, isArray := v.([]any); !isArray {
				k.report(RuleDirectiveForm, a.Span, fmt.Sprintf("%s is %s, not an array: the engine refuses the loop %s", src, jsonKind(v), refusal))
			}
		}
	}
}

// isNamePath matches a dotted name, steps or plan.steps: what an author
// who quoted in meant as an expression.
func isNamePath(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if !isBindingName(part) {
			return false
		}
	}
	return true
}

func (k *checker) checkLet(t *Tag) {
	hasChildren := !t.SelfClosing && t.Inner.Len() > 0
	value, sel := t.Attr("value"), t.Attr("select")
	switch {
	case t.Attr("as") == nil:
		k.report(RuleDirectiveForm, t.NameSpan, "<Let> needs as=\"name\"")
	case value != nil && hasChildren:
		k.report(RuleDirectiveForm, t.NameSpan, "<Let> has two sources, value and children (whitespace counts): keep one")
	case value != nil && sel != nil:
		k.report(RuleDirectiveForm, sel.NameSpan, "select belongs to the rendered source: it cannot be used with value")
	case value == nil && !hasChildren:
		k.report(RuleDirectiveForm, t.NameSpan, "<Let> has no source: give it children or value={…}")
	case sel != nil && t.Closed && !k.failureExpected(t):
		// A literal select is parsed before it is matched (expand.ts,
		// expandLet: unist-util-select's select, css-selector-parser with
		// selectors-4), and a parse error is thrown out of the <Let>. An
		// expression select is never read: the scanner leaves it out of props.
		if s, ok := literalString(t, sel); ok && s != "" {
			if why := cssSelectorError(s); why != "" {
				k.report(RuleDirectiveForm, sel.Span, fmt.Sprintf("%s is no CSS selector the engine's parser reads: it refuses the <Let> when it renders its body (%s); write a selector of the Markdown tree's node types, such as code[lang=json] or heading",
					k.c.Text[sel.Span.Start:sel.Span.End], why))
			}
		}
	}
}

// searchedList names the search folders in a message.
func searchedList(dirs []string) string {
	q := make([]string, len(dirs))
	for i, d := range dirs {
		if d == "." {
			d = "./"
		}
		q[i] = d
	}
	switch len(q) {
	case 0:
		return "no folder (none is configured)"
	case 1:
		return "the search folder " + q[0]
	}
	return "the search folders " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func (k *checker) reportUnresolved(t *Tag, res Resolution) {
	var msg string
	if k.r.mode == ModeWorkflow && agentComponent(t.Name) {
		why := "the configuration runs it with `xmd workflow start`"
		if b := k.r.bundle; b != nil {
			why = "only `xmd workflow start` reads the bundle of " + b.RootPath
		}
		msg = fmt.Sprintf("<%s> resolves to nothing in a workflow run (%s): `xmd workflow start` registers no agent component "+
			"(Prompt, Agent, Session, Session.Launch, AgentProvider, ApproveAll, AskPermission), which `xmd run` and `xmd test` do, and searches no files", t.Name, why)
	} else if r := k.r.bundle; r != nil && res.Path != "" {
		msg = fmt.Sprintf("<%s> is declared in the workflow bundle as %s, which does not exist", t.Name, res.Path)
	} else {
		n := strings.ReplaceAll(t.Name, ".", "/")
		msg = fmt.Sprintf("<%s> resolves to nothing: it is not structural or registered, not in a workflow bundle, and no file %s.md, %s.ts, %s/index.md or %s/index.ts exists in %s",
			t.Name, n, n, n, n, searchedList(res.Searched))
	}
	var opts []func(*analysis.Finding)
	if t.CloseName.Len() > 0 {
		opts = append(opts, analysis.WithRelated(t.CloseName, "closed here"))
	}
	k.report(RuleUnresolvedComponent, t.NameSpan, msg, opts...)
}

// checkInvocations checks the props passed to components baton could read,
// and `as` on value components.
func (k *checker) checkInvocations() {
	for _, t := range k.c.Tags {
		for _, a := range t.Attrs {
			if a.Kind == AttrSpread && t.Closed {
				k.report(RuleSpreadDropped, a.Span, fmt.Sprintf("the engine's scanner drops %s: <%s> receives none of it", k.c.Text[a.Span.Start:a.Span.End], t.Name))
			}
		}
		res := k.resOf(t)
		callee := res.Component
		why := ""
		switch {
		case callee != nil && callee.Returns != nil:
			why = "it declares returns"
		case res.Kind == ResolveRegistered && isRegisteredValue(t.Name):
			why = "the engine registers it with returns"
		case res.Kind == ResolveFile && strings.HasSuffix(res.Path, ".ts"):
			// A TypeScript module that exports returns (expand.ts checks
			// it for a function component too), once it loads at all.
			if f := k.r.tsComponent(res.Path); f.read && f.hasDefault && f.hasReturns {
				why = "its module, " + res.Path + ", exports returns"
			}
		}
		// A tag never closed is text to the engine, and invokes nothing.
		if why != "" && t.Closed && t.Attr("as") == nil && k.tags[t.Index].cp == nil {
			k.report(RuleValueWithoutAs, t.NameSpan, fmt.Sprintf("<%s> is a value component (%s): it renders nothing and must be invoked with as=\"name\"", t.Name, why))
		}
		where := res.Path
		var reg *RegisteredComponent
		if res.Kind == ResolveRegistered && !res.Configured {
			// The engine's own registration: its props schema is data
			// (RegisteredComponents), checked as a component file's is.
			if reg = RegisteredComponents()[t.Name]; reg != nil {
				callee, where = reg.Component(), "registered, "+reg.Declared
			}
		}
		k.checkFunctionProps(t, res, reg)
		if reg != nil && t.Closed && !k.failureExpected(t) {
			k.checkSchemaProps(t)
		}
		if callee == nil || callee == k.c || callee.Props.Form == PropsInvalid ||
			(res.Kind != ResolveFile && res.Kind != ResolveBundle && reg == nil) {
			continue
		}
		// A tag never closed is text to the engine, and inside
		// <AssertThrows> the failure is what the test asserts.
		if !t.Closed || k.failureExpected(t) {
			continue
		}
		for _, a := range t.Attrs {
			if !passes(a) || reg.captures(a.Name) {
				continue
			}
			switch {
			case callee.Props.Form == PropsNone:
				k.report(RuleUnknownProp, a.NameSpan, fmt.Sprintf("<%s> (%s) declares no props, so it accepts none: %s is refused", t.Name, where, a.Name))
			case callee.Props.Prop(a.Name) == nil && !callee.Props.Open:
				k.report(RuleUnknownProp, a.NameSpan, fmt.Sprintf("<%s> (%s) does not declare the prop %s%s", t.Name, where, a.Name, declaredList(callee, reg)))
			case callee.Props.Prop(a.Name) != nil && callee.Props.schemas != nil:
				k.checkPropValue(t, a, callee, where)
			}
		}
		var missing []string
		for _, p := range callee.Props.List {
			if p.Required && !p.HasDefault && !passed(t, p.Name) {
				missing = append(missing, p.Name)
			}
		}
		// An assertion written with a closing tag has content, empty or not
		// (hasContent() is the tag's shape: expand.ts,
		// expandFunctionComponent); a kind that takes no expected children
		// refuses it before it looks for an operand, and workflow/test-form
		// reports that (packages/testing/src/assertions.ts,
		// assertionComponent).
		if reg != nil && !(reg.Assertion != "" && !t.SelfClosing && !reg.ExpectedChildren()) {
			for _, name := range reg.Requires {
				children := name == "expected" && !t.SelfClosing && reg.ExpectedChildren()
				if !passed(t, name) && !children {
					missing = append(missing, name)
				}
			}
		}
		if len(missing) > 0 {
			s := "s"
			if len(missing) == 1 {
				s = ""
			}
			msg := fmt.Sprintf("<%s> (%s) requires the prop%s %s", t.Name, where, s, strings.Join(missing, ", "))
			if t.HasSpread() {
				msg += ", and a {...spread} passes nothing: the engine's scanner drops it"
			}
			k.report(RuleMissingRequiredProp, t.NameSpan, msg)
		}
	}
}

// functionExpr matches an expression that is, as a whole, a function:
// an arrow, a function or class expression, possibly in parentheses.
var functionExpr = lazyre.New(`^(?:async\s+)?(?:function\b|class\b|(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>)`)

// isFunctionExpr is functionExpr's match. One starts with "async",
// "function" or "class", or holds "=>": the pattern is not asked of the
// other expressions, most of those a workflow passes (a matcher costs
// microseconds, a tenth of the workflow analysis).
func isFunctionExpr(expr string) bool {
	if !strings.Contains(expr, "=>") && !strings.HasPrefix(expr, "async") && !strings.HasPrefix(expr, "function") && !strings.HasPrefix(expr, "class") {
		return false
	}
	return functionExpr.MatchString(expr)
}

// checkFunctionProps reports an expression prop that is a function: the
// engine evaluates a component's expression props and refuses one that is
// not JSON (packages/core/src/expand.ts, resolveExpressionProps).
func (k *checker) checkFunctionProps(t *Tag, res *Resolution, reg *RegisteredComponent) {
	if !t.Closed || (res.Kind != ResolveFile && res.Kind != ResolveBundle && res.Kind != ResolveRegistered) || k.failureExpected(t) {
		return
	}
	for _, a := range t.Attrs {
		if a.Kind != AttrExpr || !passes(a) || reg.captures(a.Name) || !isFunctionExpr(unwrapParens(a.Value)) || k.unparsed(a) {
			continue
		}
		k.report(RulePropValue, a.Span, fmt.Sprintf("%s passes a function: the engine refuses <%s> when it reaches it (\"Expression prop %q on <%s /> evaluated to a non-serializable value (function). Props must be JSON-serializable.\"); pass data, not code",
			k.c.Text[a.Span.Start:a.Span.End], t.Name, a.Name, t.Name))
	}
}

// unwrapParens is expr without the parentheses that enclose all of it:
// ((x) => x) is the arrow, (() => 1)() a call.
func unwrapParens(expr string) string {
	for {
		expr = strings.TrimSpace(expr)
		if len(expr) < 2 || expr[0] != '(' || expr[len(expr)-1] != ')' {
			return expr
		}
		depth := 0
		for i := 0; i < len(expr); i++ {
			switch expr[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 && i < len(expr)-1 {
				return expr // the first parenthesis closes before the end
			}
		}
		expr = expr[1 : len(expr)-1]
	}
}

// checkPropValue checks the value a passes, when baton knows it before
// anything runs, against the schema the component declares for it, as the
// engine's prop validation does (packages/core/src/validate.ts,
// validateProps).
func (k *checker) checkPropValue(t *Tag, a *Attr, callee *Component, path string) {
	if why := callee.Props.schemas.check(t, a); why != "" {
		k.report(RulePropValue, a.Span, fmt.Sprintf("%s does not match the schema <%s> (%s) declares for %s: the engine fails its prop validation (%s)",
			k.c.Text[a.Span.Start:a.Span.End], t.Name, path, a.Name, why))
	}
}

// checkReturnValue checks a top-level <Return>'s literal value against
// the component's returns, as the engine validates it whenever the
// component is invoked (packages/core/src/expand.ts, resolveReturnValue;
// packages/core/src/validate.ts, validateReturnValue).
func (k *checker) checkReturnValue(t *Tag) {
	a := t.Attr("value")
	if a == nil || !t.Closed || k.returnsRefused || k.failureExpected(t) || k.c.Returns.schema == nil {
		return
	}
	v, ok := literalValue(t, a)
	if !ok {
		return
	}
	why := k.c.Returns.schema.check(v)
	if why == "" {
		return
	}
	name := "Component"
	if p := k.c.Path; p != "" {
		name = strings.TrimSuffix(p[strings.LastIndexByte(p, '/')+1:], ".md")
	}
	k.report(RuleReturnValue, a.Span, fmt.Sprintf("%s does not match the returns this component declares: the engine fails every invocation of it (\"Return validation failed for <%s />: %s\"); return a value of the declared shape, or change returns",
		k.c.Text[a.Span.Start:a.Span.End], name, why),
		analysis.WithRelated(k.c.Returns.Key, "returns is declared here"))
}

// failureExpected reports a tag inside the testing package's
// <AssertThrows> (packages/testing/src/handlers.ts, AssertThrows): the
// failure of what it encloses is what the test asserts, so it is not
// reported.
func (k *checker) failureExpected(t *Tag) bool {
	for p := t.Parent; p != nil; p = p.Parent {
		if p.Name == "AssertThrows" && k.resOf(p).Kind == ResolveRegistered {
			return true
		}
	}
	return false
}

// passes reports whether a is a prop a tag passes: not a spread, nor the
// engine's as and slot.
func passes(a *Attr) bool {
	return a.Kind != AttrSpread && a.Name != "as" && a.Name != "slot"
}

// passed reports whether t passes the prop name. Looked for among the
// attributes, which are few, rather than kept in a map made per tag.
func passed(t *Tag, name string) bool {
	for _, a := range t.Attrs {
		if passes(a) && a.Name == name {
			return true
		}
	}
	return false
}

func declaredList(c *Component, reg *RegisteredComponent) string {
	var names []string
	for _, p := range c.Props.List {
		names = append(names, p.Name)
	}
	if reg != nil {
		names = append(names, reg.Captures...)
	}
	if len(names) == 0 {
		return ""
	}
	return " (it declares " + strings.Join(names, ", ") + ")"
}

// grayMatterEngines are the engines gray-matter 4 has (its lib/engines.js
// and, in lib/engine.js, the names it reads as theirs).
func grayMatterEngine(lang string) bool {
	switch lang {
	case "yaml", "json", "javascript":
		return true
	}
	switch strings.ToLower(lang) {
	case "js", "javascript", "yaml", "yml":
		return true
	}
	// engines is a plain object: a name of Object.prototype's finds a
	// function, which gray-matter takes for a parser.
	return objectPrototype[lang]
}

var objectPrototype = set("constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
	"toLocaleString", "toString", "valueOf", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
	"__lookupSetter__", "__proto__")

// grayMatterLanguage is the language a document's opening "---" line names
// when gray-matter has no engine for it and would parse the block with
// one (packages/core/src/definition.ts parseSource, gray-matter 4.0.3
// index.js parseMatter and lib/engine.js), with the line's span.
func grayMatterLanguage(text string) (string, markdown.Span, bool) {
	start := 0
	if strings.HasPrefix(text, "\ufeff") {
		start = len("\ufeff") // gray-matter strips a byte-order mark
	}
	rest := text[start:]
	if !strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "----") {
		return "", markdown.Span{}, false
	}
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return "", markdown.Span{}, false
	}
	line := strings.TrimSuffix(rest[3:nl], "\r")
	lang := strings.TrimFunc(line, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
	if lang == "" || grayMatterEngine(lang) {
		return "", markdown.Span{}, false
	}
	// The block runs to the first "\n---", or to the end; gray-matter
	// parses it only when something but comment lines is in it.
	block := rest[nl:]
	if i := strings.Index(block, "\n---"); i >= 0 {
		block = block[:i]
	}
	empty := true
	for _, l := range strings.Split(block, "\n") {
		t := strings.TrimLeftFunc(l, unicode.IsSpace)
		if strings.HasPrefix(t, "#") && len(t) > 1 {
			continue // a comment line, which gray-matter removes first
		}
		if strings.TrimFunc(l, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' }) != "" {
			empty = false
			break
		}
	}
	if empty {
		return "", markdown.Span{}, false
	}
	return lang, markdown.Span{Start: start, End: start + 3 + len(line)}, true
}
