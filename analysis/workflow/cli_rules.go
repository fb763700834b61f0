package workflow

import (
	"fmt"
	"strings"
)

// checkPropBindings reports two props of a root whose command-line option
// or environment variable collide: `xmd run` and `xmd workflow start` make
// one of each for every scalar (or scalar-array) prop of the document they
// start, before anything runs, and refuse a document where two props make
// the same (packages/cli/src/props.ts, buildBindings). A component's props
// make none, so only the root of a workflow run is checked, the one
// document baton knows a command starts.
func (k *checker) checkPropBindings() {
	p := &k.c.Props
	if k.r.mode != ModeWorkflow || !k.r.isRunRoot() || p.schemas == nil || len(p.List) < 2 {
		return
	}
	root, ok := yamlJSON(p.schemas)
	if !ok {
		return
	}
	props, _ := root["properties"].(map[string]any)
	byOption, byEnv := map[string]string{}, map[string]string{}
	for _, d := range p.List {
		schema, ok := props[d.Name]
		if !ok || !isASCII(d.Name) || !(bindingScalar(schema, root, nil) || bindingScalarArray(schema, root)) {
			continue
		}
		option, env := "--props-"+kebab(d.Name), "XMD_PROPS_"+strings.ToUpper(strings.ReplaceAll(kebab(d.Name), "-", "_"))
		other, clash := byOption[option], option
		if other == "" {
			other, clash = byEnv[env], env
		}
		if other != "" {
			k.report(RulePropsDeclaration, d.Span, fmt.Sprintf("props %q and %q both make %s, so `xmd run` and `xmd workflow start` refuse the document before "+
				"it runs (\"properties %q and %q both generate %s\"): rename one", other, d.Name, clash, other, d.Name, clash))
			continue
		}
		byOption[option], byEnv[env] = d.Name, d.Name
	}
}

// yamlJSON is the props schema as the engine compiles it, as JSON values:
// a full schema as written, a map of props as an object of them.
func yamlJSON(s *propSchemas) (map[string]any, bool) {
	var decl any
	if err := s.node.Decode(&decl); err != nil {
		return nil, false
	}
	m, ok := decl.(map[string]any)
	if !ok {
		return nil, false
	}
	if s.form == PropsMap {
		m = map[string]any{"type": "object", "properties": m}
	}
	return m, true
}

// kebab is props.ts's kebab for an ASCII name: a hyphen between a lower
// case letter or digit and the upper case letter after it, each run of
// white space and underscores one hyphen, then lower case.
func kebab(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') && i+1 < len(name) && name[i+1] >= 'A' && name[i+1] <= 'Z' {
			b.WriteByte(c)
			b.WriteByte('-')
			b.WriteByte(name[i+1])
			i++
			continue
		}
		b.WriteByte(c)
	}
	var out strings.Builder
	run := false
	for _, c := range []byte(b.String()) {
		if c == '_' || c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
			if !run {
				out.WriteByte('-')
			}
			run = true
			continue
		}
		run = false
		out.WriteByte(c)
	}
	return strings.ToLower(out.String())
}

// bindingSchema is props.ts's readSchema of v after its deref: a schema
// object, or nil for anything else (a boolean schema has no command-line
// form).
func bindingSchema(v any, root map[string]any, seen map[string]bool) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	ref, ok := m["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, "#/") || seen[ref] {
		return m
	}
	if seen == nil {
		seen = map[string]bool{}
	}
	seen[ref] = true
	var target any = root
	for _, seg := range strings.Split(ref[2:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		rec, ok := target.(map[string]any)
		if !ok {
			return m
		}
		if target, ok = rec[seg]; !ok {
			return m
		}
	}
	if t := bindingSchema(target, root, seen); t != nil {
		return t
	}
	return nil
}

// typeNames is the schema's type as a list of names.
func typeNames(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// bindingScalar is props.ts's isScalar: a schema with a command-line form,
// an enum of JSON scalars, a type of scalar names, or a union of such.
func bindingScalar(v any, root map[string]any, seen map[string]bool) bool {
	m := bindingSchema(v, root, seen)
	if m == nil {
		return false
	}
	if enum, ok := m["enum"].([]any); ok {
		for _, e := range enum {
			switch e.(type) {
			case nil, string, bool, int, int64, uint64, float64:
			default:
				return false
			}
		}
		return true
	}
	if names := typeNames(m); len(names) > 0 {
		all := true
		for _, n := range names {
			switch n {
			case "string", "number", "integer", "boolean", "null":
			default:
				all = false
			}
		}
		if all {
			return true
		}
	}
	union, ok := m["anyOf"].([]any)
	if !ok {
		union, ok = m["oneOf"].([]any)
	}
	if !ok {
		return false
	}
	for _, member := range union {
		if !bindingScalar(member, root, nil) {
			return false
		}
	}
	return true
}

// bindingScalarArray is props.ts's isScalarArray: an array of scalars.
func bindingScalarArray(v any, root map[string]any) bool {
	m := bindingSchema(v, root, nil)
	if m == nil {
		return false
	}
	items, ok := m["items"]
	if !ok {
		return false
	}
	for _, n := range typeNames(m) {
		if n == "array" {
			return bindingScalar(items, root, nil)
		}
	}
	return false
}
