package markdown

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// decodeMapping turns a parsed YAML document into the map[string]any that
// yaml's own Node.Decode gives, in time linear in the nodes. Node.Decode
// checks a mapping's keys for duplicates pair by pair: a 10 MB front matter
// of one long mapping took over a minute. Scalars are still decoded by the
// YAML package, one by one, so their types are its own (ints, floats,
// bools, nulls, timestamps). Aliases are followed within a budget, so a
// "billion laughs" document is refused rather than expanded.
func decodeMapping(doc *yaml.Node) (map[string]any, error) {
	n := doc
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, nil
		}
		n = n.Content[0]
	}
	d := &nodeDecoder{budget: 4*countNodes(doc) + 1000}
	v, err := d.value(n, 0)
	if err != nil {
		return nil, err
	}
	switch m := v.(type) {
	case map[string]any:
		return m, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("yaml: line %d: the front matter is not a mapping", n.Line)
}

type nodeDecoder struct{ budget int }

var errAliasBudget = errors.New("yaml: document contains excessive aliasing")

func countNodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += countNodes(k)
	}
	return c
}

func (d *nodeDecoder) value(n *yaml.Node, depth int) (any, error) {
	if d.budget--; d.budget < 0 || depth > 10000 {
		return nil, errAliasBudget
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("yaml: line %d: unknown anchor", n.Line)
		}
		return d.value(n.Alias, depth+1)
	case yaml.ScalarNode:
		switch n.ShortTag() { // the common tags, without a decoder each
		case "!!str":
			return n.Value, nil
		case "!!null":
			return nil, nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, err
		}
		return v, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := d.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return d.mapping(n, depth)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return d.value(n.Content[0], depth+1)
	}
	return nil, fmt.Errorf("yaml: line %d: unexpected node", n.Line)
}

// mapping decodes a mapping as yaml does into an interface: string keys
// give map[string]any; a key of another type is written as yaml would
// print it (front matter readers look up string keys only). Merge keys
// ("<<") bring in the keys of the merged mappings that the mapping does
// not set itself.
func (d *nodeDecoder) mapping(n *yaml.Node, depth int) (any, error) {
	out := make(map[string]any, len(n.Content)/2)
	line := make(map[string]int, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		kn := k
		for kn.Kind == yaml.AliasNode && kn.Alias != nil {
			kn = kn.Alias
		}
		if kn.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("yaml: line %d: invalid map key: a key must be a plain value", k.Line)
		}
		kv, err := d.value(k, depth+1)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(kv)
		if s, ok := kv.(string); ok {
			key = s
		}
		if first, dup := line[key]; dup {
			return nil, fmt.Errorf("yaml: line %d: mapping key %q already defined at line %d", k.Line, key, first)
		}
		line[key] = k.Line
		vv, err := d.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		out[key] = vv
	}
	for _, m := range merges {
		targets := []*yaml.Node{m}
		if m.Kind == yaml.AliasNode && m.Alias != nil {
			targets = []*yaml.Node{m.Alias}
		}
		if m.Kind == yaml.SequenceNode {
			targets = m.Content
		}
		for _, t := range targets {
			mv, err := d.value(t, depth+1)
			if err != nil {
				return nil, err
			}
			mm, ok := mv.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("yaml: line %d: map merge requires map or sequence of maps as the value", m.Line)
			}
			for k, v := range mm {
				if _, set := out[k]; !set {
					out[k] = v
				}
			}
		}
	}
	return out, nil
}
