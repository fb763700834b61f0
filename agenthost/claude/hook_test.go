package claude_test

import (
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
)

// stopCase is Claude Code's stop hook contract (code.claude.com/docs/en/hooks;
// Stop: decision "block", reason). The input builder writes what the host sends;
// the checker accepts exactly what the host's documentation allows, and
// nothing else.
var stopCase = hooktest.Case{
	Host: claude.Host, PayloadMessage: true,
	Input: func(cwd, session, msg, path string, active bool) []byte {
		return hooktest.JSON(map[string]any{"session_id": session, "transcript_path": path, "cwd": cwd, "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": msg})
	},
	Transcript: func(msg string) string {
		return hooktest.JSONL(
			map[string]any{"type": "user", "sessionId": "s", "message": map[string]any{"role": "user", "content": "Add the cap."}},
			map[string]any{"type": "assistant", "sessionId": "s", "message": map[string]any{"id": "msg_1", "role": "assistant", "content": []any{map[string]any{"type": "text", "text": msg}}}})
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
		if r.Decision != "block" || r.Reason == "" {
			t.Fatalf("Claude Code reply %q: decision must be \"block\" with a reason", out)
		}
		return r.Reason
	},
}

// The host's stop and prompt hooks keep the contract every host's keeps
// (hooktest.Contract).
func TestHookContract(t *testing.T) { hooktest.Contract(t, stopCase) }
