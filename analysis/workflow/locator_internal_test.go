package workflow

import (
	"encoding/json"
	"os"
	"testing"
)

// TestLocatorsAgainstEngine holds baton's readings of the workflow host's
// URLs to the engine's verdicts (testdata/locators.json): baton refuses
// nothing the engine admits, and names a provider exactly as the engine
// does. A string baton leaves alone may still be refused by the engine's
// URL parser, which baton does not restate.
func TestLocatorsAgainstEngine(t *testing.T) {
	data, err := os.ReadFile("testdata/locators.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Value, Locator, IssueURL, Provider string
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	refused := map[string]int{}
	for _, c := range doc.Cases {
		if locatorRefused(c.Value) {
			refused["locator"]++
			if c.Locator != "refused" {
				t.Errorf("<Repository url=%q>: baton refuses it, the engine admits it", c.Value)
			}
		}
		if issueURLRefused(c.Value) {
			refused["issue"]++
			if c.IssueURL != "refused" {
				t.Errorf("<IssueTracker url=%q>: baton refuses it, the engine admits it", c.Value)
			}
		}
		if got := providerName(c.Value); got != (c.Provider == "admitted") {
			t.Errorf("provider %q: baton admits it %v, the engine %s it", c.Value, got, c.Provider)
		}
	}
	// Most of what the engine refuses, baton refuses too.
	engine := map[string]int{}
	for _, c := range doc.Cases {
		if c.Locator == "refused" {
			engine["locator"]++
		}
		if c.IssueURL == "refused" {
			engine["issue"]++
		}
	}
	for _, k := range []string{"locator", "issue"} {
		if refused[k]*10 < engine[k]*8 {
			t.Errorf("%s: baton refuses %d of the %d the engine refuses", k, refused[k], engine[k])
		}
	}
}
