package hosts

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexEnv is what Codex needs to run headless against the mock: its home
// in the scratch home, and nothing sent anywhere else (the proxy catches
// any request that would still leave the machine).
func codexEnv(s *scratch) []string {
	return []string{
		"CODEX_HOME=" + filepath.Join(s.home, ".codex"),
		"BATON_E2E_MODEL_KEY=not-a-key",
		"HTTPS_PROXY=http://127.0.0.1:9",
		"HTTP_PROXY=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost",
	}
}

// writeCodexConfig points Codex at the mock through a model provider of
// its own (OpenAI Responses) and trusts the scratch repository, so that
// its .codex/ layer (hooks.json) is loaded.
func writeCodexConfig(t *testing.T, s *scratch, m *modelMock) {
	t.Helper()
	dir := filepath.Join(s.home, ".codex")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`model = "mock-model"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"
env_key = "BATON_E2E_MODEL_KEY"

[projects.%q]
trust_level = "trusted"
`, m.URL(), s.repo)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codexRun is one headless `codex exec` in the scratch repository.
type codexRun struct {
	thread  string
	rollout string
	result  string // the last agent message codex printed
	took    time.Duration
}

// runCodex runs one headless prompt in the scratch repository, in a new
// thread or, with thread set, in that thread again.
//
// --dangerously-bypass-hook-trust: Codex runs a hook only once the person
// has trusted it (its hash, as /hooks records it); the flag is the one
// Codex gives automation for that. Issue 24 says a hook edited after it
// was trusted is skipped silently; that is not exercised here.
func runCodex(t *testing.T, s *scratch, codex, thread, prompt string) codexRun {
	t.Helper()
	args := []string{"exec", "--json", "--dangerously-bypass-hook-trust"}
	if thread != "" {
		args = append(args, "resume", thread)
	}
	args = append(args, prompt)
	start := time.Now()
	out, err := s.exec(s.repo, codexEnv(s), 3*time.Minute, codex, args...)
	run := codexRun{thread: thread, took: time.Since(start)}
	if err != nil {
		t.Fatalf("codex exec: %v\n%s", err, out)
	}
	completed := false
	for _, line := range strings.Split(out, "\n") {
		var ev struct {
			Type     string `json:"type"`
			ThreadID string `json:"thread_id"`
			Item     struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue // codex's warnings on standard error
		}
		switch {
		case ev.Type == "thread.started":
			run.thread = ev.ThreadID
		case ev.Type == "item.completed" && ev.Item.Type == "agent_message":
			run.result = ev.Item.Text
		case ev.Type == "turn.completed":
			completed = true
		}
	}
	if !completed || run.thread == "" {
		t.Fatalf("codex exec completed no turn:\n%s", out)
	}
	matches, _ := filepath.Glob(filepath.Join(s.home, ".codex", "sessions", "*", "*", "*", "rollout-*"+run.thread+".jsonl"))
	if len(matches) != 1 {
		t.Fatalf("no rollout of thread %s under %s/.codex/sessions (found %v)", run.thread, s.home, matches)
	}
	run.rollout = matches[0]
	return run
}

// installCodex runs `baton hook install --host codex --project` with
// flags in the scratch repository, as a person would: the hooks it writes
// are the ones the scenarios run, unedited (Codex trusts a hook by a hash
// of its command).
func installCodex(t *testing.T, s *scratch, flags ...string) {
	t.Helper()
	s.run(t, s.repo, s.baton, append([]string{"hook", "install", "--host", "codex", "--project"}, flags...)...)
}

// codexRollout is what a rollout file shows of the stops.
type codexRollout struct {
	assistant   []string // each assistant message's text, in order
	hookPrompts []string // the hook's reasons, as Codex gave them to the model
	lastMessage string   // task_complete's last agent message
}

func readCodexRollout(t *testing.T, path string) codexRollout {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cr codexRollout
	for n, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type             string          `json:"type"`
				Role             string          `json:"role"`
				Content          json.RawMessage `json:"content"`
				LastAgentMessage string          `json:"last_agent_message"`
			} `json:"payload"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%s:%d: %v", path, n+1, err)
		}
		p := l.Payload
		switch {
		case l.Type == "response_item" && p.Type == "message" && p.Role == "assistant":
			cr.assistant = append(cr.assistant, contentText(p.Content))
		case l.Type == "response_item" && p.Type == "message" && p.Role == "user":
			if text := contentText(p.Content); strings.HasPrefix(text, "<hook_prompt") {
				cr.hookPrompts = append(cr.hookPrompts, text)
			}
		case l.Type == "event_msg" && p.Type == "task_complete":
			cr.lastMessage = p.LastAgentMessage
		}
	}
	return cr
}

func TestCodex(t *testing.T) {
	codex := hostBinary(t, "codex", "codex")
	baton := batonBinary(t)

	t.Run("BadPacketBlockedUntilFixed", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s)
		m := newModelMock(t, badPacket(t), fixedPacket)
		writeCodexConfig(t, s, m)
		run := runCodex(t, s, codex, "", packetPrompt)
		t.Logf("codex exec took %v", run.took.Round(time.Millisecond))

		turns := m.Turns()
		if len(turns) != 2 {
			t.Fatalf("the model was asked %d times, want 2 (the bad packet, then the fixed one)", len(turns))
		}
		if turnHas(turns[0], blockReason) {
			t.Errorf("the first request already holds the hook's reason")
		}
		for _, want := range []string{blockReason, "packet/review-auto-continue", "packet/review-not-held"} {
			if !turnHas(turns[1], want) {
				t.Errorf("the request after the block does not hold %q: the hook's reason did not reach the model", want)
			}
		}
		if strings.TrimSpace(run.result) != strings.TrimSpace(fixedPacket) {
			t.Errorf("codex ended the turn with %q, want the fixed packet", run.result)
		}
		cr := readCodexRollout(t, run.rollout)
		if len(cr.hookPrompts) != 1 || !strings.Contains(cr.hookPrompts[0], "packet/review-auto-continue") {
			t.Errorf("rollout: hook prompts %q, want one naming packet/review-auto-continue", cr.hookPrompts)
		}
		if n := len(cr.assistant); n != 2 || strings.TrimSpace(cr.assistant[n-1]) != strings.TrimSpace(fixedPacket) {
			t.Errorf("rollout: %d assistant messages, want 2 ending with the fixed packet", n)
		}
		if strings.TrimSpace(cr.lastMessage) != strings.TrimSpace(fixedPacket) {
			t.Errorf("rollout: the task completed with %q, want the fixed packet", cr.lastMessage)
		}
		checkAudit(t, s, run.rollout, auditCounts{Stops: 2, Blocked: 1, HookBlocked: 1})
	})

	t.Run("ConversationNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s)
		replies := []string{
			"The README has one heading, `# scratch`, and nothing else.",
			"Yes: it is the only Markdown file in the repository.",
			"You're welcome. Ask again whenever you like.",
		}
		m := newModelMock(t, replies...)
		writeCodexConfig(t, s, m)
		var run codexRun
		for i, prompt := range []string{"What is in the README?", "Is it the only Markdown file?", "Thanks!"} {
			run = runCodex(t, s, codex, run.thread, prompt)
			t.Logf("codex exec (turn %d) took %v", i+1, run.took.Round(time.Millisecond))
			if run.result != replies[i] {
				t.Errorf("turn %d ended with %q, want %q", i+1, run.result, replies[i])
			}
		}
		turns := m.Turns()
		if len(turns) != len(replies) {
			t.Errorf("the model was asked %d times, want %d (one per prompt, nothing blocked)", len(turns), len(replies))
		}
		for i, r := range turns {
			if turnHas(r, blockReason) {
				t.Errorf("request %d holds the hook's reason: a conversational reply was blocked", i+1)
			}
		}
		cr := readCodexRollout(t, run.rollout)
		if len(cr.assistant) != len(replies) || len(cr.hookPrompts) != 0 {
			t.Errorf("rollout: %d assistant messages, hook prompts %q; want %d, none", len(cr.assistant), cr.hookPrompts, len(replies))
		}
		checkAudit(t, s, run.rollout, auditCounts{Stops: len(replies)})
	})

	t.Run("LoopBoundReleases", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s)
		bad := badPacket(t)
		m := newModelMock(t, bad)
		m.RepeatLast() // a model that never fixes its packet
		writeCodexConfig(t, s, m)
		run := runCodex(t, s, codex, "", packetPrompt)
		t.Logf("codex exec took %v", run.took.Round(time.Millisecond))

		// baton blocks three times in a row (--max-blocks' default), then
		// lets the fourth stop through.
		turns := m.Turns()
		if len(turns) != 4 {
			t.Errorf("the model was asked %d times, want 4 (three blocks, then released)", len(turns))
		}
		for i, r := range turns[1:] {
			if !turnHas(r, blockReason) {
				t.Errorf("request %d does not hold the hook's reason", i+2)
			}
		}
		if strings.TrimSpace(run.result) != strings.TrimSpace(bad) {
			t.Errorf("codex ended the turn with %q, want the bad packet, released", run.result)
		}
		cr := readCodexRollout(t, run.rollout)
		if len(cr.assistant) != 4 || len(cr.hookPrompts) != 3 {
			t.Errorf("rollout: %d assistant messages, %d hook prompts; want 4 and 3", len(cr.assistant), len(cr.hookPrompts))
		}
		checkAudit(t, s, run.rollout, auditCounts{Stops: 4, Blocked: 4, HookBlocked: 3})
	})

	// specrew's long-investigation rule (15 or more responses since the
	// person's last message) must count the person's turns in the real
	// rollout: twenty short exchanges in one thread are conversation.
	t.Run("ManyShortTurnsNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s, "--require-packet")
		const n = 20
		var replies []string
		for i := range n {
			replies = append(replies, fmt.Sprintf("Reply %d: yes, that is right.", i+1))
		}
		m := newModelMock(t, replies...)
		writeCodexConfig(t, s, m)
		var run codexRun
		var took time.Duration
		for i := range n {
			run = runCodex(t, s, codex, run.thread, fmt.Sprintf("Question %d: is that right?", i+1))
			took += run.took
			if run.result != replies[i] {
				t.Fatalf("turn %d ended with %q, want %q", i+1, run.result, replies[i])
			}
		}
		t.Logf("%d turns of codex exec took %v", n, took.Round(time.Millisecond))
		turns := m.Turns()
		if len(turns) != n {
			t.Errorf("the model was asked %d times, want %d (one per prompt, nothing blocked)", len(turns), n)
		}
		cr := readCodexRollout(t, run.rollout)
		if len(cr.assistant) != n || len(cr.hookPrompts) != 0 {
			t.Errorf("rollout: %d assistant messages, %d hook prompts; want %d, none", len(cr.assistant), len(cr.hookPrompts), n)
		}
		checkAudit(t, s, run.rollout, auditCounts{Stops: n})
	})
}
