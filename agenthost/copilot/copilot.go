// Package copilot is GitHub Copilot CLI as an agent host: its agentStop
// hook's input and replies (content/copilot/reference/hooks-reference.md
// in github/docs), its settings, MCP settings and transcript format (the
// session's events.jsonl), and the wait for the events a stop is judged
// on (Await).
package copilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/stoppolicy"
)

// ID names the host on the command line, in its hooks' names and its
// transcript format.
const ID = "copilot"

// Host is GitHub Copilot CLI (and the cloud agent, which runs its hooks).
var Host = &agenthost.Host{
	ID: ID, Name: "Copilot CLI, cloud agent", Posture: hostsettings.Hard,
	Stop: agenthost.Adapter{
		MessageField: "a last message", TranscriptField: "transcriptPath",
		Parse: parse,
		Block: func(r string) any { return agentStopOutput{Decision: "block", Reason: r} },
	},
	Settings:   settings,
	MCP:        mcp,
	Transcript: Format,
	// At agentStop the events file may not hold the turn's reply yet:
	// Copilot CLI writes it, then the hook's own hook.start record.
	TurnReply: true,
	Await:     Await,
	Owns:      Events,
	StopEvent: "GitHub Copilot CLI's and cloud agent's agentStop", PromptEvent: "userPromptSubmitted",
	Help: help, StopHelp: stopHelp, PromptHelp: promptHelp,
}

// agentStopInput is Copilot's agentStop input, in both of its documented
// forms: camelCase (event agentStop; timestamp in Unix milliseconds) and
// the VS Code compatible snake_case (event Stop; timestamp in ISO 8601).
// GitHub's hooks reference (content/copilot/reference/hooks-reference.md
// in github/docs). Both carry stop_hook_active since Copilot CLI 1.0.72
// (its changelog; the SDK's deserializeHookInput reads it from the same
// raw input).
type agentStopInput struct {
	SessionID           string          `json:"sessionId"`
	SessionIDSnake      string          `json:"session_id"`
	Timestamp           json.RawMessage `json:"timestamp"`
	Cwd                 string          `json:"cwd"`
	TranscriptPath      string          `json:"transcriptPath"`
	TranscriptPathSnake string          `json:"transcript_path"`
	StopReason          string          `json:"stopReason"`
	StopHookActive      *bool           `json:"stop_hook_active"`
}

// agentStopOutput: decision "block" forces another turn with reason as
// its prompt.
type agentStopOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

func parse(raw []byte) (agenthost.Stop, error) {
	var in agentStopInput
	if err := agenthost.Decode(raw, &in); err != nil {
		return agenthost.Stop{}, err
	}
	h := agenthost.Stop{Transcript: in.TranscriptPath, Stamp: in.Timestamp}
	if h.Transcript == "" {
		h.Transcript = in.TranscriptPathSnake
	}
	h.Stop = stoppolicy.Stop{SessionID: in.SessionID, Cwd: in.Cwd}
	if h.Stop.SessionID == "" {
		h.Stop.SessionID = in.SessionIDSnake
	}
	// stop_hook_active since 1.0.72; before, baton's count alone tells a
	// stop that follows a block.
	if in.StopHookActive != nil {
		h.Stop.Active = *in.StopHookActive
	} else {
		h.Stop.NoActiveFlag = true
	}
	return h, nil
}

// Await waits until Copilot CLI's events file at path holds the
// hook.start record of this very hook run: data.input.timestamp is the
// hook input's timestamp (stamp). Copilot starts the hook before it writes
// the turn's last events, the agent's reply among them, and writes them in
// order; that record follows them. A stamp that is no time (an input
// without one) is not waited for. Past limit, or on a file that cannot be
// read, it says why: judging the events without the reply would judge an
// older message.
func Await(path string, stamp json.RawMessage, limit time.Duration) error {
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

// Events reports whether the transcript a Claude Code input names is
// Copilot CLI's events file (session-state/<session>/events.jsonl):
// Copilot CLI runs the hooks of .claude/settings.json too. The file may
// not exist yet; then its name tells.
func Events(path string) bool {
	if filepath.Base(path) == "events.jsonl" {
		return true
	}
	f, _, err := safefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	return Format.Owns(head)
}
