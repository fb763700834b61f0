package transcript

import (
	"bytes"
	"encoding/json"
	"html"
	"path/filepath"
	"strings"
	"time"
)

// Codex writes a session as a rollout file
// (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl): JSON lines of
// {"timestamp", "type", "payload"}. "session_meta" carries the session's
// id and cwd; "response_item" a model item, of which a "message" has a
// "role" and "content" blocks ("input_text", "output_text"); "event_msg"
// an event. What the person typed is an event: "user_message" (its
// "message") before Codex 0.169, and from 0.169 "item_completed" with an
// "item" of type "UserMessage" (its "content", inputs of which "text" ones
// carry the text). The response items of role user also carry injected
// context, so only these events count as a person's. A Stop hook's block
// is written twice: a response item of role user whose text is
// <hook_prompt hook_run_id="…">reason</hook_prompt>, and an
// "item_completed" of type "HookPrompt" whose "fragments" hold the
// reason's "text". Source: codex-rs/protocol/src/protocol.rs (RolloutLine,
// RolloutItem, EventMsg, ItemCompletedEvent), codex-rs/protocol/src/
// items.rs (TurnItem, UserMessageItem, HookPromptItem) and
// codex-rs/protocol/src/models.rs (ResponseItem, ContentItem) in
// openai/codex, and the rollouts Codex CLI 0.169.0 (npm @openai/codex)
// writes.
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
		// Only the fields of the records read are decoded, so that another
		// record's field of another shape spoils nothing.
		var kind struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(l.Payload, &kind)
		at := parseTime(l.Timestamp)
		var err error
		switch {
		case l.Type == "session_meta":
			var p struct {
				ID  string `json:"id"`
				Cwd string `json:"cwd"`
			}
			if err = json.Unmarshal(l.Payload, &p); err == nil {
				s.ID, s.Cwd = p.ID, p.Cwd
			}
		case l.Type == "response_item" && kind.Type == "message":
			var p struct {
				Role    string         `json:"role"`
				Content []codexContent `json:"content"`
			}
			if err = json.Unmarshal(l.Payload, &p); err != nil {
				break
			}
			switch p.Role {
			case "assistant":
				s.add(Entry{Role: Assistant, Text: codexText(p.Content, "output_text"), Line: n + 1, Time: at})
			case "user":
				if reason, ok := hookPrompt(codexText(p.Content, "input_text")); ok {
					s.add(Entry{Role: Hook, Text: reason, Blocked: true, Line: n + 1, Time: at})
				}
			}
		case l.Type == "response_item" && (kind.Type == "function_call" || kind.Type == "local_shell_call" || kind.Type == "custom_tool_call"):
			s.add(Entry{Role: Assistant, Line: n + 1, Time: at}) // a step without text
		case l.Type == "event_msg" && kind.Type == "user_message":
			var p struct {
				Message string `json:"message"`
			}
			if err = json.Unmarshal(l.Payload, &p); err == nil {
				codexPerson(s, p.Message, n+1, at)
			}
		case l.Type == "event_msg" && kind.Type == "item_completed":
			var p struct {
				Item json.RawMessage `json:"item"`
			}
			if err = json.Unmarshal(l.Payload, &p); err == nil {
				codexItem(s, p.Item, n+1, at)
			}
		}
		if err != nil {
			s.Skipped++
		}
	}
}

// codexContent is a content block of a response item, or an input of a
// UserMessage item.
type codexContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// codexText joins the text of the blocks of type typ.
func codexText(content []codexContent, typ string) string {
	var parts []string
	for _, c := range content {
		if c.Type == typ {
			parts = append(parts, c.Text)
		}
	}
	return joinText(parts...)
}

// codexItem reads a completed turn item: a person's message, or a Stop
// hook's block. Other items (the agent's message, already read from its
// response item; tool calls; plans) add nothing.
func codexItem(s *Session, raw json.RawMessage, line int, at time.Time) {
	var it struct {
		Type      string         `json:"type"`
		Content   []codexContent `json:"content"`
		Fragments []struct {
			Text string `json:"text"`
		} `json:"fragments"`
	}
	if json.Unmarshal(raw, &it) != nil {
		s.Skipped++
		return
	}
	switch it.Type {
	case "UserMessage":
		var parts []string
		for _, c := range it.Content {
			if c.Type == "text" {
				parts = append(parts, c.Text)
			}
		}
		codexPerson(s, strings.Join(parts, ""), line, at)
	case "HookPrompt":
		var parts []string
		for _, f := range it.Fragments {
			parts = append(parts, f.Text)
		}
		s.add(Entry{Role: Hook, Text: joinText(parts...), Blocked: true, Line: line, Time: at})
	}
}

// codexPerson adds what the person typed; a version that writes it both as
// a user_message event and a UserMessage item gives it once, and a hook's
// prompt written as one is the hook's.
func codexPerson(s *Session, text string, line int, at time.Time) {
	if reason, ok := hookPrompt(text); ok {
		s.add(Entry{Role: Hook, Text: reason, Blocked: true, Line: line, Time: at})
		return
	}
	if k := len(s.Entries); k > 0 && s.Entries[k-1].Person && s.Entries[k-1].Text == text {
		return
	}
	s.add(Entry{Role: User, Text: text, Person: true, Line: line, Time: at})
}

// hookPrompt is the reason inside a <hook_prompt …>…</hook_prompt> text
// (Codex's record of a Stop hook's block, as the model is sent it).
func hookPrompt(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<hook_prompt") {
		return "", false
	}
	var out []string
	for _, frag := range strings.Split(t, "</hook_prompt>") {
		if _, body, ok := strings.Cut(frag, ">"); ok && strings.Contains(frag, "<hook_prompt") {
			out = append(out, html.UnescapeString(strings.TrimSpace(body)))
		}
	}
	return joinText(out...), true
}

// Gemini CLI records a session as one JSON file
// (~/.gemini/tmp/<project hash>/chats/session-….json): a conversation
// record {"sessionId", "projectHash", "startTime", "lastUpdated",
// "messages"}, each message {"id", "timestamp", "type" ("user", "gemini",
// "info", "error", "warning"), "content" (a string or a list of parts with
// "text"), "toolCalls"}. Newer versions (0.61) append records as JSON lines
// (session-….jsonl): the conversation's metadata first, then each message
// as written, again with the same "id" each time it changes (its tool
// calls, its token counts), {"$set": {…}} to update the metadata (after
// every message; "messages" in it replaces them all), and {"$rewindTo":
// id} to drop the messages from that one on. A tool's answer is a user
// message of "functionResponse" parts, and the context Gemini CLI sets up
// (a user message opening with <session_context> or <hook_context>) is
// no person's either, as Gemini CLI itself reads them. Both forms are read.
// Source: packages/core/src/services/chatRecordingService.ts
// (ConversationRecord, MessageRecord, loadConversationRecord) in
// google-gemini/gemini-cli, as bundled in Gemini CLI 0.61.0 (npm
// @google/gemini-cli, bundle/chunk-*.js), and its hooks reference
// (docs/hooks/reference.md: transcript_path is the session's JSON
// transcript).
func readGemini(data []byte, s *Session) {
	var whole struct {
		SessionID string            `json:"sessionId"`
		Messages  []json.RawMessage `json:"messages"`
	}
	if t := bytes.TrimLeft(data, " \t\r\n\uFEFF"); bytes.HasPrefix(t, []byte("{")) && json.Unmarshal(t, &whole) == nil && whole.Messages != nil {
		s.ID = whole.SessionID
		g := geminiLog{s: s}
		for _, m := range whole.Messages {
			if !g.message(m, 0) {
				s.Skipped++
			}
		}
		return
	}
	// JSON lines, or a whole file torn at its end: each line on its own
	// (a message of the whole file's list ends with a comma).
	g := geminiLog{s: s}
	for n, line := range splitLines(data) {
		line = bytes.TrimSuffix(bytes.TrimSpace(line), []byte(","))
		if len(line) == 0 {
			continue
		}
		var rec struct {
			SessionID string          `json:"sessionId"`
			ID        json.RawMessage `json:"id"`
			Type      json.RawMessage `json:"type"`
			Set       *struct {
				Messages []json.RawMessage `json:"messages"`
			} `json:"$set"`
			RewindTo *string `json:"$rewindTo"`
		}
		if json.Unmarshal(line, &rec) != nil {
			s.Skipped++
			continue
		}
		switch {
		case rec.RewindTo != nil:
			g.rewind(*rec.RewindTo)
		case rec.Set != nil:
			if rec.Set.Messages != nil {
				g.rewind("")
				for _, m := range rec.Set.Messages {
					g.message(m, n+1)
				}
			}
		case len(rec.ID) > 0 || len(rec.Type) > 0:
			if !g.message(line, n+1) {
				s.Skipped++
			}
		case rec.SessionID != "":
			s.ID = rec.SessionID // the metadata
		default:
			s.Skipped++
		}
	}
}

// geminiLog replays a chat file's records: a message written again under
// its id replaces the one before, and a rewind drops messages.
type geminiLog struct {
	s   *Session
	ids []string // the id of each entry (for the whole-file form, "")
}

// message adds (or replaces, by id) a message record; false when it is
// none.
func (g *geminiLog) message(raw json.RawMessage, line int) bool {
	var m struct {
		ID        string          `json:"id"`
		Timestamp string          `json:"timestamp"`
		Type      string          `json:"type"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Type == "" {
		return false
	}
	at := parseTime(m.Timestamp)
	var e Entry
	switch m.Type {
	case "gemini":
		e = Entry{Role: Assistant, Text: geminiText(m.Content), Line: line, Time: at}
	case "user":
		text := geminiText(m.Content)
		t := strings.TrimSpace(text)
		person := (t != "" || !geminiToolAnswer(m.Content)) && !strings.HasPrefix(t, "<session_context>") && !strings.HasPrefix(t, "<hook_context>")
		e = Entry{Role: User, Text: text, Person: person, Line: line, Time: at}
	default:
		return true // info, error and warning lines are the CLI's own
	}
	if m.ID != "" {
		for i := len(g.ids) - 1; i >= 0; i-- {
			if g.ids[i] == m.ID {
				g.s.Entries[i] = e
				return true
			}
		}
	}
	g.s.add(e)
	g.ids = append(g.ids, m.ID)
	return true
}

// rewind drops the entries from the message id on ("" or an id not read:
// all of them, as Gemini CLI does).
func (g *geminiLog) rewind(id string) {
	cut := 0
	for i, have := range g.ids {
		if id != "" && have == id {
			cut = i
			break
		}
	}
	g.s.Entries, g.ids = g.s.Entries[:cut], g.ids[:cut]
}

// geminiToolAnswer reports whether a user message's content is parts that
// answer tool calls (functionResponse), which Gemini CLI records as the
// user's.
func geminiToolAnswer(raw json.RawMessage) bool {
	var parts []map[string]json.RawMessage
	if json.Unmarshal(raw, &parts) != nil || len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if _, ok := p["functionResponse"]; !ok {
			return false
		}
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
