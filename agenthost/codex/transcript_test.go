package codex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/codex"
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

// Codex 0.169 writes the person's prompt as an item_completed event with a
// UserMessage item, and no user_message event: each is a person's turn.
// A Stop hook's block (a <hook_prompt> user item and a HookPrompt item) is
// no person's: it ends the blocked stop, which is a stop of its own, with
// the hook's reason, and the agent's next message is the turn's next stop.
func TestCodex0169UserMessageAndHookPrompt(t *testing.T) {
	s, err := transcript.Read(filepath.Join(hosttest.Extract(t, "transcript/testdata/hostshapes.txtar"), "codex-0.169.0.jsonl"), "")
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
// the shape of transcript/testdata/hostshapes.txtar's codex-0.169.0.jsonl: at each
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
		s, err := transcript.ReadTail(path, codex.ID)
		if err != nil {
			t.Fatal(err)
		}
		steps, anchor := s.StepsSincePerson()
		if steps != 1 || anchors[anchor] || anchor == "saturated-no-human-line-in-window" {
			t.Fatalf("turn %d: %d steps since the person, anchor %q (seen %v); want 1 step, a new anchor", i+1, steps, anchor, anchors[anchor])
		}
		anchors[anchor] = true
	}
	s, err := transcript.Read(filepath.Join(dir, "rollout-19.jsonl"), "")
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
