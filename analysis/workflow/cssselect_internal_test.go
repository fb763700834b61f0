package workflow

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestCSSSelectorsAsTheEngine holds cssSelectorError to the verdicts of the
// selector parser the engine's <Let select> runs (testdata/selectors.json,
// recorded under Node): the same selectors parse, with the same message.
func TestCSSSelectorsAsTheEngine(t *testing.T) {
	data, err := os.ReadFile("testdata/selectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Selectors []struct {
			Selector string `json:"selector"`
			Error    string `json:"error"`
		} `json:"selectors"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Selectors) < 1000 {
		t.Fatalf("only %d selectors", len(doc.Selectors))
	}
	for _, s := range doc.Selectors {
		got := cssSelectorError(s.Selector)
		if (got == "") != (s.Error == "") {
			t.Errorf("%q: baton says %q, the parser %q", s.Selector, got, s.Error)
			continue
		}
		// A pseudo-element named like a member of Object.prototype fails
		// in the parser's own message code; only that it fails matters.
		if got != s.Error && !strings.Contains(s.Error, "is not a function") {
			t.Errorf("%q: baton says %q, the parser %q", s.Selector, got, s.Error)
		}
	}
}
