package workflow

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/analysis"
)

var RuleSlotName = &analysis.Rule{
	ID:       "workflow/slot-name",
	Summary:  "A child passed to a component names a slot the engine refuses.",
	Severity: analysis.Error,
	Doc: "A direct child of a component invocation that is an element with a `slot` prop goes to the named slot " +
		"the body reads with `<Content slot=\"name\" />` (packages/core/src/expand.ts, partitionBySlot). The " +
		"engine validates the name (validateSlotName): it must not be empty, and must match " +
		"`[a-zA-Z][a-zA-Z0-9_-]*` — a letter, then letters, digits, `_` or `-`. Change `slot=\"\"` to a name, " +
		"or remove it to pass the child to the default slot; write `slot=\"review-notes\"` rather than " +
		"`slot=\"review notes\"` or `slot=\"1st\"`, and the `<Content slot>` that reads it to match.\n\n" +
		"Checked: a quoted `slot=\"…\"`, and a literal the scanner resolves before anything runs " +
		"(`slot={\"a b\"}`, `slot={1}`: the engine reads `String(value)`), on a direct child of a Markdown " +
		"component whose body projects its content — it writes a `<Content />`, in any branch, or has an " +
		"`eval` block calling `renderChildren` or `useContent`; the engine validates the names only there, " +
		"at the first projection. Not checked: a `slot={expression}` (the scanner leaves it to run time, and " +
		"the engine's partition never reads it: the child goes to the default slot); the children of a " +
		"TypeScript or registered component, which projects only if its code does; a child nested deeper than " +
		"a direct child, whose `slot` no partition reads.\n\n" +
		"**The engine** fails the projection when the body reaches it: `Invalid slot name: slot name must not " +
		"be empty`, or `Invalid slot name \"x\": must match [a-zA-Z][a-zA-Z0-9_-]*` — a printed error, or a " +
		"failed run under a throwing error mode — and the child is dropped.",
	Follows: []string{
		"executable.md packages/core/src/expand.ts validateSlotName (from partitionBySlot)",
	},
}

var RuleContentPlacement = &analysis.Rule{
	ID:       "workflow/content-placement",
	Summary:  "A `<Content />` is in a document run as a root, where no invocation gives it content.",
	Severity: analysis.Error,
	Doc: "`<Content />` renders the content a component's invocation was given: the engine replaces it, wherever " +
		"it is in the component's body, with what the caller wrote between the component's tags " +
		"(packages/core/src/expand.ts, substituteSegmentList). A document run as a root has no invocation, so a " +
		"`<Content />` it reaches is claimed by none, and the engine refuses it (strayStructuralError: " +
		"`<Content /> renders the content its invocation was given, so it means something only inside a " +
		"component's body. <Content> is reserved: it never resolves a component, so a repository file named " +
		"Content cannot supply it.`).\n\n" +
		"A file may be run as a root and invoked as a component alike, so baton judges only the documents that " +
		"are certainly roots: a test document (`*.test.md`, which `xmd test` runs and no component name " +
		"resolves to) and a workflow root (one that declares `workflow.components`). It reports a `<Content />` " +
		"at the top of such a document, or inside structural directives (`<If>`, `<Each>`, `<Let>`, …) and " +
		"`<Test>` alone, which expand what they hold; one in the content passed to a component is reached only " +
		"if that component renders its content, and is not judged. Move the text the `<Content />` stands for " +
		"into the document, or move the `<Content />` into a component's body.\n\n" +
		"**The engine** fails the run when it reaches the element: a printed error, or a failed run under a " +
		"throwing error mode.",
	Follows: []string{
		"executable.md packages/core/src/expand.ts strayStructuralError (a <Content /> no invocation claims)",
	},
}

// checkContentPlacement reports a <Content /> a root document reaches,
// where no invocation claims it (expand.ts, strayStructuralError).
func (k *checker) checkContentPlacement(t *Tag) {
	if !t.Closed || k.failureExpected(t) {
		return
	}
	root := ""
	switch {
	case IsTestDocument(k.r.docPath) && k.r.mode != ModeRun && k.r.mode != ModeWorkflow:
		root = "a test document, which `xmd test` runs as a root"
	case len(k.c.Bundle) > 0:
		root = "a workflow root (it declares workflow.components)"
	default:
		return
	}
	for p := t.Parent; p != nil; p = p.Parent {
		res := k.resOf(p)
		switch {
		case res.Kind == ResolveStructural && p.Name != "Answer":
		case p.Name == "Test" && res.Kind == ResolveRegistered && !res.Configured:
		default:
			return // content passed to a component: reached if it renders it
		}
	}
	k.report(RuleContentPlacement, t.NameSpan, "<Content /> renders the content a component's invocation was given, and this document is "+root+
		", which no invocation gives content: the engine refuses it when it reaches it (\"<Content /> renders the content its invocation was given, so it means something only inside a component's body.\"); write the text it stands for, or move it into a component's body")
}

// slotName is the engine's SLOT_NAME_RE (expand.ts).
var slotName = lazyre.New(`^[a-zA-Z][a-zA-Z0-9_-]*$`)

// checkSlots checks the slot names of the children passed to components
// whose bodies project them.
func (k *checker) checkSlots() {
	for _, t := range k.c.Tags {
		p := t.Parent
		if p == nil || !t.Closed || !p.Closed || k.failureExpected(t) {
			continue
		}
		// The last slot attribute is the one the scanner keeps.
		var a *Attr
		for _, at := range t.Attrs {
			if at.Kind != AttrSpread && at.Name == "slot" {
				a = at
			}
		}
		if a == nil {
			continue
		}
		res := k.resOf(p)
		if (res.Kind != ResolveFile && res.Kind != ResolveBundle) || res.Component == nil || !projects(res.Component) {
			continue
		}
		v, ok := literalValue(t, a)
		if !ok {
			continue
		}
		name, src := jsString(v), k.c.Text[a.Span.Start:a.Span.End]
		switch {
		case name == "":
			k.report(RuleSlotName, a.Span, fmt.Sprintf("%s names no slot: the engine refuses it when <%s> projects its content (\"Invalid slot name: slot name must not be empty\"); name the slot, or remove slot to pass the child to the default slot", src, p.Name))
		case !slotName.MatchString(name):
			k.report(RuleSlotName, a.Span, fmt.Sprintf("%s: the slot name %q does not match [a-zA-Z][a-zA-Z0-9_-]*, so the engine refuses it when <%s> projects its content; use a letter, then letters, digits, _ or -", src, name, p.Name))
		}
	}
}

// projects reports whether a Markdown component's body projects the
// content it is passed: a <Content /> anywhere, or an eval block that calls
// renderChildren or useContent (expand.ts, createProjectionHandle).
func projects(c *Component) bool {
	for _, t := range c.Tags {
		if t.Name == "Content" && t.Closed {
			return true
		}
	}
	for _, cb := range c.CodeBlocks {
		if cb.Eval {
			code := c.Text[cb.Content.Start:cb.Content.End]
			if strings.Contains(code, "renderChildren") || strings.Contains(code, "useContent") {
				return true
			}
		}
	}
	return false
}

// jsString is String(v) in JavaScript for a value literalValue gives.
func jsString(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case bool:
		if v {
			return "true"
		}
		return "false"
	case json.Number:
		return string(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	default:
		return "[object Object]"
	}
}

var RuleComponentCycle = &analysis.Rule{
	ID:       "workflow/component-cycle",
	Summary:  "A component's expansion invokes a component already being expanded, or nests deeper than the engine allows.",
	Severity: analysis.Error,
	Doc: "The engine expands a component's body with a hide set, the names of the components being expanded " +
		"around it (packages/core/src/expand.ts, the invocation's cycle check): invoking a name already in it " +
		"is refused, and so is an invocation with 64 components already around it (MAX_EXPANSION_DEPTH). No " +
		"component may therefore invoke itself, directly or through others, even with a base case: the first " +
		"recursive invocation is refused. Content a caller passes is expanded with the caller's hide set, not " +
		"the component's, so `<Section><Section /></Section>` is no cycle: only what a component's own body " +
		"invokes counts — its tags, and the tags it passes as content to a Markdown component that projects " +
		"it. Break the cycle: inline the inner step, or split the component so that no body invokes a component " +
		"that leads back to it; a repetition is written with `<Each>` or `<Loop>`.\n\n" +
		"The graph is the one baton resolves for the document (its search folders, or the workflow bundle), " +
		"over Markdown component files; a TypeScript or registered component is not read. A cycle is reported " +
		"at each invocation that reaches it, in every branch, taken or not: an invocation in a branch the " +
		"engine never takes runs nothing, and one it takes is refused, so the recursion can only be dead or " +
		"refused.\n\n" +
		"**The engine** fails the invocation that closes the cycle when execution reaches it: " +
		"`Cycle detected: A is already being expanded (hide set: A → B)`, or `Maximum expansion depth (64) " +
		"exceeded` — a printed error, or a failed run under a throwing error mode.",
	Follows: []string{
		"executable.md packages/core/src/expand.ts MAX_EXPANSION_DEPTH (Cycle detected; Maximum expansion depth exceeded)",
	},
}

// maxExpansionDepth is the engine's MAX_EXPANSION_DEPTH (expand.ts): an
// invocation with this many components around it is refused.
const maxExpansionDepth = 64

// expansion is what the walk of the component graph learnt of a name.
type expansion struct {
	done  bool
	cycle []string // a cycle the name's expansion reaches, nil if none
	depth int      // the deepest nesting of components its expansion makes, itself included
}

// invoked are the tags a body expands in its own frame: closed, not
// structural, and inside nothing but structural elements other than
// <Content> and Markdown components that project their content.
func (k *checker) invoked(c *Component) []*Tag {
	var out []*Tag
	for _, t := range c.Tags {
		if !t.Closed || Structural[t.Name] {
			continue
		}
		ok := true
		for p := t.Parent; p != nil && ok; p = p.Parent {
			if p.Name == "Content" {
				ok = false // what a <Content> is written around, the projection replaces
				break
			}
			if Structural[p.Name] {
				continue
			}
			res := k.r.resolve(p.Name)
			ok = (res.Kind == ResolveFile || res.Kind == ResolveBundle) && res.Component != nil && projects(res.Component)
		}
		if ok {
			out = append(out, t)
		}
	}
	return out
}

// markdownComponent is the Markdown file name resolves to, or nil.
func (k *checker) markdownComponent(name string) *Component {
	res := k.r.resolve(name)
	if (res.Kind == ResolveFile || res.Kind == ResolveBundle) && strings.HasSuffix(res.Path, ".md") {
		return res.Component
	}
	return nil
}

// expand walks the component graph from name, stack being the names
// being expanded around it.
func (k *checker) expand(memo map[string]*expansion, name string, stack []string) *expansion {
	if e, ok := memo[name]; ok {
		if !e.done {
			for i, s := range stack {
				if s == name {
					return &expansion{done: true, cycle: append(append([]string(nil), stack[i:]...), name)}
				}
			}
		}
		return e
	}
	e := &expansion{depth: 1}
	memo[name] = e
	if c := k.markdownComponent(name); c != nil {
		stack = append(stack, name)
		seen := map[string]bool{}
		for _, t := range k.invoked(c) {
			if seen[t.Name] {
				continue
			}
			seen[t.Name] = true
			sub := k.expand(memo, t.Name, stack)
			if sub.cycle != nil && e.cycle == nil {
				e.cycle = sub.cycle
			}
			e.depth = max(e.depth, sub.depth+1)
		}
	}
	e.done = true
	return e
}

// checkCycles reports each invocation of the document whose expansion
// reaches a cycle, or nests too deep.
func (k *checker) checkCycles() {
	var memo map[string]*expansion
	for _, t := range k.invoked(k.c) {
		if k.failureExpected(t) || k.markdownComponent(t.Name) == nil {
			continue
		}
		if memo == nil {
			memo = map[string]*expansion{}
		}
		e := k.expand(memo, t.Name, nil)
		switch {
		case e.cycle != nil:
			first := e.cycle[0]
			k.report(RuleComponentCycle, t.NameSpan, fmt.Sprintf("<%s> reaches the cycle %s: the engine refuses the second <%s> when it reaches it (\"Cycle detected: %s is already being expanded\"); no component may invoke itself, directly or through others", t.Name, strings.Join(e.cycle, " → "), first, first))
		case e.depth > maxExpansionDepth:
			k.report(RuleComponentCycle, t.NameSpan, fmt.Sprintf("<%s> nests %d components deep: the engine refuses the invocation past %d (\"Maximum expansion depth (%d) exceeded\")", t.Name, e.depth, maxExpansionDepth, maxExpansionDepth))
		}
	}
}
