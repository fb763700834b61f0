package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/report/reporttest"
)

// checkIn writes files into a fresh working directory, runs baton check
// there with args, and returns stdout and the exit status.
func checkIn(t *testing.T, files map[string]string, stdin string, args ...string) (stdout string, code int) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	code = run(append([]string{"check"}, args...), strings.NewReader(stdin), &out, &errOut)
	if errOut.Len() > 0 {
		t.Errorf("baton check %s wrote to stderr:\n%s", strings.Join(args, " "), errOut.String())
	}
	return out.String(), code
}

// everyShape is reporttest's documents of every shape, as files for checkIn.
var everyShape = map[string]string{
	"marker.md":  reporttest.MarkerAndHeading,
	"missing.md": reporttest.MissingSection,
	"order.md":   reporttest.OutOfOrder,
	"stop.md":    reporttest.NearMiss,
	"clean.md":   reporttest.Clean,
}

// TestJSONFields checks that the JSON output has exactly the fields
// docs/json-format.md documents, each of the documented type.
func TestJSONFields(t *testing.T) {
	out, code := checkIn(t, everyShape, reporttest.NearMiss, "--format", "json", "marker.md", "missing.md", "order.md", "clean.md", "-")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	keys := func(where string, m any, want ...string) map[string]any {
		t.Helper()
		obj, ok := m.(map[string]any)
		if !ok {
			t.Fatalf("%s is %T, want an object", where, m)
		}
		got := slices.Sorted(maps.Keys(obj))
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s has the fields %q, want %q", where, got, want)
		}
		return obj
	}
	array := func(where string, v any) []any {
		t.Helper()
		a, ok := v.([]any)
		if !ok {
			t.Fatalf("%s is %T, want an array (never null)", where, v)
		}
		return a
	}
	position := func(where string, v any) {
		t.Helper()
		p := keys(where, v, "line", "column", "offset")
		for _, k := range []string{"line", "column"} {
			if n, ok := p[k].(float64); !ok || n < 1 {
				t.Errorf("%s.%s = %v, want a number from 1", where, k, p[k])
			}
		}
		if n, ok := p["offset"].(float64); !ok || n < 0 {
			t.Errorf("%s.offset = %v, want a number from 0", where, p["offset"])
		}
	}
	keys("the report", v, "version", "files", "summary")
	if v["version"] != float64(1) {
		t.Errorf("version %v, want 1", v["version"])
	}
	files := array("files", v["files"])
	var paths []string
	counts := map[string]int{}
	for _, f := range files {
		file := keys("a file", f, "path", "kind", "kind_reason", "findings")
		paths = append(paths, file["path"].(string))
		for _, fi := range array("findings", file["findings"]) {
			finding := keys("a finding", fi, "rule", "severity", "message", "start", "end", "related", "fixes", "help")
			counts[finding["severity"].(string)]++
			position("start", finding["start"])
			position("end", finding["end"])
			if want := "https://github.com/baton-md/baton/blob/main/docs/rules.md#" + analysis.Anchor(finding["rule"].(string)); finding["help"] != want {
				t.Errorf("help %v, want %s", finding["help"], want)
			}
			for _, r := range array("related", finding["related"]) {
				rel := keys("a related location", r, "message", "start", "end")
				position("related start", rel["start"])
				position("related end", rel["end"])
			}
			for _, x := range array("fixes", finding["fixes"]) {
				fix := keys("a fix", x, "title", "safe", "edits")
				if _, ok := fix["safe"].(bool); !ok {
					t.Errorf("safe is %T", fix["safe"])
				}
				for _, e := range array("edits", fix["edits"]) {
					edit := keys("an edit", e, "start", "end", "new_text")
					position("edit start", edit["start"])
					position("edit end", edit["end"])
				}
			}
		}
	}
	if want := []string{"marker.md", "missing.md", "order.md", "clean.md", "<stdin>"}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q (every file, in the order named)", paths, want)
	}
	summary := keys("summary", v["summary"], "files", "errors", "warnings", "infos", "hints")
	want := map[string]any{"files": 5.0, "errors": 1.0, "warnings": 6.0, "infos": 0.0, "hints": 2.0}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if counts["error"] != 1 || counts["warning"] != 6 || counts["hint"] != 2 {
		t.Errorf("severities %v do not add up to the summary", counts)
	}
	if strings.Contains(out, `\u003c`) {
		t.Error("the JSON escapes < and > (HTML escaping): markers should read as written")
	}
}
