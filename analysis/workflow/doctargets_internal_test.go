package workflow

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// targetRecord is one document of testdata/doctargets.json: its text, the
// targets the engine's outline offers, and what the engine's
// resolveDocumentTarget says of each selector ("ok TARGET", or the error's
// message).
type targetRecord struct {
	Name     string            `json:"name"`
	Text     string            `json:"text"`
	Targets  []string          `json:"targets"`
	Verdicts map[string]string `json:"verdicts"`
}

// TestDocumentTargetsMatchEngine holds baton's outline and selector
// verdicts to the engine's (testdata/doctargets.json, whose "how recorded"
// says how): where baton gives a verdict it is the engine's, word for word,
// and where it knows every entry its targets are the engine's.
func TestDocumentTargetsMatchEngine(t *testing.T) {
	given, silent := checkTargetRecords(t, "testdata/doctargets.json", nil)
	t.Logf("%d verdicts given, %d left silent", given, silent)
}

func checkTargetRecords(t *testing.T, file string, read func(name string) string) (given, silent int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var recs struct {
		Documents []targetRecord `json:"documents"`
	}
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs.Documents {
		text := r.Text
		if read != nil {
			text = read(r.Name)
		}
		o, ok := documentOutline(Parse(text))
		if !ok {
			silent += len(r.Verdicts)
			continue
		}
		sure := !slices.ContainsFunc(o.entries, func(e targetEntry) bool { return !e.sure })
		if sure {
			var got []string
			for _, e := range o.entries {
				got = append(got, encodeTarget(e.labels))
			}
			if !slices.Equal(got, r.Targets) && (len(got) > 0 || len(r.Targets) > 0) {
				t.Errorf("%s: targets %q, the engine's %q", r.Name, got, r.Targets)
			}
		}
		for sel, want := range r.Verdicts {
			kind, msg, ok := o.targetVerdict(sel)
			switch {
			case !ok:
				silent++
				continue
			case kind == "" && !strings.HasPrefix(want, "ok "):
				t.Errorf("%s: %q: baton says it names one target, the engine: %s", r.Name, sel, want)
			case kind != "" && sure && msg != want:
				t.Errorf("%s: %q: baton says\n%s\nthe engine:\n%s", r.Name, sel, msg, want)
			case kind != "" && !sure && strings.SplitN(msg, "\n", 2)[0] != strings.SplitN(want, "\n", 2)[0]:
				t.Errorf("%s: %q: baton says\n%s\nthe engine:\n%s", r.Name, sel, msg, want)
			}
			given++
		}
	}
	return given, silent
}
