package workflow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
	"go.yaml.in/yaml/v3"
)

// The checks the engine makes of a component's front matter when it loads
// it (packages/core/src/definition.ts, compileFrontmatter): the front
// matter must be JSON (parseFrontmatter), `props` and `returns` must be
// declarations (parsePropsSchema, parseReturnsDeclaration), and each schema
// must compile under Ajv's strict mode (validate.ts, compilePropsSchema and
// compileReturnsSchema). A refusal fails the component before anything in
// it runs, whichever branch invokes it.

var (
	RuleFrontMatterJSON = &analysis.Rule{
		ID:       "workflow/frontmatter-json",
		Summary:  "A front matter value is not JSON (an unquoted date, .inf, .nan): the engine refuses the component.",
		Severity: analysis.Error,
		Doc: "The engine reads front matter with gray-matter, whose YAML (js-yaml 3) makes an unquoted " +
			"`2025-03-14` or `2025-03-14 10:00:00` a JavaScript `Date`, and `.inf` or `.nan` a number that is not " +
			"finite. It then requires the whole front matter to be JSON (packages/core/src/frontmatter.ts, " +
			"parseFrontmatter, through packages/core/src/json.ts parseJsonObject), and refuses the component " +
			"with `non-plain object at $.updated` or `non-finite number at $.x` — for a meta key as much as for a " +
			"schema's `default`. Quote the value (`updated: \"2025-03-14\"`); the quick fix does. A date only " +
			"js-yaml's pattern matches is reported: `2025-3-14` (one-digit month, no time) is a string to it.\n\n" +
			"A tag does the same: `!!timestamp 2025-03-14` is a `Date` however it is quoted (the quick fix writes " +
			"the string), and `!!binary` makes a `Buffer` of its base64 — `non-plain object at $.avatar`. js-yaml " +
			"refuses outright a `!!timestamp` that is no date or a `!!binary` that is no base64 (`cannot resolve a " +
			"node with !<tag:yaml.org,2002:timestamp> explicit tag`), and a tag its safe schema does not have " +
			"(`!secret`, `!!js/regexp`: `unknown tag !<!secret>`). `!!str`, `!!set`, `!!omap`, `!!pairs` and the " +
			"non-specific `!` read as JSON, and are left alone.\n\n" +
			"**The engine** fails the component when it loads (packages/core/src/definition.ts, " +
			"compileFrontmatter), before any invocation of it runs.",
		Follows: []string{"executable.md packages/core/src/frontmatter.ts parseFrontmatter (parseJsonObject: unquoted date, non-finite number, a tagged value)"},
	}
	RuleReturnsDeclaration = &analysis.Rule{
		ID:       "workflow/returns-declaration",
		Summary:  "The front matter's returns declaration is invalid.",
		Severity: analysis.Error,
		Doc: "`returns` is a map of property names to subschemas (every one required), or a full draft-07 schema " +
			"marked by `type` or `$schema`. The engine refuses, when the component loads " +
			"(packages/core/src/frontmatter.ts, parseReturnsDeclaration): a `returns` that is not a mapping " +
			"(`returns: boolean`, an empty `returns:`), a property declared by a bare type name " +
			"(`ok: boolean` for `ok: {type: boolean}`), and a `$schema` other than draft-07's. It then compiles " +
			"the schema with Ajv in strict mode (packages/core/src/validate.ts, compileReturnsSchema), which " +
			"refuses what workflow/props-declaration describes for props: a keyword Ajv does not know " +
			"(`example`), a `type` JSON Schema has not (`int`), a keyword for another type than the schema's " +
			"(`minLength` on an array), a union type, `required` naming an undeclared property, `properties` that " +
			"is not a mapping, `$async` on a part of the schema. A full schema with `$async: true` at its root is " +
			"refused before Ajv sees it (`asynchronous return schemas ($async: true) are not supported`). The quick fix " +
			"writes a bare type name as `{type: …}`.\n\n" +
			"**The engine** fails the component when it loads (packages/core/src/definition.ts, " +
			"compileFrontmatter), before any invocation of it runs.",
		Follows: []string{
			"executable.md packages/core/src/frontmatter.ts parseReturnsDeclaration",
			"executable.md packages/core/src/validate.ts compileReturnsSchema (Ajv strict mode)",
		},
	}
)

const draft07 = "http://json-schema.org/draft-07/schema#"

// jsonTypes are JSON Schema's type names.
var jsonTypes = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

// typeTypos are type names of other languages, and what JSON Schema calls them.
var typeTypos = map[string]string{"int": "integer", "bool": "boolean", "str": "string", "float": "number",
	"double": "number", "list": "array", "dict": "object", "map": "object", "text": "string"}

// ajvKeywords is every keyword the engine's Ajv knows (ajv 8.20.0, draft-07,
// its RULES.keywords); strict mode refuses any other.
var ajvKeywords = set("$async", "$schema", "$id", "$defs", "$vocabulary", "$comment", "definitions", "id", "$ref",
	"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf", "maxLength", "minLength", "pattern",
	"maxProperties", "minProperties", "required", "maxItems", "minItems", "uniqueItems", "type", "nullable", "const",
	"enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else", "propertyNames", "additionalProperties",
	"dependencies", "properties", "patternProperties", "additionalItems", "items", "contains", "format", "title",
	"description", "default", "deprecated", "readOnly", "writeOnly", "examples", "contentMediaType",
	"contentEncoding", "contentSchema")

// keywordTypes are the keywords Ajv applies to some types only (its
// RULES.all, definition.type), in a fixed order: strictTypes refuses one in
// a schema whose type does not include them.
var keywordTypes = []struct {
	kw    string
	types []string
}{
	{"maximum", []string{"number"}}, {"minimum", []string{"number"}}, {"exclusiveMaximum", []string{"number"}},
	{"exclusiveMinimum", []string{"number"}}, {"multipleOf", []string{"number"}},
	{"maxLength", []string{"string"}}, {"minLength", []string{"string"}}, {"pattern", []string{"string"}},
	{"maxProperties", []string{"object"}}, {"minProperties", []string{"object"}}, {"required", []string{"object"}},
	{"maxItems", []string{"array"}}, {"minItems", []string{"array"}}, {"uniqueItems", []string{"array"}},
	{"propertyNames", []string{"object"}}, {"additionalProperties", []string{"object"}},
	{"dependencies", []string{"object"}}, {"properties", []string{"object"}}, {"patternProperties", []string{"object"}},
	{"additionalItems", []string{"array"}}, {"items", []string{"array"}}, {"contains", []string{"array"}},
	{"format", []string{"number", "string"}},
}

// The keywords of one type that have a counterpart in another.
var keywordCounterpart = map[string]string{"minLength": "minItems", "maxLength": "maxItems", "minItems": "minLength", "maxItems": "maxLength"}

// js-yaml 3's timestamp patterns (its type/timestamp.js): a plain scalar
// matching one is a Date to gray-matter. Go's YAML reads more as dates.
var (
	yamlDate      = lazyre.New(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	yamlTimestamp = lazyre.New(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?$`)
	yamlNonFinite = lazyre.New(`^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

// checkDeclarations checks the front matter as the engine's
// compileFrontmatter does when the component loads.
func (k *checker) checkDeclarations() {
	fm := k.c.FrontMatter
	if fm == nil || fm.root == nil {
		return
	}
	k.checkJSONValues(fm.root, "$", 0)
	for i := 0; i+1 < len(fm.root.Content); i += 2 {
		key, v := fm.root.Content[i], resolveAlias(fm.root.Content[i+1])
		switch key.Value {
		case "props":
			k.checkPropsDecl(key, v)
		case "returns":
			k.checkReturnsDecl(key, v)
		case "required":
			k.checkRequiredDecl(key, v)
		}
	}
}

// js-yaml 3's plain scalars that are not strings (its type/int.js and
// type/float.js, without the forms with "_", base 60, .inf and .nan, which
// baton leaves alone), and its null and boolean words.
var (
	jsYAMLInt   = lazyre.New(`^[-+]?(?:0|[1-9][0-9]*|0[0-7]+|0x[0-9a-fA-F]+|0b[01]+)$`)
	jsYAMLFloat = lazyre.New(`^(?:[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?)$`)
)

// jsYAMLKind is what the engine's YAML (js-yaml 3, through gray-matter)
// makes of n, in JavaScript's words: "string", "number", "boolean",
// "null", "array" or "object"; "" where baton does not tell (a date, an
// explicit tag other than !!str, a number written in a form baton does not
// read). Go's YAML reads some plain scalars otherwise (0o17 is a number to
// it, a string to js-yaml).
func jsYAMLKind(n *yaml.Node) string {
	n = resolveAlias(n)
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.SequenceNode:
		return "array"
	case yaml.MappingNode:
		return "object"
	case yaml.ScalarNode:
	default:
		return ""
	}
	switch {
	case n.Style&yaml.TaggedStyle != 0:
		if n.ShortTag() == "!!str" {
			return "string"
		}
		return ""
	case n.Style != 0:
		return "string" // quoted, or a block scalar
	}
	switch v := n.Value; {
	case v == "" || v == "~" || v == "null" || v == "Null" || v == "NULL":
		return "null"
	case v == "true" || v == "True" || v == "TRUE" || v == "false" || v == "False" || v == "FALSE":
		return "boolean"
	case !strings.ContainsAny(v[:1], "0123456789+-."):
		return "string"
	case jsYAMLInt.MatchString(v) || jsYAMLFloat.MatchString(v):
		// Both patterns start with one of the bytes above: most scalars
		// are words, and are not matched against either.
		return "number"
	}
	return "" // a date, or a number baton does not read (1_000, 1:30, .inf), or a string it might be
}

// checkRequiredDecl checks the top-level `required` as the engine's
// parsePropsSchema and parseRequiredNames read it (packages/core/src/
// frontmatter.ts): only beside a map of props, and then a list of the
// names it declares.
func (k *checker) checkRequiredDecl(key, v *yaml.Node) {
	r := RulePropsDeclaration
	p := &k.c.Props
	at := key
	if v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
		at = v.Content[0]
	}
	switch p.Form {
	case PropsInvalid:
		// The engine refuses props before it reads required.
	case PropsNone:
		k.report(r, k.c.yamlSpan(at), `required names props, but the front matter declares no props: the engine refuses the component (frontmatter declares "required" without "props"); declare the props under props, or remove required`)
	case PropsSchema:
		k.report(r, k.c.yamlSpan(at), `a top-level required beside a full props schema is refused: put required inside the schema (the engine refuses the component: frontmatter declares "required" alongside a full "props" schema; a full schema declares "required" inside "props")`)
	case PropsMap:
		const engine = `frontmatter "required" must be an array of prop names`
		if v.Kind != yaml.SequenceNode {
			switch kind := jsYAMLKind(v); {
			case kind == "null":
				k.report(r, k.c.yamlSpan(key), "required is empty (null), not a list: the engine refuses the component ("+engine+"); list the required props (required: [topic]), or remove the key")
			case kind == "string" && v.Style == 0 && !strings.ContainsAny(v.Value, ",[]{}#\"'"):
				span := k.c.yamlSpan(v)
				k.report(r, span, fmt.Sprintf("required: %s is not a list: the engine refuses the component (%s); write required: [%s]", v.Value, engine, v.Value),
					analysis.WithFix(analysis.Fix{Title: "Write required: [" + v.Value + "]", Safe: true,
						Edits: []analysis.Edit{{Span: span, NewText: "[" + v.Value + "]"}}}))
			case kind != "":
				k.report(r, k.c.yamlSpan(key), "required is "+article(kind)+", not a list: the engine refuses the component ("+engine+"); list the required props (required: [topic])")
			}
			return
		}
		for _, item := range v.Content {
			item = resolveAlias(item)
			switch kind := jsYAMLKind(item); kind {
			case "string":
				if p.Prop(item.Value) == nil {
					k.report(r, k.c.yamlSpan(item), fmt.Sprintf("required names %q, which props does not declare: it could never be supplied (the engine refuses the component: frontmatter \"required\" names %q, which no prop declares)", item.Value, item.Value))
				}
			case "number", "boolean", "null":
				msg := fmt.Sprintf("required lists %s, %s, not a prop name: the engine refuses the component (frontmatter \"required\" must list prop names as strings)", item.Value, article(kind))
				if kind == "null" {
					what := item.Value
					if what == "" {
						what = "an empty entry"
					}
					msg = fmt.Sprintf(`required lists %s (null), not a prop name: the engine refuses the component (frontmatter "required" must list prop names as strings); remove it`, what)
				}
				var opts []func(*analysis.Finding)
				if kind != "null" && p.Prop(item.Value) != nil {
					span := k.c.yamlSpan(item)
					msg += fmt.Sprintf("; quote it: %q", item.Value)
					opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Quote " + item.Value, Safe: true,
						Edits: []analysis.Edit{{Span: span, NewText: strconv.Quote(item.Value)}}}))
				}
				k.report(r, k.c.yamlSpan(item), msg, opts...)
			case "array", "object":
				k.report(r, k.c.yamlSpan(item), "required lists "+article(kind)+`, not a prop name: the engine refuses the component (frontmatter "required" must list prop names as strings); list the names themselves (required: [topic])`)
			}
		}
	}
}

// checkJSONValues reports the values gray-matter reads as something JSON
// has not. An alias is checked where its anchor is.
func (k *checker) checkJSONValues(n *yaml.Node, path string, depth int) {
	if depth > 100 {
		return
	}
	if n.Style&yaml.TaggedStyle != 0 && k.checkTag(n, path) {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		// Quoted, a block scalar or explicitly tagged; or starting with
		// neither a digit nor what .inf and .nan start with: no pattern's.
		if n.Style != 0 || n.Value == "" || !strings.ContainsRune("0123456789.+-", rune(n.Value[0])) {
			return
		}
		span := k.c.yamlSpan(n)
		switch {
		case yamlDate.MatchString(n.Value) || yamlTimestamp.MatchString(n.Value):
			k.report(RuleFrontMatterJSON, span,
				fmt.Sprintf("%s is a date to the engine's YAML, and a date is not JSON: the engine refuses the component (non-plain object at %s); quote it: %q", n.Value, path, n.Value),
				analysis.WithFix(analysis.Fix{Title: "Quote " + n.Value, Safe: true, Edits: []analysis.Edit{{Span: span, NewText: strconv.Quote(n.Value)}}}))
		case yamlNonFinite.MatchString(n.Value):
			k.report(RuleFrontMatterJSON, span,
				fmt.Sprintf("%s is a number that is not finite, which JSON has not: the engine refuses the component (non-finite number at %s); quote it, or write a finite number", n.Value, path))
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			k.checkJSONValues(c, fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].ShortTag() == "!!merge" {
				continue
			}
			k.checkJSONValues(n.Content[i+1], path+"."+n.Content[i].Value, depth+1)
		}
	}
}

// jsYAMLTags are the tags of js-yaml 3's safe schema, with which
// gray-matter reads front matter: any other is an unknown tag to it.
var jsYAMLTags = set("!!str", "!!seq", "!!map", "!!null", "!!bool", "!!int", "!!float", "!!timestamp", "!!merge",
	"!!binary", "!!omap", "!!pairs", "!!set")

// base64Chars is js-yaml's BASE64_MAP (type/binary.js): the characters of
// a !!binary scalar, line breaks skipped.
const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="

// jsYAMLBinary is js-yaml's resolveYamlBinary: whether a !!binary scalar
// is base64 it decodes (to a Buffer), rather than one it refuses.
func jsYAMLBinary(v string) bool {
	bits := 0
	for _, r := range v {
		if r == '\n' || r == '\r' {
			continue
		}
		if !strings.ContainsRune(base64Chars, r) {
			return false
		}
		bits += 6
	}
	return bits%8 == 0
}

// checkTag reports an explicitly tagged node the engine's YAML reads as
// something JSON has not (a !!timestamp is a Date, a !!binary a Buffer),
// or does not read at all (a tag its schema does not have, or a value its
// tag refuses), and says whether it did.
func (k *checker) checkTag(n *yaml.Node, path string) bool {
	tag := n.ShortTag()
	span := k.taggedSpan(n)
	var msg string
	var opts []func(*analysis.Finding)
	switch {
	case !jsYAMLTags[tag]:
		long := n.Tag
		if strings.HasPrefix(tag, "!!") {
			long = "tag:yaml.org,2002:" + tag[2:]
		}
		msg = fmt.Sprintf("%s is a tag the engine's YAML (js-yaml, in gray-matter) does not know: it refuses the component (unknown tag !<%s>); remove the tag", n.Tag, long)
	case n.Kind != yaml.ScalarNode:
		return false
	case tag == "!!timestamp" && (yamlDate.MatchString(n.Value) || yamlTimestamp.MatchString(n.Value)):
		msg = fmt.Sprintf("!!timestamp makes %s a date, and a date is not JSON: the engine refuses the component (non-plain object at %s); write it as a string: %q", n.Value, path, n.Value)
		if n.Style == yaml.TaggedStyle && strings.HasSuffix(k.c.Text[span.Start:span.End], " "+n.Value) {
			opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Write " + strconv.Quote(n.Value), Safe: true,
				Edits: []analysis.Edit{{Span: span, NewText: strconv.Quote(n.Value)}}}))
		}
	case tag == "!!timestamp":
		msg = fmt.Sprintf("!!timestamp %s is no date the engine's YAML reads: it refuses the component (cannot resolve a node with !<tag:yaml.org,2002:timestamp> explicit tag); write it as a string: %q", n.Value, n.Value)
	case tag == "!!binary" && jsYAMLBinary(n.Value):
		msg = fmt.Sprintf("!!binary makes the value bytes (a Buffer), which are not JSON: the engine refuses the component (non-plain object at %s); write the value as a string, without the tag", path)
	case tag == "!!binary":
		msg = "!!binary holds something that is not base64: the engine's YAML refuses it, and the component (cannot resolve a node with !<tag:yaml.org,2002:binary> explicit tag); write the value as a string, without the tag"
	default:
		return false
	}
	k.report(RuleFrontMatterJSON, span, msg, opts...)
	return true
}

// taggedSpan is the span of a tagged node's tag, and of its value when it
// is a scalar written on the same line (yaml.Node places the node at its
// tag).
func (k *checker) taggedSpan(n *yaml.Node) markdown.Span {
	start := k.c.yamlSpan(n).Start
	le := lineEnd(k.c.Text, start, k.c.FrontMatter.Body.End)
	i := start
	for i < le && k.c.Text[i] != ' ' && k.c.Text[i] != '\t' {
		i++
	}
	tagEnd := i
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return markdown.Span{Start: start, End: tagEnd}
	}
	for i < le && (k.c.Text[i] == ' ' || k.c.Text[i] == '\t') {
		i++
	}
	w := len(n.Value)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		w += 2
	}
	if i+w > le {
		return markdown.Span{Start: start, End: tagEnd}
	}
	return markdown.Span{Start: start, End: i + w}
}

// jsonKind is what the engine's parseJsonObject says a non-object is
// ("" for what the date check reports, or a mapping).
func engineKind(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "array"
	case yaml.ScalarNode:
		switch v.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "boolean"
		case "!!int", "!!float":
			return "number"
		case "!!str":
			return "string"
		}
	}
	return ""
}

// typeFix is the quick fix writing a bare type name as a schema.
func (k *checker) typeFix(v *yaml.Node) []func(*analysis.Finding) {
	if v.Kind != yaml.ScalarNode || v.Style != 0 || !slices.Contains(jsonTypes, v.Value) {
		return nil
	}
	return []func(*analysis.Finding){analysis.WithFix(analysis.Fix{Title: "Write {type: " + v.Value + "}", Safe: true,
		Edits: []analysis.Edit{{Span: k.c.yamlSpan(v), NewText: "{type: " + v.Value + "}"}}})}
}

func (k *checker) checkPropsDecl(key, v *yaml.Node) {
	r := RulePropsDeclaration
	if kind := engineKind(v); kind != "" {
		what := fmt.Sprintf("props is %s", kind)
		if kind == "null" {
			what = "props is empty (null)"
		}
		k.report(r, k.c.yamlSpan(key), what+", not a declaration: the engine refuses the component (expected a JSON object, got "+kind+
			"); declare the props as a mapping (props: {topic: {type: string}}), or write props: {} for none")
		return
	}
	if v.Kind != yaml.MappingNode {
		return
	}
	w := k.frontMatterWalker(r, "props")
	if isSchema(v) {
		w.checkDialect(v)
		if tk, t := mapGet(v, "type"); t != nil && t.Kind == yaml.MappingNode {
			// A prop named type: the engine reads the map as a full schema.
			k.report(r, k.c.yamlSpan(tk), `props has a key named type, so the engine reads it as a full schema, not a map of props, and refuses it (root props schema must declare type: "object"): a prop cannot be named type or $schema; rename it, or write props as a full schema (type: object, properties: {type: …})`)
			return
		}
		if _, t := mapGet(v, "type"); t == nil || t.Kind != yaml.ScalarNode || t.Value != "object" {
			span := k.c.yamlSpan(key)
			if t != nil {
				span = k.c.yamlSpan(t)
			}
			k.report(r, span, `a full props schema must have type: object: the engine refuses the component (root props schema must declare type: "object")`)
		}
		if pk, ps := mapGet(v, "properties"); ps != nil && resolveAlias(ps).Kind != yaml.MappingNode {
			k.report(r, k.c.yamlSpan(pk), `properties is not a mapping: the engine refuses the component (props schema "properties" must be an object); declare each prop under it: properties: {topic: {type: string}}`)
		}
		w.rootAsync(v)
		w.walk(v, nil, "#", 0)
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		name, d := v.Content[i], resolveAlias(v.Content[i+1])
		w.entry(name, d, fmt.Sprintf("prop %q must declare a JSON Schema object or boolean", name.Value))
	}
}

func (k *checker) checkReturnsDecl(key, v *yaml.Node) {
	k.frontMatterWalker(RuleReturnsDeclaration, "return").returnsDecl(key, v)
}

// returnsDecl checks a returns declaration as the engine's
// parseReturnsDeclaration reads it, then its schema as Ajv compiles it.
func (w *schemaWalker) returnsDecl(key, v *yaml.Node) {
	if kind := engineKind(v); kind != "" {
		engine := `("returns" must declare a JSON Schema object: expected a JSON object, got ` + kind + ")"
		switch {
		case v.Kind == yaml.ScalarNode && slices.Contains(jsonTypes, v.Value):
			w.emit(v, fmt.Sprintf("returns: %s is a type name, not a schema: the engine refuses the component %s; write returns: {type: %s}", v.Value, engine, v.Value), w.typeFix(v)...)
		case kind == "null":
			w.emit(key, "returns is empty (null): the engine refuses the component "+engine+"; declare what the component returns (returns: {proceed: {type: boolean}}), or remove the key for a text component")
		default:
			w.emit(key, "returns is "+kind+", not a schema: the engine refuses the component "+engine+"; declare it as a mapping (returns: {type: string}, or returns: {ok: {type: boolean}})")
		}
		return
	}
	if v.Kind != yaml.MappingNode {
		return
	}
	if isSchema(v) {
		w.checkDialect(v)
		w.rootAsync(v)
		w.walk(v, nil, "#", 0)
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		name, d := v.Content[i], resolveAlias(v.Content[i+1])
		w.entry(name, d, fmt.Sprintf("returns property %q must declare a JSON Schema object or boolean", name.Value))
	}
}

// asyncOn reports an $async value JavaScript reads as true (Ajv compiles
// the schema asynchronous), and whether it is the boolean true.
func asyncOn(v *yaml.Node) (on, isTrue bool) {
	v = resolveAlias(v)
	switch jsYAMLKind(v) {
	case "boolean":
		isTrue = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		return isTrue, isTrue
	case "string":
		return v.Value != "", false
	}
	return false, false
}

// rootAsync reports an asynchronous full props or returns schema, which
// the engine refuses before and after Ajv compiles it (packages/core/src/
// validate.ts, compilePropsSchema and compileReturnsSchema).
func (w *schemaWalker) rootAsync(v *yaml.Node) {
	ak, av := mapGet(v, "$async")
	on, isTrue := asyncOn(av)
	if !on {
		return
	}
	engine := fmt.Sprintf("asynchronous %s schemas are not supported", w.what)
	if isTrue {
		engine = fmt.Sprintf("asynchronous %s schemas ($async: true) are not supported", w.what)
	}
	at := av
	if !isTrue {
		at = ak
	}
	w.emit(at, fmt.Sprintf("$async: %s makes the schema asynchronous, which the engine does not take: it refuses the component (%s); remove it", av.Value, engine))
}

// schemaWalker checks a props or returns schema as the engine's Ajv
// compiles it: strict mode, draft-07 (packages/core/src/validate.ts,
// createPropsCompiler). What it finds goes to emit, at the node it is
// about; fix, when there is one, is the quick fix for a bare type name.
type schemaWalker struct {
	emit func(n *yaml.Node, msg string, opts ...func(*analysis.Finding))
	fix  func(v *yaml.Node) []func(*analysis.Finding)
	what string // "props" or "return", as the engine's message says; "schema" for a literal schema prop
	// quote is how a finding quotes the engine's refusal, engine being
	// Ajv's message; nil for a component's props or returns.
	quote func(engine string) string
	// noDefaults: the compiler does not fill defaults (Ajv's useDefaults
	// is off), so a default at the root is no refusal.
	noDefaults bool
	// keywords are the keywords the compiler knows beyond Ajv's own.
	keywords map[string]bool
}

// frontMatterWalker reports under rule, at the node's place in the
// document's front matter.
func (k *checker) frontMatterWalker(rule *analysis.Rule, what string) *schemaWalker {
	return &schemaWalker{
		emit: func(n *yaml.Node, msg string, opts ...func(*analysis.Finding)) {
			k.report(rule, k.c.yamlSpan(n), msg, opts...)
		},
		fix:  k.typeFix,
		what: what,
	}
}

func (w *schemaWalker) typeFix(v *yaml.Node) []func(*analysis.Finding) {
	if w.fix == nil {
		return nil
	}
	return w.fix(v)
}

func (w *schemaWalker) report(n *yaml.Node, msg, engine string) {
	if w.quote != nil {
		w.emit(n, msg+w.quote(engine))
		return
	}
	w.emit(n, msg+fmt.Sprintf(" (the engine refuses the component: invalid %s schema: %s)", w.what, engine))
}

// ruleKeywords are keywords that make Ajv compile the schema holding
// them: a schema with none of them is always valid, and Ajv does not
// compile it (its alwaysValidSchema), so what else it holds is never
// looked at.
var ruleKeywords = set("type", "enum", "const", "properties", "patternProperties", "additionalProperties", "required",
	"items", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems", "minimum", "maximum",
	"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minProperties",
	"maxProperties", "propertyNames", "dependencies", "allOf", "anyOf", "oneOf", "not", "$ref")

// holdsRule reports a schema with a keyword of ruleKeywords.
func holdsRule(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if ruleKeywords[n.Content[i].Value] {
			return true
		}
	}
	return false
}

// checks reports a subschema Ajv compiles: false, or one with a keyword
// of ruleKeywords (true and {} are always valid, and so, to Ajv, is a
// schema of annotations only).
func checks(n *yaml.Node) bool {
	n = resolveAlias(n)
	if n == nil {
		return false
	}
	if n.Kind == yaml.ScalarNode {
		return jsYAMLKind(n) == "boolean" && n.Value != "true" && n.Value != "True" && n.Value != "TRUE"
	}
	return n.Kind == yaml.MappingNode && holdsRule(n)
}

// underCondition reports a schema path through if, then or else, whose
// subschemas Ajv compiles only when the others hold rules.
func underCondition(at string) bool {
	parts := strings.Split(at, "/")
	for i := 1; i < len(parts); i++ {
		switch parts[i] {
		case "if", "then", "else":
			// A keyword, unless it is a name under properties or the like.
			if p := parts[i-1]; p != "properties" && p != "patternProperties" && p != "dependencies" && p != "definitions" {
				return true
			}
		}
	}
	return false
}

// entry checks one entry of a map of names to subschemas (the props map,
// the returns shorthand): a schema, or a boolean.
func (w *schemaWalker) entry(name, d *yaml.Node, engine string) {
	switch {
	case d.Kind == yaml.MappingNode:
		w.walk(d, nil, "#/properties/"+escapePointer(name.Value), 0)
	case d.Kind == yaml.ScalarNode && d.ShortTag() == "!!bool":
	case d.Kind == yaml.ScalarNode && d.ShortTag() == "!!null":
		w.emit(name, fmt.Sprintf("%s declares nothing (null): the engine refuses the component (%s); write %s: {} for any value, or give it a schema", name.Value, engine, name.Value))
	case d.Kind == yaml.ScalarNode && d.Style == 0 && slices.Contains(jsonTypes, d.Value):
		w.emit(d, fmt.Sprintf("%s: %s is a type name, not a schema: the engine refuses the component (%s); write %s: {type: %s}", name.Value, d.Value, engine, name.Value, d.Value), w.typeFix(d)...)
	default:
		w.emit(name, fmt.Sprintf("%s is not a schema: the engine refuses the component (%s); give it a schema ({type: string}), or true for any value", name.Value, engine))
	}
}

// checkDialect: a full schema's $schema, if any, is draft-07's.
func (w *schemaWalker) checkDialect(v *yaml.Node) {
	_, s := mapGet(v, "$schema")
	if s == nil || s.Kind == yaml.ScalarNode && s.Value == draft07 && s.ShortTag() == "!!str" {
		return
	}
	prefix := w.what
	if prefix == "return" {
		prefix = "returns"
	}
	got := s.Value
	if s.Kind != yaml.ScalarNode {
		got = "a " + engineKind(s)
	}
	w.emit(s, fmt.Sprintf("%s $schema must be draft-07's: the engine refuses the component (%s \"$schema\" must be draft-07 (%s), got %s); write $schema: %q, or remove it", prefix, prefix, draft07, strconv.Quote(got), draft07))
}

// includesType is Ajv's includesType: an integer is a number.
func includesType(ts []string, t string) bool {
	return slices.Contains(ts, t) || t == "integer" && slices.Contains(ts, "number")
}

// hasApplicableType is Ajv's: a keyword for numbers applies to integers.
func hasApplicableType(ts []string, kwType string) bool {
	return slices.Contains(ts, kwType) || kwType == "number" && slices.Contains(ts, "integer")
}

// walk checks the schema object n at schema path at, whose data may be of
// the types ctx (Ajv's dataTypes: what an enclosing schema on the same data
// declared), and the subschemas Ajv compiles with it.
func (w *schemaWalker) walk(n *yaml.Node, ctx []string, at string, depth int) {
	n = resolveAlias(n)
	if n == nil || n.Kind != yaml.MappingNode || depth > 64 {
		return
	}
	if k, _ := mapGet(n, "$ref"); k != nil {
		return // what a reference brings in is not read here
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kw := n.Content[i]
		if ajvKeywords[kw.Value] || w.keywords[kw.Value] {
			continue
		}
		advice := "remove it, or put the note in description or $comment"
		if kw.Value == "example" {
			advice = "write examples: [ … ] (a list of examples), or remove it"
		}
		w.report(kw, fmt.Sprintf("%q is not a JSON Schema keyword, and the engine compiles schemas in Ajv's strict mode: %s", kw.Value, advice),
			fmt.Sprintf("strict mode: unknown keyword: %q", kw.Value))
	}
	// type, and nullable
	typesOK := true
	var types []string
	tk, tv := mapGet(n, "type")
	if tv != nil {
		var names []*yaml.Node
		switch tv.Kind {
		case yaml.ScalarNode:
			names = []*yaml.Node{tv}
		case yaml.SequenceNode:
			names = tv.Content
		default:
			typesOK = false
		}
		for _, t := range names {
			if t.Kind == yaml.ScalarNode && slices.Contains(jsonTypes, t.Value) {
				types = append(types, t.Value)
				continue
			}
			typesOK = false
			fix := "use one of " + strings.Join(jsonTypes, ", ")
			if s, ok := typeTypos[t.Value]; ok {
				fix = "write type: " + s
			}
			w.report(t, fmt.Sprintf("type: %s is not a JSON Schema type: %s", t.Value, fix),
				"schema is invalid: "+strings.ReplaceAll(at, "#", "data")+"/type must be equal to one of the allowed values")
		}
	}
	if nk, nv := mapGet(n, "nullable"); nv != nil && nv.Value == "true" {
		if tv == nil {
			w.report(nk, `nullable: true without type: declare the type beside it (type: string), or write the type as [string, "null"]`, `"nullable" cannot be used without "type"`)
			typesOK = false
		} else if !slices.Contains(types, "null") {
			types = append(types, "null")
		}
	}
	if typesOK && len(types) > 1 && !(len(types) == 2 && slices.Contains(types, "null")) {
		w.report(tk, fmt.Sprintf("type: [%s] is a union, which Ajv's strict mode refuses (only one type and \"null\" may be combined): use anyOf with a schema per type", strings.Join(types, ", ")),
			fmt.Sprintf("strict mode: use allowUnionTypes to allow union type keyword at %q (strictTypes)", at))
	}
	// Ajv's checkContextTypes and narrowSchemaTypes.
	if typesOK && len(types) > 0 {
		if len(ctx) == 0 {
			ctx = types
		} else {
			for _, t := range types {
				if !includesType(ctx, t) {
					w.report(tk, fmt.Sprintf("type %s contradicts the enclosing schema's type %s: no value could be both; fix the type", t, strings.Join(ctx, ",")),
						fmt.Sprintf("strict mode: type %q not allowed by context %q at %q (strictTypes)", t, strings.Join(ctx, ","), at))
				}
			}
			var narrowed []string
			for _, t := range ctx {
				if includesType(types, t) {
					narrowed = append(narrowed, t)
				} else if t == "number" && slices.Contains(types, "integer") {
					narrowed = append(narrowed, "integer")
				}
			}
			ctx = narrowed
		}
	}
	// Ajv's checkKeywordTypes.
	if typesOK {
		for _, kt := range keywordTypes {
			kk, kv := mapGet(n, kt.kw)
			if kt.kw == "required" && kv != nil && kv.Kind != yaml.SequenceNode {
				continue // reported as what it is, below
			}
			if kk == nil || slices.ContainsFunc(kt.types, func(t string) bool { return hasApplicableType(ctx, t) }) {
				continue
			}
			want := article(strings.Join(kt.types, " or "))
			var msg string
			if len(ctx) == 0 {
				msg = fmt.Sprintf("%s applies to %s, and this schema declares no type: add type: %s beside it", kt.kw, want, kt.types[len(kt.types)-1])
			} else {
				msg = fmt.Sprintf("%s applies to %s, but this schema's type is %s: ", kt.kw, want, strings.Join(ctx, ", "))
				if c, ok := keywordCounterpart[kt.kw]; ok {
					msg += "write " + c + " for it, or remove it"
				} else {
					msg += "remove it, or fix the type"
				}
			}
			w.report(kk, msg+" (Ajv's strict mode refuses a keyword the schema's type does not take)",
				fmt.Sprintf("strict mode: missing type %q for keyword %q at %q (strictTypes)", strings.Join(kt.types, ","), kt.kw, at))
		}
	}
	// required: an array of names the schema's properties declare.
	if rk, rv := mapGet(n, "required"); rv != nil {
		switch {
		case rv.Kind != yaml.SequenceNode:
			advice := "name the property in its object's required list (required: [name])"
			if w.what == "props" && strings.Count(at, "/") == 2 && strings.HasPrefix(at, "#/properties/") {
				advice = fmt.Sprintf("remove it, and list the prop beside props: required: [%s]", strings.TrimPrefix(at, "#/properties/"))
			}
			w.report(rk, fmt.Sprintf("required: %s on a property is not JSON Schema (required is an array of names on the object): %s", rv.Value, advice),
				"schema is invalid: "+strings.ReplaceAll(at, "#", "data")+"/required must be array")
		case !hasAny(n, "allOf", "anyOf", "oneOf", "not", "if", "dependencies", "patternProperties"):
			_, props := mapGet(n, "properties")
			for _, item := range rv.Content {
				if item.Kind != yaml.ScalarNode {
					continue
				}
				if pk, _ := mapGet(props, item.Value); pk != nil {
					continue
				}
				w.report(item, fmt.Sprintf("required names %q, which properties does not declare: declare it under properties, or remove it from required (Ajv's strict mode refuses it)", item.Value),
					fmt.Sprintf("strict mode: required property %q is not defined at %q (strictRequired)", item.Value, at))
			}
		}
	}
	// The keywords the draft-07 meta-schema requires to be objects (at the
	// root of a props schema, the engine's root contract says it first).
	for _, kw := range []string{"properties", "patternProperties", "definitions", "dependencies"} {
		kk, kv := mapGet(n, kw)
		if kk == nil || resolveAlias(kv).Kind == yaml.MappingNode || (kw == "properties" && at == "#" && w.what == "props") {
			continue
		}
		w.report(kk, fmt.Sprintf("%s must be a mapping of names to schemas: declare each under it (%s: {name: {type: string}})", kw, kw),
			"schema is invalid: "+strings.ReplaceAll(at, "#", "data")+"/"+kw+" must be object")
	}
	// $async below the root: Ajv compiles the whole schema synchronous, and
	// refuses an asynchronous part of it.
	if ak, av := mapGet(n, "$async"); ak != nil && at != "#" && !underCondition(at) {
		if on, _ := asyncOn(av); on && holdsRule(n) {
			w.report(ak, fmt.Sprintf("$async: %s makes this part of the schema asynchronous, which Ajv refuses inside a synchronous schema: remove it", av.Value),
				"async schema in sync schema")
		}
	}
	if dk, _ := mapGet(n, "default"); dk != nil && at == "#" && !w.noDefaults {
		w.report(dk, fmt.Sprintf("a default for the whole %s schema is never applied, which Ajv's strict mode refuses: give each property its own default", w.what),
			"strict mode: default is ignored in the schema root")
	}
	_, ifv := mapGet(n, "if")
	for _, kw := range []string{"then", "else"} {
		if kk, _ := mapGet(n, kw); kk != nil && ifv == nil {
			w.report(kk, fmt.Sprintf("%s without if is ignored, which Ajv's strict mode refuses: add the if, or remove it", kw),
				fmt.Sprintf("strict mode: %q without \"if\" is ignored", kw))
		}
	}
	// The subschemas Ajv compiles: on other data (a fresh context), and
	// on the same data (this one).
	for i := 0; i+1 < len(n.Content); i += 2 {
		kw, v := n.Content[i].Value, resolveAlias(n.Content[i+1])
		sub := at + "/" + escapePointer(kw)
		switch kw {
		case "properties", "patternProperties":
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					w.walk(v.Content[j+1], nil, sub+"/"+escapePointer(v.Content[j].Value), depth+1)
				}
			}
		case "additionalProperties", "propertyNames", "contains", "additionalItems":
			w.walk(v, nil, sub, depth+1)
		case "items":
			if v.Kind == yaml.SequenceNode {
				for j, s := range v.Content {
					w.walk(s, nil, sub+"/"+strconv.Itoa(j), depth+1)
				}
			} else {
				w.walk(v, nil, sub, depth+1)
			}
		case "allOf", "anyOf", "oneOf":
			if v.Kind == yaml.SequenceNode {
				for j, s := range v.Content {
					w.walk(s, ctx, sub+"/"+strconv.Itoa(j), depth+1)
				}
			}
		case "not":
			w.walk(v, ctx, sub, depth+1)
		case "if":
			// Ajv compiles if only when then or else has something to
			// check (its if keyword, hasSchema).
			_, tv := mapGet(n, "then")
			_, ev := mapGet(n, "else")
			if (tv == nil && ev == nil) || checks(tv) || checks(ev) {
				w.walk(v, ctx, sub, depth+1)
			}
		case "then", "else":
			if ifv != nil {
				w.walk(v, ctx, sub, depth+1)
			}
		case "dependencies":
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					w.walk(v.Content[j+1], ctx, sub+"/"+escapePointer(v.Content[j].Value), depth+1)
				}
			}
		}
	}
}

func hasAny(n *yaml.Node, keys ...string) bool {
	for _, key := range keys {
		if k, _ := mapGet(n, key); k != nil {
			return true
		}
	}
	return false
}

// article puts "a" or "an" before a type name.
func article(t string) string {
	if strings.HasPrefix(t, "a") || strings.HasPrefix(t, "o") || strings.HasPrefix(t, "i") {
		return "an " + t
	}
	return "a " + t
}
