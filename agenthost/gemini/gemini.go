// Package gemini is Gemini CLI as an agent host: its AfterAgent hook's
// input and replies (docs/hooks/reference.md in google-gemini/gemini-cli),
// its settings, MCP settings and transcript format.
package gemini

import (
	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
)

// ID names the host on the command line, in its hooks' names and its
// transcript format.
const ID = "gemini"

// Host is Gemini CLI.
var Host = &agenthost.Host{
	ID: ID, Name: "Gemini CLI", Posture: hostsettings.Hard,
	Stop: agenthost.Adapter{
		MessageField: "prompt_response", TranscriptField: "transcript_path",
		Parse:      parse,
		Block:      func(r string) any { return afterAgentOutput{Decision: "deny", Reason: r} },
		Pass:       "{}",
		PromptPass: "{}", // BeforeAgent: stdout holds JSON only
	},
	Settings:   settings,
	MCP:        mcp,
	Transcript: Format,
	TurnReply:  true,
	Response:   Response,
	StopEvent:  "Gemini CLI's AfterAgent", PromptEvent: "BeforeAgent",
	Help: help, StopHelp: stopHelp, PromptHelp: promptHelp,
}

// afterAgentInput is Gemini CLI's AfterAgent input: the base fields
// (session_id, transcript_path, cwd, hook_event_name, timestamp) and
// prompt, prompt_response, stop_hook_active (docs/hooks/reference.md in
// google-gemini/gemini-cli). prompt is the turn's first prompt, and
// prompt_response every response of the turn so far, each as streamed,
// joined by a newline: after a deny, the rejected response and the retry's
// (GeminiClient's cumulativeResponse, packages/core/src/core/client.ts).
type afterAgentInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Timestamp      string `json:"timestamp"`
	Prompt         string `json:"prompt"`
	PromptResponse string `json:"prompt_response"`
	StopHookActive bool   `json:"stop_hook_active"`
}

// afterAgentOutput rejects the response: decision "deny" makes the agent
// retry, with reason as its new prompt.
type afterAgentOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

func parse(raw []byte) (agenthost.Stop, error) {
	var in afterAgentInput
	if err := agenthost.Decode(raw, &in); err != nil {
		return agenthost.Stop{}, err
	}
	return agenthost.Stop{Stop: stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd, Message: in.PromptResponse, Active: in.StopHookActive}, Transcript: in.TranscriptPath, Cumulative: true}, nil
}
