package workflow

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// checkRootPropsReadable reports a root props schema the command line
// cannot read. Before `xmd run` and `xmd workflow start` run a document
// they convert its whole props schema with zod's fromJSONSchema
// (packages/cli/src/props.ts, convertRoot: first as draft-07, then as
// draft 2020-12, the additionalProperties: false of a props map loosened),
// and refuse the document when both conversions throw ("cannot read the
// document's declared props: …") or the root converts to anything but an
// object ("the document's declared props must be an object schema").
// Ajv, which validates the props, reads all of these schemas; zod does not.
//
// The walk visits what zod's converter visits (zod 4.3.6,
// v4/classic/from-json-schema.js, convertSchema and convertBaseSchema): a
// `$ref`, an `enum` or a `const` ends the schema it is in (its `anyOf`,
// `oneOf` and `allOf` aside); `type: object` visits `properties`, then
// `propertyNames` (and ends), `patternProperties` (and ends), or an
// `additionalProperties` schema; `type: array` visits its items; no type
// visits nothing; and `definitions` only where a `$ref` leads. In what it
// visits, zod throws on `not` (but `not: {}`), `if` (and `then` or `else`), a
// `$ref` that is not local, and one that names no
// member of the definitions the draft reads (`#/definitions/X` as
// draft-07, `#/$defs/X` as 2020-12, either looked up in `$defs` when there
// is one). Whatever the walk cannot be sure of, it leaves; and what Ajv's
// strict mode refuses first (unevaluatedProperties, dependentRequired, a
// root that is not of type object or has a default) is reported as that.
//
// Only the root of a workflow run is checked, as for checkPropBindings: a
// component's props are validated by Ajv alone.
func (k *checker) checkRootPropsReadable() {
	p := &k.c.Props
	if k.r.mode != ModeWorkflow || !k.r.isRunRoot() || p.schemas == nil {
		return
	}
	root := resolveAlias(p.schemas.node)
	if root == nil || root.Kind != yaml.MappingNode {
		return
	}
	if p.schemas.form == PropsMap {
		root = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "type"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "object"},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "properties"}, root,
		}}
	}
	versions := []string{"draft-7", "draft-2020-12"}
	if kk, _ := mapGet(root, "$schema"); kk != nil {
		versions = []string{"draft-7"} // core admits only draft-07's $schema, and zod reads it so both times
	}
	var last *zodRefusal
	for _, v := range versions {
		s := &zodWalk{root: root, version: v, done: map[string]bool{}}
		s.defs = zodDefs(root)
		s.schema(root)
		if s.refusal == nil {
			last = nil
			break
		}
		last = s.refusal
	}
	const refused = "`xmd run` and `xmd workflow start` convert a root's props with zod's JSON Schema reader and refuse the document before it runs"
	if last != nil {
		k.report(RulePropsDeclaration, k.c.yamlSpan(last.at), fmt.Sprintf("%s (%q): %s", refused, "cannot read the document's declared props: "+last.zod, last.fix))
		return
	}
	if at, what, fix := zodRootNotObject(root); at != nil {
		k.report(RulePropsDeclaration, k.c.yamlSpan(at), fmt.Sprintf("the root props schema %s, which zod's JSON Schema reader converts to something other than an object, so %s (%q): %s",
			what, refused, "the document's declared props must be an object schema", fix))
	}
}

// zodRefusal is a throw of zod's converter: where, its message, and what
// to write instead.
type zodRefusal struct {
	at       *yaml.Node
	zod, fix string
}

type zodWalk struct {
	root    *yaml.Node
	defs    *yaml.Node // $defs, else definitions; nil: none (or not a mapping)
	version string
	done    map[string]bool // the $refs converted or being converted
	refusal *zodRefusal
}

// zodDefs is `schema.$defs || schema.definitions || {}`.
func zodDefs(root *yaml.Node) *yaml.Node {
	for _, key := range []string{"$defs", "definitions"} {
		if _, v := mapGet(root, key); v != nil {
			if v = resolveAlias(v); jsTruthy(v) {
				if v.Kind != yaml.MappingNode {
					return nil
				}
				return v
			}
		}
	}
	return &yaml.Node{Kind: yaml.MappingNode}
}

// jsTruthy is JavaScript's truthiness of the value js-yaml reads n as.
func jsTruthy(n *yaml.Node) bool {
	n = resolveAlias(n)
	if n == nil {
		return false
	}
	if n.Kind != yaml.ScalarNode {
		return true
	}
	switch n.ShortTag() {
	case "!!null":
		return false
	case "!!bool":
		return n.Value == "true"
	case "!!str":
		return n.Value != ""
	case "!!int", "!!float":
		v := strings.TrimLeft(n.Value, "+-0._")
		return v != "" && !strings.EqualFold(n.Value, ".nan")
	}
	return true
}

func (s *zodWalk) refuse(at *yaml.Node, zod, fix string) {
	if s.refusal == nil {
		s.refusal = &zodRefusal{at: at, zod: zod, fix: fix}
	}
}

// schema is convertSchema: the base schema, then anyOf, oneOf and allOf.
func (s *zodWalk) schema(n *yaml.Node) {
	n = resolveAlias(n)
	if s.refusal != nil || n == nil || n.Kind != yaml.MappingNode {
		return // a boolean schema converts to any or never; other values are left
	}
	s.base(n, nil)
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if _, v := mapGet(n, key); v != nil {
			if v = resolveAlias(v); v.Kind == yaml.SequenceNode {
				for _, m := range v.Content {
					s.schema(m)
				}
			}
		}
	}
}

// base is convertBaseSchema, with typ in place of the schema's type when
// set (a member of a type list).
func (s *zodWalk) base(n, typ *yaml.Node) {
	if s.refusal != nil {
		return
	}
	if kk, v := mapGet(n, "not"); kk != nil {
		if v = resolveAlias(v); (v.Kind != yaml.MappingNode && v.Kind != yaml.SequenceNode) || len(v.Content) > 0 {
			s.refuse(kk, "not is not supported in Zod (except { not: {} } for never)",
				"express what not excludes with enum, pattern, minimum or a narrower type, or remove not")
			return
		}
	}
	// zod refuses then and else alone too, but Ajv's strict mode refuses
	// them first, and baton reports that.
	if kk, _ := mapGet(n, "if"); kk != nil {
		s.refuse(kk, "Conditional schemas (if/then/else) are not supported", "remove the conditional, or check the condition in the document")
		return
	}
	if kk, v := mapGet(n, "$ref"); kk != nil && jsTruthy(v) {
		s.ref(resolveAlias(v))
		return
	}
	for _, key := range []string{"enum", "const"} {
		if kk, _ := mapGet(n, key); kk != nil {
			return
		}
	}
	if typ == nil {
		_, typ = mapGet(n, "type")
		if typ = resolveAlias(typ); typ != nil && typ.Kind == yaml.SequenceNode {
			for _, t := range typ.Content {
				s.base(n, resolveAlias(t))
			}
			return
		}
	}
	if typ == nil || typ.Kind != yaml.ScalarNode || typ.ShortTag() != "!!str" {
		return
	}
	switch typ.Value {
	case "object":
		if _, props := mapGet(n, "properties"); props != nil {
			if props = resolveAlias(props); props.Kind == yaml.MappingNode {
				for i := 1; i < len(props.Content); i += 2 {
					s.schema(props.Content[i])
				}
			}
		}
		if kk, v := mapGet(n, "propertyNames"); kk != nil && jsTruthy(v) {
			s.schema(v)
			if _, add := mapGet(n, "additionalProperties"); add != nil && resolveAlias(add).Kind == yaml.MappingNode {
				s.schema(add)
			}
			return
		}
		if kk, v := mapGet(n, "patternProperties"); kk != nil && jsTruthy(v) {
			if v = resolveAlias(v); v.Kind == yaml.MappingNode {
				for i := 1; i < len(v.Content); i += 2 {
					s.schema(v.Content[i])
				}
			}
			return
		}
		if _, add := mapGet(n, "additionalProperties"); add != nil && resolveAlias(add).Kind == yaml.MappingNode {
			s.schema(add)
		}
	case "array":
		_, items := mapGet(n, "items")
		items = resolveAlias(items)
		if _, prefix := mapGet(n, "prefixItems"); prefix != nil && resolveAlias(prefix).Kind == yaml.SequenceNode {
			for _, m := range resolveAlias(prefix).Content {
				s.schema(m)
			}
			if items != nil && items.Kind == yaml.MappingNode {
				s.schema(items)
			}
			return
		}
		if items != nil && items.Kind == yaml.SequenceNode {
			for _, m := range items.Content {
				s.schema(m)
			}
			if _, add := mapGet(n, "additionalItems"); add != nil && resolveAlias(add).Kind == yaml.MappingNode {
				s.schema(add)
			}
			return
		}
		if items != nil {
			s.schema(items)
		}
	}
}

// ref is resolveRef, then the target converted once.
func (s *zodWalk) ref(v *yaml.Node) {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
		return // zod reads only a string; Ajv refuses anything else first
	}
	ref := v.Value
	if !strings.HasPrefix(ref, "#") {
		s.refuse(v, "External $ref is not supported, only local refs (#/...) are allowed",
			"put the schema under definitions and refer to it as #/definitions/Name")
		return
	}
	if s.done[ref] {
		return
	}
	var segs []string
	for _, seg := range strings.Split(ref[1:], "/") {
		if seg != "" {
			segs = append(segs, seg)
		}
	}
	target := s.root
	if len(segs) > 0 {
		key := "definitions"
		if s.version == "draft-2020-12" {
			key = "$defs"
		}
		if s.defs == nil {
			return // definitions that are not a mapping: left
		}
		var def *yaml.Node
		if segs[0] == key && len(segs) > 1 {
			_, def = mapGet(s.defs, segs[1])
		}
		if def == nil || !jsTruthy(def) {
			s.refuse(v, "Reference not found: "+ref, "refer to a member of definitions as #/definitions/Name (the only references zod's reader follows, besides #)")
			return
		}
		target = def
	}
	s.done[ref] = true
	s.schema(target)
}

// zodRootNotObject is where a root that converts without a throw converts
// to something other than a zod object, what it has and what to write: it
// is certain only for a root whose type is object (or [object]) with no
// $ref, enum, const or not.
func zodRootNotObject(root *yaml.Node) (at *yaml.Node, what, fix string) {
	if kk, _ := mapGet(root, "$ref"); kk != nil {
		return nil, "", ""
	}
	_, typ := mapGet(root, "type")
	if typ = resolveAlias(typ); typ == nil {
		return nil, "", "" // core refuses a root without type: object first
	}
	if typ.Kind == yaml.SequenceNode && len(typ.Content) == 1 {
		typ = resolveAlias(typ.Content[0])
	}
	if typ.Kind != yaml.ScalarNode || typ.ShortTag() != "!!str" || typ.Value != "object" {
		return nil, "", ""
	}
	for _, key := range []string{"enum", "const", "not"} {
		if kk, _ := mapGet(root, key); kk != nil {
			return nil, "", ""
		}
	}
	if kk, v := mapGet(root, "propertyNames"); kk != nil && jsTruthy(v) {
		return kk, "has propertyNames", "remove propertyNames, and declare each prop under properties"
	}
	if kk, v := mapGet(root, "patternProperties"); kk != nil {
		if v = resolveAlias(v); v.Kind == yaml.MappingNode && len(v.Content) > 0 {
			return kk, "has patternProperties", "remove patternProperties, and declare each prop under properties"
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if kk, v := mapGet(root, key); kk != nil && resolveAlias(v).Kind == yaml.SequenceNode {
			return kk, "has " + key, "remove " + key + ", and declare the props in one object schema"
		}
	}
	if kk, v := mapGet(root, "allOf"); kk != nil {
		if v = resolveAlias(v); v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
			return kk, "has allOf", "remove allOf, and declare the props in one object schema"
		}
	}
	if kk, v := mapGet(root, "readOnly"); kk != nil {
		if v = resolveAlias(v); v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" && v.Value == "true" {
			return kk, "is readOnly", "remove readOnly"
		}
	}
	return nil, "", ""
}
