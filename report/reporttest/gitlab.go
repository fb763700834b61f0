package reporttest

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// ReadGitLab reads a GitLab Code Quality report, an array of issues, and
// checks that each has the fields GitLab documents for one
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
// description, check_name, fingerprint, severity (info, minor, major,
// critical or blocker), location.path and location.lines.begin, all
// required; and type "issue", from the Code Climate specification.
func ReadGitLab(t testing.TB, out string) []map[string]any {
	t.Helper()
	var issues []map[string]any
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if issues == nil {
		t.Fatalf("null, want an array: %s", out)
	}
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	str := func(i int, m map[string]any, k string) string {
		t.Helper()
		s, ok := m[k].(string)
		if !ok || s == "" {
			t.Errorf("issue %d: %s is %#v, want a non-empty string", i, k, m[k])
		}
		return s
	}
	fingerprints := map[string]bool{}
	for i, is := range issues {
		str(i, is, "description")
		str(i, is, "check_name")
		if is["type"] != "issue" {
			t.Errorf("issue %d: type %v", i, is["type"])
		}
		if s := str(i, is, "severity"); !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, s) {
			t.Errorf("issue %d: severity %q", i, s)
		}
		fp := str(i, is, "fingerprint")
		if !hex64.MatchString(fp) || fingerprints[fp] {
			t.Errorf("issue %d: fingerprint %q is not a fresh SHA-256", i, fp)
		}
		fingerprints[fp] = true
		loc, _ := is["location"].(map[string]any)
		if loc == nil {
			t.Fatalf("issue %d: no location", i)
		}
		if p := str(i, loc, "path"); filepath.IsAbs(p) {
			t.Errorf("issue %d: path %q is not relative", i, p)
		}
		lines, _ := loc["lines"].(map[string]any)
		begin, ok := lines["begin"].(float64)
		if !ok || begin < 1 {
			t.Errorf("issue %d: location.lines.begin %v", i, lines["begin"])
		}
		if end, ok := lines["end"].(float64); !ok || end < begin {
			t.Errorf("issue %d: location.lines.end %v", i, lines["end"])
		}
	}
	return issues
}
