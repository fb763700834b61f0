package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/baton-md/baton/internal/corpus"
	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// normalize makes yaml's map[any]any (a mapping with a non-string key)
// the map[string]any decodeMapping gives.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = normalize(x)
		}
		return v
	case map[any]any:
		out := map[string]any{}
		for k, x := range v {
			out[fmt.Sprint(k)] = normalize(x)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	}
	return v
}

// decodeMapping gives what yaml's Node.Decode gives, on hand-written
// documents and on the front matter of every corpus document.
func TestDecodeMappingMatchesYAML(t *testing.T) {
	t.Run("hand-written", func(t *testing.T) { checkDecodeMapping(t, handWrittenMappings) })
	t.Run("shared corpus", func(t *testing.T) {
		files := corpus.Glob(t, "xmd/*/*.md")
		files = append(files, corpus.Glob(t, "xmd/upstream-head/**/*.md")...)
		var docs []string
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if fm := parseFrontMatter(string(data)); fm != nil && fm.Err == nil {
				docs = append(docs, string(data)[fm.Body.Start:fm.Body.End])
			}
		}
		if len(docs) < 11 {
			t.Fatalf("only %d documents with front matter in the shared corpus", len(docs))
		}
		checkDecodeMapping(t, docs)
	})
}

var handWrittenMappings = []string{
	"a: 1\nb: 2.5\nc: true\nd: null\ne: ~\nf: 2026-12-01\ng: \"s\"\nh: 0x1f\ni: 1e3\nj: .inf\n",
	"props:\n  x: {type: string, default: [1, 2, {y: z}]}\nrequired: [x]\n",
	"base: &b {a: 1, b: 2}\nderived:\n  <<: *b\n  b: 3\nlist: [*b, *b]\n",
	"m1: &m1 {a: 1}\nm2: &m2 {b: 2}\nboth:\n  <<: [*m1, *m2]\n  c: 3\n",
	"? [complex, key]\n: v\n", "1: one\ntrue: yes\n", "top:\n  1: one\n  ? [a]\n  : b\n",
	"text: |\n  multi\n  line\nfolded: >\n  a\n  b\n",
	"empty:\nnested: {a: {b: {c: []}}}\n",
}

// checkDecodeMapping compares decodeMapping with yaml's Node.Decode on
// each document.
func checkDecodeMapping(t *testing.T, docs []string) {
	for _, doc := range docs {
		var node yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &node); err != nil || len(node.Content) == 0 {
			continue
		}
		var want map[string]any
		wantErr := node.Decode(&want)
		got, err := decodeMapping(&node)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%q: err %v, yaml's %v", doc, err, wantErr)
			continue
		}
		if diff := cmp.Diff(normalize(want), normalize(got)); wantErr == nil && diff != "" {
			t.Errorf("%.60q: (-yaml +ours)\n%s", doc, diff)
		}
	}
}

func TestDecodeMappingErrors(t *testing.T) {
	for doc, want := range map[string]string{
		"a: 1\nb: 2\na: 3\n": `yaml: line 3: mapping key "a" already defined at line 1`,
		"- a\n- b\n":         "the front matter is not a mapping",
		"a: &a [*a]\n":       "", // yaml refuses this itself, or we do
	} {
		var node yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &node); err != nil {
			continue
		}
		_, err := decodeMapping(&node)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", doc, err, want)
		}
	}
	// A billion laughs: nine levels of nine aliases.
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &node); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeMapping(&node); err != errAliasBudget {
		t.Errorf("a billion laughs: err = %v, want the alias budget refused", err)
	}
}

// The decode is linear in the number of keys.
func BenchmarkFrontMatterKeys(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		var s strings.Builder
		s.WriteString("---\nprops:\n")
		for i := range n {
			fmt.Fprintf(&s, "  k%d: {type: string}\n", i)
		}
		s.WriteString("---\n")
		text := s.String()
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if fm := parseFrontMatter(text); fm == nil || fm.Err != nil {
					b.Fatal("no front matter")
				}
			}
		})
	}
}
