package copilot

import (
	"encoding/json"
	"strings"

	"github.com/baton-md/baton/transcript"
)

// Format is how baton reads Copilot CLI's session events.
var Format = transcript.Format{
	Host: ID, ReadLines: read, Rank: 20,
	Claims: func(keys map[string]json.RawMessage, typ string) bool {
		_, data := keys["data"]
		return data && strings.Contains(typ, ".")
	},
}

// Copilot CLI keeps a session's events as JSON lines
// (~/.copilot/session-state/<session>/events.jsonl, the transcriptPath of
// its agentStop hook): {"type", "id", "timestamp", "parentId", "data"}.
// "session.start" carries the session's id and context; "user.message"
// and "assistant.message" carry "content", the text. Source: the session
// events reference of github/copilot-sdk (docs/features/streaming-events.md)
// and GitHub's Copilot hooks reference (transcriptPath: "Path to the JSONL
// transcript file for the session").
func read(lines [][]byte, s *transcript.Session) {
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
		at := transcript.ParseTime(l.Timestamp)
		switch l.Type {
		case "session.start":
			s.ID, s.Cwd = l.Data.SessionID, l.Data.Context.Cwd
		case "user.message":
			s.Add(transcript.Entry{Role: transcript.User, Text: l.Data.Content, Person: true, Line: n + 1, Time: at})
		case "assistant.message":
			s.Add(transcript.Entry{Role: transcript.Assistant, Text: l.Data.Content, Line: n + 1, Time: at})
		}
	}
}
