package transcript_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	_ "github.com/baton-md/baton/agenthost/hosts" // the hosts' formats
	. "github.com/baton-md/baton/transcript"
)

// The shapes of testdata/hostshapes.txtar: the packet the hook blocked,
// the packet it let through, and the reason it gave.
const (
	badOpening  = "I'll proceed with the callers tonight. Nothing blocking."
	goodOpening = "On approval, I will update the callers."
	hookReason  = "baton: this stop does not meet the stop contract. Fix it and stop again:\n- line 15: the packet asks for review but says it will proceed (packet/review-auto-continue)"
)

func persons(s *Session) []string {
	var out []string
	for _, e := range s.Entries {
		if e.Person {
			out = append(out, e.Text)
		}
	}
	return out
}

// Codex 0.169 writes the person's prompt as an item_completed event with a
// UserMessage item, and no user_message event: each is a person's turn.
// A Stop hook's block (a <hook_prompt> user item and a HookPrompt item) is
// no person's: it ends the blocked stop, which is a stop of its own, with
// the hook's reason, and the agent's next message is the turn's next stop.
func TestCodex0169UserMessageAndHookPrompt(t *testing.T) {
	s, err := Read(filepath.Join(layout(t, "hostshapes.txtar"), "codex-0.169.0.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Host != "codex" || s.Skipped != 0 || s.Cwd != "/work/app" {
		t.Errorf("host %q skipped %d cwd %q", s.Host, s.Skipped, s.Cwd)
	}
	if got := persons(s); fmt.Sprint(got) != "[Add a retry cap. Approve.]" {
		t.Errorf("the person's entries: %q", got)
	}
	stops := s.Stops()
	if len(stops) != 3 {
		t.Fatalf("%d stops, want 3 (blocked, let through, conversation): %+v", len(stops), stops)
	}
	if st := stops[0]; !strings.Contains(st.Text, badOpening) || !st.Hooked || !st.Blocked || st.Reason != hookReason || st.Steps != 2 {
		t.Errorf("the blocked stop: %+v", st)
	}
	if st := stops[1]; !strings.Contains(st.Text, goodOpening) || st.Blocked || st.Steps != 1 {
		t.Errorf("the stop after the block: %+v", st)
	}
	if st := stops[2]; st.Text != "Thanks: the callers are next." || st.Blocked {
		t.Errorf("the conversational stop: %+v", st)
	}
}

// codexChat is a Codex 0.169 rollout of n short conversational turns, in
// the shape of testdata/hostshapes.txtar's codex-0.169.0.jsonl: at each
// stop, the lines written so far.
func codexChat(n int) (prefixes []string) {
	var b strings.Builder
	b.WriteString(`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"cx-chat","cwd":"/work/app","originator":"codex_exec","cli_version":"0.169.0"}}` + "\n")
	for i := 1; i <= n; i++ {
		at := fmt.Sprintf("2026-12-01T10:%02d:00.000Z", i)
		q := fmt.Sprintf("Question %d: what does the cap do?", i)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"turn_context","payload":{"turn_id":"t%d","cwd":"/work/app"}}`+"\n", at, i)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":%q}]}}`+"\n", at, q)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"event_msg","payload":{"type":"item_completed","thread_id":"cx-chat","turn_id":"t%d","item":{"type":"UserMessage","id":"u%d","content":[{"type":"text","text":%q,"text_elements":[]}]},"completed_at_ms":%d}}`+"\n", at, i, i, q, 1764583200000+i)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"It stops after 5 tries (%d)."}]}}`+"\n", at, i)
		prefixes = append(prefixes, b.String())
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t%d"}}`+"\n", at, i)
	}
	return prefixes
}

// Conversation is never a long investigation: over 20 short turns of a
// Codex 0.169 rollout, at every stop the hook's reading of the file counts
// one assistant step since the person's message, anchored on that turn's
// message (specrew's long-turn lane fires at 15 steps); and the file has
// 20 stops, one step each.
func TestCodex0169ChatIsNeverALongTurn(t *testing.T) {
	dir := t.TempDir()
	prefixes := codexChat(20)
	anchors := map[string]bool{}
	for i, p := range prefixes {
		path := filepath.Join(dir, fmt.Sprintf("rollout-%d.jsonl", i))
		if err := os.WriteFile(path, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := ReadTail(path, "codex")
		if err != nil {
			t.Fatal(err)
		}
		steps, anchor := s.StepsSincePerson()
		if steps != 1 || anchors[anchor] || anchor == "saturated-no-human-line-in-window" {
			t.Fatalf("turn %d: %d steps since the person, anchor %q (seen %v); want 1 step, a new anchor", i+1, steps, anchor, anchors[anchor])
		}
		anchors[anchor] = true
	}
	s, err := Read(filepath.Join(dir, "rollout-19.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	stops := s.Stops()
	if len(stops) != 20 {
		t.Fatalf("%d stops, want 20", len(stops))
	}
	for i, st := range stops {
		if st.Steps != 1 || st.Blocked {
			t.Errorf("stop %d: %+v", i+1, st)
		}
	}
}

// Claude Code records a Stop hook's block as an isMeta user line ("Stop
// hook feedback: …") and a stop_hook_summary with the reason, and a stop
// let through as a summary with none: the session has two stops, the first
// blocked with the hook's reason, the second let through. Neither line is
// a person's; a PreToolUse summary is no stop's; api-request-blob lines,
// copies of API messages, are no message at all, for the audit or the
// hook.
func TestClaudeStopHookRecords(t *testing.T) {
	dir := layout(t, "hostshapes.txtar")
	path := filepath.Join(dir, "claude-2.1.328.jsonl")
	s, err := Read(path, "")
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

// Gemini CLI 0.61's JSON lines: {"$set": …} and {"$rewindTo": …} are
// records of the format, not unreadable lines; a message written again
// under its id is one entry, a rewound message none, and neither a tool's
// answer (a user message of functionResponse parts) nor the session's
// context (<session_context>) is a person's.
func TestGeminiJSONLRecords(t *testing.T) {
	s, err := Read(filepath.Join(layout(t, "hostshapes.txtar"), "gemini-0.61.0.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Host != "gemini" || s.ID != "gm-061" || s.Skipped != 0 {
		t.Errorf("host %q id %q skipped %d; want gemini gm-061 0", s.Host, s.ID, s.Skipped)
	}
	if got := persons(s); fmt.Sprint(got) != "[Add a retry cap. Yes.]" {
		t.Errorf("the person's entries: %q", got)
	}
	var texts []string
	for _, e := range s.Entries {
		texts = append(texts, e.Role+":"+e.Text)
	}
	want := "[user:<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context> user:Add a retry cap. assistant: user: assistant:Cap added. Shall I also cap the backoff? user:Yes. assistant:Backoff capped at 60 s.]"
	if fmt.Sprint(texts) != want {
		t.Errorf("entries\n %q\nwant\n %s", texts, want)
	}
	stops := s.Stops()
	if len(stops) != 2 || stops[0].Steps != 2 || stops[1].Steps != 1 || stops[1].Text != "Backoff capped at 60 s." {
		t.Errorf("stops: %+v", stops)
	}
	// "$set" with the messages replaces them all.
	s, _ = ReadData("gemini", "", []byte(`{"sessionId":"g","projectHash":"h"}
{"id":"1","type":"user","content":"Old."}
{"$set":{"messages":[{"id":"9","type":"user","content":"New."},{"id":"10","type":"gemini","content":"Fresh."}]}}
`))
	if s.Skipped != 0 || len(s.Entries) != 2 || s.Entries[0].Text != "New." || s.LastMessage() != "Fresh." {
		t.Errorf("$set of the messages: %+v skipped %d", s.Entries, s.Skipped)
	}
}
