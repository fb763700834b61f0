package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// One adapter per agent host: how to read its stop hook's input, and how
// to answer it. Each host's contract, and where it is documented, is in
// docs/hosts.md; hook_hosts_test.go checks every answer against the
// documented shape.

// stopAdapter is one host's stop hook.
type stopAdapter struct {
	host            string
	name            string // the host's name, as docs/hosts.md gives it
	posture         string // proposal 188's: hard, corrective, preventive or cooperative only
	messageField    string // the input's field with the last message, for the errors
	transcriptField string
	parse           func(raw []byte) (hostStop, error)
	block           func(reason string) any // the reply that blocks the stop
	pass            any                     // the reply that lets it through; nil for none
	promptPass      any                     // the reply of the prompt hook; nil for none
}

// hostStop is what an adapter read of its host's input.
type hostStop struct {
	stop       stoppolicy.Stop
	transcript string // the transcript's path; "" for none
	skip       string // why this stop is not one to judge; "" to judge it
	// cumulative says the input's message holds every response of the
	// turn so far, joined by a newline (Gemini CLI's prompt_response), not
	// only the last.
	cumulative bool
	// stamp is the input's timestamp, as sent: Copilot CLI writes a
	// hook.start record holding it into its events file once the events
	// before the stop are written (copilotAwait).
	stamp json.RawMessage
}

var stopAdapters = map[string]stopAdapter{
	transcript.Claude: {
		host: transcript.Claude, name: "Claude Code", posture: "hard", messageField: "last_assistant_message", transcriptField: "transcript_path",
		parse: func(raw []byte) (hostStop, error) {
			var in hookInput
			if err := json.Unmarshal(raw, &in); err != nil {
				return hostStop{}, fmt.Errorf("the hook input is not JSON: %v", err)
			}
			// Claude Code sends no timestamp; Copilot CLI, running the
			// hooks of .claude/settings.json, does (copilotEvents).
			return hostStop{stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: in.LastAssistantMessage, Active: in.StopHookActive}, transcript: in.TranscriptPath, stamp: in.Timestamp}, nil
		},
		block: func(r string) any { return hookDecision{Decision: "block", Reason: r} },
	},
	transcript.Codex: {
		host: transcript.Codex, name: "Codex", posture: "hard", messageField: "last_assistant_message", transcriptField: "transcript_path",
		parse: func(raw []byte) (hostStop, error) {
			var in codexStopInput
			if err := json.Unmarshal(raw, &in); err != nil {
				return hostStop{}, fmt.Errorf("the hook input is not JSON: %v", err)
			}
			return hostStop{stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: deref(in.LastAssistantMessage), Active: in.StopHookActive, Turn: in.TurnID}, transcript: deref(in.TranscriptPath)}, nil
		},
		block: func(r string) any { return codexStopOutput{Decision: "block", Reason: r} },
	},
	transcript.Gemini: {
		host: transcript.Gemini, name: "Gemini CLI", posture: "hard", messageField: "prompt_response", transcriptField: "transcript_path",
		parse: func(raw []byte) (hostStop, error) {
			var in geminiAfterAgentInput
			if err := json.Unmarshal(raw, &in); err != nil {
				return hostStop{}, fmt.Errorf("the hook input is not JSON: %v", err)
			}
			return hostStop{stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: in.PromptResponse, Active: in.StopHookActive}, transcript: in.TranscriptPath, cumulative: true}, nil
		},
		block:      func(r string) any { return geminiAfterAgentOutput{Decision: "deny", Reason: r} },
		pass:       "{}",
		promptPass: "{}", // BeforeAgent: stdout holds JSON only
	},
	transcript.Cursor: {
		host: transcript.Cursor, name: "Cursor", posture: "corrective", messageField: "a last message", transcriptField: "transcript_path",
		parse: func(raw []byte) (hostStop, error) {
			var in cursorStopInput
			if err := json.Unmarshal(trimBOM(raw), &in); err != nil {
				return hostStop{}, fmt.Errorf("the hook input is not JSON: %v", err)
			}
			h := hostStop{transcript: deref(in.TranscriptPath)}
			h.stop = stoppolicy.Stop{SessionID: in.ConversationID, Active: in.LoopCount > 0}
			if len(in.WorkspaceRoots) > 0 {
				h.stop.Cwd = in.WorkspaceRoots[0]
			}
			if in.Status != "" && in.Status != "completed" {
				// An aborted run or an error is the person's or the host's
				// stop, not the agent's hand-back: a follow-up would
				// restart what the person stopped.
				h.skip = fmt.Sprintf("the agent loop ended with status %q", in.Status)
			}
			return h, nil
		},
		block:      func(r string) any { return cursorStopOutput{FollowupMessage: r} },
		pass:       "{}",
		promptPass: `{"continue":true}`, // beforeSubmitPrompt: let the prompt go
	},
	transcript.Copilot: {
		host: transcript.Copilot, name: "Copilot CLI, cloud agent", posture: "hard", messageField: "a last message", transcriptField: "transcriptPath",
		parse: func(raw []byte) (hostStop, error) {
			var in copilotAgentStopInput
			if err := json.Unmarshal(raw, &in); err != nil {
				return hostStop{}, fmt.Errorf("the hook input is not JSON: %v", err)
			}
			h := hostStop{transcript: in.TranscriptPath, stamp: in.Timestamp}
			if h.transcript == "" {
				h.transcript = in.TranscriptPathSnake
			}
			h.stop = stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd}
			if h.stop.SessionID == "" {
				h.stop.SessionID = in.SessionIDSnake
			}
			// stop_hook_active since 1.0.72; before, baton's count alone
			// tells a stop that follows a block.
			if in.StopHookActive != nil {
				h.stop.Active = *in.StopHookActive
			} else {
				h.stop.NoActiveFlag = true
			}
			return h, nil
		},
		block: func(r string) any { return copilotAgentStopOutput{Decision: "block", Reason: r} },
	},
}

// codexStopInput is Codex's Stop hook input: codex-rs/hooks/schema/
// generated/stop.command.input.schema.json in openai/codex (every field
// required; transcript_path and last_assistant_message may be null).
type codexStopInput struct {
	SessionID            string  `json:"session_id"`
	TurnID               string  `json:"turn_id"`
	TranscriptPath       *string `json:"transcript_path"`
	Cwd                  string  `json:"cwd"`
	HookEventName        string  `json:"hook_event_name"`
	Model                string  `json:"model"`
	PermissionMode       string  `json:"permission_mode"`
	StopHookActive       bool    `json:"stop_hook_active"`
	LastAssistantMessage *string `json:"last_assistant_message"`
}

// codexStopOutput is the blocking reply of stop.command.output.schema.json
// (continue, decision "block", reason, stopReason, suppressOutput,
// systemMessage; no other field).
type codexStopOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// geminiAfterAgentInput is Gemini CLI's AfterAgent input: the base fields
// (session_id, transcript_path, cwd, hook_event_name, timestamp) and
// prompt, prompt_response, stop_hook_active (docs/hooks/reference.md in
// google-gemini/gemini-cli). prompt is the turn's first prompt, and
// prompt_response every response of the turn so far, each as streamed,
// joined by a newline: after a deny, the rejected response and the retry's
// (GeminiClient's cumulativeResponse, packages/core/src/core/client.ts).
type geminiAfterAgentInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Timestamp      string `json:"timestamp"`
	Prompt         string `json:"prompt"`
	PromptResponse string `json:"prompt_response"`
	StopHookActive bool   `json:"stop_hook_active"`
}

// geminiAfterAgentOutput rejects the response: decision "deny" makes the
// agent retry, with reason as its new prompt.
type geminiAfterAgentOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// cursorStopInput is Cursor's stop hook input: the common fields
// (conversation_id, generation_id, hook_event_name, workspace_roots,
// transcript_path …) and status ("completed", "aborted", "error") and
// loop_count (cursor.com/docs/agent/hooks).
type cursorStopInput struct {
	ConversationID string   `json:"conversation_id"`
	GenerationID   string   `json:"generation_id"`
	HookEventName  string   `json:"hook_event_name"`
	WorkspaceRoots []string `json:"workspace_roots"`
	TranscriptPath *string  `json:"transcript_path"`
	Status         string   `json:"status"`
	LoopCount      int      `json:"loop_count"`
}

// cursorStopOutput continues the agent: followup_message is submitted as
// the next user message, at most loop_limit times (hooks.json).
type cursorStopOutput struct {
	FollowupMessage string `json:"followup_message"`
}

// copilotAgentStopInput is Copilot's agentStop input, in both of its
// documented forms: camelCase (event agentStop; timestamp in Unix
// milliseconds) and the VS Code compatible snake_case (event Stop;
// timestamp in ISO 8601). GitHub's hooks reference
// (content/copilot/reference/hooks-reference.md in github/docs). Both
// carry stop_hook_active since Copilot CLI 1.0.72 (its changelog; the
// SDK's deserializeHookInput reads it from the same raw input).
type copilotAgentStopInput struct {
	SessionID           string          `json:"sessionId"`
	SessionIDSnake      string          `json:"session_id"`
	Timestamp           json.RawMessage `json:"timestamp"`
	Cwd                 string          `json:"cwd"`
	TranscriptPath      string          `json:"transcriptPath"`
	TranscriptPathSnake string          `json:"transcript_path"`
	StopReason          string          `json:"stopReason"`
	StopHookActive      *bool           `json:"stop_hook_active"`
}

// copilotAgentStopOutput: decision "block" forces another turn with reason
// as its prompt.
type copilotAgentStopOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// trimBOM drops a UTF-8 byte-order mark some hosts put before the JSON.
func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// copilotWait bounds how long copilot-stop waits for Copilot CLI to write
// the stop's own hook.start record (copilotAwait). Copilot CLI 1.0.102
// wrote it 0.09 to 0.15 s after the hook started.
var copilotWait = 2 * time.Second

// copilotAwait waits until Copilot CLI's events file at path holds the
// hook.start record of this very hook run: data.input.timestamp is the
// hook input's timestamp (stamp). Copilot starts the hook before it writes
// the turn's last events, the agent's reply among them, and writes them in
// order; that record follows them. A stamp that is no time (an input
// without one) is not waited for. Past limit, or on a file that cannot be
// read, it says why: judging the events without the reply would judge an
// older message.
func copilotAwait(path string, stamp json.RawMessage, limit time.Duration) error {
	want, ok := instant(stamp)
	if !ok {
		return nil
	}
	deadline := time.Now().Add(limit)
	for {
		data, _, err := safefile.ReadTail(path, 4<<20)
		switch {
		case err == nil && hasHookStart(data, want):
			return nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("read the transcript: %v", err)
		case time.Now().After(deadline):
			return fmt.Errorf("Copilot CLI had not written this stop's hook.start record (timestamp %s) to %s after %v, so the turn's reply may be missing", stamp, path, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hasHookStart reports whether events (JSON lines) hold a hook.start
// record whose data.input.timestamp is the instant want.
func hasHookStart(events []byte, want int64) bool {
	for _, line := range bytes.Split(events, []byte("\n")) {
		if !bytes.Contains(line, []byte(`"hook.start"`)) {
			continue
		}
		var r struct {
			Type string `json:"type"`
			Data struct {
				Input struct {
					Timestamp json.RawMessage `json:"timestamp"`
				} `json:"input"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &r) != nil || r.Type != "hook.start" {
			continue
		}
		if at, ok := instant(r.Data.Input.Timestamp); ok && at == want {
			return true
		}
	}
	return false
}

// instant reads a hook timestamp, in Unix milliseconds: a number of
// milliseconds (camelCase input) or an ISO 8601 string (the VS Code
// compatible input), so a record of either form matches an input of the
// other.
func instant(raw json.RawMessage) (int64, bool) {
	var ms float64
	if json.Unmarshal(raw, &ms) == nil {
		return int64(ms), ms > 0
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, false
	}
	return t.UnixMilli(), true
}

// copilotEvents reports whether the transcript a Claude Code input names
// is Copilot CLI's events file (session-state/<session>/events.jsonl):
// Copilot CLI runs the hooks of .claude/settings.json too. The file may
// not exist yet; then its name tells.
func copilotEvents(path string) bool {
	if filepath.Base(path) == "events.jsonl" {
		return true
	}
	f, _, err := safefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	return transcript.Detect(head) == transcript.Copilot
}
