package copilot_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/agenthost/copilot"
	"github.com/baton-md/baton/agenthost/hook"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
)

// stopCase is Copilot CLI's stop hook contract:
// content/copilot/reference/hooks-reference.md in github/docs (agentStop:
// sessionId, timestamp, cwd, transcriptPath, stopReason; decision
// "block"|"allow", reason), and what Copilot CLI 1.0.102 sends and
// writes: stop_hook_active in the raw input (the SDK's
// deserializeHookInput), a hook.start event holding the input in
// events.jsonl (schemas/session-events.schema.json, HookStartData). The input builder writes what the host sends;
// the checker accepts exactly what the host's documentation allows, and
// nothing else.
var stopCase = hooktest.Case{
	Host: copilot.Host,
	Input: func(cwd, session, msg, path string, active bool) []byte {
		return copilotInput(cwd, session, path, copilotStamp, active)
	},
	Transcript: func(msg string) string {
		return copilotEventsFile(copilotStamp, "Add the cap.", msg)
	},
	Check: func(t testing.TB, out []byte) string {
		if len(out) == 0 {
			return ""
		}
		var r struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		hooktest.Strict(t, out, &r)
		if r.Decision != "block" && r.Decision != "allow" {
			t.Fatalf("Copilot reply %q: decision must be \"block\" or \"allow\"", out)
		}
		if r.Decision == "allow" {
			return ""
		}
		if r.Reason == "" {
			t.Fatalf("Copilot reply %q: a block without a reason", out)
		}
		return r.Reason
	},
}

// The host's stop and prompt hooks keep the contract every host's keeps
// (hooktest.Contract).
func TestHookContract(t *testing.T) { hooktest.Contract(t, stopCase) }

// The shapes below are what Copilot CLI 1.0.102 (@github/copilot) sends
// and writes, as its package shows them.

// copilotStamp is an agentStop input's timestamp, in Unix milliseconds.
const copilotStamp = 1764496800000

// copilotInput is Copilot CLI's agentStop input (camelCase form; the raw
// input carries stop_hook_active since 1.0.72).
func copilotInput(cwd, session, path string, stamp int64, active bool) []byte {
	return hooktest.JSON(map[string]any{"sessionId": session, "timestamp": stamp, "cwd": cwd, "transcriptPath": path, "stopReason": "end_turn", "stop_hook_active": active})
}

// copilotEvent is one line of Copilot CLI's events.jsonl.
func copilotEvent(n int, typ string, data map[string]any) map[string]any {
	parent := any(nil)
	if n > 1 {
		parent = fmt.Sprintf("00000000-0000-4000-8000-%012d", n-1)
	}
	return map[string]any{"type": typ, "data": data, "id": fmt.Sprintf("00000000-0000-4000-8000-%012d", n), "timestamp": fmt.Sprintf("2026-11-30T10:00:%02d.000Z", n), "parentId": parent}
}

// copilotTurn is a turn's events: the person's prompt, the agent's reply.
func copilotTurn(n int, prompt, reply string) []any {
	return []any{
		copilotEvent(n, "user.message", map[string]any{"content": prompt, "transformedContent": prompt, "attachments": []any{}, "interactionId": "i1"}),
		copilotEvent(n+1, "assistant.turn_start", map[string]any{"turnId": "0", "interactionId": "i1"}),
		copilotEvent(n+2, "assistant.message", map[string]any{"messageId": "m1", "content": reply, "toolRequests": []any{}, "interactionId": "i1"}),
		copilotEvent(n+3, "assistant.turn_end", map[string]any{"turnId": "0"}),
	}
}

// copilotHookStart is the hook.start event Copilot CLI writes for the
// agentStop hook run whose input has the timestamp stamp.
func copilotHookStart(n int, stamp any) map[string]any {
	return copilotEvent(n, "hook.start", map[string]any{"hookInvocationId": "h1", "hookType": "agentStop", "input": map[string]any{"sessionId": "p1", "timestamp": stamp, "cwd": "/w", "transcriptPath": "/h/.copilot/session-state/p1/events.jsonl", "stopReason": "end_turn", "stop_hook_active": false}})
}

// copilotEventsFile is a session's events up to the stop's hook.start.
func copilotEventsFile(stamp any, prompt, reply string) string {
	ev := []any{copilotEvent(1, "session.start", map[string]any{"sessionId": "p1", "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.102", "startTime": "2026-11-30T10:00:00.000Z", "context": map[string]any{"cwd": "/w"}})}
	ev = append(ev, copilotTurn(2, prompt, reply)...)
	ev = append(ev, copilotHookStart(6, stamp))
	return hooktest.JSONL(ev...)
}

// Copilot CLI starts the agentStop hook before it writes the turn's last
// events: copilot-stop waits for its own hook.start record (the input's
// timestamp in data.input.timestamp), then judges the reply before it,
// never the last turn's message.
func TestCopilotStopWaitsForItsHookStart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	// The last turn's reply passes; this turn's owes the packet.
	before := hooktest.JSONL(append([]any{copilotEvent(1, "session.start", map[string]any{"sessionId": "p1", "context": map[string]any{"cwd": "/w"}})}, copilotTurn(2, "Why?", hooktest.ConsistentMsg)...)...)
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(150 * time.Millisecond)
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString(hooktest.JSONL(append(copilotTurn(6, "Add the cap.", hooktest.ProceedMsg), copilotHookStart(10, copilotStamp))...))
	}()
	start := time.Now()
	out, errb := hooktest.Run(t, []string{"copilot-stop", "--lint", "--state-dir", t.TempDir()}, copilotInput(dir, "p1", path, copilotStamp, false))
	if r := stopCase.Check(t, []byte(out)); !strings.Contains(r, "packet/review-auto-continue") {
		t.Fatalf("the turn's reply was not judged: reason %q, stderr %q", r, errb)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("answered after %v, before the reply was written", d)
	}

	// The events file not there yet at the start: the same wait.
	late := filepath.Join(t.TempDir(), "events.jsonl")
	go func() {
		time.Sleep(100 * time.Millisecond)
		os.WriteFile(late, []byte(copilotEventsFile(copilotStamp, "Add the cap.", hooktest.ProceedMsg)), 0o644)
	}()
	out, errb = hooktest.Run(t, []string{"copilot-stop", "--lint", "--state-dir", t.TempDir()}, copilotInput(dir, "p2", late, copilotStamp, false))
	if r := stopCase.Check(t, []byte(out)); r == "" {
		t.Fatalf("a file written after the hook started was not waited for: stderr %q", errb)
	}
}

// The record never comes: the stop goes through, and standard error says
// what was waited for.
func TestCopilotStopNoHookStartFailsOpen(t *testing.T) {
	defer func(w time.Duration) { hook.AwaitLimit = w }(hook.AwaitLimit)
	hook.AwaitLimit = 200 * time.Millisecond
	path := filepath.Join(t.TempDir(), "events.jsonl")
	// A hook.start of another run (another timestamp) does not count.
	if err := os.WriteFile(path, []byte(copilotEventsFile(copilotStamp-5000, "Add the cap.", hooktest.ProceedMsg)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errb := hooktest.Run(t, []string{"copilot-stop", "--lint", "--state-dir", t.TempDir()}, copilotInput(t.TempDir(), "p", path, copilotStamp, false))
	if r := stopCase.Check(t, []byte(out)); r != "" {
		t.Fatalf("blocked without its hook.start record: %q", r)
	}
	if e := errb; !strings.Contains(e, "hook.start record (timestamp 1764496800000)") || !strings.Contains(e, "letting the stop through") {
		t.Errorf("stderr %q does not say what it waited for", e)
	}
}

// Copilot CLI says whether a stop follows a block (stop_hook_active, since
// 1.0.72), and copilot-stop honours it as claude-stop does: a stop the
// flag says is not a retry is judged afresh even after a block, and a
// retry counts against --max-blocks.
func TestCopilotStopHookActive(t *testing.T) {
	state, cwd := t.TempDir(), t.TempDir()
	fire := func(prompt string, active bool) (string, string) {
		path := filepath.Join(t.TempDir(), "events.jsonl")
		os.WriteFile(path, []byte(copilotEventsFile(copilotStamp, prompt, hooktest.ProceedMsg)), 0o644)
		out, errb := hooktest.Run(t, []string{"copilot-stop", "--lint", "--max-blocks", "1", "--state-dir", state}, copilotInput(cwd, "act", path, copilotStamp, active))
		return stopCase.Check(t, []byte(out)), errb
	}
	if r, e := fire("Add the cap.", false); r == "" {
		t.Fatalf("first stop not blocked: %s", e)
	}
	// Not a retry (the person's next prompt): judged, not counted as the
	// second block in a row.
	if r, e := fire("And the callers?", false); r == "" {
		t.Fatalf("a stop with stop_hook_active false after a block was released: %s", e)
	}
	if r, e := fire("And the callers?", true); r != "" || !strings.Contains(e, "already blocked 1 times in a row") {
		t.Fatalf("the retry: reason %q, stderr %q; want the --max-blocks release", r, e)
	}
}

// Copilot CLI runs the hooks of .claude/settings.json too, with a Claude
// Code input (VS Code compatible: an ISO 8601 timestamp) naming its own
// events.jsonl: claude-stop reads it as Copilot's events, after the same
// wait, and blocks there as copilot-stop does.
func TestClaudeStopReadsCopilotEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	iso := time.UnixMilli(copilotStamp).UTC().Format("2006-01-02T15:04:05.000Z")
	// The record holds the raw input: milliseconds.
	if err := os.WriteFile(path, []byte(copilotEventsFile(copilotStamp, "Add the cap.", hooktest.ProceedMsg)), 0o644); err != nil {
		t.Fatal(err)
	}
	in := hooktest.JSON(map[string]any{"hook_event_name": "Stop", "session_id": "p1", "timestamp": iso, "cwd": t.TempDir(), "transcript_path": path, "stop_reason": "end_turn", "stop_hook_active": false})
	out, errb := hooktest.Run(t, []string{"claude-stop", "--lint", "--state-dir", t.TempDir()}, in)
	if r := claudeReason(t, out); !strings.Contains(r, "packet/review-auto-continue") {
		t.Fatalf("claude-stop on Copilot's events: reason %q, stderr %q", r, errb)
	}
	// A copy under another name is told by its content.
	other := filepath.Join(t.TempDir(), "session.jsonl")
	os.WriteFile(other, []byte(copilotEventsFile(copilotStamp, "Add the cap.", hooktest.ConsistentMsg)), 0o644)
	in = hooktest.JSON(map[string]any{"hook_event_name": "Stop", "session_id": "p2", "timestamp": iso, "cwd": t.TempDir(), "transcript_path": other, "stop_hook_active": false})
	out, errb = hooktest.Run(t, []string{"claude-stop", "--lint", "--state-dir", t.TempDir()}, in)
	if r := claudeReason(t, out); r != "" || errb != "" {
		t.Fatalf("the consistent packet from Copilot's events: reason %q, stderr %q", r, errb)
	}
}

// claudeReason is the reason of Claude Code's reply (decision "block"),
// or "" for none.
func claudeReason(t *testing.T, out string) string {
	if out == "" {
		return ""
	}
	var r struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
	hooktest.Strict(t, []byte(out), &r)
	if r.Decision != "block" || r.Reason == "" {
		t.Fatalf("Claude Code reply %q: decision must be \"block\" with a reason", out)
	}
	return r.Reason
}

// A stop hook that cannot decide within its budget because Copilot CLI's
// events file gets the hook's own record only after it (hook.AwaitLimit,
// 1 s) lets the stop through, saying what it was doing.
func TestStopHookAnswersWithinItsBudgetWaitingForTheEvents(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(events, []byte(copilotEventsFile(copilotStamp-60_000, "Add the cap.", "Done.")), 0o600); err != nil {
		t.Fatal(err)
	}
	in := copilotInput(dir, "s", events, copilotStamp, false)
	hooktest.Expire(t, stopCase, bytes.NewReader(in), func() {}, "waiting for the host to write its transcript")
}

// Copilot CLI runs the prompt hook (userPromptSubmitted) again for the
// retry after a block, with the block's reason as the prompt. That is no
// new turn: the work that caused the block is still owed, so with
// --require-packet the stops go block, block, pass (the packet), not
// block, pass.
func TestPromptHookRetryKeepsTheBaseline(t *testing.T) {
	hooktest.RetryKeepsTheBaseline(t, stopCase, func(cwd, session, prompt string) []byte {
		return hooktest.JSON(map[string]any{"sessionId": session, "timestamp": copilotStamp, "cwd": cwd, "prompt": prompt})
	})
}
