package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// hookReason is the reason baton's hook gave in testdata/hooks.txtar.
const hookReason = "baton: this stop does not meet the stop contract. Fix it and stop again:\n- line 15: the packet asks for review but says it will proceed (packet/review-auto-continue)"

// layOut writes the files of testdata/name into a new folder.
func layOut(t *testing.T, name string) string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", name))
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

// The audit finds the stops a hook blocked: in a Claude Code transcript
// where the hook blocked once, 2 stops, the first blocked by the hook with
// its reason (and judged would-be-blocked), the second let through; in a
// Codex rollout with a HookPrompt, the blocked stop counted; in a Gemini
// CLI session where the reason came back as the next prompt, likewise. No
// record of the formats (Gemini's $set) is an unreadable line.
func TestAuditCountsTheStopsAHookBlocked(t *testing.T) {
	r, err := Run([]string{layOut(t, "hooks.txtar")}, Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sessions) != 4 || r.Stops != 9 || r.Blocked != 3 || r.HookBlocked != 3 || r.Hooked != 4 {
		t.Fatalf("%d sessions, %d stops, %d would be blocked, %d blocked by a hook of %d answered; want 4, 9, 3, 3, 4", len(r.Sessions), r.Stops, r.Blocked, r.HookBlocked, r.Hooked)
	}
	// Each session's stops: would-be verdict and the hook's recorded answer.
	want := map[string][]string{
		"cl-21328":                             {"block/block", "pass/pass"},
		"019a7c55-0169-7000-8000-0000000c0169": {"block/block", "pass/", "pass/"},
		"gm-061":                               {"pass/", "pass/"},
		"gm-hook":                              {"block/block", "pass/"},
	}
	for _, s := range r.Sessions {
		var got []string
		for _, st := range s.Stops {
			got = append(got, st.Verdict+"/"+st.Hook)
			if st.Hook == Block && st.HookReason != hookReason {
				t.Errorf("%s #%d: the hook's reason is %q", s.ID, st.N, st.HookReason)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want[s.ID]) {
			t.Errorf("%s %s: stops %v, want %v", s.Host, s.ID, got, want[s.ID])
		}
		if s.Skipped != 0 {
			t.Errorf("%s %s: %d unreadable lines", s.Host, s.ID, s.Skipped)
		}
		delete(want, s.ID)
	}
	if len(want) > 0 {
		t.Errorf("sessions not found: %v", want)
	}
	var text, js bytes.Buffer
	if err := r.Text(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"claude session cl-21328 ", "  2 stop(s), 1 would be blocked, 1 blocked by the hook\n",
		"hook: block\n", "hook: pass\n", "hook: baton: this stop does not meet the stop contract.",
		"4 session(s), 9 stop(s), 3 would be blocked; the hosts recorded their hook's answer at 4, of which 3 blocked",
	} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the text lacks %q:\n%s", w, text.String())
		}
	}
	if strings.Contains(text.String(), "unreadable") {
		t.Errorf("the text reports unreadable lines:\n%s", text.String())
	}
	var html bytes.Buffer
	if err := r.HTML(&html); err != nil {
		t.Fatal(err)
	}
	// 3 marks outlined as blocked by the hook, and the legend's one.
	if n := strings.Count(html.String(), `data-hook="block"`); n != 4 {
		t.Errorf("%d marks of a hook's block in the HTML, want 4", n)
	}
	if err := r.JSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.HookBlocked != 3 || back.Sessions[0].Stops[0].Hook == "" {
		t.Errorf("JSON round trip: %v %+v", err, back)
	}
}

// A Codex 0.169 rollout of short conversational turns (the person's
// prompts as UserMessage items) is N turns of one stop each, none of which
// a hook would block: conversation is never blocked.
func TestAuditCodex0169Conversation(t *testing.T) {
	const n = 16
	var b strings.Builder
	b.WriteString(`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"cx-chat","cwd":"/nonexistent/app","cli_version":"0.169.0"}}` + "\n")
	for i := 1; i <= n; i++ {
		at := fmt.Sprintf("2026-12-01T10:%02d:00.000Z", i)
		q := fmt.Sprintf("Question %d: what does the cap do?", i)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":%q}]}}`+"\n", at, q)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"event_msg","payload":{"type":"item_completed","thread_id":"cx-chat","turn_id":"t%d","item":{"type":"UserMessage","id":"u%d","content":[{"type":"text","text":%q,"text_elements":[]}]}}}`+"\n", at, i, i, q)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"It stops after 5 tries (%d)."}]}}`+"\n", at, i)
	}
	path := filepath.Join(t.TempDir(), "rollout-2026-12-01T10-00-00-cx-chat.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Run([]string{path}, Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stops != n || r.Blocked != 0 || r.HookBlocked != 0 {
		t.Fatalf("%d stops, %d would be blocked, %d blocked by a hook; want %d, 0, 0", r.Stops, r.Blocked, r.HookBlocked, n)
	}
	for _, st := range r.Sessions[0].Stops {
		if st.Steps != 1 || st.Outcome != "real" {
			t.Errorf("stop %d: %+v", st.N, st)
		}
	}
}
