// Package cursor is Cursor as an agent host: its stop hook's input and
// replies (cursor.com/docs/agent/hooks), its settings and transcript
// format. baton registers no MCP server in Cursor.
package cursor

import (
	"fmt"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
)

// ID names the host on the command line, in its hooks' names and its
// transcript format.
const ID = "cursor"

// Host is Cursor.
var Host = &agenthost.Host{
	ID: ID, Name: "Cursor", Posture: hostsettings.Corrective,
	Stop: agenthost.Adapter{
		MessageField: "a last message", TranscriptField: "transcript_path",
		Parse:      parse,
		Block:      func(r string) any { return stopOutput{FollowupMessage: r} },
		Pass:       "{}",
		PromptPass: `{"continue":true}`, // beforeSubmitPrompt: let the prompt go
	},
	Settings:   settings,
	Transcript: Format,
	StopEvent:  "Cursor's stop", PromptEvent: "beforeSubmitPrompt",
	Help: help, StopHelp: stopHelp, PromptHelp: promptHelp,
}

// stopInput is Cursor's stop hook input: the common fields
// (conversation_id, generation_id, hook_event_name, workspace_roots,
// transcript_path …) and status ("completed", "aborted", "error") and
// loop_count (cursor.com/docs/agent/hooks).
type stopInput struct {
	ConversationID string   `json:"conversation_id"`
	GenerationID   string   `json:"generation_id"`
	HookEventName  string   `json:"hook_event_name"`
	WorkspaceRoots []string `json:"workspace_roots"`
	TranscriptPath *string  `json:"transcript_path"`
	Status         string   `json:"status"`
	LoopCount      int      `json:"loop_count"`
}

// stopOutput continues the agent: followup_message is submitted as the
// next user message, at most loop_limit times (hooks.json).
type stopOutput struct {
	FollowupMessage string `json:"followup_message"`
}

func parse(raw []byte) (agenthost.Stop, error) {
	var in stopInput
	if err := agenthost.Decode(agenthost.TrimBOM(raw), &in); err != nil {
		return agenthost.Stop{}, err
	}
	h := agenthost.Stop{Transcript: agenthost.Deref(in.TranscriptPath)}
	h.Stop = stoppolicy.Stop{SessionID: in.ConversationID, Active: in.LoopCount > 0}
	if len(in.WorkspaceRoots) > 0 {
		h.Stop.Cwd = in.WorkspaceRoots[0]
	}
	if in.Status != "" && in.Status != "completed" {
		// An aborted run or an error is the person's or the host's stop,
		// not the agent's hand-back: a follow-up would restart what the
		// person stopped.
		h.Skip = fmt.Sprintf("the agent loop ended with status %q", in.Status)
	}
	return h, nil
}
