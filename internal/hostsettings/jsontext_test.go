package hostsettings

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseAgreesWithEncodingJSON: the offset-keeping parser accepts
// exactly the texts encoding/json accepts (but for duplicate keys, which
// it refuses), and gives each value's exact bytes.
func TestParseAgreesWithEncodingJSON(t *testing.T) {
	for _, text := range []string{
		`{}`, ` { } `, `[]`, `"x"`, `0`, `-1.5e+3`, `true`, `null`,
		`{"a": [1, 2, {"b": "c\"\\\/\u00e9\n"}], "d": false}`,
		`{"a":1,}`, `{"a" 1}`, `{a: 1}`, `[1,]`, `[1 2]`, `{"a": 01}`, `{"a": 1.}`,
		`{"a": "unterminated}`, `{"a": "bad \x escape"}`, "{\"a\": \"tab\there\"}",
		`{"a": tru}`, `{"a": nul}`, `{"a": truex}`, `{} x`, ``, `   `, `{"a": [}`, `{"a": -}`,
		`// comment` + "\n{}", `{"a": 1} // trailing`, `{"é": "ü"}`, `[[[[[]]]]]`,
	} {
		_, err := parseJSON([]byte(text))
		if got, want := err == nil, json.Valid([]byte(text)); got != want {
			t.Errorf("%q: parse error %v, encoding/json valid %v", text, err, want)
		}
	}
	if _, err := parseJSON([]byte(`{"a": 1, "b": {"a": 2}, "a": 3}`)); err == nil || !strings.Contains(err.Error(), `the key "a" appears twice`) {
		t.Errorf("duplicate key: %v", err)
	}
	deep := strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2)
	if _, err := parseJSON([]byte(deep)); err == nil {
		t.Error("a value nested past the bound was accepted")
	}

	text := []byte(`{"k": [1, {"x": "y"}], "s": "v"}`)
	root, err := parseJSON(text)
	if err != nil {
		t.Fatal(err)
	}
	k := root.get("k")
	if got := string(text[k.start:k.end]); got != `[1, {"x": "y"}]` {
		t.Errorf("span of k = %q", got)
	}
	if got := root.get("s").str(text); got != "v" {
		t.Errorf("s = %q", got)
	}
	if s, e := root.span(1); string(text[s:e]) != `"s": "v"` {
		t.Errorf("member span = %q", text[s:e])
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, err := parseJSON([]byte("{\n  \"a\": 1,\n  \"b\": ?\n}"))
	se, ok := err.(*SyntaxError)
	if !ok || se.Line != 3 || se.Column != 8 {
		t.Errorf("error = %v, want line 3, column 8", err)
	}
}
