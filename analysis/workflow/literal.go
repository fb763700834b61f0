package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"
)

// The engine's scanner resolves an attribute to a JSON value before
// anything runs when it can (packages/core/src/scanner.ts, parseAttributes
// and parseExpressionValue); what it cannot is an expression, evaluated when
// the element expands. literalValue reads the first kind as the scanner
// does, so that a rule can check the very value the engine will validate.

var (
	// The scanner's two rewrites before JSON.parse, in its order: a bare
	// key after "{" or "," is quoted, and a single-quoted value after ":"
	// double-quoted.
	literalKey    = lazyre.New(`(\{|,)\s*([A-Za-z_]\w*)\s*:`)
	literalSingle = lazyre.New(`:\s*'([^']*)'`)
	literalNumber = lazyre.New(`^-?\d+(\.\d+)?$`)
)

// literalValue is the value attribute a of tag t has before anything runs,
// as the engine's scanner resolves it, and whether it has one: a quoted
// value is its text, a bare attribute true, an expression a JSON literal
// (numbers as json.Number). An expression the scanner leaves to run time
// (a name, a call, `undefined` for a component's prop, <Let value>) has
// none, nor has a spread.
func literalValue(t *Tag, a *Attr) (any, bool) {
	switch a.Kind {
	case AttrString:
		return a.Value, true
	case AttrBool:
		return true, true
	case AttrExpr:
	default:
		return nil, false
	}
	expr := strings.TrimSpace(a.Value)
	if t.Name == "Let" && a.Name == "value" {
		return nil, false // bound by reference (structural.ts, bindsByReference)
	}
	switch expr {
	case "true":
		return true, true
	case "false":
		return false, true
	case "null":
		return nil, true
	case "undefined":
		if !Structural[t.Name] {
			return nil, false // the prop is absent when the expression runs
		}
		return nil, true
	}
	// Most expressions are names (props.title, plan.steps): no JSON
	// literal starts with a letter but the four above.
	if expr == "" || isIdentStart(expr[0]) {
		return nil, false
	}
	if v, ok := decodeJSON(scannerJSON(expr)); ok {
		return v, true
	}
	if literalNumber.MatchString(expr) {
		// What JSON refuses and Number() reads, such as 007.
		n := strings.TrimLeft(strings.TrimPrefix(expr, "-"), "0")
		if n == "" || n[0] == '.' {
			n = "0" + n
		}
		if strings.HasPrefix(expr, "-") {
			n = "-" + n
		}
		return json.Number(n), true
	}
	return nil, false
}

// scannerJSON is the text the scanner hands JSON.parse for the
// expression expr (trimmed): its two rewrites applied.
func scannerJSON(expr string) string {
	if strings.IndexByte(expr, ':') < 0 { // both rewrites need one
		return expr
	}
	expr = literalKey.ReplaceAllString(expr, `${1} "${2}":`)
	return literalSingle.ReplaceAllString(expr, `: "${1}"`)
}

// decodeJSON decodes one JSON value, numbers as json.Number, as JSON.parse
// would: the whole text, nothing after it.
func decodeJSON(s string) (any, bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return v, true
}

// jsonText is v written as JSON, as the engine's messages quote it.
func jsonText(v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return "?"
	}
	return strings.TrimSuffix(b.String(), "\n")
}
