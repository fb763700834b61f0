package transcript

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
)

// Codex writes a session as a rollout file
// (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl): JSON lines of
// {"timestamp", "type", "payload"}. "session_meta" carries the session's
// id and cwd; "response_item" a model item, of which a "message" has a
// "role" and "content" blocks ("input_text", "output_text"); "event_msg"
// an event, of which "user_message" is what the person typed (the
// response items of role user also carry injected context, so only these
// count as a person's). Source: codex-rs/protocol/src/protocol.rs
// (RolloutLine, RolloutItem, EventMsg) and codex-rs/protocol/src/models.rs
// (ResponseItem, ContentItem) in openai/codex.
func readCodex(lines [][]byte, s *Session) {
	for n, line := range lines {
		if line == nil {
			continue
		}
		var l struct {
			Timestamp string          `json:"timestamp"`
			Type      string          `json:"type"`
			Payload   json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(line, &l) != nil || len(l.Payload) == 0 {
			s.Skipped++
			continue
		}
		var p struct {
			Type    string `json:"type"`
			ID      string `json:"id"`
			Cwd     string `json:"cwd"`
			Role    string `json:"role"`
			Message string `json:"message"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(l.Payload, &p) != nil {
			s.Skipped++
			continue
		}
		at := parseTime(l.Timestamp)
		switch {
		case l.Type == "session_meta":
			s.ID, s.Cwd = p.ID, p.Cwd
		case l.Type == "response_item" && p.Type == "message" && p.Role == "assistant":
			var parts []string
			for _, c := range p.Content {
				if c.Type == "output_text" {
					parts = append(parts, c.Text)
				}
			}
			s.add(Entry{Role: Assistant, Text: joinText(parts...), Line: n + 1, Time: at})
		case l.Type == "response_item" && (p.Type == "function_call" || p.Type == "local_shell_call" || p.Type == "custom_tool_call"):
			s.add(Entry{Role: Assistant, Line: n + 1, Time: at}) // a step without text
		case l.Type == "event_msg" && p.Type == "user_message":
			s.add(Entry{Role: User, Text: p.Message, Person: true, Line: n + 1, Time: at})
		}
	}
}

// Gemini CLI records a session as one JSON file
// (~/.gemini/tmp/<project hash>/chats/session-….json): a conversation
// record {"sessionId", "projectHash", "startTime", "lastUpdated",
// "messages"}, each message {"id", "timestamp", "type" ("user", "gemini",
// "info", "error", "warning"), "content" (a string or a list of parts with
// "text"), "toolCalls"}. Newer versions append the same records as JSON
// lines; both are read. Source: packages/core/src/services/
// chatRecordingService.ts (ConversationRecord, MessageRecord) in
// google-gemini/gemini-cli, and its hooks reference (docs/hooks/
// reference.md: transcript_path is the session's JSON transcript).
func readGemini(data []byte, s *Session) {
	var whole struct {
		SessionID string            `json:"sessionId"`
		Messages  []json.RawMessage `json:"messages"`
	}
	if t := bytes.TrimLeft(data, " \t\r\n\uFEFF"); bytes.HasPrefix(t, []byte("{")) && json.Unmarshal(t, &whole) == nil && whole.Messages != nil {
		s.ID = whole.SessionID
		for _, m := range whole.Messages {
			if !geminiMessage(m, 0, s) {
				s.Skipped++
			}
		}
		return
	}
	// JSON lines, or a whole file torn at its end: each line on its own
	// (a message of the whole file's list ends with a comma).
	for n, line := range splitLines(data) {
		line = bytes.TrimSuffix(bytes.TrimSpace(line), []byte(","))
		if len(line) == 0 {
			continue
		}
		var meta struct {
			SessionID string `json:"sessionId"`
			Type      string `json:"type"`
		}
		if json.Unmarshal(line, &meta) != nil {
			s.Skipped++
			continue
		}
		if meta.Type == "" {
			if meta.SessionID != "" {
				s.ID = meta.SessionID
			} else {
				s.Skipped++
			}
			continue
		}
		if !geminiMessage(line, n+1, s) {
			s.Skipped++
		}
	}
}

func geminiMessage(raw json.RawMessage, line int, s *Session) bool {
	var m struct {
		Timestamp string          `json:"timestamp"`
		Type      string          `json:"type"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []any           `json:"toolCalls"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Type == "" {
		return false
	}
	at := parseTime(m.Timestamp)
	switch m.Type {
	case "gemini":
		s.add(Entry{Role: Assistant, Text: geminiText(m.Content), Line: line, Time: at})
	case "user":
		s.add(Entry{Role: User, Text: geminiText(m.Content), Person: true, Line: line, Time: at})
	default:
		// info, error and warning lines are the CLI's own
	}
	return true
}

// geminiText is the text of a content: a string, a part, or parts.
func geminiText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	type part struct {
		Text    string `json:"text"`
		Thought bool   `json:"thought"`
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		var one part
		if json.Unmarshal(raw, &one) != nil {
			return ""
		}
		parts = []part{one}
	}
	var out []string
	for _, p := range parts {
		if !p.Thought {
			out = append(out, p.Text)
		}
	}
	return joinText(out...)
}

// Cursor's agent writes a transcript of each conversation
// (~/.cursor/projects/<project>/agent-transcripts/…, the file a hook's
// transcript_path names) as JSON lines {"role", "message": {"content":
// [{"type": "text", "text"}, …]}}, the person's text wrapped in a
// <user_query> tag. Cursor does not document the format; this is the shape
// its files have, as read by entireio/cli (cmd/entire/cli/agent/cursor/
// transcript.go) and getagentseal/codeburn (docs/providers/cursor-agent.md).
// The older plain-text transcripts are not read.
func readCursor(lines [][]byte, s *Session) {
	// The file is named by the conversation's id.
	s.ID = strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
	for n, line := range lines {
		if line == nil {
			continue
		}
		var l struct {
			Role    string `json:"role"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &l) != nil || l.Role == "" {
			s.Skipped++
			continue
		}
		text := strings.Join(contentText(l.Message.Content), "\n\n")
		switch l.Role {
		case "assistant":
			s.add(Entry{Role: Assistant, Text: text, Line: n + 1})
		case "user":
			if i := strings.Index(text, "<user_query>"); i >= 0 {
				text = text[i+len("<user_query>"):]
				if j := strings.Index(text, "</user_query>"); j >= 0 {
					text = text[:j]
				}
				text = strings.TrimSpace(text)
			}
			s.add(Entry{Role: User, Text: text, Person: !hasToolResult(l.Message.Content), Line: n + 1})
		default:
			s.Skipped++
		}
	}
}

// Copilot CLI keeps a session's events as JSON lines
// (~/.copilot/session-state/<session>/events.jsonl, the transcriptPath of
// its agentStop hook): {"type", "id", "timestamp", "parentId", "data"}.
// "session.start" carries the session's id and context; "user.message"
// and "assistant.message" carry "content", the text. Source: the session
// events reference of github/copilot-sdk (docs/features/streaming-events.md)
// and GitHub's Copilot hooks reference (transcriptPath: "Path to the JSONL
// transcript file for the session").
func readCopilot(lines [][]byte, s *Session) {
	for n, line := range lines {
		if line == nil {
			continue
		}
		var l struct {
			Type      string `json:"type"`
			Timestamp string `json:"timestamp"`
			Data      struct {
				SessionID string `json:"sessionId"`
				Content   string `json:"content"`
				Context   struct {
					Cwd string `json:"cwd"`
				} `json:"context"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &l) != nil || l.Type == "" {
			s.Skipped++
			continue
		}
		at := parseTime(l.Timestamp)
		switch l.Type {
		case "session.start":
			s.ID, s.Cwd = l.Data.SessionID, l.Data.Context.Cwd
		case "user.message":
			s.add(Entry{Role: User, Text: l.Data.Content, Person: true, Line: n + 1, Time: at})
		case "assistant.message":
			s.add(Entry{Role: Assistant, Text: l.Data.Content, Line: n + 1, Time: at})
		}
	}
}
