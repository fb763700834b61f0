package claude_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/transcript"
)

// The shapes of transcript/testdata/hostshapes.txtar: the packet the hook blocked,
// the packet it let through, and the reason it gave.
const (
	badOpening  = "I'll proceed with the callers tonight. Nothing blocking."
	goodOpening = "On approval, I will update the callers."
	hookReason  = "baton: this stop does not meet the stop contract. Fix it and stop again:\n- line 15: the packet asks for review but says it will proceed (packet/review-auto-continue)"
)

func persons(s *transcript.Session) []string {
	var out []string
	for _, e := range s.Entries {
		if e.Person {
			out = append(out, e.Text)
		}
	}
	return out
}

// Claude Code records a Stop hook's block as an isMeta user line ("Stop
// hook feedback: …") and a stop_hook_summary with the reason, and a stop
// let through as a summary with none: the session has two stops, the first
// blocked with the hook's reason, the second let through. Neither line is
// a person's; a PreToolUse summary is no stop's; api-request-blob lines,
// copies of API messages, are no message at all, for the audit or the
// hook.
func TestClaudeStopHookRecords(t *testing.T) {
	dir := hosttest.Extract(t, "transcript/testdata/hostshapes.txtar")
	path := filepath.Join(dir, "claude-2.1.328.jsonl")
	s, err := transcript.Read(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Host != "claude" || s.ID != "cl-21328" || s.Skipped != 0 {
		t.Errorf("host %q id %q skipped %d", s.Host, s.ID, s.Skipped)
	}
	if got := persons(s); fmt.Sprint(got) != "[Add a retry cap.]" {
		t.Errorf("the person's entries: %q", got)
	}
	for _, e := range s.Entries {
		if strings.Contains(e.Text, "copied into a request") {
			t.Errorf("an api-request-blob line was read as an entry: %+v", e)
		}
	}
	stops := s.Stops()
	if len(stops) != 2 {
		t.Fatalf("%d stops, want 2: %+v", len(stops), stops)
	}
	if st := stops[0]; !strings.Contains(st.Text, badOpening) || !st.Hooked || !st.Blocked || st.Reason != hookReason || st.Steps != 2 {
		t.Errorf("the blocked stop: %+v", st)
	}
	if st := stops[1]; !strings.Contains(st.Text, goodOpening) || !st.Hooked || st.Blocked || st.Reason != "" || st.Steps != 1 {
		t.Errorf("the stop let through: %+v", st)
	}
	// The hook's reading of the file's end: a block's feedback line is no
	// person's, so the turn is still the person's prompt, and its steps
	// (responses, by message id) run on across the block.
	if n, anchor := (claude.History{Path: path}).StepsSincePerson(); n != 3 || !strings.Contains(anchor, `"content":"Add a retry cap."`) {
		t.Errorf("StepsSincePerson = %d, %q; want 3 since the person's prompt", n, anchor)
	}
	// An api-request-blob written after the last message (a request's copy
	// of an assistant message) is not the hook's last message.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, `{"type":"api-request-blob","sessionId":"cl-21328","hash":"b9","message":{"role":"assistant","content":[{"type":"text","text":"A reply copied into a request."}]}}`)
	f.Close()
	if got, err := claude.LastMessage(path); err != nil || !strings.Contains(got, goodOpening) {
		t.Errorf("claude.LastMessage = %q, %v", got, err)
	}
	if got := (claude.History{Path: path}).LastMarked(func(t string) bool { return strings.Contains(t, "copied") }); got != "" {
		t.Errorf("LastMarked found an api-request-blob: %q", got)
	}
}
