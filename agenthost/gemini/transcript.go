package gemini

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/baton-md/baton/transcript"
)

// Format is how baton reads Gemini CLI's chat files: one JSON document
// over many lines (before 0.61), or JSON lines.
var Format = transcript.Format{
	Host: ID, ReadWhole: read, Rank: 40,
	ClaimsFile: func(head []byte) bool {
		t := bytes.TrimLeft(head, " \t\r\n\uFEFF")
		return bytes.HasPrefix(t, []byte("{")) && !json.Valid(transcript.FirstLine(t)) && bytes.Contains(t, []byte(`"messages"`))
	},
	Claims: func(keys map[string]json.RawMessage, typ string) bool {
		_, project := keys["projectHash"]
		_, messages := keys["messages"]
		return project || messages || typ == "gemini"
	},
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
func read(data []byte, s *transcript.Session) {
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
	for n, line := range transcript.SplitLines(data) {
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
// its id replaces the one before, and a rewind drops messages. Each id is
// found in a map: looked for among every message before it, 60,000
// messages took 9 s.
type geminiLog struct {
	s   *transcript.Session
	ids []string       // the id of each entry ("" for a message without one)
	at  map[string]int // the entry of each id
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
	at := transcript.ParseTime(m.Timestamp)
	var e transcript.Entry
	switch m.Type {
	case "gemini":
		e = transcript.Entry{Role: transcript.Assistant, Text: geminiText(m.Content), Line: line, Time: at}
	case "user":
		text := geminiText(m.Content)
		t := strings.TrimSpace(text)
		person := (t != "" || !geminiToolAnswer(m.Content)) && !strings.HasPrefix(t, "<session_context>") && !strings.HasPrefix(t, "<hook_context>")
		e = transcript.Entry{Role: transcript.User, Text: text, Person: person, Line: line, Time: at}
	default:
		return true // info, error and warning lines are the CLI's own
	}
	if m.ID != "" {
		if i, ok := g.at[m.ID]; ok {
			g.s.Entries[i] = e
			return true
		}
		if g.at == nil {
			g.at = map[string]int{}
		}
		g.at[m.ID] = len(g.s.Entries)
	}
	g.s.Add(e)
	g.ids = append(g.ids, m.ID)
	return true
}

// rewind drops the entries from the message id on ("" or an id not read:
// all of them, as Gemini CLI does).
func (g *geminiLog) rewind(id string) {
	cut := 0
	if i, ok := g.at[id]; ok && id != "" {
		cut = i
	}
	for _, dropped := range g.ids[cut:] {
		delete(g.at, dropped)
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
	return transcript.JoinText(out...)
}
