package cursor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/cursor"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
)

// stopCase is Cursor's stop hook contract: cursor.com/docs/agent/hooks
// (stop: status, loop_count; output followup_message). The input builder writes what the host sends;
// the checker accepts exactly what the host's documentation allows, and
// nothing else.
var stopCase = hooktest.Case{
	Host: cursor.Host,
	Input: func(cwd, session, msg, path string, active bool) []byte {
		n := 0
		if active {
			n = 1
		}
		return hooktest.JSON(map[string]any{"conversation_id": session, "generation_id": "gen-1", "model": "m", "hook_event_name": "stop", "cursor_version": "2.0.0", "workspace_roots": []string{cwd}, "user_email": nil, "transcript_path": path, "status": "completed", "loop_count": n})
	},
	Transcript: func(msg string) string {
		return hooktest.JSONL(
			map[string]any{"role": "user", "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": "<user_query>\nAdd the cap.\n</user_query>"}}}},
			map[string]any{"role": "assistant", "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": msg}}}})
	},
	Check: func(t testing.TB, out []byte) string {
		var r struct {
			FollowupMessage *string `json:"followup_message"`
		}
		hooktest.Strict(t, out, &r)
		if r.FollowupMessage == nil {
			return ""
		}
		if *r.FollowupMessage == "" {
			t.Fatalf("Cursor reply %q: an empty followup_message", out)
		}
		return *r.FollowupMessage
	},
}

// The host's stop and prompt hooks keep the contract every host's keeps
// (hooktest.Contract).
func TestHookContract(t *testing.T) { hooktest.Contract(t, stopCase) }

// Cursor's stop also fires when the person aborts the run or it fails: a
// follow-up there would restart what the person stopped, so it is not
// judged.
func TestStopAbortedIsNotJudged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(stopCase.Transcript(hooktest.ProceedMsg)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{"aborted", "error"} {
		in := hooktest.JSON(map[string]any{"conversation_id": "c", "workspace_roots": []string{t.TempDir()}, "transcript_path": path, "status": status, "loop_count": 0, "hook_event_name": "stop"})
		out, errs := hooktest.Run(t, []string{"cursor-stop", "--lint", "--state-dir", t.TempDir()}, in)
		if r := stopCase.Check(t, []byte(out)); r != "" || !strings.Contains(errs, status) {
			t.Errorf("status %s: reason %q, stderr %q", status, r, errs)
		}
	}
}
