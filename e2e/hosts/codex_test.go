package hosts

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
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
// Codex gives automation for that. A hook edited after it
// was trusted is skipped silently; that is not exercised here.
func runCodex(t *testing.T, s *scratch, codex, thread, prompt string) codexRun {
	t.Helper()
	return runCodexTrust(t, s, codex, true, thread, prompt)
}

// runCodexTrust is runCodex, without --dangerously-bypass-hook-trust unless
// bypass is set: Codex then runs only the hooks trusted in config.toml.
// extra are more flags of codex exec's.
func runCodexTrust(t *testing.T, s *scratch, codex string, bypass bool, thread, prompt string, extra ...string) codexRun {
	t.Helper()
	args := append([]string{"exec", "--json"}, extra...)
	if bypass {
		args = append(args, "--dangerously-bypass-hook-trust")
	}
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

// codexHook is one hook as Codex's app server lists it (hooks/list), the
// list its /hooks view shows.
type codexHook struct {
	Key         string `json:"key"`
	Command     string `json:"command"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// codexHooks asks `codex app-server` (JSON-RPC over standard input and
// output) for the hooks Codex finds in the scratch repository.
func codexHooks(t *testing.T, s *scratch, codex string) []codexHook {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Dir = s.repo
	cmd.Env = append(append([]string(nil), s.env...), codexEnv(s)...)
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("codex app-server: %v", err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	list, _ := json.Marshal(map[string]any{"method": "hooks/list", "id": 2, "params": map[string]any{"cwds": []string{s.repo}}})
	for _, msg := range []string{
		`{"method":"initialize","id":1,"params":{"clientInfo":{"name":"baton-e2e","version":"0"}}}`,
		`{"method":"initialized"}`,
		string(list),
	} {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatalf("codex app-server: %v", err)
		}
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []codexHook `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &resp) != nil || resp.ID != 2 {
			continue
		}
		if resp.Error != nil {
			t.Fatalf("codex app-server hooks/list: %s", resp.Error)
		}
		var hooks []codexHook
		for _, d := range resp.Result.Data {
			hooks = append(hooks, d.Hooks...)
		}
		return hooks
	}
	t.Fatalf("codex app-server gave no answer to hooks/list (%v)", sc.Err())
	return nil
}

// trustCodexHooks trusts every hook Codex lists, as its /hooks view does:
// each hook's current hash recorded in config.toml under its key.
func trustCodexHooks(t *testing.T, s *scratch, codex string) {
	t.Helper()
	var b strings.Builder
	for _, h := range codexHooks(t, s, codex) {
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.CurrentHash)
	}
	f, err := os.OpenFile(filepath.Join(s.home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
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

		checkBlockedUntilFixed(t, m, run.result)
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

	t.Run("SpecrewCrossingNeedsItsMarker", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s)
		specrewProject(t, s, true)
		m := newModelMock(t, markerless, marked)
		writeCodexConfig(t, s, m)
		run := runCodex(t, s, codex, "", "Finish clarify.")
		checkCrossing(t, m, run.result)
		checkAudit(t, s, run.rollout, auditCounts{Stops: 2, HookBlocked: 1})
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

		checkLoopReleased(t, m, run.result)
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
		specrewProject(t, s, false)
		replies := shortReplies()
		n := len(replies)
		m := newModelMock(t, replies...)
		writeCodexConfig(t, s, m)
		var run codexRun
		shortTurns(t, m, replies, func(i int, prompt string) (string, time.Duration) {
			run = runCodex(t, s, codex, run.thread, prompt)
			return run.result, run.took
		})
		cr := readCodexRollout(t, run.rollout)
		if len(cr.assistant) != n || len(cr.hookPrompts) != 0 {
			t.Errorf("rollout: %d assistant messages, %d hook prompts; want %d, none", len(cr.assistant), len(cr.hookPrompts), n)
		}
		checkAudit(t, s, run.rollout, auditCounts{Stops: n})
	})

	// Without --dangerously-bypass-hook-trust, Codex runs a hook only once
	// it is trusted by its hash: baton hook status must say so before and
	// after, and the hook trusted as /hooks trusts it must block.
	t.Run("TrustedHookBlocksAndStatusTellsTheTruth", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s)
		m := newModelMock(t, badPacket(t), fixedPacket, badPacket(t))
		writeCodexConfig(t, s, m)
		if st := hookStatus(t, s, "codex"); st.Trust.Runs || st.Trust.State != "untrusted" {
			t.Errorf("before trusting: baton hook status says %+v, want an untrusted hook that does not run", st)
		}
		trustCodexHooks(t, s, codex)
		hooks := codexHooks(t, s, codex)
		if len(hooks) == 0 {
			t.Fatal("codex app-server lists no hooks in the scratch repository")
		}
		for _, h := range hooks {
			if h.TrustStatus != "trusted" {
				t.Errorf("Codex says hook %s (%s) is %s after trusting it", h.Key, h.Command, h.TrustStatus)
			}
		}
		if st := hookStatus(t, s, "codex"); !st.Trust.Runs || st.Trust.State != "trusted" || st.Posture != "hard" {
			t.Errorf("after trusting: baton hook status says %+v, want a trusted hook that runs, hard", st)
		}
		run := runCodexTrust(t, s, codex, false, "", packetPrompt)
		t.Logf("codex exec took %v", run.took.Round(time.Millisecond))
		turns := m.Turns()
		if len(turns) != 2 || !turnHas(turns[1], blockReason) {
			t.Errorf("the model was asked %d times, want 2 with the hook's reason in the second: the trusted hook did not block", len(turns))
		}
		if strings.TrimSpace(run.result) != strings.TrimSpace(fixedPacket) {
			t.Errorf("codex ended the turn with %q, want the fixed packet", run.result)
		}

		// A command edited after it was trusted is "modified": Codex skips
		// it without a word, and status must say it does not run.
		path := filepath.Join(s.repo, ".codex", "hooks.json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(b), "baton hook codex-stop", "baton hook codex-stop --max-blocks 2", 1)
		if edited == string(b) {
			t.Fatalf("%s runs no baton hook codex-stop:\n%s", path, b)
		}
		if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, h := range codexHooks(t, s, codex) {
			if strings.Contains(h.Command, "codex-stop") && h.TrustStatus != "modified" {
				t.Errorf("Codex says the edited hook is %s, want modified", h.TrustStatus)
			}
		}
		if st := hookStatus(t, s, "codex"); st.Trust.Runs || st.Trust.State != "modified" {
			t.Errorf("after editing: baton hook status says %+v, want a modified hook that does not run", st)
		}
		run = runCodexTrust(t, s, codex, false, "", packetPrompt)
		if n := len(m.Turns()); n != 3 || strings.TrimSpace(run.result) != strings.TrimSpace(badPacket(t)) {
			t.Errorf("with the hook modified: %d model requests in all and the turn ended with %q; want 3, the bad packet let through", n, run.result)
		}
	})

	t.Run("RequirePacketAfterMaterialWork", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCodex(t, s, "--require-packet")
		notes := filepath.Join(s.repo, "notes.md")
		input, _ := json.Marshal(map[string]string{"cmd": "printf 'Notes on the migration.\\n' > notes.md"})
		done := "Done: I wrote notes.md."
		m := newModelMock(t, toolCall("exec_command", string(input)), done, fixedPacket)
		writeCodexConfig(t, s, m)
		// The scratch repository is the sandbox: Codex's own (bubblewrap)
		// is not needed to write notes.md there.
		run := runCodexTrust(t, s, codex, true, "", packetPrompt, "--dangerously-bypass-approvals-and-sandbox")
		t.Logf("codex exec took %v", run.took.Round(time.Millisecond))
		if b, err := os.ReadFile(notes); err != nil || string(b) != "Notes on the migration.\n" {
			t.Errorf("the command did not write notes.md (%v): %q", err, b)
		}
		// The command, the plain "Done" blocked for the missing packet,
		// then the packet.
		checkPacketRequired(t, m, run.result)
		if !strings.Contains(string(m.Turns()[1].Body), "function_call_output") {
			t.Errorf("the request after the command does not hold its output")
		}
		cr := readCodexRollout(t, run.rollout)
		if len(cr.hookPrompts) != 1 || !strings.Contains(cr.hookPrompts[0], "material work") {
			t.Errorf("rollout: hook prompts %q, want one for material work", cr.hookPrompts)
		}
		// The audit does not replay material work (the rollout does not
		// hold the work tree): it counts the hook's block.
		checkAudit(t, s, run.rollout, auditCounts{Stops: 2, HookBlocked: 1})
	})
}
