package workflow

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The parser baton reads expression props with agrees with V8 evaluating
// them as the engine does (testdata/expressions.json, recorded under
// Node): it never refuses what V8 parses, and refuses every expression
// V8 refuses in that list, save the few it leaves alone: those only a
// function body's context decides (await, import.meta, a private name)
// and an early error of assignment the parser does not make.
func TestExpressionSyntaxIsV8s(t *testing.T) {
	data, err := os.ReadFile("testdata/expressions.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Expressions []struct{ Expression, V8 string }
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	unjudged := []string{"await ", "import.meta", "#", "1 = 2"}
	refused := 0
	for _, e := range rec.Expressions {
		got := expressionError(e.Expression)
		switch {
		case e.V8 == "" && got != "":
			t.Errorf("{%s}: baton says %q, V8 parses it", e.Expression, got)
		case e.V8 != "" && got == "":
			ok := false
			for _, c := range unjudged {
				ok = ok || strings.Contains(e.Expression, c)
			}
			if !ok {
				t.Errorf("{%s}: V8 refuses it (%s), baton says nothing", e.Expression, e.V8)
			}
		case got != "":
			refused++
		}
	}
	if refused < 20 {
		t.Errorf("only %d expressions refused: the list has lost its refusals", refused)
	}
}

// A hostile nesting depth is left alone rather than parsed.
func TestExpressionSyntaxDeepNesting(t *testing.T) {
	deep := strings.Repeat("(", 100000) + "a" + strings.Repeat(")", 100000)
	if got := expressionError(deep); got != "" {
		t.Errorf("a deep expression: %q, want it left alone", got)
	}
	if got := expressionError(strings.Repeat("(", 50) + "a +" + strings.Repeat(")", 50)); got == "" {
		t.Error("a shallow refused expression was let through")
	}
}

// Eval blocks are read as acorn reads them (testdata/evalblocks.json,
// recorded under Node with the acorn executable.md pins): never refused
// where acorn parses them, and refused where it does not, save the early
// errors of declarations the parser does not make.
func TestEvalSyntaxIsAcorns(t *testing.T) {
	data, err := os.ReadFile("testdata/evalblocks.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Blocks []struct{ Block, Acorn string }
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	unjudged := []string{"let let", "const x = 1\nconst x = 2", "yield* a; await b", "from;"}
	refused := 0
	for _, b := range rec.Blocks {
		got := evalBlockError(b.Block)
		if got == mixedModes {
			got = "" // it parses; detectMode refuses it (TestEvalMixedModesIsDetectModes)
		}
		switch {
		case b.Acorn == "" && got != "":
			t.Errorf("%q: baton says %q, acorn parses it", b.Block, got)
		case b.Acorn != "" && got == "":
			ok := false
			for _, u := range unjudged {
				ok = ok || strings.Contains(b.Block, u)
			}
			if !ok {
				t.Errorf("%q: acorn refuses it (%s), baton says nothing", b.Block, b.Acorn)
			}
		case got != "":
			refused++
		}
	}
	if refused < 10 {
		t.Errorf("only %d blocks refused: the list has lost its refusals", refused)
	}
}

// yield* and await at a block's top level, as the engine's detectMode
// over acorn's tree judges them (recorded under Node 20.20.2 with acorn
// 8.16.0): nested functions, methods and classes are bodies of their own,
// and `for await` is no await expression.
func TestEvalMixedModesIsDetectModes(t *testing.T) {
	for _, c := range []struct {
		block   string
		refused bool
	}{
		{"yield* a;\nawait b;", true},
		{"const x = yield* call(() => fetch(u));\nconst y = await z;", true},
		{"yield* a;\nconst f = async () => { await b; };", false},
		{"await a;\nfunction* g() { yield 1; }", false},
		{"for await (const c of s) {}\nyield* a;", false},
		{"class K { async m() { await x; } }\nyield* a;", false},
		{"const o = { async m() { await x; } };\nyield* a;", false},
		{"await a;\nawait b;", false},
	} {
		if got := evalBlockError(c.block) == mixedModes; got != c.refused {
			t.Errorf("%q: refused %v, detectMode says %v", c.block, got, c.refused)
		}
	}
}
