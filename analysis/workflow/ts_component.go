package workflow

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/analysis"
	"go.yaml.in/yaml/v3"
)

var RuleTSComponent = &analysis.Rule{
	ID:       "workflow/ts-component",
	Summary:  "A TypeScript component breaks the contract the engine loads it by.",
	Severity: analysis.Error,
	Doc: "A component written in TypeScript (`components/Name.ts`) is a module the engine imports when an invocation " +
		"reaches it (packages/core/src/execute.ts, durableImportComponent, the function component's loading), then " +
		"calls as a generator (packages/core/src/expand.ts: `yield* definition.fn(props)`). Its default export must be a " +
		"generator function (`export default function* Name(props) { … }`): a module with no default export, or one " +
		"whose default export is no function (an object, a number), fails every invocation with " +
		"`Function component \"Name\" at components/Name.ts must have a default export that is a generator function`; " +
		"a function that returns nothing (no `return`), an async function or async generator, and a class fail when " +
		"called (`TypeError: yield* … is not iterable`, `Class constructor Name cannot be invoked without 'new'`); and " +
		"a `yield` in a function that is not a generator keeps the module from loading at all. Its props are the schema " +
		"`export const props` holds, as it is: not front matter's map of props, so `export const props = { topic: " +
		"{ type: \"string\" } }` is refused (`root props schema must declare type: \"object\"`); write " +
		"`{ type: \"object\", properties: { topic: { type: \"string\" } } }`. That schema, and `export const returns` " +
		"(a schema or the shorthand, as a Markdown component's `returns`), compile as a Markdown component's do " +
		"(packages/core/src/validate.ts, compilePropsSchema and compileReturnsSchema: Ajv in strict mode, a prop named " +
		"`slot` or `as`, `$async`), and what workflow/props-declaration and workflow/returns-declaration describe is " +
		"refused here too, with the same messages; a module's props meet Ajv's `$schema` check, not front matter's, so " +
		"draft-07's without its `#` passes. With no `props` export the component takes no props, and an invocation " +
		"that passes one fails its prop validation (`Prop validation failed for <Name />: \"/topic\" must NOT have " +
		"additional properties`).\n\n" +
		"baton reads the module's code, not its types: what a default export is when its text fixes it (a function " +
		"declared or bound by `const` in the module, a literal, a class), and `props` and `returns` written as JSON-like " +
		"literals (quoted or bare keys, comments, trailing commas, `as const` or `satisfies` after them). It does not " +
		"judge what depends on another module or on running code: a default or a schema imported, built by a call, " +
		"spread, held by a `let` or assigned again, a function that returns something (what it returns is not " +
		"followed), a module that re-exports another (`export * from`), one it cannot tokenize with confidence " +
		"(a decorator), or one that exports nothing at all. The findings are at the invocation, each naming the " +
		"place in the module (`components/Name.ts:3:40: …`). The verdicts are held to the engine's, recorded by " +
		"running its loading and invocation (analysis/workflow/testdata/tscomponents.json).\n\n" +
		"**The engine** fails every invocation of the component when it reaches it: the import's error, the call's, " +
		"or the prop validation's — a printed error, or a failed run under a throwing error mode.",
	Follows: []string{
		"executable.md packages/core/src/execute.ts durableImportComponent (a function component: its default export, its props and returns)",
		"executable.md packages/core/src/validate.ts compilePropsSchema, compileReturnsSchema (a module's props and returns, as Ajv compiles them)",
	},
}

// tsFacts is what baton reads of a TypeScript component's text.
type tsFacts struct {
	read       bool // the text was read, and no re-export hides what it exports
	hasDefault bool
	hasProps   bool
	hasReturns bool
	// def is what the default export is, when the module's code fixes it
	// (tsUnknown when it does not, or the code was not read).
	def tsDef
	// defAt is where def is in the module ("3:16"), for tsYield.
	defAt string
	// schemas are what the engine refuses in the props and returns the
	// module exports as literals, each "path:line:col: why".
	schemas []string
}

var (
	tsDefault  = lazyre.New(`\bexport\s+default\b|\bas\s+(?:default\b|"default"|'default')|\bexport\s*\{[^}]*\bdefault\b`)
	tsProps    = lazyre.New(`\bexport\s+(?:const|let|var)\s+props\b|\bexport\s+(?:async\s+)?function\s*\*?\s*props\b|\bexport\s*\{[^}]*\bprops\b`)
	tsReturns  = lazyre.New(`\bexport\s+(?:const|let|var)\s+returns\b|\bexport\s*\{[^}]*\breturns\b`)
	tsReexport = lazyre.New(`\bexport\s*\*`)
	tsExport   = lazyre.New(`\bexport\b`)
)

// tsComponent reads the TypeScript component at p, once for the document.
func (r *resolver) tsComponent(p string) tsFacts {
	if f, ok := r.ts[p]; ok {
		return f
	}
	var f tsFacts
	if r.fsys != nil {
		if data, err := readRegular(r.fsys, p); err == nil && len(data) <= maxRead {
			text := string(data)
			// A module that exports nothing at all (an empty file, a
			// stand-in) is not judged: it is not yet anything's component.
			if tsExport.MatchString(text) && !tsReexport.MatchString(text) {
				f = tsFacts{read: true, hasDefault: tsDefault.MatchString(text), hasProps: tsProps.MatchString(text), hasReturns: tsReturns.MatchString(text)}
				f.readCode(p, text)
			}
		}
	}
	if r.ts == nil {
		r.ts = map[string]tsFacts{}
	}
	r.ts[p] = f
	return f
}

// readCode reads the module's code for what its default export is and
// for the props and returns it exports as literals, and checks those as
// the engine compiles them.
func (f *tsFacts) readCode(p, text string) {
	ex, ok := readTSExports(text)
	if !ok {
		return
	}
	f.def = ex.def
	if f.def.kind == tsYield {
		l, c := (&tsModule{src: text}).pos(f.def.at)
		f.defAt = fmt.Sprintf("%d:%d", l, c)
	}
	at := func(n *yaml.Node, msg string, _ ...func(*analysis.Finding)) {
		f.schemas = append(f.schemas, fmt.Sprintf("%s:%d:%d: %s", p, n.Line, n.Column, msg))
	}
	if d := ex.props; d != nil {
		(&schemaWalker{emit: at, what: "props"}).moduleProps(d.key, d.value)
	}
	if d := ex.returns; d != nil {
		(&schemaWalker{emit: at, what: "return"}).returnsDecl(d.key, d.value)
	}
}

// moduleProps checks a module's props export as the engine takes it: the
// schema itself, not front matter's map of props (execute.ts,
// durableImportComponent: parseJsonObject, then validate.ts
// compilePropsSchema, whose enforceRootContract comes before Ajv).
func (w *schemaWalker) moduleProps(key, v *yaml.Node) {
	if kind := engineKind(v); kind != "" {
		what := kind
		if kind != "null" {
			what = article(kind)
		}
		w.emit(key, fmt.Sprintf("props is %s, not a schema: the engine refuses the component (expected a JSON object, got %s); export the schema as an object: export const props = { type: \"object\", properties: { … } }", what, kind))
		return
	}
	if v.Kind != yaml.MappingNode {
		return
	}
	if _, t := mapGet(v, "type"); t == nil || t.Kind != yaml.ScalarNode || t.ShortTag() != "!!str" || t.Value != "object" {
		const engine = `the engine refuses the component (root props schema must declare type: "object")`
		_, dialect := mapGet(v, "$schema")
		switch {
		case len(v.Content) == 0:
			w.emit(key, "props is an empty object, not a schema of no props: "+engine+`; write export const props = { type: "object", properties: {}, additionalProperties: false }, or export no props`)
		case dialect == nil && (t == nil || t.Kind == yaml.MappingNode):
			name := v.Content[0].Value
			w.emit(key, fmt.Sprintf(`props is a map of props, as front matter declares them, but a module's props export is the schema itself: %s; write export const props = { type: "object", properties: { %s: … } }`, engine, name))
		case t == nil:
			w.emit(key, "a full props schema must have type: object: "+engine)
		default:
			w.emit(t, "a full props schema must have type: object: "+engine)
		}
		return
	}
	if _, ps := mapGet(v, "properties"); ps != nil {
		if ps.Kind != yaml.MappingNode {
			w.emit(ps, `properties is not an object: the engine refuses the component (props schema "properties" must be an object); declare each prop under it: properties: { topic: { type: "string" } }`)
			return
		}
		for _, reserved := range []string{"slot", "as"} {
			if k, _ := mapGet(ps, reserved); k != nil {
				w.emit(k, fmt.Sprintf("%q is reserved (the engine consumes it before validation) and cannot be declared as a prop: the engine refuses the component (%q is a reserved prop name and cannot be declared as a component prop)", reserved, reserved))
			}
		}
	}
	w.rootAsync(v)
	// Ajv's own: the meta-schemas it has (draft-07's, with or without the
	// fragment), not parsePropsSchema's text comparison, which a module's
	// props do not go through.
	if _, sv := mapGet(v, "$schema"); sv != nil && sv.ShortTag() == "!!str" && sv.Value != draft07 && sv.Value != strings.TrimSuffix(draft07, "#") {
		w.emit(sv, fmt.Sprintf("props $schema must be draft-07's: the engine refuses the component (invalid props schema: no schema with key or ref %q); write $schema: %q, or remove it", sv.Value, draft07))
	}
	w.walk(v, nil, "#", 0)
}

// checkTSComponents checks each invocation of a TypeScript component of
// the repository against what its module exports.
func (k *checker) checkTSComponents() {
	for _, t := range k.c.Tags {
		res := k.resOf(t)
		if res.Kind != ResolveFile || !strings.HasSuffix(res.Path, ".ts") || !t.Closed || k.failureExpected(t) {
			continue
		}
		f := k.r.tsComponent(res.Path)
		if !f.read {
			continue
		}
		if !f.hasDefault {
			k.report(RuleTSComponent, t.NameSpan, fmt.Sprintf("<%s> is %s, which has no default export: the engine fails every invocation of it (\"Function component %q at %s must have a default export that is a generator function\"); export the component as export default function* %s(props) { … }",
				t.Name, res.Path, t.Name, res.Path, t.Name))
			continue
		}
		if msg := defaultProblem(f, t.Name, res.Path); msg != "" {
			k.report(RuleTSComponent, t.NameSpan, msg)
		}
		for _, why := range f.schemas {
			k.report(RuleTSComponent, t.NameSpan, fmt.Sprintf("<%s> is %s, which the engine refuses when it loads it: %s", t.Name, res.Path, why))
		}
		if f.hasProps {
			continue
		}
		for _, a := range t.Attrs {
			if passes(a) {
				k.report(RuleTSComponent, a.NameSpan, fmt.Sprintf("%s exports no props, so <%s> takes none: the engine refuses %s (\"Prop validation failed for <%s />: \\\"/%s\\\" must NOT have additional properties\"); declare it in the module (export const props = { type: \"object\", properties: { %s: { type: \"string\" } } }), or do not pass it",
					res.Path, t.Name, a.Name, t.Name, a.Name, a.Name))
			}
		}
	}
}

// defaultProblem says what the engine does with a default export that is
// not a generator function, "" when it is one or baton cannot tell.
func defaultProblem(f tsFacts, name, p string) string {
	d := f.def
	fix := fmt.Sprintf("export the component as a generator: export default function* %s(props) { … }", name)
	switch d.kind {
	case tsNotFunction:
		return fmt.Sprintf("<%s> is %s, whose default export is %s, not a function: the engine fails every invocation of it (\"Function component %q at %s must have a default export that is a generator function\"); %s",
			name, p, d.what, name, p, fix)
	case tsReturnsNothing:
		return fmt.Sprintf("<%s> is %s, whose default export, %s, is not a generator function and returns nothing: the engine calls it and fails every invocation of it (TypeError: yield* … is not iterable); %s",
			name, p, d.what, fix)
	case tsAsync:
		return fmt.Sprintf("<%s> is %s, whose default export, %s, is async: it returns a promise, not an operation, and the engine fails every invocation of it (TypeError: yield* … is not iterable); %s, and wait for a promise in it with yield* until(promise)",
			name, p, d.what, fix)
	case tsAsyncGenerator:
		return fmt.Sprintf("<%s> is %s, whose default export, %s, is an async generator function: the engine fails every invocation of it (TypeError: yield* … is not iterable); %s (function*, not async function*)",
			name, p, d.what, fix)
	case tsClass:
		return fmt.Sprintf("<%s> is %s, whose default export is %s: the engine calls it without new and fails every invocation of it (TypeError: Class constructor … cannot be invoked without 'new'); %s",
			name, p, d.what, fix)
	case tsYield:
		return fmt.Sprintf("<%s> is %s, whose default export, %s, uses yield (at %s) but is not a generator function: in a module yield is reserved outside a generator, so the module does not load and the engine fails every invocation of it; %s",
			name, p, d.what, f.defAt, fix)
	}
	return ""
}
