package workflow

import (
	"encoding/json"
	"os"
	"testing"
)

// Every prefix of every recorded module is read without a panic: a
// module being written is cut anywhere.
func TestReadTSExportsPrefixes(t *testing.T) {
	data, err := os.ReadFile("testdata/tscomponents.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Modules []struct{ Name, Module string }
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	for _, m := range rec.Modules {
		for n := 0; n <= len(m.Module); n++ {
			var f tsFacts
			f.readCode("components/"+m.Name+".ts", m.Module[:n])
		}
	}
}

func TestJSLiterals(t *testing.T) {
	for lit, want := range map[string]string{
		`"a\nb"`: "a\nb", `'it\'s'`: "it's", `"\x41\u0042\u{43}"`: "ABC", `"a\
b"`: "ab", `"plain"`: "plain",
	} {
		if got, ok := jsUnquote(lit); !ok || got != want {
			t.Errorf("jsUnquote(%s) = %q, %v; want %q", lit, got, ok, want)
		}
	}
	for _, lit := range []string{`"\1"`, `"\08"`, `"\ud800"`, `"\x4"`} {
		if got, ok := jsUnquote(lit); ok {
			t.Errorf("jsUnquote(%s) = %q: strict mode refuses it, or baton does not decode it", lit, got)
		}
	}
	for lit, want := range map[string]float64{"1": 1, "1_000": 1000, "0x10": 16, "0o10": 8, "0b11": 3, ".5": 0.5, "1e3": 1000, "0": 0, "0.5": 0.5} {
		if got, ok := jsNumber(lit); !ok || got != want {
			t.Errorf("jsNumber(%s) = %v, %v; want %v", lit, got, ok, want)
		}
	}
	for _, lit := range []string{"1n", "010", "08", "1e999"} {
		if got, ok := jsNumber(lit); ok {
			t.Errorf("jsNumber(%s) = %v: not a finite JSON number baton reads", lit, got)
		}
	}
}
