package workflow

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

var (
	RuleAnswers = &analysis.Rule{
		ID:       "workflow/answers",
		Summary:  "An `<Answers>` region or an `<Answer>` matcher is written in a form the engine refuses.",
		Severity: analysis.Error,
		Doc: "`<Answers>` answers the elicitations of the region it wraps with the `<Answer>` matchers that are " +
			"its direct children (packages/core/src/answers.ts). The engine reads the whole region before its " +
			"body runs, and refuses it — the body runs nothing — for: an `<Answer>` anywhere but as a direct " +
			"child of an `<Answers>` (strayAnswerError); an `<Answers>` with no body besides its matchers, or " +
			"self-closing (expandAnswers: \"has no body to answer for\"); `delegate` that is not a boolean " +
			"(readDelegate: `delegate=\"true\"` is the string \"true\"; write `delegate={true}` or bare " +
			"`delegate`); and in an `<Answer>` (readAnswer, readValue): no `value`; a `value` text that is not " +
			"JSON (a prop string is captured JSON text, so a string answer is written JSON-quoted: " +
			"`value='\"approve\"'`, not `value=\"approve\"`; `value={\"approve\"}` is the same string); a " +
			"`template` written as an expression; a `template` prop beside template children (whitespace " +
			"counts); and a `template` prop its parser refuses (packages/core/src/template.ts, parseTemplate): a " +
			"malformed `{?` capture, or a hole right after a capture (`{?a}{?b}`, `{?a}{props.x}`) with no " +
			"literal text to end it. An expression `value` or `delegate` is evaluated only when the region runs, and is not " +
			"checked. Props other than `delegate` and `template`/`value` are workflow/directive-form.\n\n" +
			"An `<Elicit>` no region can answer is refused when it asks: inside an `<Answers>` that declares no " +
			"`<Answer>` and does not delegate (`<Answers> has no matcher for this elicitation.`), and, in a " +
			"document `xmd test` runs (a `*.test.md`), outside any `<Answers>`: `xmd test` installs no " +
			"elicitation provider (packages/cli/src/cli.ts, installDocumentComponents: `no elicitation provider " +
			"configured — … under `xmd test`, supply the answer with an <Answers> region.`). An `<Answers " +
			"delegate>` whose matchers may not match depends on what is asked, and is not judged; nor is an " +
			"`<Elicit>` in a component file, which a test may invoke inside an `<Answers>`, nor one in a test " +
			"document with an eval block, which may install a provider of its own (`yield* Elicitation.around(…)`).\n\n" +
			"**The engine** fails the region when execution reaches it: a printed error, or a failed run under " +
			"a throwing error mode.",
		Follows: []string{
			"executable.md packages/core/src/answers.ts strayAnswerError (an <Answer> outside <Answers>)",
			"executable.md packages/core/src/answers.ts expandAnswers (no body; delegate)",
			"executable.md packages/core/src/answers.ts readAnswer (value, template)",
			"executable.md packages/core/src/template.ts parseTemplate (an <Answer template> prop)",
			"executable.md packages/core/src/answers.ts expandAnswers (unmatched: no <Answer>, no delegate)",
			"executable.md packages/core/src/elicitation-api.ts Elicitation (xmd test installs no provider)",
		},
	}
	RuleExecInfo = &analysis.Rule{
		ID:       "workflow/exec-info",
		Summary:  "An executable code block's info string has a word the engine refuses.",
		Severity: analysis.Error,
		Doc: "The words after the language of an executable block (```` ```bash exec ````, one with an `exec` " +
			"or `eval` word) are read by the engine's scanner (packages/core/src/scanner.ts, parseInfoString): " +
			"each is a modifier, `name`, `name=params` or `name[params]`. When the block runs, the engine " +
			"composes them into a chain (packages/core/src/modifiers.ts, composeModifierChain) and refuses:\n\n" +
			"- a word no modifier answers: `Unknown modifier: X`. `xmd` registers `exec`, `eval`, `silent`, " +
			"`persist`, `timeout`, `daemon`, `ephemeral` and `service` (packages/core/src/execute.ts), and a host " +
			"may add its own in TypeScript, which no static reading sees;\n" +
			"- `timeout=` with a value that is not a positive whole number of `ms`, `s`, `m` or `min` (bare " +
			"digits are milliseconds): `timeout must be a duration like 500ms, 30s, or 5min` " +
			"(packages/runtime/duration.ts, parseDuration); `timeout=30sec`, `timeout=1h`, `timeout=0` are refused;\n" +
			"- `ephemeral` without the `eval` terminal, `service` not first, `service` without `exec`;\n" +
			"- a `service` that names no legal binding for its endpoint (packages/core/src/live-env.ts, " +
			"validateServiceBinding, before the process starts): ```` ```bash service exec ```` (`service requires " +
			"a binding name`), `service=`, `service=1api`, `service=let`; write `service=api`;\n" +
			"- in a workflow run (`xmd workflow start`: a document a workflow bundle applies to, or one " +
			"`workflow.mode: workflow` names), any `service` block: the run installs a service provider that " +
			"refuses every start (`workflow execution is not authorized to attach a native service`).\n\n" +
			"The binding annotation `as=\"name\"` has one spelling (scanner.ts, takeBindingAnnotation): one of " +
			"them, the last word, the name in double quotes, a legal binding name — `as=name` is refused (the " +
			"quick fix quotes it). A bound block runs only `exec` wrapped by nothing but `timeout` " +
			"(modifiers.ts, refuseUnauthorizedBinding). A refused annotation is reported before the chain is " +
			"composed, and binds nothing.\n\n" +
			"**The engine** fails the block when execution reaches it, before any process starts: a printed " +
			"error, or a failed run under a throwing error mode.",
		Follows: []string{
			"executable.md packages/core/src/modifiers.ts composeModifierChain (Unknown modifier; ephemeral, service)",
			"executable.md packages/runtime/duration.ts parseDuration (timeout=)",
			"executable.md packages/core/src/scanner.ts takeBindingAnnotation (as=\"name\")",
			"executable.md packages/core/src/modifiers.ts refuseUnauthorizedBinding (a bound exec's chain)",
			"executable.md packages/core/src/live-env.ts validateServiceBinding (a service's binding name)",
			"executable.md packages/workflow/src/service-denial.ts useWorkflowServiceDenial (a service block in a workflow run)",
		},
	}
)

// checkDirectives checks <Answers> and <Answer>, and the info strings of
// executable code blocks.
func (k *checker) checkDirectives() {
	for _, t := range k.c.Tags {
		if !t.Closed || k.failureExpected(t) {
			continue
		}
		if res := k.resOf(t); res.Kind != ResolveStructural && res.Kind != ResolveUnknown {
			continue
		}
		switch t.Name {
		case "Answer":
			if t.Parent == nil || t.Parent.Name != "Answers" {
				k.report(RuleAnswers, t.NameSpan, "<Answer> must be a direct child of <Answers>: elsewhere the engine refuses it, and it answers nothing")
				continue
			}
			k.checkAnswer(t)
		case "Answers":
			k.checkAnswersRegion(t)
		}
	}
	for _, cb := range k.c.CodeBlocks {
		// Inside the testing package's <AssertThrows>, the refusal is what
		// the test asserts.
		if p := cb.Parent; p != nil && (k.failureExpected(p) || (p.Name == "AssertThrows" && k.resOf(p).Kind == ResolveRegistered)) {
			continue
		}
		k.checkExecInfo(cb)
	}
}

func (k *checker) checkAnswersRegion(t *Tag) {
	if a := t.Attr("delegate"); a != nil {
		switch a.Kind {
		case AttrString:
			k.report(RuleAnswers, a.Span, fmt.Sprintf("delegate=%q is a string: the engine refuses the region (\"delegate must be a boolean\"); write delegate={true}", a.Value),
				analysis.WithFix(analysis.Fix{Title: "Write delegate={…}", Safe: a.Value == "true" || a.Value == "false",
					Edits: []analysis.Edit{{Span: a.Span, NewText: "delegate={" + boolText(a.Value) + "}"}}}))
		case AttrExpr:
			if v, ok := literalValue(t, a); ok {
				if _, isBool := v.(bool); !isBool {
					k.report(RuleAnswers, a.Span, fmt.Sprintf("%s is %s: the engine refuses the region (\"delegate must be a boolean\")", k.c.Text[a.Span.Start:a.Span.End], jsonKind(v)))
				}
			}
		}
	}
	// The body is what is not a direct <Answer>: blank, the region answers
	// for nothing.
	body := t.SelfClosing
	if !body {
		var rest strings.Builder
		at := t.Inner.Start
		for _, ch := range t.Children {
			if c, ok := ch.(*Tag); ok && c.Name == "Answer" {
				rest.WriteString(k.c.Text[at:c.Span.Start])
				at = c.Span.End
			}
		}
		rest.WriteString(k.c.Text[at:t.Inner.End])
		body = blank(rest.String())
	}
	if body {
		k.report(RuleAnswers, t.NameSpan, "<Answers> has no body to answer for: it wraps the region whose elicitations it answers, so with only matchers the engine refuses it")
	}
}

func (k *checker) checkAnswer(t *Tag) {
	tmpl, value := t.Attr("template"), t.Attr("value")
	if tmpl != nil && tmpl.Kind == AttrExpr {
		if _, ok := literalValue(t, tmpl); !ok {
			k.report(RuleAnswers, tmpl.Span, "template must be a literal string or template children, not an expression: the engine refuses the matcher; write the bindings it references as {binding} holes inside it")
		}
	}
	if tmpl != nil && tmpl.Kind == AttrString {
		if why := templateRefusal(tmpl.Value); why != "" {
			k.report(RuleAnswers, tmpl.Span, "the template "+why+": the engine refuses the matcher (packages/core/src/template.ts, parseTemplate)")
		}
	}
	if tmpl != nil && !t.SelfClosing && t.Inner.Len() > 0 {
		if v, ok := literalValue(t, tmpl); ok {
			if _, isString := v.(string); isString {
				k.report(RuleAnswers, t.NameSpan, "<Answer> has a template prop and template children (whitespace counts): the engine takes one or the other")
			}
		}
	}
	if value == nil {
		k.report(RuleAnswers, t.NameSpan, "<Answer> requires a value prop, the answer it gives")
		return
	}
	v, ok := literalValue(t, value)
	s, isString := v.(string)
	if !ok || !isString || json.Valid([]byte(s)) {
		return
	}
	msg := fmt.Sprintf("value %q is not JSON text: the engine refuses the matcher; a string answer is written JSON-quoted, value='%s'", s, strconv.Quote(s))
	var opts []func(*analysis.Finding)
	if value.Kind == AttrString && !strings.Contains(s, "'") {
		opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Quote the answer as JSON",
			Edits: []analysis.Edit{{Span: value.Span, NewText: "value='" + strconv.Quote(s) + "'"}}}))
	}
	k.report(RuleAnswers, value.Span, msg, opts...)
}

func boolText(s string) string {
	if s == "false" {
		return "false"
	}
	return "true"
}

// modifiers are what `xmd` registers (packages/core/src/execute.ts).
var modifiers = set("exec", "silent", "eval", "persist", "timeout", "daemon", "ephemeral", "service")

// duration is the engine's duration grammar (packages/runtime/duration.ts).
var duration = lazyre.New(`^(\d+)(ms|s|min|m)?$`)

var bindingAnnotation = lazyre.New(`^as="([^"]*)"$`)

type modifier struct {
	name, params string
	hasParams    bool
	word         string
}

// parseInfo reads an info string as the engine's scanner does
// (scanner.ts, parseInfoString): the language, then one modifier a word.
func parseInfo(info string) []modifier {
	words := strings.Fields(info)
	if len(words) == 0 {
		return nil
	}
	var out []modifier
	for _, w := range words[1:] {
		m := modifier{name: w, word: w}
		if b := strings.IndexByte(w, '['); b >= 0 {
			if e := strings.IndexByte(w[b:], ']'); e >= 0 {
				m.name, m.params, m.hasParams = w[:b], w[b+1:b+e], true
				out = append(out, m)
				continue
			}
		}
		if eq := strings.IndexByte(w, '='); eq >= 0 {
			m.name, m.params, m.hasParams = w[:eq], w[eq+1:], true
		}
		out = append(out, m)
	}
	return out
}

func (k *checker) checkExecInfo(cb *CodeBlock) {
	mods := parseInfo(cb.Info)
	executable := false
	for _, m := range mods {
		if m.name == "exec" || m.name == "eval" {
			executable = true
		}
	}
	if !executable {
		return
	}
	// The info line, where every finding is placed.
	lineEnd := strings.IndexByte(k.c.Text[cb.Span.Start:cb.Span.End], '\n')
	if lineEnd < 0 {
		lineEnd = cb.Span.Len()
	}
	infoLine := markdown.Span{Start: cb.Span.Start, End: cb.Span.Start + lineEnd}
	wordSpan := func(w string) markdown.Span {
		if i := strings.LastIndex(k.c.Text[infoLine.Start:infoLine.End], w); i >= 0 {
			return markdown.Span{Start: infoLine.Start + i, End: infoLine.Start + i + len(w)}
		}
		return infoLine
	}
	// The binding annotation, read first: a refused one is reported before
	// the chain is composed (expand.ts, bindingRefusal).
	chain, as := splitAs(mods)
	if len(as) > 0 {
		last := mods[len(mods)-1]
		a := as[0]
		var msg string
		var opts []func(*analysis.Finding)
		switch {
		case len(as) > 1:
			msg = "an executable block takes one as=\"name\" annotation, not several"
		case last.word != a.word || last.name != "as":
			msg = "as=\"name\" must be the last word of the info string: `bash exec as=\"name\"`"
		default:
			m := bindingAnnotation.FindStringSubmatch(a.word)
			switch {
			case m == nil:
				msg = "as must name a binding in double quotes: `exec as=\"name\"`"
				if v := strings.Trim(a.params, `'"`); strings.HasPrefix(a.word, "as=") && isBindingName(v) && !reservedWords[v] {
					opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Quote the binding name", Safe: true,
						Edits: []analysis.Edit{{Span: wordSpan(a.word), NewText: `as="` + v + `"`}}}))
				}
			case m[1] == "":
				msg = "as must be non-empty"
			case !isBindingName(m[1]) || reservedWords[m[1]]:
				msg = fmt.Sprintf("as %q is not a legal binding name: a JavaScript identifier that is not a reserved word", m[1])
			}
		}
		if msg != "" {
			k.report(RuleExecInfo, wordSpan(as[len(as)-1].word), msg+": the engine refuses the block when it reaches it, and runs nothing", opts...)
			return
		}
		// A bound block: exec last, wrapped by timeout alone
		// (modifiers.ts, refuseUnauthorizedBinding).
		if len(chain) == 0 || chain[len(chain)-1].name != "exec" {
			k.report(RuleExecInfo, wordSpan(a.word), "as=\"name\" binds only an exec block, exec the last word before it: the engine refuses the block when it reaches it")
			return
		}
		for _, m := range chain[:len(chain)-1] {
			if m.name != "timeout" {
				k.report(RuleExecInfo, wordSpan(m.word), fmt.Sprintf("only timeout may wrap a bound exec, not %s: the engine refuses the block when it reaches it", m.name))
				return
			}
		}
		k.checkTimeouts(chain, wordSpan)
		return
	}
	// composeModifierChain's own order.
	first := ""
	for _, m := range chain {
		if m.name == "exec" || m.name == "eval" || m.name == "daemon" || m.name == "service" {
			first = m.name
			break
		}
	}
	for i, m := range chain {
		switch {
		case m.name == "ephemeral" && first != "eval":
			k.report(RuleExecInfo, wordSpan(m.word), "ephemeral is valid only with the eval terminal: the engine refuses the block when it reaches it")
			return
		case m.name == "service" && i > 0:
			k.report(RuleExecInfo, wordSpan(m.word), "service must be the outermost modifier, the first word after the language: the engine refuses the block when it reaches it")
			return
		}
	}
	if len(chain) > 0 && chain[0].name == "service" && !hasModifier(chain, "exec") {
		k.report(RuleExecInfo, wordSpan(chain[0].word), "service requires the exec modifier: the engine refuses the block when it reaches it")
		return
	}
	for _, m := range chain {
		if !modifiers[m.name] {
			k.report(RuleExecInfo, wordSpan(m.word), fmt.Sprintf("%s is no modifier the engine knows (exec, eval, silent, persist, timeout, daemon, ephemeral, service): it refuses the block when it reaches it (\"Unknown modifier: %s\")", m.word, m.name))
			return
		}
	}
	k.checkTimeouts(chain, wordSpan)
	if len(chain) > 0 && chain[0].name == "service" {
		if why := serviceBindingRefusal(chain[0]); why != "" {
			k.report(RuleExecInfo, wordSpan(chain[0].word), fmt.Sprintf("%s: the engine refuses the block when it reaches it, before the process starts (%q); name the binding the service's endpoint is bound to, service=api", chain[0].word, why))
		} else if k.r.mode == ModeWorkflow {
			// A workflow run installs, where a host installs its service
			// provider, one that refuses every start
			// (packages/workflow/src/service-denial.ts).
			k.report(RuleExecInfo, wordSpan(chain[0].word), "a workflow run attaches no native service: `xmd workflow start` refuses the block when it reaches it "+
				"(\"workflow execution is not authorized to attach a native service\"); run the command as a plain exec block, or run the document with `xmd run`")
		}
	}
}

// serviceBindingRefusal is the engine's refusal of a service's binding
// name, "" when it takes it (packages/core/src/live-env.ts,
// validateServiceBinding, from modifiers/service.ts): a legal JavaScript
// binding, the modifier's parameter.
func serviceBindingRefusal(m modifier) string {
	switch {
	case !m.hasParams:
		return "service requires a binding name"
	case m.params == "":
		return "service binding must be non-empty."
	case !isBindingName(m.params):
		return fmt.Sprintf("service binding must be a valid JavaScript identifier. Got: \"%s\"", m.params)
	case reservedWords[m.params]:
		return fmt.Sprintf("service binding must be a valid JavaScript binding name. Got: \"%s\"", m.params)
	}
	return ""
}

func hasModifier(chain []modifier, name string) bool {
	for _, m := range chain {
		if m.name == name {
			return true
		}
	}
	return false
}

// checkTimeouts checks each timeout's duration; a bare timeout takes the
// run's default, which no static reading knows.
func (k *checker) checkTimeouts(chain []modifier, wordSpan func(string) markdown.Span) {
	for _, m := range chain {
		if m.name != "timeout" || !m.hasParams {
			continue
		}
		if !isDuration(m.params) {
			k.report(RuleExecInfo, wordSpan(m.word), fmt.Sprintf("%s: the engine refuses the block when it reaches it (\"timeout must be a duration like 500ms, 30s, or 5min, got %q\"): a positive whole number of ms, s, m or min", m.word, m.params))
		}
	}
}

// isDuration is the engine's asDuration (packages/runtime/duration.ts): a
// positive whole number with an optional unit.
func isDuration(s string) bool {
	m := duration.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return false
	}
	return strings.TrimLeft(m[1], "0") != ""
}

var (
	captureHole      = lazyre.New(`^\{\?[A-Za-z_$][A-Za-z0-9_$]*\}`)
	bindingHole      = lazyre.New(`^\{[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*\}`)
	malformedCapture = "{?"
)

// templateRefusal is why the engine's template parser refuses a matcher's
// template, "" when it takes it (packages/core/src/template.ts,
// parseTemplate): a {?name} capture must be well formed, and no hole may
// follow a capture without literal text between them.
func templateRefusal(src string) string {
	const (
		literal = iota + 1
		capture
		binding
	)
	prev, pending := 0, false // the last token; literal text not yet flushed
	for i := 0; i < len(src); {
		rest := src[i:]
		if m := captureHole.FindString(rest); m != "" {
			if pending {
				prev, pending = literal, false
			}
			if prev != 0 && prev != literal {
				return "has two holes with no literal text between them, " + strconv.Quote(m) + " among them (ambiguous)"
			}
			prev, i = capture, i+len(m)
			continue
		}
		if strings.HasPrefix(rest, malformedCapture) {
			return "has a malformed capture hole, " + strconv.Quote(rest[:min(len(rest), 12)]) + ": write {?name}"
		}
		if m := bindingHole.FindString(rest); m != "" {
			if pending {
				prev, pending = literal, false
			}
			if prev == capture {
				return "has a capture hole directly followed by " + strconv.Quote(m) + " (ambiguous)"
			}
			prev, i = binding, i+len(m)
			continue
		}
		pending = true
		i++
	}
	return ""
}

// splitAs parts an info string's modifiers into the chain and the `as`
// binding annotations, each in order.
func splitAs(mods []modifier) (chain, as []modifier) {
	for _, m := range mods {
		if m.name == "as" {
			as = append(as, m)
		} else {
			chain = append(chain, m)
		}
	}
	return chain, as
}
