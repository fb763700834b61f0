package codex_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/codex"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
)

// stopCase is Codex's stop hook contract: codex-rs/hooks/schema/generated/
// stop.command.input.schema.json and stop.command.output.schema.json in
// openai/codex. The input builder writes what the host sends;
// the checker accepts exactly what the host's documentation allows, and
// nothing else.
var stopCase = hooktest.Case{
	Host: codex.Host, PayloadMessage: true,
	Input: func(cwd, session, msg, path string, active bool) []byte {
		in := map[string]any{"session_id": session, "turn_id": "turn-1", "transcript_path": nil, "cwd": cwd, "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default", "stop_hook_active": active, "last_assistant_message": nil}
		if msg != "" {
			in["last_assistant_message"] = msg
		}
		if path != "" {
			in["transcript_path"] = path
		}
		return hooktest.JSON(in)
	},
	Transcript: func(msg string) string {
		return hooktest.JSONL(
			map[string]any{"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta", "payload": map[string]any{"id": "c1", "cwd": "/w"}},
			map[string]any{"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg", "payload": map[string]any{"type": "user_message", "message": "Add the cap."}},
			map[string]any{"timestamp": "2026-11-30T10:00:05Z", "type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": msg}}}})
	},
	Check: func(t testing.TB, out []byte) string {
		if len(out) == 0 {
			return ""
		}
		// stop.command.output: additionalProperties false.
		var r struct {
			Continue       *bool   `json:"continue"`
			Decision       *string `json:"decision"`
			Reason         *string `json:"reason"`
			StopReason     *string `json:"stopReason"`
			SuppressOutput *bool   `json:"suppressOutput"`
			SystemMessage  *string `json:"systemMessage"`
		}
		hooktest.Strict(t, out, &r)
		if r.Decision == nil || *r.Decision != "block" || r.Reason == nil || *r.Reason == "" {
			t.Fatalf("Codex reply %q: decision must be \"block\" with a reason", out)
		}
		return *r.Reason
	},
}

// The host's stop and prompt hooks keep the contract every host's keeps
// (hooktest.Contract).
func TestHookContract(t *testing.T) { hooktest.Contract(t, stopCase) }

// A transcript that cannot be read, when the input carries the message,
// leaves the message to judge alone, and says so.
func TestUnreadableTranscriptWithMessage(t *testing.T) {
	in := stopCase.Input(t.TempDir(), "s", hooktest.ProceedMsg, filepath.Join(t.TempDir(), "gone.jsonl"), false)
	out, errs := hooktest.Run(t, []string{"codex-stop", "--lint", "--state-dir", t.TempDir()}, in)
	if r := stopCase.Check(t, []byte(out)); r == "" || !strings.Contains(errs, "judging the message alone") {
		t.Errorf("reason %q, stderr %q", r, errs)
	}
}
