package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/analysis"
	"go.yaml.in/yaml/v3"
)

// The registered components that take a JSON Schema as a prop and compile
// it when execution reaches them, before their content runs: <Parse> and
// <SafeParse> (packages/core/src/components/parse-schema.ts,
// compileParseSchema), <Elicit> (packages/core/src/elicit.ts,
// prepareElicitation) and <WebForm> (packages/web/src/declaration.ts,
// parseDeclaration; packages/web/src/compile.ts, compileServerValidator).
// A schema written as a literal is known before the run; one an expression
// computes is not, and is left alone.

var RuleSchemaProp = &analysis.Rule{
	ID:       "workflow/schema-prop",
	Summary:  "A literal schema passed to `<Parse>`, `<SafeParse>`, `<Elicit>` or `<WebForm>` is one the engine refuses.",
	Severity: analysis.Error,
	Doc: "`<Parse>`, `<SafeParse>`, `<Elicit>` and `<WebForm>` take a draft-07 JSON Schema in their `schema` prop, as " +
		"JSON text (`schema='{\"type\": \"object\"}'`) or as a value (`schema={{type: \"object\"}}`), and compile it " +
		"when execution reaches them, before anything in them runs (packages/core/src/components/parse-schema.ts, " +
		"compileParseSchema: Ajv in strict mode, no defaults filled; packages/core/src/elicit.ts, prepareElicitation; " +
		"packages/web/src/declaration.ts, parseDeclaration, and packages/web/src/compile.ts, compileServerValidator: " +
		"RJSF's Ajv, strict). baton checks a schema written as a literal as they do, and refuses with them: text " +
		"that is not JSON (`schema=\"{type: object}\"`: a quoted attribute is the text itself, so keys need double " +
		"quotes), a value that is not an object (`schema={true}`, `schema=\"yes\"`, a bare `schema`), `$async: true` " +
		"at the root, what Ajv's strict mode and the draft-07 meta-schema refuse (the checks workflow/props-declaration " +
		"describes: an unknown keyword such as `example`, `type: \"obj\"`, `minLength` without `type: \"string\"`, a " +
		"union type, `required` naming an undeclared property, `then` without `if`, `properties` that is not an " +
		"object), an `$async` part inside the schema, a `$schema` other than draft-07's, and a `$ref` that does not " +
		"resolve inside the schema: a JSON pointer to nothing (`#/definitions/missing`), `#` itself (the engine's Ajv " +
		"cannot resolve the root), or a file or URL (`shared.json`; only references inside the schema resolve). " +
		"`<Elicit>` and `<WebForm>` also refuse a `$ref` outside the schema anywhere in it, `definitions` included, " +
		"and `__proto__` declared as a name (a property, a definition, a dependency, a required name): the validator " +
		"loses that key. `<WebForm>`'s `uiSchema`, when written as a literal, must be a JSON object too.\n\n" +
		"A schema an expression computes (`schema={plan.schema}`, `schema={{$async: true}}`, which the scanner " +
		"leaves to run time) is not read; nor is a `$ref` in a schema with an `$id`, where references resolve " +
		"against it.\n\n" +
		"**The engine** fails the element when execution reaches it: a printed error, or a failed run under a " +
		"throwing error mode.",
	Follows: []string{
		"executable.md packages/core/src/components/parse-schema.ts compileParseSchema",
		"executable.md packages/core/src/elicit.ts prepareElicitation (refuseUnsupportedNames, refuseExternalReferences)",
		"executable.md packages/web/src/declaration.ts parseDeclaration",
		"executable.md packages/web/src/compile.ts compileServerValidator",
	},
}

// schemaConsumer is how one registered component reads and compiles its
// schema prop.
type schemaConsumer struct {
	name string
	// web: <WebForm>, whose messages differ, which checks the meta-schema
	// before it compiles, and which takes a uiSchema.
	web bool
	// guarded: the schema is refused a __proto__ name and a $ref outside
	// it anywhere walkSchema goes (packages/core/src/schema-walk.ts).
	guarded bool
}

var schemaConsumers = map[string]*schemaConsumer{
	"Parse":     {name: "Parse"},
	"SafeParse": {name: "SafeParse"},
	"Elicit":    {name: "Elicit", guarded: true},
	"WebForm":   {name: "WebForm", web: true, guarded: true},
}

// label is how the engine names the component in its messages.
func (sc *schemaConsumer) label() string {
	if sc.web {
		return "<" + sc.name + ">"
	}
	return "<" + sc.name + " />"
}

// rjsfKeywords are the keywords RJSF's Ajv (createAjvInstance, @rjsf/
// validator-ajv8 6.7.1) adds to Ajv's own.
var rjsfKeywords = set("__rjsf_additionalProperties")

// checkSchemaProps checks the literal schema (and a <WebForm>'s literal
// uiSchema) a tag passes to the registered component it resolves to.
func (k *checker) checkSchemaProps(t *Tag) {
	sc := schemaConsumers[t.Name]
	if sc == nil {
		return
	}
	for _, a := range t.Attrs {
		switch {
		case a.Name == "schema" && passes(a):
			k.checkSchemaProp(t, a, sc)
		case a.Name == "uiSchema" && sc.web && passes(a):
			k.checkUISchema(t, a, sc)
		}
	}
}

// schemaLiteral is the schema a tag's attribute gives before anything
// runs, as the component reads it: the JSON value, and the JSON text it
// is read from (keys in order) when it is an object. ok is false when
// baton does not know it; why says what the component refuses, if it does.
type schemaLiteral struct {
	node *yaml.Node // the object, keys in order
	kind string     // what it is when not an object: "a string", "an array", …
	text bool       // read from JSON text (a string)
	err  string     // the text is not JSON: why
}

func readSchemaLiteral(t *Tag, a *Attr) (schemaLiteral, bool) {
	v, ok := literalValue(t, a)
	if !ok {
		return schemaLiteral{}, false
	}
	var src string
	text := isString(v)
	switch x := v.(type) {
	case string:
		// JSON text, parsed once (JSON.parse): its value must be the object.
		var err error
		if v, err = decodeJSONErr(x); err != nil {
			return schemaLiteral{text: true, err: err.Error()}, true
		}
		src = x
	case map[string]any:
		src = scannerJSON(strings.TrimSpace(a.Value))
	}
	lit := schemaLiteral{text: text}
	if _, isObj := v.(map[string]any); !isObj {
		lit.kind = jsonKindOf(v)
		return lit, true
	}
	n, err := jsonNode(src)
	if err != nil {
		return schemaLiteral{}, false
	}
	lit.node = n
	return lit, true
}

func isString(v any) bool { _, ok := v.(string); return ok }

// jsonKindOf is a JSON value's kind with its article, as a message says it.
func jsonKindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// engineKindOf is the engine's describe(): what parseJsonObject says a
// value that is not an object is.
func engineKindOf(v string) string {
	return strings.TrimPrefix(strings.TrimPrefix(v, "an "), "a ")
}

func (k *checker) checkSchemaProp(t *Tag, a *Attr, sc *schemaConsumer) {
	lit, ok := readSchemaLiteral(t, a)
	if !ok {
		return
	}
	attr := k.c.Text[a.Span.Start:a.Span.End]
	refuse := func(what, advice, engine string) {
		k.report(RuleSchemaProp, a.Span, fmt.Sprintf("%s: %s: the engine refuses <%s> when it reaches it (%s); %s", attr, what, t.Name, engine, advice))
	}
	label := sc.label()
	switch {
	case lit.err != "":
		refuse("the schema's text is not JSON ("+lit.err+")", "write it as JSON, keys and strings in double quotes: schema='{\"type\": \"object\"}'",
			label+" schema text is not JSON: …")
		return
	case lit.node == nil:
		what := "the schema is " + lit.kind
		if lit.text {
			what = "the schema's JSON text is " + lit.kind
		}
		engine := label + " schema must be a JSON Schema object or JSON text describing one."
		if sc.web {
			engine = label + " schema must be a JSON object or JSON text describing one: expected a JSON object, got " + engineKindOf(lit.kind)
		}
		refuse(what+", not a schema object", "write the schema as an object: schema='{\"type\": \"string\"}'", engine)
		return
	}
	root := lit.node
	// $async at the root: refused before anything compiles.
	if _, av := mapGet(root, "$async"); av != nil {
		if on, isTrue := asyncOn(av); on {
			engine := label + " does not support an asynchronous schema ($async: true)."
			switch {
			case sc.web && isTrue:
				engine = label + " schema must not be asynchronous ($async: true): submission validation is synchronous."
			case sc.web:
				engine = "<WebForm> schema compiled to an asynchronous validator: submission validation is synchronous."
			}
			refuse("$async makes the schema asynchronous, and the validation here is synchronous", "remove $async", engine)
		}
	}
	hasID := holdsKey(root, "$id", 0)
	if sc.guarded {
		walkSchemaPositions(root, "#", func(n *yaml.Node, path string) {
			if _, r := mapGet(n, "$ref"); r != nil && r.ShortTag() == "!!str" && !strings.HasPrefix(r.Value, "#") {
				refuse(fmt.Sprintf("the schema refers to %q (at %s), outside itself, and only references inside the schema resolve", r.Value, path), "put what it refers to under definitions, and refer to it as #/definitions/…",
					fmt.Sprintf("%s schema references %q at %s, which is outside the supplied schema. …", label, r.Value, path))
			}
		}, func(name, kind, path string) {
			if name == "__proto__" {
				refuse(fmt.Sprintf("the schema declares __proto__ as a %s (at %s), a name the validator loses", kind, path), "rename it",
					fmt.Sprintf("%s schema declares \"__proto__\" as a %s at %s, which is not supported: …", label, kind, path))
			}
		})
	}
	// What Ajv refuses when it compiles: the meta-schema, strict mode.
	w := &schemaWalker{
		emit: func(_ *yaml.Node, msg string, _ ...func(*analysis.Finding)) {
			k.report(RuleSchemaProp, a.Span, attr+": "+msg)
		},
		what:       "schema",
		noDefaults: true,
		quote: func(engine string) string {
			switch {
			case sc.web && strings.HasPrefix(engine, "schema is invalid: "):
				engine = label + " schema is not a valid draft-07 JSON Schema: " + strings.TrimPrefix(engine, "schema is invalid: ")
			case sc.web:
				engine = label + " schema could not be compiled: " + engine
			default:
				engine = label + " schema is not a valid draft-07 JSON Schema: " + engine
			}
			return fmt.Sprintf(" (the engine refuses <%s> when it reaches it: %s)", t.Name, engine)
		},
	}
	if sc.web {
		w.keywords = rjsfKeywords
	}
	if _, d := mapGet(root, "$schema"); d != nil && d.ShortTag() == "!!str" && d.Value != draft07 && d.Value != strings.TrimSuffix(draft07, "#") {
		w.report(d, fmt.Sprintf("$schema is %q, a dialect the engine's Ajv does not have: write %q, or remove it", d.Value, draft07),
			fmt.Sprintf("no schema with key or ref %q", d.Value))
	}
	w.walk(root, nil, "#", 0)
	// References, as Ajv resolves them when it compiles.
	if hasID {
		return
	}
	refs := &refResolver{root: root, seen: map[*yaml.Node]bool{}}
	refs.visit(root, "#", func(ref, path string) {
		engine := fmt.Sprintf("%s could not resolve a schema reference: can't resolve reference %s from id #. …", label, ref)
		if sc.web {
			engine = fmt.Sprintf("%s schema could not be compiled: can't resolve reference %s from id #", label, ref)
		}
		switch {
		case !strings.HasPrefix(ref, "#"):
			if sc.guarded {
				return // refused before Ajv, above
			}
			refuse(fmt.Sprintf("the schema refers to %q (at %s), outside itself, and only references inside the schema resolve", ref, path), "put what it refers to under definitions, and refer to it as #/definitions/…", engine)
		case ref == "#" || ref == "#/":
			refuse(fmt.Sprintf("the schema refers to itself (%s, at %s), a reference the engine's Ajv cannot resolve", ref, path), "put the recursive part under definitions, and refer to it as #/definitions/…", engine)
		default:
			refuse(fmt.Sprintf("the schema refers to %s (at %s), which is not in it", ref, path), "declare it (under definitions), or fix the reference", engine)
		}
	})
}

func (k *checker) checkUISchema(t *Tag, a *Attr, sc *schemaConsumer) {
	lit, ok := readSchemaLiteral(t, a)
	if !ok {
		return
	}
	attr := k.c.Text[a.Span.Start:a.Span.End]
	switch {
	case lit.err != "":
		k.report(RuleSchemaProp, a.Span, fmt.Sprintf("%s: the uiSchema's text is not JSON (%s): the engine refuses <%s> when it reaches it (%s); write it as a JSON object: uiSchema='{\"ui:order\": [\"name\"]}'",
			attr, lit.err, t.Name, sc.label()+" uiSchema text is not JSON: …"))
	case lit.node == nil:
		k.report(RuleSchemaProp, a.Span, fmt.Sprintf("%s: the uiSchema is %s, not an object: the engine refuses <%s> when it reaches it (%s); write it as a JSON object, or leave it out",
			attr, lit.kind, t.Name, sc.label()+" uiSchema must be a JSON object or JSON text describing one: expected a JSON object, got "+engineKindOf(lit.kind)))
	}
}

// holdsKey reports a mapping anywhere in n with the key.
func holdsKey(n *yaml.Node, key string, depth int) bool {
	if n == nil || depth > 128 {
		return false
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Value == key {
			return true
		}
		if holdsKey(c, key, depth+1) {
			return true
		}
	}
	return false
}

// walkSchemaPositions is the engine's walkSchema (packages/core/src/
// schema-walk.ts): every subschema at a position draft-07 defines as a
// schema, definitions included, and the names those positions declare.
func walkSchemaPositions(root *yaml.Node, at string, sub func(n *yaml.Node, path string), name func(name, kind, path string)) {
	var visit func(n *yaml.Node, path string, depth int)
	visit = func(n *yaml.Node, path string, depth int) {
		if n == nil || n.Kind != yaml.MappingNode || depth > 128 {
			return
		}
		sub(n, path)
		for _, kw := range []string{"additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames"} {
			if _, v := mapGet(n, kw); v != nil {
				visit(v, path+"/"+kw, depth+1)
			}
		}
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if _, v := mapGet(n, kw); v != nil && v.Kind == yaml.SequenceNode {
				for i, e := range v.Content {
					visit(e, fmt.Sprintf("%s/%s/%d", path, kw, i), depth+1)
				}
			}
		}
		for _, m := range []struct{ kw, kind string }{{"properties", "property"}, {"patternProperties", "pattern property"}, {"definitions", "definition"}} {
			if _, v := mapGet(n, m.kw); v != nil && v.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(v.Content); i += 2 {
					name(v.Content[i].Value, m.kind, path+"/"+m.kw)
					visit(v.Content[i+1], path+"/"+m.kw+"/"+v.Content[i].Value, depth+1)
				}
			}
		}
		if _, v := mapGet(n, "items"); v != nil {
			if v.Kind == yaml.SequenceNode {
				for i, e := range v.Content {
					visit(e, fmt.Sprintf("%s/items/%d", path, i), depth+1)
				}
			} else {
				visit(v, path+"/items", depth+1)
			}
		}
		if _, v := mapGet(n, "dependencies"); v != nil && v.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(v.Content); i += 2 {
				dep, d := v.Content[i].Value, v.Content[i+1]
				name(dep, "dependency", path+"/dependencies")
				if d.Kind == yaml.SequenceNode {
					for _, e := range d.Content {
						if e.ShortTag() == "!!str" {
							name(e.Value, "property dependency", path+"/dependencies/"+dep)
						}
					}
				} else {
					visit(d, path+"/dependencies/"+dep, depth+1)
				}
			}
		}
		if _, v := mapGet(n, "required"); v != nil && v.Kind == yaml.SequenceNode {
			for _, e := range v.Content {
				if e.ShortTag() == "!!str" {
					name(e.Value, "required property", path+"/required")
				}
			}
		}
	}
	visit(root, at, 0)
}

// refResolver follows a schema's $refs as Ajv compiles them: from the root
// through the keywords whose subschemas it compiles, and into what a local
// reference points to. A subschema under if, then or else, or reached only
// through definitions without a reference, is not followed: Ajv may not
// compile it.
type refResolver struct {
	root *yaml.Node
	seen map[*yaml.Node]bool
}

func (r *refResolver) visit(n *yaml.Node, path string, bad func(ref, path string)) {
	if n == nil || n.Kind != yaml.MappingNode || r.seen[n] || len(r.seen) > 4096 {
		return
	}
	r.seen[n] = true
	if _, ref := mapGet(n, "$ref"); ref != nil && ref.ShortTag() == "!!str" {
		switch v := ref.Value; {
		case v == "" || strings.HasPrefix(v, "http://json-schema.org/") || strings.HasPrefix(v, "https://json-schema.org/"):
			// The root itself, or a meta-schema Ajv has.
		case v == "#" || v == "#/" || plainRef.MatchString(v) && !strings.HasPrefix(v, "#"):
			bad(v, path)
		case !strings.HasPrefix(v, "#"):
			// A URI Ajv's resolver may refuse otherwise (urn:x).
		case strings.HasPrefix(v, "#/"):
			target, missing := r.resolve(v[2:])
			if missing {
				bad(v, path)
			} else if target != nil {
				r.visit(target, v, bad)
			}
		default:
			bad(v, path) // an anchor, and no $id declares one
		}
	}
	for _, kw := range []string{"additionalProperties", "not", "contains", "propertyNames"} {
		if _, v := mapGet(n, kw); v != nil {
			r.visit(v, path+"/"+kw, bad)
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if _, v := mapGet(n, kw); v != nil && v.Kind == yaml.SequenceNode {
			for i, e := range v.Content {
				r.visit(e, fmt.Sprintf("%s/%s/%d", path, kw, i), bad)
			}
		}
	}
	for _, kw := range []string{"properties", "patternProperties", "dependencies"} {
		if _, v := mapGet(n, kw); v != nil && v.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(v.Content); i += 2 {
				r.visit(v.Content[i+1], path+"/"+kw+"/"+v.Content[i].Value, bad)
			}
		}
	}
	if _, v := mapGet(n, "items"); v != nil {
		if v.Kind == yaml.SequenceNode {
			for i, e := range v.Content {
				r.visit(e, fmt.Sprintf("%s/items/%d", path, i), bad)
			}
		} else {
			r.visit(v, path+"/items", bad)
		}
	}
}

// plainRef is a reference Ajv resolves as a URI without complaint: a
// relative path or an http(s) URL, with a fragment or not.
var plainRef = lazyre.New(`^(?:https?://[A-Za-z0-9.-]+(?::[0-9]+)?)?[A-Za-z0-9._~/-]*(?:#[A-Za-z0-9._~/-]*)?$`)

// resolve follows a JSON pointer (after "#/") from the root: the node it
// reaches, or missing when a mapping or an array on the way has nothing
// under the token. A token that is no key but something JavaScript finds
// on every object or array (toString, length), or a step into a scalar,
// is neither: target and missing are both unset.
func (r *refResolver) resolve(pointer string) (target *yaml.Node, missing bool) {
	n := r.root
	for _, tok := range strings.Split(pointer, "/") {
		tok, err := url.PathUnescape(tok)
		if err != nil {
			return nil, false
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n.Kind {
		case yaml.MappingNode:
			_, next := mapGet(n, tok)
			if next == nil {
				return nil, !objectPrototype[tok]
			}
			n = next
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || strconv.Itoa(i) != tok || i < 0 || i >= len(n.Content) {
				// JavaScript reads arr["01"] and arr["9"] as nothing; arr.length is something.
				return nil, err == nil || isDigits(tok)
			}
			n = n.Content[i]
		default:
			return nil, false
		}
	}
	return n, false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// decodeJSONErr is decodeJSON, with why it is not JSON.
func decodeJSONErr(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no value")
		}
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one value")
	}
	return v, nil
}

// jsonNode reads JSON text into YAML nodes, keys in order, a key written
// twice holding its last value where it was first written (JSON.parse's
// object); scalars are tagged as the JSON types they are.
func jsonNode(text string) (*yaml.Node, error) {
	if _, err := decodeJSONErr(text); err != nil {
		return nil, err
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	return readJSONNode(d, 0)
}

func readJSONNode(d *json.Decoder, depth int) (*yaml.Node, error) {
	if depth > 512 {
		return nil, errors.New("too deep")
	}
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
			for d.More() {
				c, err := readJSONNode(d, depth+1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, c)
			}
			_, err := d.Token()
			return n, err
		}
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		at := map[string]int{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			c, err := readJSONNode(d, depth+1)
			if err != nil {
				return nil, err
			}
			if i, ok := at[key]; ok {
				n.Content[i+1] = c
				continue
			}
			at[key] = len(n.Content)
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Style: yaml.DoubleQuotedStyle}, c)
		}
		_, err := d.Token()
		return n, err
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: yaml.DoubleQuotedStyle}, nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(string(v), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(v)}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}, nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
}
