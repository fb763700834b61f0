package cursor

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/transcript"
)

// Format is how baton reads Cursor's agent transcripts.
var Format = transcript.Format{
	Host: ID, ReadLines: read, Rank: 50,
	Claims: func(keys map[string]json.RawMessage, typ string) bool {
		_, role := keys["role"]
		_, message := keys["message"]
		return role && message
	},
}

// Cursor's agent writes a transcript of each conversation
// (~/.cursor/projects/<project>/agent-transcripts/…, the file a hook's
// transcript_path names) as JSON lines {"role", "message": {"content":
// [{"type": "text", "text"}, …]}}, the person's text wrapped in a
// <user_query> tag. Cursor does not document the format; this is the shape
// its files have, as read by entireio/cli (cmd/entire/cli/agent/cursor/
// transcript.go) and getagentseal/codeburn (docs/providers/cursor-agent.md).
// The older plain-text transcripts are not read.
func read(lines [][]byte, s *transcript.Session) {
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
		text := strings.Join(transcript.ContentText(l.Message.Content), "\n\n")
		switch l.Role {
		case "assistant":
			s.Add(transcript.Entry{Role: transcript.Assistant, Text: text, Line: n + 1})
		case "user":
			if i := strings.Index(text, "<user_query>"); i >= 0 {
				text = text[i+len("<user_query>"):]
				if j := strings.Index(text, "</user_query>"); j >= 0 {
					text = text[:j]
				}
				text = strings.TrimSpace(text)
			}
			s.Add(transcript.Entry{Role: transcript.User, Text: text, Person: !transcript.HasToolResult(l.Message.Content), Line: n + 1})
		default:
			s.Skipped++
		}
	}
}
