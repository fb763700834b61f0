package gemini_test

import (
	"fmt"
	"path/filepath"
	"testing"

	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/transcript"
)

func persons(s *transcript.Session) []string {
	var out []string
	for _, e := range s.Entries {
		if e.Person {
			out = append(out, e.Text)
		}
	}
	return out
}

// Gemini CLI 0.61's JSON lines: {"$set": …} and {"$rewindTo": …} are
// records of the format, not unreadable lines; a message written again
// under its id is one entry, a rewound message none, and neither a tool's
// answer (a user message of functionResponse parts) nor the session's
// context (<session_context>) is a person's.
func TestGeminiJSONLRecords(t *testing.T) {
	s, err := transcript.Read(filepath.Join(hosttest.Extract(t, "transcript/testdata/hostshapes.txtar"), "gemini-0.61.0.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Host != "gemini" || s.ID != "gm-061" || s.Skipped != 0 {
		t.Errorf("host %q id %q skipped %d; want gemini gm-061 0", s.Host, s.ID, s.Skipped)
	}
	if got := persons(s); fmt.Sprint(got) != "[Add a retry cap. Yes.]" {
		t.Errorf("the person's entries: %q", got)
	}
	var texts []string
	for _, e := range s.Entries {
		texts = append(texts, e.Role+":"+e.Text)
	}
	want := "[user:<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context> user:Add a retry cap. assistant: user: assistant:Cap added. Shall I also cap the backoff? user:Yes. assistant:Backoff capped at 60 s.]"
	if fmt.Sprint(texts) != want {
		t.Errorf("entries\n %q\nwant\n %s", texts, want)
	}
	stops := s.Stops()
	if len(stops) != 2 || stops[0].Steps != 2 || stops[1].Steps != 1 || stops[1].Text != "Backoff capped at 60 s." {
		t.Errorf("stops: %+v", stops)
	}
	// "$set" with the messages replaces them all.
	s, _ = transcript.ReadData("gemini", "", []byte(`{"sessionId":"g","projectHash":"h"}
{"id":"1","type":"user","content":"Old."}
{"$set":{"messages":[{"id":"9","type":"user","content":"New."},{"id":"10","type":"gemini","content":"Fresh."}]}}
`))
	if s.Skipped != 0 || len(s.Entries) != 2 || s.Entries[0].Text != "New." || s.LastMessage() != "Fresh." {
		t.Errorf("$set of the messages: %+v skipped %d", s.Entries, s.Skipped)
	}
}
