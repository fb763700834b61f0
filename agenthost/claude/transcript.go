package claude

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/transcript"
)

// Claude Code's session transcript is JSON lines, one entry a line: a
// "type" ("user", "assistant", "system", "attachment", "summary", …) and,
// for messages, a "message" with its "role" and "content" (a string, or a
// list of blocks of which "text" blocks carry what was said and
// "tool_result" blocks what a tool answered). One assistant response is
// written as several lines, one per content block, sharing the message's
// "id" (msg_…). Only a line's "type" says it is a message: other lines
// carry an API message too ("api-request-blob", a request's copy of one)
// and are not the session's. A Stop hook's block is a user line with
// "isMeta": true whose content is "Stop hook feedback:\n" and the reason;
// each stop the Stop hooks ran at is a "system" line of subtype
// "stop_hook_summary" whose "hookErrors" hold the blocks' reasons (none
// when the stop went through; a "hookLabel" names another event's hooks).
// Source: Claude Code's hooks reference (code.claude.com/docs/en/hooks,
// "transcript_path"), the Messages API content blocks
// (docs.anthropic.com/en/api/messages), and the record types of Claude
// Code 2.1.328 (npm @anthropic-ai/claude-code, bin/claude.exe).

// Format is how baton reads Claude Code's session files.
var Format = transcript.Format{
	Host: ID, ReadLines: read, Rank: 30,
	Claims: func(keys map[string]json.RawMessage, typ string) bool {
		_, parent := keys["parentUuid"]
		_, message := keys["message"]
		_, session := keys["sessionId"]
		return parent || (typ == "user" || typ == "assistant") && message || session && typ == "summary"
	},
}

// LastMessage reads a Claude Code transcript (JSONL) and returns
// the last message the agent wrote: the text of the last assistant entry
// that has text (its text blocks joined by a blank line). Earlier entries
// (text said before a tool call) are not part of it, so line numbers in a
// reason are the message's own. specrew's provider reads the same entry: the
// last assistant line with text, whatever user lines follow it (tool
// results, hook text, or a person's).
func LastMessage(path string) (string, error) {
	// From the end, in growing windows: the last message is near it, and a
	// transcript of a gigabyte must be answered within the hook's timeout.
	for window := int64(1 << 20); ; window *= 4 {
		data, whole, err := safefile.ReadTail(path, window)
		if err != nil {
			return "", err
		}
		if msg := lastAssistantIn(data); msg != "" || whole {
			return msg, nil
		}
		if window >= transcript.MaxTail {
			return "", fmt.Errorf("no assistant message in the last %d MiB of %s", transcript.MaxTail>>20, path)
		}
	}
}

// claudeLine is the part of a Claude Code transcript line baton reads.
type claudeLine struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	IsMeta      bool            `json:"isMeta"`
	IsSidechain bool            `json:"isSidechain"`
	Timestamp   string          `json:"timestamp"`
	SessionID   string          `json:"sessionId"`
	Cwd         string          `json:"cwd"`
	HookLabel   string          `json:"hookLabel"`
	HookErrors  json.RawMessage `json:"hookErrors"`
	// FailedHookErrorIndexes are the hookErrors of hooks that failed
	// rather than blocked.
	FailedHookErrorIndexes json.RawMessage `json:"failedHookErrorIndexes"`
	Message                struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// role is the line's role as a message: its type, for a line that has
// one; the message's role only for a line with no type. "" for a line
// that is no message.
func (e *claudeLine) role() string {
	switch e.Type {
	case "user", "assistant":
		return e.Type
	case "":
		return e.Message.Role
	}
	return ""
}

// stopBlocks are the reasons of the blocks a stop_hook_summary line
// records: its hookErrors but those of hooks that failed.
func (e *claudeLine) stopBlocks() []string {
	var errs []json.RawMessage
	var failed []int
	_ = json.Unmarshal(e.HookErrors, &errs)
	_ = json.Unmarshal(e.FailedHookErrorIndexes, &failed)
	var out []string
	for i, r := range errs {
		if slices.Contains(failed, i) {
			continue
		}
		var t string
		if json.Unmarshal(r, &t) != nil {
			t = string(r) // a shape of another version: kept as it is
		}
		out = append(out, cmp.Or(strings.TrimSpace(t), "(no reason given)"))
	}
	return out
}

// stopFeedback opens the user line Claude Code writes when a Stop hook
// blocks, before the hook's reason.
const stopFeedback = "Stop hook feedback:"

// lastAssistantIn is the text of the last assistant entry with text in
// data, JSON lines (a torn or unknown line is skipped).
func lastAssistantIn(data []byte) string {
	for len(data) > 0 {
		data = bytes.TrimRight(data, "\n")
		i := bytes.LastIndexByte(data, '\n')
		line := data[i+1:]
		data = data[:i+1]
		if i < 0 {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 || !bytes.Contains(line, []byte("assistant")) {
			continue
		}
		var e claudeLine
		if json.Unmarshal(line, &e) == nil && e.role() == "assistant" {
			if t := transcript.ContentText(e.Message.Content); len(t) > 0 {
				return strings.Join(t, "\n\n")
			}
		}
	}
	return ""
}

// History is what the stop policy reads of a Claude Code
// transcript, as specrew's provider reads it: raw lines of its end.
type History struct{ Path string }

var (
	assistantLine = lazyre.New(`"type"\s*:\s*"assistant"`)
	userLine      = lazyre.New(`"type"\s*:\s*"user"`)
	messageID     = lazyre.New(`"id"\s*:\s*"(msg_[^"]*)"`)
	metaLine      = lazyre.New(`"isMeta"\s*:\s*true`)
)

// StepsSincePerson is Get-SpecrewLongTurnSignal's count: over the last 200
// lines of the transcript, the assistant responses (one per message id;
// Claude Code writes one line per content block) since the last line of a
// person (a user line that is not a tool result). anchor names the turn by
// that line. A meta line (isMeta: a Stop hook's feedback, text the host
// injected) is no person's: specrew keys the lane to the last human line
// so that it holds across a forced continuation, and Claude Code writes
// each block as a meta user line.
func (h History) StepsSincePerson() (steps int, anchor string) {
	if h.Path == "" {
		return 0, ""
	}
	data, _, err := safefile.ReadTail(h.Path, transcript.MaxTail)
	if err != nil {
		return 0, ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 200 {
		lines = lines[len(lines)-200:]
	}
	seen := map[string]bool{}
	anchor = "saturated-no-human-line-in-window"
	for i := len(lines) - 1; i >= 0; i-- {
		ln := lines[i]
		if assistantLine.MatchString(ln) {
			if m := messageID.FindStringSubmatch(ln); m != nil {
				if !seen[m[1]] {
					seen[m[1]] = true
					steps++
				}
			} else {
				steps++
			}
			continue
		}
		if userLine.MatchString(ln) && !strings.Contains(ln, `"tool_use_id"`) && !metaLine.MatchString(ln) {
			anchor = ln
			break
		}
	}
	return steps, anchor
}

// LastMarked is the text of the last assistant entry in the transcript's
// last 500 lines whose text marked accepts; "" when there is none.
func (h History) LastMarked(marked func(string) bool) string {
	if h.Path == "" {
		return ""
	}
	data, _, err := safefile.ReadTail(h.Path, transcript.MaxTail)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 500 {
		lines = lines[len(lines)-500:]
	}
	found := ""
	for _, line := range lines {
		var e claudeLine
		if json.Unmarshal([]byte(line), &e) != nil || e.role() != "assistant" {
			continue
		}
		if t := strings.Join(transcript.ContentText(e.Message.Content), "\n\n"); marked(t) {
			found = t
		}
	}
	return found
}

// read reads a whole Claude Code transcript into entries, one a
// line as the hook reads them; tool results and meta lines (text a hook or
// the host injected) are user entries that no person wrote, a Stop hook's
// feedback and summary lines are Hook entries, and side-chain lines
// (isSidechain: a delegated task's exchange) are not the session's turns.
func read(lines [][]byte, s *transcript.Session) {
	for n, line := range lines {
		var e claudeLine
		if json.Unmarshal(line, &e) != nil {
			s.Skipped++
			continue
		}
		if s.ID == "" && e.SessionID != "" {
			s.ID, s.Cwd = e.SessionID, e.Cwd
		}
		if e.IsSidechain {
			continue // a delegated task's exchange with the main agent
		}
		at := transcript.ParseTime(e.Timestamp)
		switch e.role() {
		case "assistant":
			text := strings.Join(transcript.ContentText(e.Message.Content), "\n\n")
			s.Add(transcript.Entry{Role: transcript.Assistant, Text: text, Line: n + 1, Time: at})
		case "user":
			text := strings.Join(transcript.ContentText(e.Message.Content), "\n\n")
			if reason, ok := strings.CutPrefix(strings.TrimSpace(text), stopFeedback); e.IsMeta && ok {
				s.Add(transcript.Entry{Role: transcript.Hook, Text: strings.TrimSpace(reason), Blocked: true, Line: n + 1, Time: at})
				continue
			}
			person := !e.IsMeta && !transcript.HasToolResult(e.Message.Content)
			s.Add(transcript.Entry{Role: transcript.User, Text: text, Person: person, Line: n + 1, Time: at})
		default:
			if e.Type == "system" && e.Subtype == "stop_hook_summary" && (e.HookLabel == "" || e.HookLabel == "Stop") {
				reasons := e.stopBlocks()
				s.Add(transcript.Entry{Role: transcript.Hook, Text: transcript.JoinText(reasons...), Blocked: len(reasons) > 0, Line: n + 1, Time: at})
			}
			// summaries, file snapshots, API request copies, other system
			// lines: not messages
		}
	}
}
