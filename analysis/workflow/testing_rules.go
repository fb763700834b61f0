package workflow

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/analysis"
)

var RuleTestForm = &analysis.Rule{
	ID:       "workflow/test-form",
	Summary:  "A `<Test>`, an assertion or `<AssertThrows>` is written in a form the engine refuses.",
	Severity: analysis.Error,
	Doc: "The testing package's elements check how they are written when the engine reaches them, and refuse " +
		"what they do not take; a refusal inside a `<Test>` fails that test, and `xmd test` the document:\n\n" +
		"- a `<Test>` inside another (directly, or through `<If>`, `<Testing>` or any element the engine " +
		"registers): `Nested <Test> elements are invalid.`, which fails the enclosing test " +
		"(packages/testing/src/test-component.ts, testBehavior); make the tests siblings;\n" +
		"- a `<Test timeout>` that is not a positive whole number of `ms`, `s`, `m` or `min` " +
		"(`<Test timeout> must be a duration like 500ms, 30s, or 5min, got \"30sec\"`, " +
		"packages/runtime/duration.ts, parseDuration), refused before the body runs;\n" +
		"- an assertion written with a closing tag, even an empty one, whose kind takes no expected " +
		"children — `Assert`, `AssertFalse`, `AssertExists`, `AssertMatch`, `AssertNotMatch`, " +
		"`AssertGreater`, `AssertGreaterOrEqual`, `AssertLess`, `AssertLessOrEqual`: " +
		"`<AssertGreater> does not accept expected children.` Only the equality assertions and " +
		"`AssertStringIncludes` take their expected value as children, and those refuse an `expected` " +
		"prop beside a closing tag: `<AssertEquals> accepts either an \"expected\" prop or expected " +
		"children, not both.` (packages/testing/src/assertions.ts, assertionComponent; a function " +
		"component's content is the tag's shape, so `<Assert expr={ok}></Assert>` has content: " +
		"packages/core/src/expand.ts, expandFunctionComponent). The quick fix writes an empty element " +
		"self-closing;\n" +
		"- an `<AssertThrows message>` that is neither a string nor a RegExp: a bare `message` (true) or " +
		"a literal that is not a string (`message={42}`): `<AssertThrows> requires \"message\" to be a " +
		"string or a RegExp.` (packages/testing/src/handlers.ts, AssertThrows).\n\n" +
		"A nested `<Test>` and a `timeout` are decided only where testing is active: in a document `xmd " +
		"test` runs (a `*.test.md`, or any document under `workflow.mode: test`) and inside a `<Testing>` " +
		"region; elsewhere a `<Test>` renders nothing and its body never runs. An expression is evaluated " +
		"only when the element runs, and is not checked. Inside an `<AssertThrows>` the failure is what " +
		"the test asserts, and is not reported.\n\n" +
		"**The engine** fails the element when execution reaches it: the enclosing test fails, and `xmd " +
		"test` with it; outside a test, a printed error.",
	Follows: []string{
		"executable.md packages/testing/src/test-component.ts testBehavior (nested <Test>; <Test timeout>)",
		"executable.md packages/testing/src/assertions.ts assertionComponent (expected children)",
		"executable.md packages/testing/src/handlers.ts AssertThrows (message)",
	},
}

// engineTag reports a closed tag named name that resolves to the engine's
// own registration of it: not a repository file, and not a name a host
// registers in TypeScript.
func (k *checker) engineTag(t *Tag, name string) bool {
	if t.Name != name || !t.Closed {
		return false
	}
	res := k.resOf(t)
	return res.Kind == ResolveRegistered && !res.Configured
}

// testRoot reports a document `xmd test` runs as a root: a *.test.md it
// finds, unless the configuration says the document runs another way.
func (k *checker) testRoot() bool {
	return IsTestDocument(k.r.docPath) && k.r.mode != ModeRun && k.r.mode != ModeWorkflow
}

// lexical reports that every ancestor of t below stop (every one, for a nil
// stop) is structural or one of the engine's registrations: no repository
// component, whose body baton does not follow, stands between them.
func (k *checker) lexical(t, stop *Tag) bool {
	for p := t.Parent; p != nil && p != stop; p = p.Parent {
		res := k.resOf(p)
		if res.Kind == ResolveStructural || (res.Kind == ResolveRegistered && !res.Configured) {
			continue
		}
		return false
	}
	return true
}

// enclosing is the nearest ancestor of t that is the engine's name, or nil.
func (k *checker) enclosing(t *Tag, name string) *Tag {
	for p := t.Parent; p != nil; p = p.Parent {
		if k.engineTag(p, name) {
			return p
		}
	}
	return nil
}

// testingActive reports where the engine's testing is certainly active: in
// a document `xmd test` runs, in every document of the test mode, and inside
// a <Testing> region. Elsewhere a <Test> renders nothing
// (packages/testing/src/test-component.ts, testBehavior).
func (k *checker) testingActive(t *Tag) bool {
	return k.testRoot() || k.r.mode == ModeTest || k.enclosing(t, "Testing") != nil
}

// selfClosingFix writes a tag whose content is blank self-closing.
func (k *checker) selfClosingFix(t *Tag) []func(*analysis.Finding) {
	if t.SelfClosing || !t.Closed || !blank(k.c.Text[t.Inner.Start:t.Inner.End]) {
		return nil
	}
	open := strings.TrimRight(k.c.Text[t.Open.Start:t.Open.End-1], " \t\r\n")
	return []func(*analysis.Finding){analysis.WithFix(analysis.Fix{Title: "Write <" + t.Name + "> self-closing", Safe: true,
		Edits: []analysis.Edit{{Span: t.Span, NewText: open + " />"}}})}
}

// checkTestForms checks <Test>, the assertions and <AssertThrows> as the
// testing package checks them when it reaches them.
func (k *checker) checkTestForms() {
	for _, t := range k.c.Tags {
		if !t.Closed || k.failureExpected(t) {
			continue
		}
		switch {
		case k.engineTag(t, "Test"):
			k.checkTest(t)
		case k.engineTag(t, "AssertThrows"):
			k.checkAssertThrows(t)
		default:
			if rc := RegisteredComponents[t.Name]; rc != nil && rc.Assertion != "" && k.engineTag(t, t.Name) {
				k.checkAssertion(t, rc)
			}
		}
	}
}

func (k *checker) checkTest(t *Tag) {
	if outer := k.enclosing(t, "Test"); outer != nil && k.lexical(t, outer) && k.testingActive(outer) {
		k.report(RuleTestForm, t.NameSpan, fmt.Sprintf("<Test> inside the <Test> at line %d: the engine refuses a nested test and fails the enclosing one (\"Nested <Test> elements are invalid.\"); make them siblings",
			k.line(outer.Span.Start)), analysis.WithRelated(outer.NameSpan, "the enclosing <Test>"))
		return
	}
	a := t.Attr("timeout")
	if a == nil || !k.testingActive(t) {
		return
	}
	v, ok := literalValue(t, a)
	if s, isString := v.(string); ok && isString && !isDuration(s) {
		k.report(RuleTestForm, a.Span, fmt.Sprintf("%s: the engine refuses the test before its body runs (\"<Test timeout> must be a duration like 500ms, 30s, or 5min, got %q\"): write a positive whole number of ms, s, m or min, such as 30s",
			k.c.Text[a.Span.Start:a.Span.End], s))
	}
}

func (k *checker) checkAssertion(t *Tag, rc *RegisteredComponent) {
	if t.SelfClosing {
		return
	}
	if !rc.ExpectedChildren() {
		k.report(RuleTestForm, t.NameSpan, fmt.Sprintf("<%s> is written with a closing tag, so it has content, and it takes no expected children: the engine refuses it (\"<%s> does not accept expected children.\"); write it self-closing%s",
			t.Name, t.Name, operandHint(rc)), k.selfClosingFix(t)...)
		return
	}
	if passed(t, "expected") {
		k.report(RuleTestForm, t.NameSpan, fmt.Sprintf("<%s> has an expected prop and a closing tag, which gives it expected children too (even empty): the engine refuses it (\"<%s> accepts either an \\\"expected\\\" prop or expected children, not both.\"); write it self-closing, or drop the expected prop",
			t.Name, t.Name), k.selfClosingFix(t)...)
	}
}

// operandHint says where an assertion that takes no children takes its
// operand from.
func operandHint(rc *RegisteredComponent) string {
	switch rc.Assertion {
	case "match":
		return ", with expected={/pattern/}"
	case "numeric":
		return ", with expected={…}"
	}
	return ""
}

func (k *checker) checkAssertThrows(t *Tag) {
	a := t.Attr("message")
	if a == nil {
		return
	}
	var what string
	switch a.Kind {
	case AttrBool:
		what = "message alone is true"
	case AttrExpr:
		v, ok := literalValue(t, a)
		if _, isString := v.(string); !ok || isString {
			return
		}
		what = fmt.Sprintf("%s is %s", k.c.Text[a.Span.Start:a.Span.End], jsonKind(v))
	default:
		return
	}
	k.report(RuleTestForm, a.Span, what+": the engine refuses the assertion (\"<AssertThrows> requires \\\"message\\\" to be a string or a RegExp.\"); write the text the error must contain, message=\"…\", or a pattern, message={/…/}")
}
