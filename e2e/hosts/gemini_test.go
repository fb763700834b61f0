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

// geminiEnv is what Gemini CLI needs to run headless against the mock: the
// model's address and a key it does not check, the scratch repository
// trusted for this run, and nothing sent anywhere else.
func geminiEnv(m *modelMock) []string {
	return []string{
		"GOOGLE_GEMINI_BASE_URL=" + m.URL(),
		"GEMINI_API_KEY=not-a-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"HTTPS_PROXY=http://127.0.0.1:9",
		"HTTP_PROXY=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost",
	}
}

// writeGeminiSettings chooses the API key as the way to the model and
// turns telemetry, usage statistics and updates off.
func writeGeminiSettings(t *testing.T, s *scratch) {
	t.Helper()
	dir := filepath.Join(s.home, ".gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "telemetry": {"enabled": false},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
}
`
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
}

// geminiBinary is the wrapper e2e/setup-hosts.sh writes, running Gemini CLI
// with a node recent enough.
func geminiBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(cacheDir(t), "gemini", "bin", "gemini")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("gemini is not installed (%v): run e2e/setup-hosts.sh", err)
	}
	return p
}

// runGemini runs one headless prompt in the scratch repository and returns
// the response gemini printed.
// Flags are added to the command line (--resume latest, --approval-mode).
func runGemini(t *testing.T, s *scratch, gemini string, m *modelMock, prompt string, flags ...string) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	var stdout, stderr bytes.Buffer
	err := s.execTo(&stdout, &stderr, s.repo, geminiEnv(m), 3*time.Minute, gemini, append([]string{"-p", prompt, "--output-format", "json"}, flags...)...)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("gemini -p: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	var res struct {
		Response string `json:"response"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("gemini -p printed no JSON result (%v):\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	return res.Response, took
}

// TestGeminiCLI runs the stop contract's scenarios in Gemini CLI. Its
// prompt_response is no faithful copy of the response (chunks joined by a
// space, the last one sometimes twice), so BadPacketBlockedUntilFixed is
// also the proof that gemini-stop judges the chat file's text.
func TestGeminiCLI(t *testing.T) {
	gemini := geminiBinary(t)
	baton := batonBinary(t)

	t.Run("BadPacketBlockedUntilFixed", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project")
		writeGeminiSettings(t, s)
		m := newModelMock(t, badPacket(t), fixedPacket)
		got, took := runGemini(t, s, gemini, m, packetPrompt)
		t.Logf("gemini -p took %v", took.Round(time.Millisecond))
		checkBlockedUntilFixed(t, m, got)
		checkAudit(t, s, filepath.Join(s.home, ".gemini", "tmp"), auditCounts{Stops: 2, Blocked: 1, HookBlocked: 1})
	})

	t.Run("SpecrewCrossingNeedsItsMarker", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project")
		writeGeminiSettings(t, s)
		specrewProject(t, s, true)
		m := newModelMock(t, markerless, marked)
		got, _ := runGemini(t, s, gemini, m, "Finish clarify.")
		checkCrossing(t, m, got)
		checkAudit(t, s, filepath.Join(s.home, ".gemini", "tmp"), auditCounts{Stops: 2, HookBlocked: 1})
	})

	t.Run("ConversationNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project")
		writeGeminiSettings(t, s)
		reply := "The README has one heading, `# scratch`, and nothing else."
		m := newModelMock(t, reply)
		got, took := runGemini(t, s, gemini, m, "What is in the README?")
		t.Logf("gemini -p took %v", took.Round(time.Millisecond))
		if strings.TrimSpace(got) != reply {
			t.Errorf("gemini ended the turn with %q, want %q", got, reply)
		}
		turns := m.Turns()
		if len(turns) != 1 {
			t.Errorf("the model was asked %d times, want 1 (nothing blocked)", len(turns))
		}
	})

	t.Run("LoopBoundReleases", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project")
		writeGeminiSettings(t, s)
		bad := badPacket(t)
		m := newModelMock(t, bad)
		m.RepeatLast() // a model that never fixes its packet
		got, took := runGemini(t, s, gemini, m, packetPrompt)
		t.Logf("gemini -p took %v", took.Round(time.Millisecond))
		checkLoopReleased(t, m, got)
		checkAudit(t, s, filepath.Join(s.home, ".gemini", "tmp"), auditCounts{Stops: 4, Blocked: 4, HookBlocked: 3})
	})

	t.Run("RequirePacketAfterMaterialWork", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project", "--require-packet")
		writeGeminiSettings(t, s)
		notes := filepath.Join(s.repo, "notes.md")
		input, _ := json.Marshal(map[string]string{"file_path": notes, "content": "Notes on the migration.\n"})
		m := newModelMock(t, toolCall("write_file", string(input)), "Done: I wrote notes.md.", fixedPacket)
		got, took := runGemini(t, s, gemini, m, packetPrompt, "--approval-mode", "yolo")
		t.Logf("gemini -p took %v", took.Round(time.Millisecond))
		if b, err := os.ReadFile(notes); err != nil || string(b) != "Notes on the migration.\n" {
			t.Errorf("write_file did not write notes.md (%v): %q", err, b)
		}
		checkPacketRequired(t, m, got)
	})

	// Twenty short exchanges in one session (--resume latest), in a specrew
	// project that also demands packets after material work: conversation.
	t.Run("ManyShortTurnsNeverBlocked", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project", "--require-packet")
		writeGeminiSettings(t, s)
		specrewProject(t, s, false)
		replies := shortReplies()
		m := newModelMock(t, replies...)
		shortTurns(t, m, replies, func(i int, prompt string) (string, time.Duration) {
			if i > 0 {
				return runGemini(t, s, gemini, m, prompt, "--resume", "latest")
			}
			return runGemini(t, s, gemini, m, prompt)
		})
		// Gemini CLI may start a second chat file for a resumed session: the
		// audit reads the session's folder.
		checkAudit(t, s, filepath.Join(s.home, ".gemini", "tmp"), auditCounts{Stops: len(replies)})
	})

	// Without GEMINI_CLI_TRUST_WORKSPACE, Gemini CLI runs the folder's hooks
	// only once the folder is trusted in ~/.gemini/trustedFolders.json:
	// hook status must say so before and after, and the trusted folder's
	// hook must block.
	t.Run("TrustedFolderBlocksAndStatusTellsTheTruth", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t, baton)
		s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project")
		writeGeminiSettings(t, s)
		if st := hookStatus(t, s, "gemini"); st.Installed != "installed" || st.Trust.Runs || st.Trust.State == "trusted" {
			t.Errorf("before the folder is trusted, hook status says %+v", st)
		}
		b, _ := json.Marshal(map[string]string{s.repo: "TRUST_FOLDER"})
		writeFile(t, filepath.Join(s.home, ".gemini", "trustedFolders.json"), string(b))
		if st := hookStatus(t, s, "gemini"); st.Installed != "installed" || st.Posture != "hard" || !st.Trust.Runs || st.Trust.State != "trusted" {
			t.Errorf("once the folder is trusted, hook status says %+v, want installed, hard, trusted", st)
		}
		m := newModelMock(t, badPacket(t), fixedPacket)
		var env []string
		for _, kv := range geminiEnv(m) {
			if !strings.HasPrefix(kv, "GEMINI_CLI_TRUST_WORKSPACE=") {
				env = append(env, kv)
			}
		}
		var stdout, stderr bytes.Buffer
		if err := s.execTo(&stdout, &stderr, s.repo, env, 3*time.Minute, gemini, "-p", packetPrompt, "--output-format", "json"); err != nil {
			t.Fatalf("gemini -p in the trusted folder: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
		}
		turns := m.Turns()
		if len(turns) != 2 || !turnHas(turns[1], "packet/review-auto-continue") {
			t.Errorf("the model was asked %d times, want 2 with the hook's reason: the trusted folder's hook did not block", len(turns))
		}
	})
}
