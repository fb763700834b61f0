package workflow

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

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

// slotName is the engine's SLOT_NAME_RE (expand.ts).
var slotName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_-]*$`)

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
