package workflow

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
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

// bareTestRoot is a test root no eval block of which may install a
// provider of its own: an eval block may compose around the engine's Apis
// (`yield* Elicitation.around(…)`, `Agent.around(…)`), as a host does, and
// then answers what `xmd test` leaves unanswered.
func (k *checker) bareTestRoot() bool {
	if !k.testRoot() {
		return false
	}
	for _, cb := range k.c.CodeBlocks {
		if cb.Eval {
			return false
		}
	}
	return true
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
			if rc := RegisteredComponents()[t.Name]; rc != nil && rc.Assertion != "" && k.engineTag(t, t.Name) {
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

var RuleExecution = &analysis.Rule{
	ID:       "workflow/execution",
	Summary:  "An `<Execution>`, a `<WorkflowRun>` or one of their declarations is written where or how the engine refuses it.",
	Severity: analysis.Error,
	Doc: "A test runs another document as a root with `<Execution>` (packages/testing/src/execution-harness.ts). " +
		"The engine refuses, when it reaches the element:\n\n" +
		"- `<Execution>` or `<WorkflowRun>` outside a `<Test>` (the engine's own, not a repository file): " +
		"`<Execution> is valid only inside a canonical <Test>.` — decided in a document `xmd test` runs, " +
		"where nothing can call it from inside a test;\n" +
		"- `<WorkflowRun>` anywhere: `xmd` answers a test's nested executions with the run profile alone " +
		"(packages/cli/src/testing-host.ts, testingExecutionHost), so `<WorkflowRun> needs a host that can " +
		"execute workflow runs, and this one has no workflow profile.`, and an `<Execution host=\"workflow\">` " +
		"can never run under `xmd` either;\n" +
		"- `<DiagnosticJournal />`, `<CollectOutput>` or `<CollectJournal>` outside an `<Execution>` (in a " +
		"document `xmd test` runs): `<CollectOutput> is valid only as a declaration inside <Execution>.`; " +
		"`<CollectOutput>` or `<CollectJournal>` without `as`, anywhere: `<CollectOutput> binds the child " +
		"output it accumulates, so it requires `as`` (the quick fix adds one);\n" +
		"- a declaration written twice in the declarations an `<Execution>` begins with (the engine reads " +
		"them up to its first other element, and no further): `<Execution> <DiagnosticJournal> is declared " +
		"more than once.`;\n" +
		"- its props (readProfile): a `host` other than `run` or `workflow`; `action` with `host=\"run\"`; " +
		"not exactly one of `target` and `source` for `host=\"run\"`; `<CollectJournal>` declared without " +
		"`<DiagnosticJournal />` for `host=\"run\"`; `host=\"workflow\"` outside a `<WorkflowRun>`, with a " +
		"`<DiagnosticJournal />`, or without `action=\"start\"` or `action=\"resume\"`; a `start` without " +
		"`target` or with `source`, or after another `start` in the same `<WorkflowRun>`; a `resume` with " +
		"`target` or `source`, or with no `start` before it;\n" +
		"- for an `<Execution host=\"run\" target>` written without `as` (bound, the test reads the failed " +
		"outcome itself), a child the engine cannot run: a `target` naming no file (read from the folder " +
		"`xmd` runs in, the workspace root for baton; one that exists beside the document is not " +
		"reported), or literal `props` the child's front matter refuses — a prop it does not declare, a " +
		"value its schema refuses, a required prop with no default left out: `Prop validation failed for " +
		"<__root__ />: …`, then `<Execution> ran a child that failed: …`; a `#selector` after the path " +
		"that names no section of the child, several, or is no selector (packages/core/src/document-targets.ts, " +
		"findTarget: `\"Setup\" matches no document target.` with the targets it offers, `… matches more " +
		"than one document target.`, `… is not a valid document target selector.`). The child's targets are " +
		"its static headings, addressed by the path of headings that reaches them, a sole outermost heading " +
		"being its title and no level; `*` matches within a heading, `**` any number of levels. baton reads a " +
		"heading's text only where it is plain: where a heading with emphasis, code, a link, an image, HTML, " +
		"an escape or an entity could answer the selector, it says nothing.\n\n" +
		"Props are read as the engine's scanner reads them (see workflow/prop-value): an expression is " +
		"evaluated when the element runs, and is not checked. The checks of an `<Execution>`'s form are made " +
		"where testing is active (a test document, `workflow.mode: test`, a `<Testing>` region): elsewhere " +
		"a `<Test>` renders nothing and its body never runs.\n\n" +
		"**The engine** fails the element when execution reaches it, before the child's root is imported: " +
		"the enclosing test fails, and `xmd test` with it.",
	Follows: []string{
		"executable.md packages/testing/src/execution-harness.ts Execution, WorkflowRun (outside a canonical <Test>)",
		"executable.md packages/testing/src/execution-harness.ts runWorkflowScope (no workflow profile)",
		"executable.md packages/testing/src/execution-harness.ts declarationState (outside <Execution>; as)",
		"executable.md packages/testing/src/execution-harness.ts readProfile (host, action, target, source, journal)",
		"executable.md packages/cli/src/testing-host.ts runProfileChild (the child's root and props)",
		"executable.md packages/core/src/document-targets.ts findTarget (the child's #selector)",
	},
}

// isDeclaration reports one of the engine's <Execution> declarations.
func (k *checker) isDeclaration(t *Tag) bool {
	return k.engineTag(t, "DiagnosticJournal") || k.engineTag(t, "CollectOutput") || k.engineTag(t, "CollectJournal")
}

// checkExecutions checks <Execution>, <WorkflowRun> and the declarations
// as the testing package's harness checks them when it reaches them.
func (k *checker) checkExecutions() {
	for _, t := range k.c.Tags {
		if !t.Closed || k.failureExpected(t) {
			continue
		}
		switch {
		case k.isDeclaration(t):
			k.checkDeclaration(t)
		case k.engineTag(t, "WorkflowRun"):
			k.checkWorkflowRun(t)
		case k.engineTag(t, "Execution"):
			k.checkExecution(t)
		}
	}
}

func (k *checker) checkDeclaration(t *Tag) {
	if k.enclosing(t, "Execution") == nil && k.testRoot() && k.lexical(t, nil) {
		k.report(RuleExecution, t.NameSpan, fmt.Sprintf("<%s> is outside any <Execution>: the engine refuses it when it reaches it (\"<%s> is valid only as a declaration inside <Execution>.\"); move it into the <Execution> whose child it observes",
			t.Name, t.Name))
		return
	}
	if t.Name == "DiagnosticJournal" || t.Attr("as") != nil {
		return
	}
	what, name := "output", "output"
	if t.Name == "CollectJournal" {
		what, name = "journal", "journal"
	}
	insert := t.NameSpan.End
	k.report(RuleExecution, t.NameSpan, fmt.Sprintf("<%s> without as: it binds the child's %s, and the engine refuses it when it reaches it (\"<%s> binds the child %s it %s, so it requires `as`\"); write <%s as=\"%s\" />",
		t.Name, what, t.Name, what, map[string]string{"output": "accumulates", "journal": "observes"}[what], t.Name, name),
		analysis.WithFix(analysis.Fix{Title: "Bind it as " + name,
			Edits: []analysis.Edit{{Span: markdown.Span{Start: insert, End: insert}, NewText: " as=\"" + name + "\""}}}))
}

func (k *checker) checkWorkflowRun(t *Tag) {
	test := k.enclosing(t, "Test")
	switch {
	case test == nil && k.lexical(t, nil) && k.testRoot():
		k.report(RuleExecution, t.NameSpan, "<WorkflowRun> is outside any <Test>: the engine refuses it when it reaches it (\"<WorkflowRun> is valid only inside a canonical <Test>.\"); and inside one, `xmd` has no workflow profile to run it")
	case test != nil && k.lexical(t, test) && k.testingActive(test):
		k.report(RuleExecution, t.NameSpan, "<WorkflowRun> cannot run under `xmd`: its test host answers the run profile alone, so the engine refuses it (\"<WorkflowRun> needs a host that can execute workflow runs, and this one has no workflow profile.\"), and the test fails; test the workflow with <Execution host=\"run\">, or run it with `xmd workflow start`")
	}
}

// propString is the string a prop of t is before anything runs: present
// (written), and known (a literal string, or absent). A literal of another
// type is the props schema's to refuse (workflow/prop-value), and not known
// here.
func propString(t *Tag, name string) (s string, present, known bool) {
	a := t.Attr(name)
	if a == nil {
		return "", false, true
	}
	v, ok := literalValue(t, a)
	s, isString := v.(string)
	if !ok || !isString {
		return "", true, false
	}
	return s, true, true
}

// declarationPrefix is the declarations an <Execution> begins with, which
// its scan reads before the child runs (execution-harness.ts,
// scanDeclarations: it stops at the first element that is not one, an
// executable block, or a declaration that refuses), and whether the scan
// certainly stops there: a structural element before that point is expanded
// by the scan, and what it holds is not followed here.
func (k *checker) declarationPrefix(t *Tag) (prefix []*Tag, known bool) {
	for _, ch := range t.Children {
		switch ch := ch.(type) {
		case *CodeBlock:
			if ch.Exec || ch.Eval {
				return prefix, true
			}
		case *Tag:
			if !ch.Closed {
				continue // text
			}
			if k.isDeclaration(ch) {
				if ch.Name != "DiagnosticJournal" && ch.Attr("as") == nil {
					return prefix, true // it refuses, and the refusal ends the scan
				}
				prefix = append(prefix, ch)
				continue
			}
			if k.resOf(ch).Kind == ResolveStructural {
				return prefix, false
			}
			return prefix, true
		}
	}
	return prefix, true
}

func (k *checker) checkExecution(t *Tag) {
	test := k.enclosing(t, "Test")
	if test == nil {
		if k.lexical(t, nil) && k.testRoot() {
			k.report(RuleExecution, t.NameSpan, "<Execution> is outside any <Test>: the engine refuses it when it reaches it (\"<Execution> is valid only inside a canonical <Test>.\"); put it inside the <Test name=\"…\"> that asserts on what the child did")
		}
		return
	}
	if !k.lexical(t, test) || !k.testingActive(test) {
		return
	}
	prefix, known := k.declarationPrefix(t)
	declared := map[string]bool{}
	for _, d := range prefix {
		if declared[d.Name] {
			k.report(RuleExecution, d.NameSpan, fmt.Sprintf("<%s> is declared a second time in this <Execution>: the engine refuses the execution before the child runs (\"<Execution> <%s> is declared more than once.\"); keep one", d.Name, d.Name),
				analysis.WithFix(analysis.Fix{Title: "Remove the second <" + d.Name + ">", Safe: true, Edits: []analysis.Edit{{Span: d.Span}}}))
			return
		}
		declared[d.Name] = true
	}
	if msg, a := k.profileRefusal(t, declared, known); msg != "" {
		span := t.NameSpan
		if a != nil {
			span = a.Span
		}
		k.report(RuleExecution, span, msg)
		return
	}
	k.checkChild(t)
}

// profileRefusal is why the harness refuses an <Execution>'s props, in
// readProfile's order, "" when it takes them or baton cannot tell; with
// the attribute to place the finding on, nil for the element.
func (k *checker) profileRefusal(t *Tag, declared map[string]bool, known bool) (string, *Attr) {
	refused := func(msg, change string) string {
		return fmt.Sprintf("the engine refuses this <Execution> before the child runs (\"<Execution> %s\"); %s", msg, change)
	}
	host, present, ok := propString(t, "host")
	if !present || !ok {
		return "", nil
	}
	if host != "run" && host != "workflow" {
		return fmt.Sprintf("host=%q: ", host) + refused(`requires host="run" or host="workflow".`, `write host="run" to run the document as xmd run does`), t.Attr("host")
	}
	action, hasAction, actionKnown := propString(t, "action")
	_, hasTarget, targetKnown := propString(t, "target")
	_, hasSource, sourceKnown := propString(t, "source")
	if host == "run" {
		switch {
		case hasAction:
			return "action belongs to host=\"workflow\": " + refused("`action` belongs to host=\"workflow\".", "remove it"), t.Attr("action")
		case targetKnown && sourceKnown && hasTarget == hasSource:
			what := "neither target nor source"
			if hasTarget {
				what = "both target and source"
			}
			return what + ": " + refused("host=\"run\" takes exactly one of `target` or `source`.", "name the document with target=\"…\", or give its text with source=\"…\""), nil
		case known && declared["CollectJournal"] && !declared["DiagnosticJournal"]:
			return "<CollectJournal> without <DiagnosticJournal />: " + refused("<CollectJournal> observes a journal the host selected; a transient run has none. Declare <DiagnosticJournal /> to select one.", "declare <DiagnosticJournal /> among its declarations"), nil
		}
		return "", nil
	}
	run := k.enclosing(t, "WorkflowRun")
	switch {
	case run == nil:
		return refused("host=\"workflow\" is valid only inside <WorkflowRun>.", "put it inside a <WorkflowRun>, or write host=\"run\""), nil
	case declared["DiagnosticJournal"]:
		return "<DiagnosticJournal /> with host=\"workflow\": " + refused("<DiagnosticJournal> selects diagnostic run retention; a workflow always uses its own durable journal.", "remove it"), nil
	case !actionKnown:
		return "", nil
	case action != "start" && action != "resume":
		return refused("host=\"workflow\" requires action=\"start\" or action=\"resume\".", "write action=\"start\" for the first attempt, action=\"resume\" for the next"), t.Attr("action")
	case action == "start" && targetKnown && !hasTarget:
		return refused("action=\"start\" requires `target`.", "name the workflow document with target=\"…\""), nil
	case action == "start" && sourceKnown && hasSource:
		return refused("action=\"start\" runs a stored definition and rejects `source`.", "name the document with target=\"…\" instead"), t.Attr("source")
	case action == "start" && k.startedBefore(t, run, true):
		return refused("one <WorkflowRun> accepts one start; later attempts use action=\"resume\".", "write action=\"resume\""), t.Attr("action")
	case action == "resume" && ((targetKnown && hasTarget) || (sourceKnown && hasSource)):
		return refused("action=\"resume\" continues the run <WorkflowRun> already names.", "remove target and source"), nil
	case action == "resume" && !k.startedBefore(t, run, false):
		return refused("action=\"resume\" needs a start in this <WorkflowRun> first.", "start the run with an <Execution host=\"workflow\" action=\"start\" target=\"…\"> before it"), t.Attr("action")
	}
	return "", nil
}

// startedBefore reports an <Execution host="workflow" action="start"> in
// run before t. certain asks for one that always runs before it (not in a
// branch or a loop); otherwise any, and any whose action baton cannot read,
// counts.
func (k *checker) startedBefore(t, run *Tag, certain bool) bool {
	for _, e := range k.c.Tags {
		if e.Span.Start >= t.Span.Start {
			break
		}
		if e == t || !k.engineTag(e, "Execution") || k.enclosing(e, "WorkflowRun") != run || e.Span.End > t.Span.Start {
			continue
		}
		host, _, hostKnown := propString(e, "host")
		action, _, actionKnown := propString(e, "action")
		if certain {
			if host != "workflow" || action != "start" || !hostKnown || !actionKnown || e.Attr("source") != nil || e.Attr("target") == nil {
				continue
			}
			plain := true
			for p := e.Parent; p != nil && p != run; p = p.Parent {
				if p.Name == "If" || p.Name == "Each" || p.Name == "Loop" || p.Name == "Else" || !k.lexical(p, run) {
					plain = false
				}
			}
			if plain {
				return true
			}
			continue
		}
		if !hostKnown || !actionKnown || (host == "workflow" && action == "start") {
			return true
		}
	}
	return false
}

// checkChild checks the child an unbound <Execution host="run" target="…">
// runs (packages/cli/src/testing-host.ts, runProfileChild): its root read
// from the folder xmd runs in (core's fileSource: the path before "#",
// percent-decoded), then its props validated as a root's
// (packages/core/src/execute.ts, documentWorkflow: validateProps of
// "__root__"). Bound, the failure is the outcome the test reads.
func (k *checker) checkChild(t *Tag) {
	host, _, _ := propString(t, "host")
	target, hasTarget, ok := propString(t, "target")
	if t.Attr("as") != nil || host != "run" || !hasTarget || !ok || k.r.fsys == nil {
		return
	}
	ref, selector, hasSelector := strings.Cut(target, "#")
	p, err := url.PathUnescape(ref)
	if err != nil || p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return
	}
	ta := t.Attr("target")
	if !k.r.isFile(p) {
		// Run from the document's own folder, the engine would find it there.
		if !k.r.isFile(path.Join(path.Dir(k.r.docPath), p)) {
			k.report(RuleExecution, ta.Span, fmt.Sprintf("%s names no file in the workspace: the child cannot be read, and the engine fails this unbound <Execution> (\"<Execution> ran a child that failed: …\"); name the document's path from the workspace root, or bind the outcome with as=\"run\" to assert on the failure",
				k.c.Text[ta.Span.Start:ta.Span.End]))
		}
		return
	}
	if !strings.HasSuffix(p, ".md") {
		return
	}
	child, ok := k.r.readIfFile(p)
	if !ok || child == nil {
		return
	}
	if hasSelector {
		// The selector names the section the child runs: the engine
		// resolves it against the child's outline before anything runs
		// (packages/core/src/execute.ts, durableImportComponent:
		// resolveDocumentTarget), and fails the child when it names no
		// section or several.
		o, ok := documentOutline(child)
		if !ok {
			return
		}
		kind, msg, ok := o.targetVerdict(selector)
		if !ok {
			return
		}
		if kind != "" {
			k.report(RuleExecution, ta.Span, fmt.Sprintf("%s: %s: the engine fails the child before it runs, and this unbound <Execution> with it (%q); %s",
				k.c.Text[ta.Span.Start:ta.Span.End], targetFault(kind, selector, p), msg, targetAdvice(kind, o)))
			return
		}
	}
	props := map[string]any{}
	var span = ta.Span
	if a := t.Attr("props"); a != nil {
		v, ok := literalValue(t, a)
		m, isObject := v.(map[string]any)
		if !ok || !isObject {
			return
		}
		props, span = m, a.Span
	}
	if why := rootPropsRefusal(&child.Props, props); len(why) > 0 {
		k.report(RuleExecution, span, fmt.Sprintf("%s refuses these props as its root's: the engine fails the child before it runs, and this unbound <Execution> with it (\"Prop validation failed for <__root__ />: %s\"); pass what its front matter declares",
			p, strings.Join(why, "; ")))
	}
}

// targetFault says what is wrong with a selector the engine refuses.
func targetFault(kind, selector, doc string) string {
	switch kind {
	case "invalid-selector":
		return fmt.Sprintf("#%s is no document target selector", selector)
	case "multiple-matches":
		return fmt.Sprintf("#%s names more than one section of %s", selector, doc)
	}
	return fmt.Sprintf("#%s names no section of %s", selector, doc)
}

// targetAdvice says what to write instead.
func targetAdvice(kind string, o targetOutline) string {
	if kind == "multiple-matches" {
		return "name one of them by its path of headings (Parent/Section)"
	}
	if len(o.entries) == 0 {
		return "the document has no section a target can name: leave out the #selector to run all of it"
	}
	return "name one of its sections by its heading (a path of headings for a nested one, * or ** to match)"
}

// rootPropsRefusal is what the engine's validation of a root's props says
// of literal props (packages/core/src/validate.ts, validateProps: a closed
// declaration, each value against its schema, a required prop with no
// default present), nil when it takes them or baton cannot tell.
func rootPropsRefusal(decl *Props, props map[string]any) []string {
	if decl.Form == PropsInvalid {
		return nil
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	var why []string
	for _, name := range names {
		switch {
		case decl.Form == PropsNone || (decl.Prop(name) == nil && !decl.Open):
			why = append(why, fmt.Sprintf("\"/%s\" must NOT have additional properties", name))
		case decl.Prop(name) != nil && decl.schemas != nil:
			if sch := decl.schemas.schema(name); sch != nil {
				if w := validateProp(sch, name, props[name]); w != "" {
					why = append(why, w)
				}
			}
		}
	}
	for _, p := range decl.List {
		if _, given := props[p.Name]; p.Required && !p.HasDefault && !given {
			why = append(why, fmt.Sprintf("\"/%s\" must have required property '%s'", p.Name, p.Name))
		}
	}
	return why
}

// checkRootProps reports a test document whose front matter requires a
// prop with no default: `xmd test` runs it with no props (it refuses
// --props), and the engine validates a root's props before anything runs
// (packages/core/src/execute.ts, documentWorkflow).
func (k *checker) checkRootProps() {
	if !k.testRoot() {
		return
	}
	for _, p := range k.c.Props.List {
		if p.Required && !p.HasDefault && k.c.Props.Form != PropsInvalid {
			k.report(RuleMissingRequiredProp, p.Span, fmt.Sprintf("%s is required and has no default, but `xmd test` runs this document with no props (it takes no --props): the engine fails it before anything runs: Prop validation failed for <__root__ />: \"/%s\" must have required property '%s'; give it a default, or do not require it",
				p.Name, p.Name, p.Name))
		}
	}
}

var RuleTestAgent = &analysis.Rule{
	ID:       "workflow/test-agent",
	Summary:  "A test document reaches an agent, or a `<TestAgent>` scenario, in a way `xmd test` refuses.",
	Severity: analysis.Error,
	Doc: "`xmd test` installs the agent components with no agent provider, no default agent and no native " +
		"launcher: only a `<TestAgent>` answers prompts, from the behavior documents its " +
		"`<TestAgent.Scenario src>` elements name (packages/cli/src/cli.ts, installDocumentComponents; " +
		"packages/test-agent/src/components.ts). In a document `xmd test` runs (a `*.test.md`), the engine " +
		"refuses, when it reaches them:\n\n" +
		"- a `<Prompt>`, `<Agent>` or `<Session>` outside any `<TestAgent>`: `Agent.agent() has no provider — …`; " +
		"a `<Session.Launch>` there: `no native launcher is installed — …`;\n" +
		"- an `<AgentProvider>` without `defaultAgent` inside no other `<AgentProvider>`: " +
		"`<AgentProvider name=\"x\"> has no default agent — …`;\n" +
		"- a `<TestAgent.Scenario>` outside any `<TestAgent>`: `<TestAgent.Scenario> is valid only inside " +
		"<TestAgent>.`; with `src=\"\"`: `requires a \"src\" prop.`; with a `src` that names no file, beside " +
		"the document that declares it: the read's own error;\n" +
		"- a `<Prompt>` in a `<TestAgent>` that no scenario maps (its `agent`, else the `<TestAgent agent>`, " +
		"else `test`, and its `session`, else none): `no <TestAgent.Scenario> maps agent \"test\" and session " +
		"\"(default)\"`; two scenarios mapping the one a prompt routes to: `duplicate <TestAgent.Scenario> " +
		"mappings for …` (give one a `session`);\n" +
		"- in a behavior document a scenario names (packages/test-agent/src/worker/when-prompt.ts, " +
		"profile.ts): a `<WhenPrompt>` with a `template` prop and a closing tag, with neither, or whose " +
		"template the parser refuses (packages/core/src/template.ts, parseTemplate); an executable block " +
		"with `exec` (`process access is denied in behavior documents`), a `<Fetch>` (network), a `<Glob>` " +
		"(filesystem globbing), an eval block with an `import` (`eval blocks in behavior documents are " +
		"inline-only — …`), a component tag that resolves to a TypeScript file (`TypeScript components are " +
		"not supported in behavior documents: components/Name.ts`: the worker resolves names in the folders " +
		"`components` and `.` of the behavior document's own folder, Name.md ahead of Name.ts). These are " +
		"reported on the `src` that names the document.\n\n" +
		"A test document with an eval block is not judged by the first two: an eval block may compose around " +
		"the Agent Api (`yield* Agent.around(…)`) as a host does, and answer the prompts itself. " +
		"An `agent`, `session` or `src` written as an expression is evaluated when the element runs, and is " +
		"not checked; nor is what a repository component inside the `<TestAgent>` declares or prompts. A " +
		"component file is not judged by the first three: a test may invoke it inside a `<TestAgent>` or an " +
		"`<AgentProvider>`.\n\n" +
		"**The engine** fails the element when execution reaches it (a failed prompt fails the document at " +
		"its end, and a test it is in at once), and `xmd test` the document.",
	Follows: []string{
		"executable.md packages/core/src/agent/agent-api.ts noProvider (xmd test installs no root provider)",
		"executable.md packages/core/src/agent/function-components.ts AgentProvider (no default agent)",
		"executable.md packages/test-agent/src/components.ts Scenario (outside <TestAgent>; src)",
		"executable.md packages/test-agent/src/components.ts provision (no scenario, duplicate scenarios)",
		"executable.md packages/test-agent/src/worker/when-prompt.ts WhenPrompt (template)",
		"executable.md packages/test-agent/src/worker/profile.ts installWorkerProfile (behavior documents; readTextFile of a .ts component)",
	},
}

// checkTestAgents checks the agent components of a test document against
// what `xmd test` installs, and the test agent's scenarios.
func (k *checker) checkTestAgents() {
	for _, t := range k.c.Tags {
		if !t.Closed || k.failureExpected(t) {
			continue
		}
		switch {
		case k.engineTag(t, "TestAgent.Scenario"):
			k.checkScenario(t)
		case k.engineTag(t, "TestAgent"):
			k.checkScenarioMaps(t)
		case k.engineTag(t, "AgentProvider"):
			if k.bareTestRoot() && t.Attr("defaultAgent") == nil && k.enclosing(t, "AgentProvider") == nil && k.lexical(t, nil) {
				name, _, _ := propString(t, "name")
				k.report(RuleTestAgent, t.NameSpan, fmt.Sprintf("<AgentProvider> without defaultAgent: `xmd test` installs no default agent, so the engine refuses it (\"<AgentProvider name=%q> has no default agent — set the defaultAgent prop, …\"); write defaultAgent=\"…\"", name))
			}
		case k.engineTag(t, "Prompt"), k.engineTag(t, "Agent"), k.engineTag(t, "Session"), k.engineTag(t, "Session.Launch"):
			if !k.bareTestRoot() || k.enclosing(t, "TestAgent") != nil || k.enclosing(t, "AgentProvider") != nil || !k.lexical(t, nil) {
				continue
			}
			msg := "Agent.agent() has no provider — install one with installAgentComponents({ rootProvider: { factory, options } })"
			switch t.Name {
			case "Session":
				msg = "Agent.session() has no provider — install one with installAgentComponents({ rootProvider: { factory, options } })"
			case "Session.Launch":
				msg = "no native launcher is installed — this host does not hand a native agent UI the terminal. `xmd run` installs one; a test or embedding host installs its own."
			}
			k.report(RuleTestAgent, t.NameSpan, fmt.Sprintf("<%s> outside any <TestAgent>: `xmd test` installs no agent provider, so the engine fails it (%q); put it inside a <TestAgent> whose <TestAgent.Scenario src=\"…\"> answers it", t.Name, msg))
		}
	}
}

func (k *checker) checkScenario(t *Tag) {
	if k.enclosing(t, "TestAgent") == nil && k.testRoot() && k.lexical(t, nil) {
		k.report(RuleTestAgent, t.NameSpan, "<TestAgent.Scenario> is outside any <TestAgent>: the engine refuses it (\"<TestAgent.Scenario> is valid only inside <TestAgent>.\"); move it into the <TestAgent> whose prompts it answers")
		return
	}
	src, present, known := propString(t, "src")
	if !present || !known {
		return
	}
	a := t.Attr("src")
	if src == "" {
		k.report(RuleTestAgent, a.Span, "src=\"\" names no behavior document: the engine refuses the scenario (\"<TestAgent.Scenario> requires a \\\"src\\\" prop.\"); name the document that scripts the agent")
		return
	}
	if k.r.fsys == nil || strings.HasPrefix(src, "/") {
		return
	}
	p := path.Join(path.Dir(k.r.docPath), src)
	if strings.HasPrefix(p, "../") || p == ".." {
		return
	}
	if !k.r.isFile(p) {
		k.report(RuleTestAgent, a.Span, fmt.Sprintf("%s names no file: the scenario's document is read beside the document that declares it (%s), and the engine fails the scenario when it cannot read it", k.c.Text[a.Span.Start:a.Span.End], p))
		return
	}
	if strings.HasSuffix(p, ".md") {
		if behavior, ok := k.r.readIfFile(p); ok && behavior != nil && behavior != k.c {
			for _, why := range append(behaviorRefusals(behavior), k.behaviorTypeScript(p, behavior)...) {
				k.report(RuleTestAgent, a.Span, fmt.Sprintf("%s, the behavior document this scenario runs, %s", p, why))
			}
		}
	}
}

// behaviorRefusals are what the test agent's worker refuses in a behavior
// document when it runs it (packages/test-agent/src/worker/when-prompt.ts,
// WhenPrompt; profile.ts, installWorkerProfile), each with its line.
func behaviorRefusals(c *Component) []string {
	lines := markdown.NewLineIndex(c.Text)
	at := func(off int) string { return fmt.Sprintf("line %d", lines.LineOf(off)+1) }
	var out []string
	for _, t := range c.Tags {
		if !t.Closed {
			continue
		}
		switch t.Name {
		case "WhenPrompt":
			a := t.Attr("template")
			s, isString := "", false
			if a != nil {
				var v any
				var ok bool
				if v, ok = literalValue(t, a); ok {
					s, isString = v.(string)
				}
				if !ok {
					continue
				}
			}
			switch {
			case isString && !t.SelfClosing:
				out = append(out, at(t.Span.Start)+": <WhenPrompt> has a template prop and a closing tag, which gives it children too: the worker refuses it (\"<WhenPrompt> accepts either a template prop or children, not both.\"); keep one")
			case !isString && t.SelfClosing:
				out = append(out, at(t.Span.Start)+": <WhenPrompt /> has no template: the worker refuses it (\"<WhenPrompt> requires a template prop or template children.\"); write template=\"…\"")
			case isString:
				if why := templateRefusal(s); why != "" {
					out = append(out, at(t.Span.Start)+": the <WhenPrompt> template "+why+": the worker refuses it (packages/core/src/template.ts, parseTemplate)")
				}
			}
		case "Fetch":
			out = append(out, at(t.Span.Start)+": <Fetch>: the worker refuses it (\"network access is denied in behavior documents\")")
		case "Glob":
			out = append(out, at(t.Span.Start)+": <Glob>: the worker refuses it (\"filesystem globbing is denied in behavior documents\")")
		}
	}
	for _, cb := range c.CodeBlocks {
		mods := parseInfo(cb.Info)
		switch {
		case hasModifier(mods, "exec"):
			out = append(out, at(cb.Span.Start)+": an exec block: the worker refuses it when it runs (\"process access is denied in behavior documents\"); a behavior document scripts answers, and runs no process")
		case hasModifier(mods, "eval"):
			if kind := evalImport(c.Text[cb.Content.Start:cb.Content.End]); kind != "" {
				out = append(out, at(cb.Span.Start)+": an eval block with "+kind+": the worker refuses it (\"eval blocks in behavior documents are inline-only — "+kind+" is not allowed\")")
			}
		}
	}
	return out
}

// behaviorTypeScript are the component tags of the behavior document at p
// that resolve to a TypeScript file, which the worker refuses to read
// (packages/test-agent/src/worker/profile.ts, installWorkerProfile:
// readTextFile). The worker runs the document from a virtual root at its
// folder with no component folders configured (worker/run.ts: execute with
// its path alone), so its names resolve through the engine's default
// folders, components and ".", of that folder; a Markdown candidate ahead
// of the .ts one wins.
func (k *checker) behaviorTypeScript(p string, behavior *Component) []string {
	dir := path.Dir(p)
	br := &resolver{fsys: k.r.fsys, dirs: k.r.dirs, docPath: p, self: behavior, mode: ModeRun,
		search: []string{path.Join(dir, "components"), dir}}
	lines := markdown.NewLineIndex(behavior.Text)
	seen := map[string]bool{}
	var out []string
	for _, t := range behavior.Tags {
		if !t.Closed || seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		res := br.resolve(t.Name)
		if res.Kind != ResolveFile || !strings.HasSuffix(res.Path, ".ts") {
			continue
		}
		rel := res.Path
		if dir != "." {
			rel = strings.TrimPrefix(rel, dir+"/")
		}
		out = append(out, fmt.Sprintf("line %d: <%s> resolves to %s, a TypeScript component: the worker refuses to read it (\"TypeScript components are not supported in behavior documents: %s\"); write the component in Markdown (%s) for the behavior document, or answer without it",
			lines.LineOf(t.Span.Start)+1, t.Name, res.Path, rel, strings.TrimSuffix(res.Path, ".ts")+".md"))
	}
	return out
}

// evalImport names the first import an eval block makes: "static
// imports" or "dynamic import()", "" for none. import.meta is neither.
func evalImport(code string) string {
	toks := lex(code)
	for i, t := range toks {
		if t.kind != tokIdent || t.text != "import" {
			continue
		}
		if i > 0 && toks[i-1].kind == tokPunct && (toks[i-1].text == "." || toks[i-1].text == "?.") {
			continue
		}
		if i+1 < len(toks) && toks[i+1].kind == tokPunct {
			switch toks[i+1].text {
			case "(":
				return "dynamic import()"
			case ".":
				continue
			}
		}
		return "static imports"
	}
	return ""
}

// checkScenarioMaps reports a <Prompt> in a <TestAgent> that no scenario
// maps, or that two map (packages/test-agent/src/components.ts,
// provision): the declarations are the <TestAgent>'s, every scenario
// written in it counted whatever its place.
func (k *checker) checkScenarioMaps(ta *Tag) {
	defaultAgent := "test"
	if a := ta.Attr("agent"); a != nil {
		s, _, known := propString(ta, "agent")
		if !known {
			return
		}
		defaultAgent = s
	}
	inside := func(t *Tag) bool { return t.Span.Start > ta.Span.Start && t.Span.End <= ta.Span.End }
	maybe, sure := map[[2]string]int{}, map[[2]string]int{}
	var prompts []*Tag
	for _, t := range k.c.Tags {
		if !inside(t) || !t.Closed {
			continue
		}
		res := k.resOf(t)
		if res.Kind != ResolveStructural && !(res.Kind == ResolveRegistered && !res.Configured) {
			return // a component whose body may declare or prompt
		}
		switch {
		case k.engineTag(t, "TestAgent"):
			return // a nested one declares its own
		case k.engineTag(t, "TestAgent.Scenario"):
			agent, _, agentKnown := propString(t, "agent")
			session, _, sessionKnown := propString(t, "session")
			if !agentKnown || !sessionKnown {
				return
			}
			if t.Attr("agent") == nil {
				agent = defaultAgent
			}
			// A scenario whose document cannot be read declares nothing
			// (Scenario refuses before it declares); one baton cannot
			// read may declare.
			key := [2]string{agent, session}
			switch src, present, known := propString(t, "src"); {
			case present && known && src == "":
			case present && known && k.r.fsys != nil && !strings.HasPrefix(src, "/") && !k.r.isFile(path.Join(path.Dir(k.r.docPath), src)):
			case present && known && k.r.fsys != nil:
				maybe[key]++
				sure[key]++
			default:
				maybe[key]++
			}
		case k.engineTag(t, "Prompt"):
			if k.enclosing(t, "Agent") == nil && k.enclosing(t, "Session") == nil && k.enclosing(t, "AgentProvider") == nil && !k.failureExpected(t) {
				prompts = append(prompts, t)
			}
		}
	}
	for _, p := range prompts {
		agent, _, agentKnown := propString(p, "agent")
		session, _, sessionKnown := propString(p, "session")
		if !agentKnown || !sessionKnown {
			continue
		}
		if p.Attr("agent") == nil {
			agent = defaultAgent
		}
		shown := session
		if shown == "" {
			shown = "(default)"
		}
		key := [2]string{agent, session}
		switch {
		case maybe[key] == 0:
			k.report(RuleTestAgent, p.NameSpan, fmt.Sprintf("no <TestAgent.Scenario> in the <TestAgent> at line %d maps agent %q and session %q: the engine fails this prompt (\"no <TestAgent.Scenario> maps agent \\\"%s\\\" and session \\\"%s\\\"\"); declare a scenario for it",
				k.line(ta.Span.Start), agent, shown, agent, shown))
		case sure[key] > 1:
			k.report(RuleTestAgent, p.NameSpan, fmt.Sprintf("two <TestAgent.Scenario>s in the <TestAgent> at line %d map agent %q and session %q: the engine fails this prompt (\"duplicate <TestAgent.Scenario> mappings for agent \\\"%s\\\" and session \\\"%s\\\"\"); give one of them a session=\"…\" and the prompt the same",
				k.line(ta.Span.Start), agent, shown, agent, shown))
		}
	}
}

// checkElicitations reports an <Elicit> nothing can answer: in a test
// document, one outside any <Answers> (`xmd test` installs no elicitation
// provider: packages/cli/src/cli.ts, installDocumentComponents;
// packages/core/src/elicitation-api.ts), and, anywhere, one whose nearest
// <Answers> declares no <Answer> and does not delegate (answers.ts,
// expandAnswers: every elicitation is unmatched).
func (k *checker) checkElicitations() {
	for _, t := range k.c.Tags {
		if !k.engineTag(t, "Elicit") || k.failureExpected(t) {
			continue
		}
		var region *Tag
		for p := t.Parent; p != nil; p = p.Parent {
			if p.Name == "Answers" && p.Closed && k.resOf(p).Kind == ResolveStructural {
				region = p
				break
			}
		}
		if region == nil {
			if k.bareTestRoot() && k.lexical(t, nil) {
				k.report(RuleAnswers, t.NameSpan, "<Elicit> outside any <Answers>: `xmd test` installs no elicitation provider, so the engine fails it (\"no elicitation provider configured — … under `xmd test`, supply the answer with an <Answers> region.\"); wrap it in <Answers> with an <Answer value=…> that answers it")
			}
			continue
		}
		if region.SelfClosing || !k.lexical(t, region) {
			continue
		}
		if a := region.Attr("delegate"); a != nil {
			if v, ok := literalValue(region, a); !ok || v != false {
				continue
			}
		}
		matchers := false
		for _, ch := range region.Children {
			if c, ok := ch.(*Tag); ok && c.Name == "Answer" {
				matchers = true
			}
		}
		if !matchers {
			k.report(RuleAnswers, t.NameSpan, fmt.Sprintf("the <Answers> at line %d declares no <Answer> and does not delegate: the engine fails this elicitation (\"<Answers> has no matcher for this elicitation. … (no <Answer> matchers were declared)\"); add an <Answer value=…> that answers it, or write delegate={true}",
				k.line(region.Span.Start)))
		}
	}
}
