package main

import (
	"encoding/json"
	"fmt"

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
}

var stopAdapters = map[string]stopAdapter{
	transcript.Claude: {
		host: transcript.Claude, name: "Claude Code", posture: "hard", messageField: "last_assistant_message", transcriptField: "transcript_path",
		parse: func(raw []byte) (hostStop, error) {
			var in hookInput
			if err := json.Unmarshal(raw, &in); err != nil {
				return hostStop{}, fmt.Errorf("the hook input is not JSON: %v", err)
			}
			return hostStop{stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: in.LastAssistantMessage, Active: in.StopHookActive}, transcript: in.TranscriptPath}, nil
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
			return hostStop{stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: deref(in.LastAssistantMessage), Active: in.StopHookActive}, transcript: deref(in.TranscriptPath)}, nil
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
			return hostStop{stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: in.PromptResponse, Active: in.StopHookActive}, transcript: in.TranscriptPath}, nil
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
			h := hostStop{transcript: in.TranscriptPath}
			if h.transcript == "" {
				h.transcript = in.TranscriptPathSnake
			}
			h.stop = stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, NoActiveFlag: true}
			if h.stop.SessionID == "" {
				h.stop.SessionID = in.SessionIDSnake
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
// google-gemini/gemini-cli).
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
// documented forms: camelCase (event agentStop) and the VS Code compatible
// snake_case (event Stop). GitHub's hooks reference
// (content/copilot/reference/hooks-reference.md in github/docs).
type copilotAgentStopInput struct {
	SessionID           string `json:"sessionId"`
	SessionIDSnake      string `json:"session_id"`
	Cwd                 string `json:"cwd"`
	TranscriptPath      string `json:"transcriptPath"`
	TranscriptPathSnake string `json:"transcript_path"`
	StopReason          string `json:"stopReason"`
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
