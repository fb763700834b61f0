// Package claude is Claude Code as an agent host: its Stop hook's input
// and replies (code.claude.com/docs/en/hooks), its settings, MCP settings
// and transcript format.
package claude

import (
	"encoding/json"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
)

// ID names the host on the command line, in its hooks' names and its
// transcript format.
const ID = "claude"

// Host is Claude Code.
var Host = &agenthost.Host{
	ID: ID, Name: "Claude Code", Posture: hostsettings.Hard,
	Stop: agenthost.Adapter{
		MessageField: "last_assistant_message", TranscriptField: "transcript_path",
		Parse: parse,
		Block: func(r string) any { return Decision{Decision: "block", Reason: r} },
	},
	Settings:   settings,
	MCP:        mcp,
	ToolHook:   true,
	Transcript: Format,
	// As specrew's provider reads it: the raw end of the file.
	History:     func(path string) (stoppolicy.History, error) { return History{Path: path}, nil },
	LastMessage: LastMessage,
	StopEvent:   "Claude Code's Stop", PromptEvent: "UserPromptSubmit",
	Help: help, StopHelp: stopHelp, PromptHelp: promptHelp, ToolHelp: toolHelp,
}

// Input is what Claude Code sends a Stop hook (and its other hooks); a
// host that runs the hooks of .claude/settings.json may send the same
// fields, and a timestamp.
type Input struct {
	SessionID            string          `json:"session_id"`
	TranscriptPath       string          `json:"transcript_path"`
	Cwd                  string          `json:"cwd"`
	HookEventName        string          `json:"hook_event_name"`
	StopHookActive       bool            `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message"`
	Timestamp            json.RawMessage `json:"timestamp"`
}

// Decision is the reply that blocks the stop (Claude Code's; other hosts
// may take the same).
type Decision struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

func parse(raw []byte) (agenthost.Stop, error) {
	var in Input
	if err := agenthost.Decode(raw, &in); err != nil {
		return agenthost.Stop{}, err
	}
	// Claude Code sends no timestamp; a host running the hooks of
	// .claude/settings.json may (its Host.Owns and Host.Await use it).
	return agenthost.Stop{Stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: in.LastAssistantMessage, Active: in.StopHookActive}, Transcript: in.TranscriptPath, Stamp: in.Timestamp}, nil
}
