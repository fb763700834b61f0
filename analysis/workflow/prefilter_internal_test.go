package workflow

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// prefilterSamples are expressions and scalars around the edges of the
// quick tests that spare the patterns.
var prefilterSamples = []string{
	"", "x", "1", "-1", "+1", ".5", "0x1F", "0o17", "017", "0b101", "1e3", "1.", "-.5", "1_000", "1:30", ".inf", "-.inf", ".nan",
	"2024-01-02", "true", "null", "~", "word", "a.b", "e5", "- 1", " 1", "1 ",
	"() => 1", "(a, b) => a", "x => x", "x=>y", "$_ => 0", "async x => 1", "async () => 1", "async function f() {}", "asyncx => 1",
	"function () {}", "function", "functional", "class A {}", "class", "classy", "classes.map(c => c)", "a ? b : c", "'=>'",
	"{ a: 1 }", "[1, 2]", "(1)", " () => 1", "\tfunction", "async\tfunction", "a\n=> b", "(a) =>", "((a)) => a",
}

// TestIsFunctionExprIsThePattern: the quick test changes no answer.
func TestIsFunctionExprIsThePattern(t *testing.T) {
	for _, s := range prefilterSamples {
		if got, want := isFunctionExpr(s), functionExpr.MatchString(s); got != want {
			t.Errorf("isFunctionExpr(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}

// jsYAMLKindByPatterns is jsYAMLKind's answer for a plain scalar with
// both patterns asked first, as it was written before the quick test.
func jsYAMLKindByPatterns(v string) string {
	switch {
	case v == "" || v == "~" || v == "null" || v == "Null" || v == "NULL":
		return "null"
	case v == "true" || v == "True" || v == "TRUE" || v == "false" || v == "False" || v == "FALSE":
		return "boolean"
	case jsYAMLInt.MatchString(v) || jsYAMLFloat.MatchString(v):
		return "number"
	case len(v) > 0 && (v[0] >= '0' && v[0] <= '9' || v[0] == '+' || v[0] == '-' || v[0] == '.'):
		return ""
	}
	return "string"
}

// TestJSYAMLKindIsThePatterns: a plain scalar's kind is the same with the
// quick test as with the patterns asked of every one.
func TestJSYAMLKindIsThePatterns(t *testing.T) {
	for _, s := range prefilterSamples {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: s}
		if got, want := jsYAMLKind(n), jsYAMLKindByPatterns(s); got != want {
			t.Errorf("jsYAMLKind(%q) = %q, the patterns say %q", s, got, want)
		}
	}
}

func FuzzPrefilters(f *testing.F) {
	for _, s := range prefilterSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isFunctionExpr(s), functionExpr.MatchString(s); got != want {
			t.Errorf("isFunctionExpr(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := jsYAMLKind(&yaml.Node{Kind: yaml.ScalarNode, Value: s}), jsYAMLKindByPatterns(s); got != want {
			t.Errorf("jsYAMLKind(%q) = %q, the patterns say %q", s, got, want)
		}
	})
}
