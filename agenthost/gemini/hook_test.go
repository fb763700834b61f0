package gemini_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/gemini"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
)

// stopCase is Gemini CLI's stop hook contract: docs/hooks/reference.md in
// google-gemini/gemini-cli (base input fields; AfterAgent: prompt,
// prompt_response, stop_hook_active; output decision "deny" with reason). The input builder writes what the host sends;
// the checker accepts exactly what the host's documentation allows, and
// nothing else.
var stopCase = hooktest.Case{
	Host: gemini.Host, PayloadMessage: true,
	Input: func(cwd, session, msg, path string, active bool) []byte {
		return hooktest.JSON(map[string]any{"session_id": session, "transcript_path": path, "cwd": cwd, "hook_event_name": "AfterAgent", "timestamp": "2026-11-30T10:00:00Z", "prompt": "Add the cap.", "prompt_response": msg, "stop_hook_active": active})
	},
	Transcript: func(msg string) string {
		return string(hooktest.JSON(map[string]any{"sessionId": "g1", "projectHash": "abc", "startTime": "2026-11-30T10:00:00Z", "lastUpdated": "2026-11-30T10:01:00Z", "messages": []any{
			map[string]any{"id": "1", "timestamp": "2026-11-30T10:00:00Z", "type": "user", "content": "Add the cap."},
			map[string]any{"id": "2", "timestamp": "2026-11-30T10:00:30Z", "type": "gemini", "content": msg},
		}}))
	},
	Check: func(t testing.TB, out []byte) string {
		var r struct {
			Decision           *string        `json:"decision"`
			Reason             *string        `json:"reason"`
			Continue           *bool          `json:"continue"`
			StopReason         *string        `json:"stopReason"`
			SuppressOutput     *bool          `json:"suppressOutput"`
			SystemMessage      *string        `json:"systemMessage"`
			HookSpecificOutput map[string]any `json:"hookSpecificOutput"`
		}
		// Silence is mandatory but for the JSON: stdout is one object.
		hooktest.Strict(t, out, &r)
		if r.Decision == nil {
			return ""
		}
		if *r.Decision != "deny" || r.Reason == nil || *r.Reason == "" {
			t.Fatalf("Gemini CLI reply %q: decision must be \"deny\" with a reason", out)
		}
		return *r.Reason
	},
}

// The host's stop and prompt hooks keep the contract every host's keeps
// (hooktest.Contract).
func TestHookContract(t *testing.T) { hooktest.Contract(t, stopCase) }

// The shapes below are what Gemini CLI 0.61.0 (@google/gemini-cli) sends
// and writes, as its package shows them.

// geminiChat is a Gemini CLI 0.61 chat file (JSON lines): the session's
// record, then each message as it is recorded (a gemini message again
// when it is updated), and {"$set": …} updates.
func geminiChat(msgs ...[2]string) string {
	lines := []any{map[string]any{"sessionId": "g1", "projectHash": "9f2c", "startTime": "2026-11-30T10:00:00.000Z", "lastUpdated": "2026-11-30T10:00:00.000Z"}}
	for i, m := range msgs {
		at := fmt.Sprintf("2026-11-30T10:00:%02d.000Z", i+1)
		if m[0] == "user" {
			lines = append(lines, map[string]any{"id": fmt.Sprintf("u%d", i), "timestamp": at, "type": "user", "content": []any{map[string]any{"text": m[1]}}})
		} else {
			rec := map[string]any{"id": fmt.Sprintf("g%d", i), "timestamp": at, "type": "gemini", "content": m[1], "thoughts": []any{}, "tokens": nil, "model": "gemini-2.5-flash"}
			lines = append(lines, rec)
			rec["tokens"] = map[string]any{"input": 10, "output": 20, "cached": 0, "thoughts": 0, "tool": 0, "total": 30}
			lines = append(lines, rec)
		}
		lines = append(lines, map[string]any{"$set": map[string]any{"lastUpdated": at}})
	}
	return hooktest.JSONL(lines...)
}

// geminiAfterAgent is Gemini CLI's AfterAgent input.
func geminiAfterAgent(cwd, session, path, prompt, response string, active bool) []byte {
	return hooktest.JSON(map[string]any{"session_id": session, "transcript_path": path, "cwd": cwd, "hook_event_name": "AfterAgent", "timestamp": "2026-11-30T10:00:40.000Z", "prompt": prompt, "prompt_response": response, "stop_hook_active": active})
}

// After a deny, Gemini CLI's prompt_response holds the denied response
// and the retry's, joined by a newline: gemini-stop judges the retry's
// alone, from the chat file (which holds it when AfterAgent runs), so the
// fixed packet ends the turn.
func TestGeminiStopJudgesTheLastResponse(t *testing.T) {
	cwd, state := t.TempDir(), t.TempDir()
	path := filepath.Join(t.TempDir(), "session-2026-11-30T10-00-g1.jsonl")
	os.WriteFile(path, []byte(geminiChat([2]string{"user", "Add the cap."}, [2]string{"gemini", hooktest.ProceedMsg})), 0o644)
	out, errb := hooktest.Run(t, []string{"gemini-stop", "--lint", "--state-dir", state}, geminiAfterAgent(cwd, "g1", path, "Add the cap.", hooktest.ProceedMsg, false))
	reason := stopCase.Check(t, []byte(out))
	if reason == "" {
		t.Fatalf("the first response was not denied: %s", errb)
	}
	os.WriteFile(path, []byte(geminiChat([2]string{"user", "Add the cap."}, [2]string{"gemini", hooktest.ProceedMsg}, [2]string{"user", reason}, [2]string{"gemini", hooktest.ConsistentMsg})), 0o644)
	out, errb = hooktest.Run(t, []string{"gemini-stop", "--lint", "--state-dir", state}, geminiAfterAgent(cwd, "g1", path, "Add the cap.", hooktest.ProceedMsg+"\n"+hooktest.ConsistentMsg, true))
	if r := stopCase.Check(t, []byte(out)); r != "" {
		t.Fatalf("the fixed packet was denied: %q (%s)", r, errb)
	}
}

// Without a chat file to read (or one that does not hold the retry's
// response yet), gemini-stop splits prompt_response only where the
// session's last stop's text ends; with nothing to split at, it judges
// the whole text.
func TestGeminiStopSplitsOnlyAtTheLastStop(t *testing.T) {
	cwd, state := t.TempDir(), t.TempDir()
	gone := filepath.Join(t.TempDir(), "gone.jsonl")
	fire := func(session, path, response string, active bool) string {
		out, _ := hooktest.Run(t, []string{"gemini-stop", "--lint", "--state-dir", state}, geminiAfterAgent(cwd, session, path, "Add the cap.", response, active))
		return stopCase.Check(t, []byte(out))
	}
	if fire("s", gone, hooktest.ProceedMsg, false) == "" {
		t.Fatal("the first response was not denied")
	}
	if r := fire("s", gone, hooktest.ProceedMsg+"\n"+hooktest.ConsistentMsg, true); r != "" {
		t.Fatalf("the retry's fixed packet was denied: %q", r)
	}
	// A chat file that ends with the retry's prompt lags: the split.
	lag := filepath.Join(t.TempDir(), "lag.jsonl")
	os.WriteFile(lag, []byte(geminiChat([2]string{"user", "Add the cap."}, [2]string{"gemini", hooktest.ProceedMsg}, [2]string{"user", "Fix it."})), 0o644)
	if fire("l", lag, hooktest.ProceedMsg, false) == "" {
		t.Fatal("the first response was not denied")
	}
	if r := fire("l", lag, hooktest.ProceedMsg+"\n"+hooktest.ConsistentMsg, true); r != "" {
		t.Fatalf("the retry's fixed packet was denied: %q", r)
	}
	// No last stop known: nothing is guessed, the whole text is judged.
	if r := fire("n", gone, hooktest.ProceedMsg+"\n"+hooktest.ConsistentMsg, true); r == "" {
		t.Fatal("a text no stop of the session held was split")
	}
}

// geminiRecorded is a response as Gemini CLI's chat file records it: its
// HTML comments taken out, trimmed.
func geminiRecorded(text string) string {
	return strings.TrimSpace(regexp.MustCompile(`(?s)<!--.*?-->`).ReplaceAllString(text, ""))
}

// Gemini CLI's chat file drops a response's HTML comments, where specrew's
// verdict marker is: gemini-stop cuts the response from prompt_response,
// so the marked packet passes at a pending boundary, on a retry (after the
// last stop's text) and on a first stop after intermediate text (from
// where the chat file's response starts).
func TestGeminiStopKeepsTheVerdictMarker(t *testing.T) {
	p := hooktest.NewProject(t, "plan", "clarify", true)
	p.Evidence("plan", "clarify")
	packet := hooktest.BoundaryPacket("clarify", "plan")
	fire := func(state, response string, active bool, chat ...[2]string) (string, string) {
		path := filepath.Join(t.TempDir(), "session.jsonl")
		os.WriteFile(path, []byte(geminiChat(chat...)), 0o644)
		out, errb := hooktest.Run(t, []string{"gemini-stop", "--state-dir", state}, geminiAfterAgent(p.Root, "mk", path, "Go on.", response, active))
		return stopCase.Check(t, []byte(out)), errb
	}
	for _, c := range []struct {
		name  string
		state string // "" for a fresh state dir: no last stop known
	}{{"split after the last stop", t.TempDir()}, {"found from the chat file", ""}} {
		t.Run(c.name, func(t *testing.T) {
			state := c.state
			if state == "" {
				state = t.TempDir()
			}
			r, e := fire(state, "Plan written.", false, [2]string{"user", "Go on."}, [2]string{"gemini", "Plan written."})
			if !strings.Contains(r, hooktest.MarkerCP) {
				t.Fatalf("the markerless stop: reason %q, stderr %q", r, e)
			}
			if c.state == "" {
				state = t.TempDir()
			}
			if r, e := fire(state, "Plan written.\n"+packet, true, [2]string{"user", "Go on."}, [2]string{"gemini", "Plan written."}, [2]string{"user", r}, [2]string{"gemini", geminiRecorded(packet)}); r != "" {
				t.Fatalf("the marked packet on the retry: reason %q, stderr %q", r, e)
			}
		})
	}
	t.Run("a first stop after intermediate text", func(t *testing.T) {
		if r, e := fire(t.TempDir(), "Let me check the plan.\n"+packet, false, [2]string{"user", "Go on."}, [2]string{"gemini", "Let me check the plan."}, [2]string{"gemini", geminiRecorded(packet)}); r != "" {
			t.Fatalf("reason %q, stderr %q", r, e)
		}
	})
}

// A response whose streamed chunks prompt_response joined with a space
// is still found from the chat file. On a retry where prompt_response
// does not end with the chat file's response, and no last stop is known,
// the chat file's response is judged, and standard error says so.
func TestGeminiStopFindsTheChatFilesResponse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	os.WriteFile(path, []byte(geminiChat([2]string{"user", "Add the cap."}, [2]string{"gemini", hooktest.ProceedMsg}, [2]string{"user", "Fix it."}, [2]string{"gemini", hooktest.ConsistentMsg})), 0o644)
	fire := func(response string) (string, string) {
		out, errb := hooktest.Run(t, []string{"gemini-stop", "--lint", "--state-dir", t.TempDir()}, geminiAfterAgent(t.TempDir(), "fb", path, "Add the cap.", response, true))
		return stopCase.Check(t, []byte(out)), errb
	}
	streamed := strings.Replace(hooktest.ConsistentMsg, "## What I Just Did", "## What I Just  Did", 1)
	if r, e := fire(hooktest.ProceedMsg + "\n" + streamed); r != "" || e != "" {
		t.Fatalf("streamed chunks: reason %q, stderr %q", r, e)
	}
	r, e := fire(hooktest.ProceedMsg + "\nSomething the chat file does not hold.")
	if r != "" || !strings.Contains(e, "as the chat file holds it") {
		t.Fatalf("reason %q, stderr %q; want the chat file's response judged, and said", r, e)
	}
}

// Gemini CLI joins a response's streamed chunks with a space, and may hold
// a chunk twice (seen in 0.61.0 against a model streaming two chunks): a
// cut from prompt_response would judge "## What I Ne ed From You" or a
// section twice. gemini-stop judges the chat file's response then, with
// the HTML comments of prompt_response (specrew's verdict marker) put
// back at its end.
func TestGeminiStopJudgesTheChatFileWhenPromptResponseIsNotFaithful(t *testing.T) {
	halves := func(s string) (string, string) { return s[:len(s)/2], s[len(s)/2:] }
	t.Run("a space inside a heading", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "session.jsonl")
		os.WriteFile(path, []byte(geminiChat([2]string{"user", "Add the cap."}, [2]string{"gemini", hooktest.ConsistentMsg})), 0o644)
		split := strings.Replace(hooktest.ConsistentMsg, "## What I Need From You", "## What I Ne ed From You", 1)
		out, errb := hooktest.Run(t, []string{"gemini-stop", "--lint", "--state-dir", t.TempDir()}, geminiAfterAgent(t.TempDir(), "sp", path, "Add the cap.", split, false))
		if r := stopCase.Check(t, []byte(out)); r != "" {
			t.Fatalf("the packet was judged as prompt_response spelled it: %q", r)
		}
		if !strings.Contains(errb, "as the chat file holds it") {
			t.Errorf("stderr %q does not say which text was judged", errb)
		}
	})
	t.Run("a chunk twice, the marker put back", func(t *testing.T) {
		p := hooktest.NewProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		packet := hooktest.BoundaryPacket("clarify", "plan")
		a, b := halves(packet)
		path := filepath.Join(t.TempDir(), "session.jsonl")
		os.WriteFile(path, []byte(geminiChat([2]string{"user", "Go on."}, [2]string{"gemini", geminiRecorded(packet)})), 0o644)
		fire := func(response string) (string, string) {
			out, errb := hooktest.Run(t, []string{"gemini-stop", "--state-dir", t.TempDir()}, geminiAfterAgent(p.Root, "dup", path, "Go on.", response, false))
			return stopCase.Check(t, []byte(out)), errb
		}
		if r, e := fire(a + " " + b + " " + b); r != "" {
			t.Fatalf("the marked packet, a chunk twice: reason %q, stderr %q", r, e)
		}
		// Without the marker in prompt_response the stop is the markerless
		// one: the chat file's text alone is no pass.
		if r, _ := fire(geminiRecorded(a + " " + b + " " + b)); !strings.Contains(r, hooktest.MarkerCP) {
			t.Fatalf("the markerless packet, a chunk twice: reason %q, want the marker asked for", r)
		}
	})
}

// Gemini CLI runs the prompt hook (BeforeAgent) again for the retry
// after a block, with the block's reason as the prompt: no new turn.
func TestPromptHookRetryKeepsTheBaseline(t *testing.T) {
	hooktest.RetryKeepsTheBaseline(t, stopCase, func(cwd, session, prompt string) []byte {
		return hooktest.JSON(map[string]any{"session_id": session, "transcript_path": "", "cwd": cwd, "hook_event_name": "BeforeAgent", "timestamp": "2026-11-30T10:00:00.000Z", "prompt": prompt})
	})
}
