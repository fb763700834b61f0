package workflow

import (
	"sync"

	"github.com/baton-md/baton/markdown"
)

// Model is what the analyzer built for one document (Run returns it). The
// language server reads it for hover, go-to-definition, completion and
// document symbols; every span is a byte offset into the document's text.
type Model struct {
	// Component is the parsed document: front matter (Props, Required,
	// Returns, Meta, Bundle) and body.
	Component *Component
	// Checkpoints are the document's checkpoint invocations, in order.
	Checkpoints []*Checkpoint
	// Bindings are every name the body binds (`as`, `<Each let>`, eval
	// block declarations), in order.
	Bindings []*Binding
	// References are every name the body reads, in text placeholders and
	// in expressions, in order.
	References []*Reference
	// Tags is every tag, flattened in document order (Component.Tags).
	Tags []*Tag
	// resolved is what each tag's name resolved to, by Tag.Index (nil for
	// a tag the walk did not visit): see Resolution.
	resolved []*Resolution
	// BundleRoot is the workflow root whose `workflow.components` applies
	// to the document (the document itself when it is the root), or "".
	BundleRoot string

	// r is the resolver the analysis used, for the editor features that
	// resolve names the document does not use yet (completion); mu guards
	// its caches, as features may run concurrently.
	r  *resolver
	mu sync.Mutex
}

// Resolution is what the name of t, a tag of the document, resolved to;
// the zero Resolution for a tag the analysis did not visit or one of
// another document. The answers are shared with the resolver's cache, not
// copied a tag at a time (a map of copies was a tenth of what the
// workflow analysis allocated).
func (m *Model) Resolution(t *Tag) Resolution {
	if i := t.Index; i >= 0 && i < len(m.resolved) && m.Tags[i] == t && m.resolved[i] != nil {
		return *m.resolved[i]
	}
	return Resolution{}
}

// Checkpoint is an invocation that asks the user to decide: a tag named
// UserCheckpoint (or any name ending in "Checkpoint"), or one resolving to
// a value component whose `returns` has a boolean `proceed`.
type Checkpoint struct {
	Tag     *Tag
	Name    string   // the `as` name; "" when unbound
	Binding *Binding // the binding `as` makes; nil when unbound
	// Decision is true when the target is known to return a boolean
	// `proceed`; false for a text component, and when the target was not
	// read (no workspace, a registered or .ts component).
	Decision bool
	// Known is true when the target was read, so Decision is known.
	Known bool
}

// BindingKind is how a name is bound.
type BindingKind int

const (
	BindAs      BindingKind = iota // as="name" on a component, <Let> or <Each>
	BindEachLet                    // <Each let="name">, visible in the loop's body only
	BindEval                       // a declaration in an eval code block
	BindExec                       // as="name" on an executable code block: its result
)

// Binding is one place a name is bound.
type Binding struct {
	Name  string
	Span  markdown.Span // the name as written (inside the quotes, or in the code)
	Kind  BindingKind
	Tag   *Tag       // the tag that binds it; nil for a code block
	Block *CodeBlock // the eval block, or the block as="name" annotates; nil otherwise
	// Guards are the branches of the <If>s the binding sits in, outermost
	// first: it is bound only when all of them are taken.
	Guards []Guard
	// Gate is the innermost guard that is a checkpoint's gate, or nil.
	Gate *Gate
	// Scope is the <Each>, or the Markdown component invocation whose
	// projected content holds the binding, outside which it is not
	// visible; nil for the whole body.
	Scope *Tag
}

// Guard is a branch of an <If>: its then-branch, or its <Else>.
type Guard struct {
	If   *Tag
	Else bool
}

// Gate is a guard that depends on a checkpoint's decision: the
// then-branch of an <If> requiring cp.proceed, or the <Else> of one
// requiring !cp.proceed.
type Gate struct {
	Checkpoint *Checkpoint
	If         *Tag
	Else       bool
}

// Reference is a name read by a placeholder or an expression.
type Reference struct {
	Ref
	Tag         *Tag         // the tag whose attribute holds the expression; nil in text
	Attr        *Attr        // the attribute; nil in text
	Placeholder *Placeholder // the placeholder; nil in an expression
	// Bindings are the bindings in scope the name may read (empty for
	// props, meta and unbound names), the latest maxBindingsRead of them.
	Bindings []*Binding
	// EarlierBindings counts the bindings it may also read that Bindings
	// leaves out: a name bound in a branch of every stage of a long
	// workflow.
	EarlierBindings int
	// Prop is the declared prop a props.x reference reads, or nil.
	Prop *Prop
}
