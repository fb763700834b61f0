package transcript_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/baton-md/baton/agenthost/claude"
	_ "github.com/baton-md/baton/agenthost/hosts" // the hosts' formats
	. "github.com/baton-md/baton/transcript"
)

// sessions lays out testdata/sessions.txtar (hand-written samples of each
// host's format; the archive's comment cites the sources) and returns the
// folder.
func sessions(t *testing.T) string {
	t.Helper()
	return layout(t, "sessions.txtar")
}

// layout writes the files of testdata/name into a new folder and returns it.
func layout(t *testing.T, name string) string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every reader finds the same two stops in its host's rendering of the
// same session, skips (and counts) the torn and unknown lines, tells a
// person's message from a tool's answer or injected text, and its host is
// recognised from the content alone.
func TestReadersOnEachHost(t *testing.T) {
	dir := sessions(t)
	cases := []struct {
		file, host, id string
		skipped        int
		steps          []int
	}{
		{"claude.jsonl", "claude", "cl-1", 1, []int{2, 1}},
		{"codex.jsonl", "codex", "cx-1", 2, []int{2, 1}},
		{"gemini.json", "gemini", "gm-1", 1, []int{2, 1}},
		{"gemini.jsonl", "gemini", "gm-2", 2, []int{2, 1}},
		{"cursor.jsonl", "cursor", "cursor", 2, []int{2, 1}},
		{"copilot.jsonl", "copilot", "cp-1", 2, []int{2, 1}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			data, _ := os.ReadFile(path)
			if got := Detect(data); got != c.host {
				t.Errorf("Detect = %q, want %q", got, c.host)
			}
			s, err := Read(path, "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Host != c.host || s.ID != c.id || s.Skipped != c.skipped {
				t.Errorf("host %q id %q skipped %d; want %q %q %d", s.Host, s.ID, s.Skipped, c.host, c.id, c.skipped)
			}
			stops := s.Stops()
			want := []string{"Cap added. Shall I also cap the backoff?", "Backoff capped at 60 s."}
			if len(stops) != len(want) {
				t.Fatalf("%d stops, want %d: %+v", len(stops), len(want), stops)
			}
			for i, st := range stops {
				if st.Text != want[i] || st.Steps != c.steps[i] {
					t.Errorf("stop %d: %q after %d steps; want %q after %d", i, st.Text, st.Steps, want[i], c.steps[i])
				}
			}
			if got := s.LastMessage(); got != want[1] {
				t.Errorf("LastMessage = %q", got)
			}
			persons := 0
			for _, e := range s.Entries {
				if e.Person {
					persons++
					if e.Text != "Add a retry cap." && e.Text != "Yes." {
						t.Errorf("a person's entry reads %q", e.Text)
					}
				}
			}
			if persons != 2 {
				t.Errorf("%d entries of a person, want 2", persons)
			}
			if n, anchor := s.StepsSincePerson(); n != 1 || anchor == "" {
				t.Errorf("StepsSincePerson = %d, %q", n, anchor)
			}
			if m := s.LastMarked(func(t string) bool { return strings.Contains(t, "backoff?") }); m != want[0] {
				t.Errorf("LastMarked = %q", m)
			}
			if got, err := LastMessage(c.host, path); err != nil || got != want[1] {
				t.Errorf("LastMessage(%s) = %q, %v", c.host, got, err)
			}
			tail, err := ReadTail(path, c.host)
			if err != nil || len(tail.Entries) != len(s.Entries) {
				t.Errorf("ReadTail: %v, %d entries, want %d", err, len(tail.Entries), len(s.Entries))
			}
		})
	}
}

// Claude Code's lines are told by their type and message alone, as in
// specrew's own transcript fixtures, which carry no session fields.
func TestDetectMinimalClaude(t *testing.T) {
	line := `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}`
	if got := Detect([]byte(line + "\n")); got != "claude" {
		t.Errorf("Detect = %q", got)
	}
}

// A file of no host's shape is an error that says so; a special file is
// refused without being read (safefile), and so is an unknown host.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.jsonl")
	os.WriteFile(p, []byte("{\"a\":1}\nplain text\n"), 0o644)
	if _, err := Read(p, ""); err == nil || !strings.Contains(err.Error(), "not a session file") {
		t.Errorf("Read of an unknown shape: %v", err)
	}
	if _, err := Read("/dev/zero", "claude"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read of /dev/zero: %v", err)
	}
	if _, err := Read(p, "windsurf"); err == nil || !strings.Contains(err.Error(), "unknown host") {
		t.Errorf("Read with an unknown host: %v", err)
	}
	if _, err := LastMessage("codex", p); err == nil {
		t.Error("LastMessage of a file without assistant messages gave no error")
	}
}

// A whole-file Gemini chat torn at its end is read line by line: the
// messages before the tear still count.
func TestGeminiTornWholeFile(t *testing.T) {
	text := "{\"sessionId\":\"g\",\"messages\":[\n{\"id\":\"1\",\"type\":\"user\",\"content\":\"Hi.\"},\n{\"id\":\"2\",\"type\":\"gemini\",\"content\":\"Hello.\"},\n{\"id\":\"3\",\"type\":\"gem"
	s, _ := ReadData("gemini", "", []byte(text))
	if len(s.Entries) != 2 || s.Skipped != 2 || s.LastMessage() != "Hello." {
		t.Errorf("entries %d skipped %d", len(s.Entries), s.Skipped)
	}
}

// Claude Code's history reads the transcript's raw end as specrew's
// provider does: steps are distinct message ids since the person's last
// line, and the anchor is that line.
func TestClaudeHistory(t *testing.T) {
	dir := sessions(t)
	h := claude.History{Path: filepath.Join(dir, "claude.jsonl")}
	n, anchor := h.StepsSincePerson()
	if n != 2 || !strings.Contains(anchor, `"Yes."`) {
		t.Errorf("StepsSincePerson = %d, %q", n, anchor)
	}
	if m := h.LastMarked(func(t string) bool { return strings.Contains(t, "Looking") }); m != "Looking at the client." {
		t.Errorf("LastMarked = %q", m)
	}
	if n, a := (claude.History{}).StepsSincePerson(); n != 0 || a != "" {
		t.Errorf("no path: %d %q", n, a)
	}
}

// ReadTail reads only the window at the file's end, and a line the window
// cuts is not counted as torn: the session's last stop is still found.
func TestReadTailWindow(t *testing.T) {
	dir := sessions(t)
	path := filepath.Join(dir, "copilot.jsonl")
	data, _ := os.ReadFile(path)
	defer SetTailWindow(int64(len(data) - 400))() // cuts into the first lines
	s, err := ReadTail(path, "copilot")
	if err != nil {
		t.Fatal(err)
	}
	full, _ := Read(path, "copilot")
	if len(s.Entries) >= len(full.Entries) || s.LastMessage() != full.LastMessage() || s.Skipped != full.Skipped {
		t.Errorf("tail: %d entries (of %d), last %q, skipped %d (full %d)", len(s.Entries), len(full.Entries), s.LastMessage(), s.Skipped, full.Skipped)
	}
}
