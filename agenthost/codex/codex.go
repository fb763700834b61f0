// Package codex is Codex as an agent host: its Stop hook's input and
// replies (codex-rs/hooks/schema/generated/stop.command.*.schema.json in
// openai/codex), its settings, MCP settings and transcript format.
package codex

import (
	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
)

// ID names the host on the command line, in its hooks' names and its
// transcript format.
const ID = "codex"

// Host is Codex.
var Host = &agenthost.Host{
	ID: ID, Name: "Codex", Posture: hostsettings.Hard,
	Stop: agenthost.Adapter{
		MessageField: "last_assistant_message", TranscriptField: "transcript_path",
		Parse: parse,
		Block: func(r string) any { return stopOutput{Decision: "block", Reason: r} },
	},
	Settings:   settings,
	MCP:        mcp,
	Transcript: Format,
	StopEvent:  "Codex's Stop", PromptEvent: "UserPromptSubmit",
	Help: help, StopHelp: stopHelp, PromptHelp: promptHelp,
}

// stopInput is Codex's Stop hook input: codex-rs/hooks/schema/
// generated/stop.command.input.schema.json in openai/codex (every field
// required; transcript_path and last_assistant_message may be null).
type stopInput struct {
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

// stopOutput is the blocking reply of stop.command.output.schema.json
// (continue, decision "block", reason, stopReason, suppressOutput,
// systemMessage; no other field).
type stopOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

func parse(raw []byte) (agenthost.Stop, error) {
	var in stopInput
	if err := agenthost.Decode(raw, &in); err != nil {
		return agenthost.Stop{}, err
	}
	return agenthost.Stop{Stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: agenthost.Deref(in.LastAssistantMessage), Active: in.StopHookActive, Turn: in.TurnID}, Transcript: agenthost.Deref(in.TranscriptPath)}, nil
}
