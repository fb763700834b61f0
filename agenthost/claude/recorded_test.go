package claude_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/baton-md/baton/transcript"
)

// The Stop inputs the repository holds for Claude Code (the command
// line's script test, cmd/baton/testdata/script/hook.txtar), each read
// into the stop and judged as the script says: a consistent packet
// passes, one that proceeds is blocked under --lint, a message only the
// transcript holds is read from it, a plain answer passes, and a missing
// transcript or message lets the stop through, saying why.
func TestRecordedPayloads(t *testing.T) {
	dir := hosttest.Extract(t, "cmd/baton/testdata/script/hook.txtar")
	cwd := t.TempDir()
	in, err := claude.Host.Stop.Parse(hosttest.Payload(t, dir, "proceed-active.json", cwd))
	if err != nil {
		t.Fatal(err)
	}
	if s := in.Stop; s.SessionID != "s-proceed" || s.Cwd != cwd || !s.Active || !strings.HasPrefix(s.Message, "## What I Just Did") || in.Transcript != "" {
		t.Errorf("proceed-active.json read as %+v", in)
	}
	for _, c := range []struct {
		file   string
		reason []string // "" for a pass
		stderr string
	}{
		{"consistent.json", nil, ""},
		{"proceed.json", []string{"line 15: ", "packet/review-auto-continue", "packet/review-not-held"}, ""},
		{"from-transcript.json", []string{"line 19: ", "Nothing blocking"}, ""},
		{"plain.json", nil, ""},
		{"missing-transcript.json", nil, "read the transcript: "},
		{"no-message.json", nil, "no last_assistant_message and no transcript_path"},
	} {
		out, errs := hooktest.Run(t, []string{"claude-stop", "--lint", "--state-dir", t.TempDir()}, hosttest.Payload(t, dir, c.file, cwd))
		r := stopCase.Check(t, []byte(out))
		if (r != "") != (c.reason != nil) || !strings.Contains(errs, c.stderr) {
			t.Errorf("%s: reason %q, stderr %q", c.file, r, errs)
		}
		for _, w := range c.reason {
			if !strings.Contains(r, w) {
				t.Errorf("%s: the reason lacks %q: %s", c.file, w, r)
			}
		}
	}
}

// The Claude Code transcripts the repository holds are told to be Claude
// Code's and read as its format.
func TestRecordedSessions(t *testing.T) {
	hosttest.CheckSessions(t, claude.Host.Transcript.Host, []hosttest.Session{
		{Archive: "transcript/testdata/sessions.txtar", File: "claude.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "transcript/testdata/hostshapes.txtar", File: "claude-2.1.328.jsonl", Stops: 2, Last: "## What I Just Did"},
		{Archive: "audit/testdata/hooks.txtar", File: "claude/projects/-nonexistent-app/cl-21328.jsonl", Stops: 2, Last: "## What I Just Did"},
		{Archive: "audit/testdata/mixed.txtar", File: "claude/projects/-work-app/cl-week.jsonl", Stops: 3, Last: "Sure: the function returns nil when the cache is cold."},
		{Archive: "cmd/baton/testdata/script/hook.txtar", File: "transcript.jsonl", Stops: 1, Last: "## What I Just Did"},
	})
}

// Real Claude Code transcripts of alonf/specrew's fixtures (the shared
// corpus; see its PROVENANCE.md) are told to be Claude Code's, and the
// stop hook reads the packet of the first: a packet, then a user line a
// hook injected (isMeta), which is no person's reply. Its Discussion
// Prompts ("No open prompt.") ask nothing, which specrew's validator fails
// (packet/context-free-prompts): with --lint the hook blocks on that line.
func TestRealTranscripts(t *testing.T) {
	files := corpus.Glob(t, "specrew/transcript-fixture-*.jsonl")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := transcript.Detect(data); got != claude.Host.ID {
			t.Errorf("%s: told to be %q's", filepath.Base(path), got)
		}
		if msg, err := claude.LastMessage(path); err != nil || strings.TrimSpace(msg) == "" {
			t.Errorf("%s: last message %q, %v", filepath.Base(path), msg, err)
		}
	}
	gov001 := filepath.Join(filepath.Dir(files[0]), "transcript-fixture-dec-198-gov-001-ismeta-fabricated-approval.jsonl")
	in := hooktest.JSON(map[string]any{"session_id": "s-h", "transcript_path": gov001, "cwd": t.TempDir(), "hook_event_name": "Stop", "stop_hook_active": false})
	out, errs := hooktest.Run(t, []string{"claude-stop", "--lint", "--state-dir", t.TempDir()}, in)
	if r := stopCase.Check(t, []byte(out)); !regexp.MustCompile(`line 13: .*\(packet/context-free-prompts\)`).MatchString(r) || strings.Contains(errs, "letting the stop through") {
		t.Errorf("reason %q, stderr %q", r, errs)
	}
}
