package handoff

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"unicode/utf16"
)

// FuzzParseJSON holds the task-memory JSON reader to encoding/json: the
// same texts are valid, every span lies in the text, and each string and
// number reads as encoding/json decodes it (a lone surrogate as U+FFFD, as
// both do), its length in UTF-16 code units as JavaScript counts it.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"version":1,"knowledge":[{"id":"tm-k-2","content":"Use api_key=[redacted:assignment] when probing the fixture.","injectionCount":1}],"procedural":[]}`,
		`{}`, `[]`, `null`, `true`, `false`, `-0`, `1e400`, `-1.5E-3`, `"\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`,
		`"a\"\\\/\b\f\n\r\t"`, `"\u2028 \u00a0"`, " {\"a\" : [ 1 , {\"b\":null} ] } ", `{"a":1,"a":2}`, "\"\xff\"", `{"a"}`, `[1,]`, `01`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, serr := parseJSON(text, 0)
		if valid := json.Valid([]byte(text)); valid != (serr == nil) {
			t.Fatalf("valid %v, parse error %v", valid, serr)
		}
		if v == nil {
			return
		}
		var walk func(v *jsonValue)
		walk = func(v *jsonValue) {
			if v.span.Start < 0 || v.span.End > len(text) || v.span.Start >= v.span.End {
				t.Fatalf("span %v in %d bytes", v.span, len(text))
			}
			raw := text[v.span.Start:v.span.End]
			switch v.kind {
			case jsonString:
				var s string
				if err := json.Unmarshal([]byte(raw), &s); err != nil {
					t.Fatalf("%q: %v", raw, err)
				}
				if s != v.str {
					t.Fatalf("%q reads %q, encoding/json %q", raw, v.str, s)
				}
				if n := len(utf16.Encode([]rune(s))); n != v.units {
					t.Fatalf("%q: %d code units, want %d", raw, v.units, n)
				}
			case jsonNumber:
				want, err := strconv.ParseFloat(raw, 64)
				if err != nil && !math.IsInf(want, 0) {
					t.Fatalf("%q: %v", raw, err)
				}
				if want != v.num {
					t.Fatalf("%q reads %v, want %v", raw, v.num, want)
				}
			case jsonObject:
				for _, m := range v.mems {
					if m.keySpan.Start < v.span.Start || m.keySpan.End > v.span.End {
						t.Fatalf("key %v outside its object %v", m.keySpan, v.span)
					}
					walk(m.val)
				}
			case jsonArray:
				for _, e := range v.elems {
					walk(e)
				}
			}
		}
		walk(v)
	})
}

// wholeNonNegative is Number.isInteger(x) && !(x < 0).
func TestWholeNonNegative(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want bool
	}{{0, true}, {math.Copysign(0, -1), true}, {1, true}, {1e21, true}, {9007199254740993, true}, {1.5, false}, {-1, false},
		{math.Inf(1), false}, {math.Inf(-1), false}, {math.NaN(), false}} {
		if got := wholeNonNegative(c.x); got != c.want {
			t.Errorf("wholeNonNegative(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
