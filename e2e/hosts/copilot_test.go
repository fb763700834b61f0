package hosts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copilotEnv is what Copilot CLI needs to run headless against the mock:
// the mock as its own model provider (BYOK, Chat Completions), offline (no
// GitHub sign-in, telemetry or update), and nothing sent anywhere else.
func copilotEnv(m *modelMock) []string {
	return []string{
		"COPILOT_PROVIDER_BASE_URL=" + m.URL() + "/v1",
		"COPILOT_PROVIDER_API_KEY=not-a-key",
		"COPILOT_MODEL=gpt-4.1",
		"COPILOT_OFFLINE=true",
		"COPILOT_AUTO_UPDATE=false",
		"NO_COLOR=1",
		"HTTPS_PROXY=http://127.0.0.1:9",
		"HTTP_PROXY=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost",
	}
}

// trustCopilotFolder trusts the scratch repository as Copilot CLI's own
// prompt does, in ~/.copilot/config.json: until then it skips the
// repository's hooks, and says nothing.
func trustCopilotFolder(t *testing.T, s *scratch) {
	t.Helper()
	dir := filepath.Join(s.home, ".copilot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"trustedFolders": []string{s.repo}})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// installCopilot installs baton's hooks in the scratch repository, trusts
// it, and checks that hook status says the hook is in, hard and trusted.
func installCopilot(t *testing.T, s *scratch, flags ...string) {
	t.Helper()
	s.run(t, s.repo, s.baton, append([]string{"hook", "install", "--host", "copilot", "--project"}, flags...)...)
	if st := hookStatus(t, s, "copilot"); st.Trust.State == "trusted" {
		t.Errorf("hook status says a folder nobody trusted is trusted: %+v", st)
	}
	trustCopilotFolder(t, s)
	if st := hookStatus(t, s, "copilot"); st.Installed != "installed" || st.Posture != "hard" || st.Trust.State != "trusted" {
		t.Errorf("baton hook status says %+v, want installed, hard, trusted", st)
	}
}

// copilotRun is one headless prompt's outcome: what copilot printed and
// where it recorded the session.
type copilotRun struct {
	result string
	events string // the session's events.jsonl
	took   time.Duration
}

// runCopilot runs one headless prompt in the scratch repository.
// With a session id, the session is that one (new, or resumed).
func runCopilot(t *testing.T, s *scratch, copilot string, m *modelMock, prompt string, session ...string) copilotRun {
	t.Helper()
	start := time.Now()
	var stdout, stderr bytes.Buffer
	args := []string{"-p", prompt, "--allow-all-tools", "--silent"}
	if len(session) > 0 {
		args = append(args, "--session-id", session[0])
	}
	err := s.execTo(&stdout, &stderr, s.repo, copilotEnv(m), 3*time.Minute, copilot, args...)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("copilot -p: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	// The session's events: the file written last.
	events, _ := filepath.Glob(filepath.Join(s.home, ".copilot", "session-state", "*", "events.jsonl"))
	run := copilotRun{result: stdout.String(), took: took}
	var newest time.Time
	for _, e := range events {
		if fi, err := os.Stat(e); err == nil && fi.ModTime().After(newest) {
			run.events, newest = e, fi.ModTime()
		}
	}
	if run.events == "" {
		t.Errorf("copilot wrote no session events file")
	}
	if stderr.Len() > 0 {
		t.Logf("copilot stderr:\n%s", stderr.Bytes())
	}
	return run
}

func TestCopilotCLI(t *testing.T) {
	copilot := filepath.Join(cacheDir(t), "copilot", "bin", "copilot")
	if _, err := os.Stat(copilot); err != nil {
		t.Skipf("copilot is not installed (%v): run e2e/setup-hosts.sh", err)
	}
	baton := batonBinary(t)

	t.Run("ConversationNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCopilot(t, s)
		reply := "The README has one heading, `# scratch`, and nothing else."
		m := newModelMock(t, reply)
		run := runCopilot(t, s, copilot, m, "What is in the README?")
		t.Logf("copilot -p took %v", run.took.Round(time.Millisecond))
		if strings.TrimSpace(run.result) != reply {
			t.Errorf("copilot ended the turn with %q, want %q", run.result, reply)
		}
		if n := len(m.Turns()); n != 1 {
			t.Errorf("the model was asked %d times, want 1 (nothing blocked)", n)
		}
	})

	t.Run("SpecrewCrossingNeedsItsMarker", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCopilot(t, s)
		specrewProject(t, s, true)
		m := newModelMock(t, markerless, marked)
		run := runCopilot(t, s, copilot, m, "Finish clarify.")
		checkCrossing(t, m, run.result)
		checkAudit(t, s, run.events, auditCounts{Stops: 2, HookBlocked: 1})
	})

	t.Run("BadPacketBlockedUntilFixed", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCopilot(t, s)
		m := newModelMock(t, badPacket(t), fixedPacket)
		run := runCopilot(t, s, copilot, m, packetPrompt)
		t.Logf("copilot -p took %v", run.took.Round(time.Millisecond))
		checkBlockedUntilFixed(t, m, run.result)
		checkAudit(t, s, run.events, auditCounts{Stops: 2, Blocked: 1, HookBlocked: 1})
	})

	t.Run("LoopBoundReleases", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCopilot(t, s)
		bad := badPacket(t)
		m := newModelMock(t, bad)
		m.RepeatLast() // a model that never fixes its packet
		run := runCopilot(t, s, copilot, m, packetPrompt)
		t.Logf("copilot -p took %v", run.took.Round(time.Millisecond))
		checkLoopReleased(t, m, run.result)
		checkAudit(t, s, run.events, auditCounts{Stops: 4, Blocked: 4, HookBlocked: 3})
	})

	t.Run("RequirePacketAfterMaterialWork", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCopilot(t, s, "--require-packet")
		notes := filepath.Join(s.repo, "notes.md")
		input, _ := json.Marshal(map[string]string{"path": notes, "file_text": "Notes on the migration.\n"})
		done := "Done: I wrote notes.md."
		m := newModelMock(t, toolCall("create", string(input)), done, fixedPacket)
		run := runCopilot(t, s, copilot, m, packetPrompt)
		t.Logf("copilot -p took %v", run.took.Round(time.Millisecond))
		if b, err := os.ReadFile(notes); err != nil || string(b) != "Notes on the migration.\n" {
			t.Errorf("the create tool did not write notes.md (%v): %q", err, b)
		}
		checkPacketRequired(t, m, run.result)
		checkAudit(t, s, run.events, auditCounts{Stops: 2, HookBlocked: 1})
	})

	// Twenty short exchanges in one session, resumed each time, in a
	// project that demands packets after material work: conversation.
	t.Run("ManyShortTurnsNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		installCopilot(t, s, "--require-packet")
		specrewProject(t, s, false)
		replies := shortReplies()
		m := newModelMock(t, replies...)
		session := newUUID(t)
		var run copilotRun
		shortTurns(t, m, replies, func(_ int, prompt string) (string, time.Duration) {
			run = runCopilot(t, s, copilot, m, prompt, session)
			return run.result, run.took
		})
		checkAudit(t, s, run.events, auditCounts{Stops: len(replies)})
	})

	// Copilot CLI also runs the hooks of .claude/settings.json, with a
	// Claude Code input naming its own events file: a Claude Code install
	// alone enforces the contract in Copilot CLI too.
	t.Run("ClaudeInstallEnforcedInCopilot", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "claude", "--project")
		trustCopilotFolder(t, s)
		m := newModelMock(t, badPacket(t), fixedPacket)
		run := runCopilot(t, s, copilot, m, packetPrompt)
		turns := m.Turns()
		if len(turns) != 2 {
			t.Fatalf("the model was asked %d times, want 2 (the bad packet, then the fixed one)", len(turns))
		}
		if !turnHas(turns[1], "packet/review-auto-continue") {
			t.Errorf("the request after the block does not hold the hook's reason")
		}
		if !strings.Contains(run.result, strings.TrimSpace(fixedPacket)) {
			t.Errorf("copilot ended the turn with %q, want the fixed packet", run.result)
		}
	})
}
