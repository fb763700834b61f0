package cursor_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/cursor"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
)

// The stop inputs the repository holds for Cursor (the command line's
// script test, cmd/baton/testdata/script/hook_hosts.txtar), with the agent
// transcript they name: a completed run is judged from the transcript and
// blocked under --lint with a follow-up; an aborted one is not judged.
func TestRecordedPayloads(t *testing.T) {
	dir := hosttest.Extract(t, "cmd/baton/testdata/script/hook_hosts.txtar")
	cwd := t.TempDir()
	raw := hosttest.Payload(t, dir, "cursor.json", cwd)
	in, err := cursor.Host.Stop.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if s := in.Stop; s.SessionID != "cu" || s.Cwd != cwd || s.Active || s.Message != "" || !strings.HasSuffix(in.Transcript, "cursor.jsonl") || in.Skip != "" {
		t.Errorf("read as %+v", in)
	}
	out, errs := hooktest.Run(t, []string{"cursor-stop", "--lint", "--state-dir", t.TempDir()}, raw)
	if r := stopCase.Check(t, []byte(out)); !strings.Contains(r, "packet/review-auto-continue") {
		t.Errorf("completed: reason %q, stderr %q", r, errs)
	}
	out, errs = hooktest.Run(t, []string{"cursor-stop", "--lint", "--state-dir", t.TempDir()}, hosttest.Payload(t, dir, "cursor-aborted.json", cwd))
	if r := stopCase.Check(t, []byte(out)); r != "" || !strings.Contains(errs, `status "aborted"; not judged`) {
		t.Errorf("aborted: reason %q, stderr %q", r, errs)
	}
}

// The Cursor agent transcripts the repository holds are told to be
// Cursor's and read as its format.
func TestRecordedSessions(t *testing.T) {
	hosttest.CheckSessions(t, cursor.Host.Transcript.Host, []hosttest.Session{
		{Archive: "transcript/testdata/sessions.txtar", File: "cursor.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "audit/testdata/mixed.txtar", File: "cursor/projects/work-app/agent-transcripts/cu-week.jsonl", Stops: 1, Last: "## What I Just Did"},
		{Archive: "cmd/baton/testdata/script/hook_hosts.txtar", File: "cursor.jsonl", Stops: 1, Last: "## What I Just Did"},
	})
}
