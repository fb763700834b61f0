package codex

import (
	"encoding/json"
	"html"
	"strings"
	"time"

	"github.com/baton-md/baton/transcript"
)

// Format is how baton reads Codex's rollout files.
var Format = transcript.Format{
	Host: ID, ReadLines: read, Rank: 10,
	Claims: func(keys map[string]json.RawMessage, typ string) bool {
		_, payload := keys["payload"]
		return payload && (typ == "session_meta" || typ == "response_item" || typ == "event_msg" || typ == "turn_context")
	},
}

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
func read(lines [][]byte, s *transcript.Session) {
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
		at := transcript.ParseTime(l.Timestamp)
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
				s.Add(transcript.Entry{Role: transcript.Assistant, Text: codexText(p.Content, "output_text"), Line: n + 1, Time: at})
			case "user":
				if reason, ok := hookPrompt(codexText(p.Content, "input_text")); ok {
					s.Add(transcript.Entry{Role: transcript.Hook, Text: reason, Blocked: true, Line: n + 1, Time: at})
				}
			}
		case l.Type == "response_item" && (kind.Type == "function_call" || kind.Type == "local_shell_call" || kind.Type == "custom_tool_call"):
			s.Add(transcript.Entry{Role: transcript.Assistant, Line: n + 1, Time: at}) // a step without text
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
	return transcript.JoinText(parts...)
}

// codexItem reads a completed turn item: a person's message, or a Stop
// hook's block. Other items (the agent's message, already read from its
// response item; tool calls; plans) add nothing.
func codexItem(s *transcript.Session, raw json.RawMessage, line int, at time.Time) {
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
		s.Add(transcript.Entry{Role: transcript.Hook, Text: transcript.JoinText(parts...), Blocked: true, Line: line, Time: at})
	}
}

// codexPerson adds what the person typed; a version that writes it both as
// a user_message event and a UserMessage item gives it once, and a hook's
// prompt written as one is the hook's.
func codexPerson(s *transcript.Session, text string, line int, at time.Time) {
	if reason, ok := hookPrompt(text); ok {
		s.Add(transcript.Entry{Role: transcript.Hook, Text: reason, Blocked: true, Line: line, Time: at})
		return
	}
	if k := len(s.Entries); k > 0 && s.Entries[k-1].Person && s.Entries[k-1].Text == text {
		return
	}
	s.Add(transcript.Entry{Role: transcript.User, Text: text, Person: true, Line: line, Time: at})
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
	return transcript.JoinText(out...), true
}
