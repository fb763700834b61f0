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
func runGemini(t *testing.T, s *scratch, gemini string, m *modelMock, prompt string) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	var stdout, stderr bytes.Buffer
	err := s.execTo(&stdout, &stderr, s.repo, geminiEnv(m), 3*time.Minute, gemini, "-p", prompt, "--output-format", "json")
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
		if !strings.Contains(got, "Reply \"delete\" to remove the JSON files") {
			t.Errorf("gemini ended the turn with %q, want the fixed packet", got)
		}
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
		turns := m.Turns()
		if len(turns) != 4 {
			t.Errorf("the model was asked %d times, want 4 (three denials, then released)", len(turns))
		}
		for i, r := range turns[1:] {
			if !turnHas(r, blockReason) {
				t.Errorf("request %d does not hold the hook's reason", i+2)
			}
		}
		if !strings.Contains(got, "I'll proceed with deleting them tonight") {
			t.Errorf("gemini ended the turn with %q, want the bad packet, released", got)
		}
	})
}
