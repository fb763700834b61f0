// Package agenthost makes an agent host one value, as engine.Kind makes a
// document kind one: everything baton knows of a host (its name, the
// posture its hooks earn, its stop hook's adapter, its settings for
// `hook install` and `mcp install`, its trust records, the format of its
// session transcripts) is a Host. Each host builds its value in a package
// of its own, agenthost/<host>, from its pieces; agenthost/hosts lists
// them, and the command line, the hooks (agenthost/hook) and audit read
// that list.
//
// The mechanisms the hosts share stay in their packages: internal/
// hostsettings edits settings files as text, transcript reads session
// files into one form, stoppolicy judges a stop. What is one host's own
// (its trust records' reader, its hook input, its transcript's format)
// is in its package, and its value points at it.
package agenthost

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// Host is one agent host.
type Host struct {
	// ID names the host on the command line (--host, `baton hook
	// ID-stop`) and its transcript format.
	ID string
	// Name is the host's name as docs/hosts.md's table gives it.
	Name string
	// Posture is how strongly its hooks hold the agent to the stop
	// contract (specrew's proposal 188).
	Posture hostsettings.Posture
	// Stop is its stop hook's adapter.
	Stop Adapter
	// Settings is where and how `baton hook install` writes its hooks,
	// and how `hook status` reads them and the host's trust records.
	Settings *hostsettings.Host
	// MCP is where `baton mcp install` registers baton's MCP server; nil
	// for a host baton does not register it in.
	MCP *hostsettings.MCPHost
	// ToolHook says the host has a tool hook, `baton hook ID-tool`, run
	// after each tool call (its PostToolUse event): it records that
	// the change the tool made is this session's. Its input is read by
	// Stop.Parse.
	ToolHook bool
	// Transcript is the format of its session files: how audit and the
	// stop hook read them, and how a file is told to be its (agenthost/
	// hosts registers it with transcript).
	Transcript transcript.Format

	// How the stop hook reads the transcript; each nil (false) for the
	// default.
	//
	// History opens it as the stop policy reads it (default: its end,
	// read into entries by transcript.ReadTail).
	History func(path string) (stoppolicy.History, error)
	// LastMessage reads the agent's last message (default:
	// transcript.LastMessage).
	LastMessage func(path string) (string, error)
	// TurnReply: the last message is the turn's, after the person's last
	// message; the host may run its hook before it writes the reply, and
	// an older reply must never be taken for it.
	TurnReply bool
	// Owns reports that a transcript a hook names is this host's, whose
	// ever hook names it (a host may run another host's hooks with its
	// own session file).
	Owns func(path string) bool
	// Await waits, at most limit, until the host has written the stop's
	// records to its transcript (stamp: the hook input's timestamp).
	Await func(path string, stamp json.RawMessage, limit time.Duration) error
	// Response is the message to judge when the hook's input holds every
	// response of the turn so far (Stop.Cumulative), given the turn's
	// reply as the transcript holds it, and what to say of it on standard
	// error ("" for nothing).
	Response func(stop stoppolicy.Stop, o stoppolicy.Options, turnReply string) (msg, note string)

	// What baton's help says of its hooks. StopEvent and PromptEvent are
	// the host's events its stop and prompt hooks run on, as `baton hook`'s
	// usage names them; StopHelp, PromptHelp and ToolHelp are the help of
	// `baton hook ID-stop`, `ID-prompt` and `ID-tool` (ToolHelp only with
	// ToolHook).
	StopEvent, PromptEvent         string
	StopHelp, PromptHelp, ToolHelp *HookHelp
	// Help is what the help of hook install, uninstall and status, mcp
	// install and audit says of the host, in its own words.
	Help HostHelp
}

// HostHelp is what the commands' help says of one host, each phrase
// joined with the other hosts' (empty: nothing to say).
type HostHelp struct {
	// ProjectFolder and UserFolder are the folders hook status looks for
	// in the project and in the home folder: ".host/", "~/.host/".
	ProjectFolder, UserFolder string
	// UserSettings is where hook install --user writes, as people read
	// it ("~/.host/ ($HOST_HOME)"); HomeEnv the environment variable
	// that moves the user's files ("$HOST_HOME"), and Env the others its
	// records are found by, as the commands' Reads name them.
	UserSettings string
	HomeEnv      string
	Env          []string
	// Install is a sentence hook install's help adds of the host;
	// Uninstall one hook uninstall's.
	Install, Uninstall string
	// Installed is what else counts as baton's hooks installed (a plugin,
	// an extension), as hook status says it.
	Installed string
	// Runs says when the host runs a project's hooks, from which of its
	// records ("": always); TrustRecords names those records for hook
	// status's Reads.
	Runs, TrustRecords string
	// MCPStarts says from which of its records the host starts an MCP
	// server a project registers.
	MCPStarts string
}

// HookHelp is what baton's help says of one of a host's hooks (`baton
// help hook ID-stop`, the man page, the completions).
type HookHelp struct {
	Summary, Text, Reads, Writes string
}

// Adapter is a host's stop hook: how to read its input and how to answer.
// docs/hosts.md gives each host's contract and where it is documented.
type Adapter struct {
	// MessageField and TranscriptField name the input's fields with the
	// last message and the transcript's path, for the errors.
	MessageField, TranscriptField string
	// Parse reads the hook's input (the same for its prompt hook).
	Parse func(raw []byte) (Stop, error)
	// Block is the reply that blocks the stop with reason.
	Block func(reason string) any
	// Pass is the reply that lets the stop through, and PromptPass the
	// prompt hook's reply; nil for none.
	Pass, PromptPass any
}

// Stop is what an adapter read of its host's input.
type Stop struct {
	Stop       stoppolicy.Stop
	Transcript string // the transcript's path; "" for none
	Skip       string // why this stop is not one to judge; "" to judge it
	// Cumulative says the input's message holds every response of the
	// turn so far, joined by a newline, not only the last.
	Cumulative bool
	// Stamp is the input's timestamp, as sent: a host may write a record
	// holding it into its session file once the events before the stop
	// are written (Host.Await waits for it).
	Stamp json.RawMessage
}

// Decode reads a hook input into v, with the one error every adapter
// gives.
func Decode(raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("the hook input is not JSON: %v", err)
	}
	return nil
}

// TrimBOM drops a UTF-8 byte-order mark some hosts put before the JSON.
func TrimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// Deref is *s, or "" for nil (a field the host may send as null).
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
