package transcript

import (
	"encoding/json"
	"strings"
)

// MaxTail is how much of a transcript's end a hook reads.
const MaxTail = 64 << 20

// ContentText returns the text of a message's content in the Messages
// API's form (as hosts that keep the API's messages write it): a string, or the text blocks of a
// block list.
func ContentText(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			out = append(out, b.Text)
		}
	}
	return out
}

// HasToolResult reports whether a user entry's content is a tool's answer.
func HasToolResult(raw json.RawMessage) bool {
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return true
		}
	}
	return false
}
