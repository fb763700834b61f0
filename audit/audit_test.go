package audit

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// week lays out testdata/mixed.txtar: a week of sessions on five hosts
// with known stops (its comment lists them).
func week(t *testing.T) string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "mixed.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The audit of a folder of mixed-host transcripts counts every stop, the
// ones a hook would have blocked, and why, per session and overall.
func TestAuditMixedHosts(t *testing.T) {
	dir := week(t)
	r, err := Run([]string{dir}, Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sessions) != 5 || r.Stops != 10 || r.Blocked != 5 {
		t.Fatalf("%d sessions, %d stops, %d blocked; want 5, 10, 5", len(r.Sessions), r.Stops, r.Blocked)
	}
	want := map[string][2]int{ // host: stops, blocked
		"claude": {3, 1}, "codex": {2, 2}, "gemini": {2, 0}, "cursor": {1, 1}, "copilot": {2, 1},
	}
	for _, s := range r.Sessions {
		w, ok := want[s.Host]
		if !ok || len(s.Stops) != w[0] || s.Blocked != w[1] {
			t.Errorf("%s %s: %d stops, %d blocked; want %v", s.Host, s.Path, len(s.Stops), s.Blocked, w)
		}
		delete(want, s.Host)
		for _, st := range s.Stops {
			if st.Verdict == Block && (s.ByRule["packet/review-auto-continue"] == 0 || len(st.Findings) == 0) {
				t.Errorf("%s #%d blocked without its rule: %+v", s.Host, st.N, st)
			}
			if st.Outcome != "real" {
				t.Errorf("%s #%d: outcome %q, want real", s.Host, st.N, st.Outcome)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("hosts not read: %v", want)
	}
	rules := map[string]RuleCount{}
	for _, c := range r.ByRule {
		rules[c.Rule] = c
	}
	for _, rule := range []string{"packet/review-auto-continue", "packet/review-not-held"} {
		if c := rules[rule]; c.Stops != 5 || c.Sessions != 4 {
			t.Errorf("%s: %d stops in %d sessions; want 5 in 4", rule, c.Stops, c.Sessions)
		}
	}
	if r.Outcomes["real"] != 10 || len(r.Problems) != 0 {
		t.Errorf("outcomes %v, problems %v", r.Outcomes, r.Problems)
	}
}

// Each format says the same counts: the text names every session and the
// totals, the JSON parses back to them, and the HTML holds one timeline
// mark per stop, coloured by verdict, and no external asset.
func TestAuditFormats(t *testing.T) {
	r, err := Run([]string{week(t)}, Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var text, js, html bytes.Buffer
	if err := r.Text(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"5 session(s), 10 stop(s), 5 would be blocked", "packet/review-auto-continue", "5 stop(s) in 4 session(s)", "codex session cx-week", "line 15:"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, text.String())
		}
	}
	if err := r.JSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Stops != 10 || back.Blocked != 5 || len(back.Sessions) != 5 {
		t.Errorf("JSON round trip: %v %+v", err, back)
	}
	if err := r.HTML(&html); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	if n := strings.Count(h, `class="stop block"`); n != 5 {
		t.Errorf("%d blocked marks, want 5", n)
	}
	if n := strings.Count(h, `class="stop pass"`); n != 5 {
		t.Errorf("%d passed marks, want 5", n)
	}
	for _, bad := range []string{"<script src", "<link", "http://", "https://", "url("} {
		if strings.Contains(h, bad) {
			t.Errorf("the HTML refers to an external asset (%q)", bad)
		}
	}
}

// A file named on its own that no host wrote is a problem of the report;
// nothing readable at all is an error.
func TestAuditProblems(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "notes.jsonl")
	os.WriteFile(bad, []byte("{\"a\":1}\n"), 0o644)
	if _, err := Run([]string{bad, filepath.Join(dir, "missing.jsonl")}, Options{}); err == nil || !strings.Contains(err.Error(), "not a session file") || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("Run over nothing readable: %v", err)
	}
	r, err := Run([]string{week(t), bad}, Options{Workspace: dir})
	if err != nil || len(r.Sessions) != 5 || len(r.Problems) != 1 {
		t.Errorf("a readable folder and a bad file: %v, %d sessions, problems %v", err, len(r.Sessions), r.Problems)
	}
}

// --since keeps the stops made at or after a time: by the time the host
// recorded, else by the file's last change; a session left without stops
// is left out.
func TestAuditSince(t *testing.T) {
	dir := week(t)
	// Each file last changed at the week's end, as a host leaves it; the
	// Cursor transcript (its stops carry no time) on the 1st.
	end := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, end, end)
		}
		return nil
	})
	old := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "cursor/projects/work-app/agent-transcripts/cu-week.jsonl"), old, old)
	// From 2026-11-24: Claude's stops (20th to 22nd) and the Cursor
	// session (no times, file changed on the 1st) drop out.
	r, err := Run([]string{dir}, Options{Workspace: t.TempDir(), Since: time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sessions) != 3 || r.Stops != 6 || r.Blocked != 3 {
		t.Errorf("%d sessions, %d stops, %d blocked; want 3, 6, 3", len(r.Sessions), r.Stops, r.Blocked)
	}
	// A file changed since keeps its untimed stops.
	now := time.Now()
	os.Chtimes(filepath.Join(dir, "cursor/projects/work-app/agent-transcripts/cu-week.jsonl"), now, now)
	r, _ = Run([]string{dir}, Options{Workspace: t.TempDir(), Since: now.Add(-time.Hour)})
	if len(r.Sessions) != 1 || r.Sessions[0].Host != "cursor" || r.Stops != 1 {
		t.Errorf("the recently changed Cursor session: %+v", r.Sessions)
	}
}
