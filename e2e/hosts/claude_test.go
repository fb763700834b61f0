package hosts

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeEnv is what Claude Code needs to run headless against the mock:
// the model's address and a key it does not check, and nothing sent
// anywhere else. The proxy catches any request that would still leave the
// machine (the mock's loopback address bypasses it).
func claudeEnv(m *modelMock) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + m.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-key",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"HTTPS_PROXY=http://127.0.0.1:9",
		"HTTP_PROXY=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost",
	}
}

// newUUID returns a random (version 4) UUID: a session ID for
// `claude --session-id`.
func newUUID(t *testing.T) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// claudeRun is one headless `claude -p` in the scratch repository.
type claudeRun struct {
	transcript string
	result     string // the final message claude printed
	took       time.Duration
}

// runClaude runs one headless prompt in the scratch repository, in a new
// session or, with resume set, in that session again; extra are more
// flags of claude's.
func runClaude(t *testing.T, s *scratch, claude string, m *modelMock, session string, resume bool, prompt string, extra ...string) claudeRun {
	t.Helper()
	args := append([]string{"-p", prompt, "--output-format", "json"}, extra...)
	if resume {
		args = append(args, "--resume", session)
	} else {
		args = append(args, "--session-id", session)
	}
	start := time.Now()
	out, err := s.exec(s.repo, claudeEnv(m), 3*time.Minute, claude, args...)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("claude -p: %v\n%s", err, out)
	}
	var res struct {
		Result  string `json:"result"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.IsError {
		t.Fatalf("claude -p printed no successful result (%v):\n%s", err, out)
	}
	matches, _ := filepath.Glob(filepath.Join(s.home, ".claude", "projects", "*", session+".jsonl"))
	if len(matches) != 1 {
		t.Fatalf("no transcript of session %s under %s/.claude/projects (found %v)", session, s.home, matches)
	}
	return claudeRun{transcript: matches[0], result: res.Result, took: took}
}

// installClaude runs `baton hook install --host claude --project` with
// flags in the scratch repository, as a person would: the hooks it writes
// are the ones the scenarios run, unedited.
func installClaude(t *testing.T, s *scratch, flags ...string) {
	t.Helper()
	s.run(t, s.repo, s.baton, append([]string{"hook", "install", "--host", "claude", "--project"}, flags...)...)
}

// claudeLine is the part of a Claude Code transcript line the test reads.
type claudeLine struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	IsMeta  bool   `json:"isMeta"`
	Message *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	HookInfos []struct {
		Command    string `json:"command"`
		DurationMs *int   `json:"durationMs"`
	} `json:"hookInfos"`
	HookErrors []string `json:"hookErrors"`
}

// claudeTranscript is what a session's transcript shows of its stops.
type claudeTranscript struct {
	assistant []string // each assistant message's text, in order
	feedback  []string // the hook's reasons, as Claude Code recorded them for the model
	stops     int      // Stop hook runs (stop_hook_summary lines)
	blocked   int      // of which blocked (with an error, the reason)
	hookMs    []int    // the durations Claude Code recorded for baton's Stop hook
}

func readClaudeTranscript(t *testing.T, path string) claudeTranscript {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ct claudeTranscript
	for n, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l claudeLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%s:%d: %v", path, n+1, err)
		}
		switch {
		case l.Type == "assistant" && l.Message != nil:
			if text := contentText(l.Message.Content); text != "" {
				ct.assistant = append(ct.assistant, text)
			}
		case l.Type == "user" && l.IsMeta && l.Message != nil:
			if text := contentText(l.Message.Content); strings.HasPrefix(text, "Stop hook feedback") {
				ct.feedback = append(ct.feedback, text)
			}
		case l.Type == "system" && l.Subtype == "stop_hook_summary":
			for _, h := range l.HookInfos {
				if strings.Contains(h.Command, "hook claude-stop") {
					ct.stops++
					if h.DurationMs != nil {
						ct.hookMs = append(ct.hookMs, *h.DurationMs)
					}
				}
			}
			if len(l.HookErrors) > 0 {
				ct.blocked++
			}
		}
	}
	return ct
}

func TestClaudeCode(t *testing.T) {
	claude := hostBinary(t, "claude", "claude")
	baton := batonBinary(t)

	t.Run("BadPacketBlockedUntilFixed", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installClaude(t, s)
		// Claude Code asks no trust of a settings file's hooks: status
		// must say the hook is in and hard.
		if st := hookStatus(t, s, "claude"); st.Installed != "installed" || st.Posture != "hard" || st.Trust.State != "" {
			t.Errorf("baton hook status says %+v, want installed, hard, no trust needed", st)
		}
		m := newModelMock(t, badPacket(t), fixedPacket)
		run := runClaude(t, s, claude, m, newUUID(t), false, packetPrompt)
		t.Logf("claude -p took %v", run.took.Round(time.Millisecond))

		checkBlockedUntilFixed(t, m, run.result)

		ct := readClaudeTranscript(t, run.transcript)
		t.Logf("Stop hook durations recorded by Claude Code: %v ms", ct.hookMs)
		if ct.stops != 2 || ct.blocked != 1 {
			t.Errorf("transcript: %d stops, %d blocked; want 2 stops, 1 blocked", ct.stops, ct.blocked)
		}
		if len(ct.feedback) != 1 || !strings.Contains(ct.feedback[0], "packet/review-auto-continue") {
			t.Errorf("transcript: stop hook feedback %q, want one naming packet/review-auto-continue", ct.feedback)
		}
		if n := len(ct.assistant); n != 2 || strings.TrimSpace(ct.assistant[n-1]) != strings.TrimSpace(fixedPacket) {
			t.Errorf("transcript: %d assistant messages, want 2 ending with the fixed packet", n)
		}
		checkAudit(t, s, run.transcript, auditCounts{Stops: 2, Blocked: 1, HookBlocked: 1})
	})

	t.Run("SpecrewCrossingNeedsItsMarker", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installClaude(t, s)
		specrewProject(t, s, true)
		m := newModelMock(t, markerless, marked)
		run := runClaude(t, s, claude, m, newUUID(t), false, "Finish clarify.")
		checkCrossing(t, m, run.result)
		checkAudit(t, s, run.transcript, auditCounts{Stops: 2, HookBlocked: 1})
	})

	t.Run("ConversationNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installClaude(t, s)
		replies := []string{
			"The README has one heading, `# scratch`, and nothing else.",
			"Yes: it is the only Markdown file in the repository.",
			"You're welcome. Ask again whenever you like.",
		}
		m := newModelMock(t, replies...)
		session := newUUID(t)
		var run claudeRun
		for i, prompt := range []string{"What is in the README?", "Is it the only Markdown file?", "Thanks!"} {
			run = runClaude(t, s, claude, m, session, i > 0, prompt)
			t.Logf("claude -p (turn %d) took %v", i+1, run.took.Round(time.Millisecond))
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
		ct := readClaudeTranscript(t, run.transcript)
		t.Logf("Stop hook durations recorded by Claude Code: %v ms", ct.hookMs)
		if ct.stops != len(replies) || ct.blocked != 0 || len(ct.feedback) != 0 {
			t.Errorf("transcript: %d stops, %d blocked, feedback %q; want %d stops, none blocked", ct.stops, ct.blocked, ct.feedback, len(replies))
		}
		checkAudit(t, s, run.transcript, auditCounts{Stops: len(replies)})
	})

	t.Run("LoopBoundReleases", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installClaude(t, s)
		bad := badPacket(t)
		m := newModelMock(t, bad)
		m.RepeatLast() // a model that never fixes its packet
		run := runClaude(t, s, claude, m, newUUID(t), false, packetPrompt)
		t.Logf("claude -p took %v", run.took.Round(time.Millisecond))

		checkLoopReleased(t, m, run.result)
		ct := readClaudeTranscript(t, run.transcript)
		t.Logf("Stop hook durations recorded by Claude Code: %v ms", ct.hookMs)
		if ct.stops != 4 || ct.blocked != 3 || len(ct.feedback) != 3 {
			t.Errorf("transcript: %d stops, %d blocked, %d feedback; want 4 stops, 3 blocked", ct.stops, ct.blocked, len(ct.feedback))
		}
		checkAudit(t, s, run.transcript, auditCounts{Stops: 4, Blocked: 4, HookBlocked: 3})
	})

	t.Run("RequirePacketAfterMaterialWork", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installClaude(t, s, "--require-packet")
		notes := filepath.Join(s.repo, "notes.md")
		input, _ := json.Marshal(map[string]string{"file_path": notes, "content": "Notes on the migration.\n"})
		done := "Done: I wrote notes.md."
		m := newModelMock(t, toolCall("Write", string(input)), done, fixedPacket)
		// acceptEdits lets the Write tool write in the repository without
		// asking.
		run := runClaude(t, s, claude, m, newUUID(t), false, packetPrompt, "--permission-mode", "acceptEdits")
		t.Logf("claude -p took %v", run.took.Round(time.Millisecond))
		if b, err := os.ReadFile(notes); err != nil || string(b) != "Notes on the migration.\n" {
			t.Errorf("the Write tool did not write notes.md (%v): %q", err, b)
		}
		// The tool call, the plain "Done" blocked for the missing packet,
		// then the packet.
		checkPacketRequired(t, m, run.result)
		if !turnHas(m.Turns()[1], "notes.md") {
			t.Errorf("the request after the tool call does not hold its result")
		}
		ct := readClaudeTranscript(t, run.transcript)
		t.Logf("Stop hook durations recorded by Claude Code: %v ms", ct.hookMs)
		if ct.stops != 2 || ct.blocked != 1 || len(ct.feedback) != 1 || !strings.Contains(ct.feedback[0], "material work") {
			t.Errorf("transcript: %d stops, %d blocked, feedback %q; want 2 stops, 1 blocked for material work", ct.stops, ct.blocked, ct.feedback)
		}
		// The audit does not replay material work (the transcript does not
		// hold the work tree): it counts the hook's block.
		checkAudit(t, s, run.transcript, auditCounts{Stops: 2, HookBlocked: 1})
	})

	// specrew's long-investigation rule (15 or more responses since the
	// person's last message) must count the person's turns in the real
	// transcript: twenty short exchanges in one session are conversation.
	t.Run("ManyShortTurnsNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installClaude(t, s, "--require-packet")
		specrewProject(t, s, false)
		replies := shortReplies()
		n := len(replies)
		m := newModelMock(t, replies...)
		session := newUUID(t)
		var run claudeRun
		shortTurns(t, m, replies, func(i int, prompt string) (string, time.Duration) {
			run = runClaude(t, s, claude, m, session, i > 0, prompt)
			return run.result, run.took
		})
		ct := readClaudeTranscript(t, run.transcript)
		t.Logf("Stop hook durations recorded by Claude Code: %v ms", ct.hookMs)
		if ct.stops != n || ct.blocked != 0 {
			t.Errorf("transcript: %d stops, %d blocked, feedback %q; want %d stops, none blocked", ct.stops, ct.blocked, ct.feedback, n)
		}
		checkAudit(t, s, run.transcript, auditCounts{Stops: n})
	})
}
