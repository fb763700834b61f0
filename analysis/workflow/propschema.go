package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
)

// propSchemas holds a component's props declaration for validation, and
// each prop's schema compiled the first time an invocation passes it a
// value baton knows. A component file is shared by the documents that
// invoke it, which may be analysed at once.
type propSchemas struct {
	node *yaml.Node // the `props` mapping as written
	form PropsForm

	mu       sync.Mutex
	root     any // the props schema as the engine compiles it; nil before it is made
	rootErr  bool
	compiled map[string]*jsonschema.Schema // nil: the prop's schema does not compile
	// checked remembers what validateProp said of a value as written: the
	// same values are passed again and again, at every invocation.
	checked map[checkKey]string
}

// checkKey is a prop and a value as written (its kind and source text).
type checkKey struct {
	prop string
	kind AttrKind
	text string
}

// maxChecked bounds the values remembered per component.
const maxChecked = 1 << 10

// check is validateProp of the value a passes to a component, remembered;
// "" when baton does not know the value before anything runs.
func (s *propSchemas) check(t *Tag, a *Attr) string {
	key := checkKey{a.Name, a.Kind, a.Value}
	s.mu.Lock()
	why, ok := s.checked[key]
	s.mu.Unlock()
	if ok {
		return why
	}
	if v, ok := literalValue(t, a); ok {
		if sch := s.schema(a.Name); sch != nil {
			why = validateProp(sch, a.Name, v)
		}
	}
	s.mu.Lock()
	if s.checked == nil {
		s.checked = map[checkKey]string{}
	}
	if len(s.checked) < maxChecked {
		// Its own copy: the value is a piece of the invoking document.
		key.text = strings.Clone(key.text)
		s.checked[key] = why
	}
	s.mu.Unlock()
	return why
}

// The formats a schema names are annotations to the engine (Ajv with
// validateFormats: false, packages/core/src/validate.ts); the library
// asserts them in draft-07, so each is taken as always valid.
var annotationFormats = []string{"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6",
	"hostname", "email", "idn-email", "idn-hostname", "date", "time", "date-time", "uri", "iri", "uri-reference",
	"iri-reference", "uri-template", "semver"}

// makeRoot is the props schema the engine validates an invocation's props
// against (packages/core/src/frontmatter.ts, parsePropsSchema): a full
// schema as written, a map of props as a closed object of them.
func (s *propSchemas) makeRoot() any {
	if s.form != PropsMap {
		return yamlSchema(s.node, nil)
	}
	return yamlSchema(s.node, func(m map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": m, "additionalProperties": false}
	})
}

// schema is the compiled schema of the prop name, or nil when the
// declaration gives none baton can compile (then nothing is checked).
func (s *propSchemas) schema(name string) *jsonschema.Schema {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.compiled[name]; ok {
		return sch
	}
	if s.root == nil && !s.rootErr {
		s.root = s.makeRoot()
		s.rootErr = s.root == nil
	}
	if s.compiled == nil {
		s.compiled = map[string]*jsonschema.Schema{}
	}
	var sch *jsonschema.Schema
	if !s.rootErr {
		c := newSchemaCompiler()
		const loc = "file:///props.json"
		if c.AddResource(loc, s.root) == nil {
			// The prop's own subschema, with its references resolved
			// against the whole declaration.
			sch, _ = c.Compile(loc + "#/properties/" + url.PathEscape(escapePointer(name)))
		}
	}
	s.compiled[name] = sch
	return sch
}

// newSchemaCompiler compiles as the engine's Ajv does: draft-07, nothing
// loaded from outside the declaration, formats not asserted.
func newSchemaCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7) // the engine's Ajv, and the only $schema its front matter takes
	c.UseLoader(noLoader{})
	for _, f := range annotationFormats {
		c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
	}
	return c
}

// yamlSchema is a schema written in the front matter as the library reads
// a JSON document (numbers as json.Number, nothing YAML has that JSON has
// not); nil when it cannot be one.
func yamlSchema(node *yaml.Node, wrap func(map[string]any) map[string]any) any {
	var decl any
	if err := node.Decode(&decl); err != nil {
		return nil
	}
	m, ok := decl.(map[string]any)
	if !ok {
		return nil
	}
	if wrap != nil {
		m = wrap(m)
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	return doc
}

// noLoader loads nothing: a $ref outside the declaration is not followed
// (the library's default would read it from disk), and the prop is not
// checked; the engine's Ajv loads none either and refuses the schema.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("a props schema refers only inside itself")
}

func escapePointer(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// validateProp checks a prop's literal value against its schema, and says
// what fails, as "<where>: <why>" lines, or "" when it is valid. A format
// is never asserted (see annotationFormats).
func validateProp(sch *jsonschema.Schema, prop string, v any) string {
	return validateAt(sch, "/"+escapePointer(prop), v)
}

// validateAt is validateProp of a value at the JSON pointer where ("" for
// a whole value).
func validateAt(sch *jsonschema.Schema, where string, v any) string {
	err := sch.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if _, ok := e.ErrorKind.(*kind.Format); ok {
			return
		}
		leaf := &jsonschema.ValidationError{ErrorKind: e.ErrorKind}
		at := where
		for _, t := range e.InstanceLocation {
			at += "/" + escapePointer(t)
		}
		// A leaf without a location displays "at '': <why>".
		msg := leaf.Error()
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		if at == "" {
			out = append(out, "(root): "+msg) // as the engine says it
			return
		}
		out = append(out, `"`+at+`": `+msg)
	}
	walk(ve)
	return strings.Join(out, "; ")
}

// returnsSchema is a value component's `returns` declaration, compiled
// the first time a literal <Return value> is checked against it.
type returnsSchema struct {
	node      *yaml.Node
	shorthand bool // a map of property names to subschemas

	once sync.Once
	sch  *jsonschema.Schema // nil: the declaration does not compile
}

// compiled is the schema the engine validates a return value against
// (packages/core/src/frontmatter.ts, parseReturnsDeclaration): a full
// schema as written, the shorthand as a closed object whose every
// property is required.
func (r *returnsSchema) compiled() *jsonschema.Schema {
	r.once.Do(func() {
		var wrap func(map[string]any) map[string]any
		if r.shorthand {
			wrap = func(m map[string]any) map[string]any {
				req := make([]any, 0, len(m))
				for k := range m {
					req = append(req, k)
				}
				return map[string]any{"type": "object", "properties": m, "required": req, "additionalProperties": false}
			}
		}
		root := yamlSchema(r.node, wrap)
		if root == nil {
			return
		}
		c := newSchemaCompiler()
		const loc = "file:///returns.json"
		if c.AddResource(loc, root) == nil {
			r.sch, _ = c.Compile(loc)
		}
	})
	return r.sch
}

// check validates a literal return value as the engine does
// (packages/core/src/validate.ts, validateReturnValue: Ajv with useDefaults,
// so a missing property that declares a default is filled, not missing),
// and says what fails, "" when it is valid or baton cannot tell.
func (r *returnsSchema) check(v any) string {
	sch := r.compiled()
	if sch == nil {
		return ""
	}
	filled, _ := withDefaults(r.node, r.shorthand, v)
	return validateAt(sch, "", filled)
}

// withDefaults is v with the defaults its schema's `properties` declare
// filled in where v lacks them, as Ajv's useDefaults does before it
// checks `required`, and whether it filled any; v itself is not changed.
func withDefaults(node *yaml.Node, shorthand bool, v any) (any, bool) {
	obj, ok := v.(map[string]any)
	if !ok || node == nil || node.Kind != yaml.MappingNode {
		return v, false
	}
	props := node
	if !shorthand {
		if _, props = mapGet(node, "properties"); props == nil || props.Kind != yaml.MappingNode {
			return v, false
		}
	}
	var out map[string]any
	for i := 0; i+1 < len(props.Content); i += 2 {
		name, sub := props.Content[i].Value, props.Content[i+1]
		if sub.Kind != yaml.MappingNode {
			continue
		}
		var next any
		if cur, present := obj[name]; present {
			var filled bool
			if next, filled = withDefaults(sub, false, cur); !filled {
				continue
			}
		} else {
			_, d := mapGet(sub, "default")
			var dv any
			if d == nil || d.Decode(&dv) != nil {
				continue
			}
			// As JSON, the way a literal is read (numbers as json.Number).
			data, err := json.Marshal(dv)
			if err != nil {
				continue
			}
			if next, ok = decodeJSON(string(data)); !ok {
				continue
			}
		}
		if out == nil {
			out = make(map[string]any, len(obj)+1)
			for k, x := range obj {
				out[k] = x
			}
		}
		out[name] = next
	}
	if out == nil {
		return v, false
	}
	return out, true
}
