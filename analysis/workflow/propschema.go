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
	var decl any
	if err := s.node.Decode(&decl); err != nil {
		return nil
	}
	m, ok := decl.(map[string]any)
	if !ok {
		return nil
	}
	if s.form == PropsMap {
		m = map[string]any{"type": "object", "properties": m, "additionalProperties": false}
	}
	// Through JSON, as the library reads a document: numbers as
	// json.Number, and nothing YAML has that JSON has not.
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
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft7) // the engine's Ajv, and the only $schema its front matter takes
		c.UseLoader(noLoader{})
		for _, f := range annotationFormats {
			c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
		}
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
		where := "/" + escapePointer(prop)
		for _, t := range e.InstanceLocation {
			where += "/" + escapePointer(t)
		}
		// A leaf without a location displays "at '': <why>".
		msg := leaf.Error()
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		out = append(out, `"`+where+`": `+msg)
	}
	walk(ve)
	return strings.Join(out, "; ")
}
