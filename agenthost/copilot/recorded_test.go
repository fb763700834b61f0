package copilot_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/copilot"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
)

// The agentStop input the repository holds for Copilot CLI (the command
// line's script test, cmd/baton/testdata/script/hook_hosts.txtar), with
// the events file it names, which holds the run's own hook.start record:
// judged from the events, blocked under --lint.
func TestRecordedPayload(t *testing.T) {
	dir := hosttest.Extract(t, "cmd/baton/testdata/script/hook_hosts.txtar")
	cwd := t.TempDir()
	raw := hosttest.Payload(t, dir, "copilot.json", cwd)
	in, err := copilot.Host.Stop.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if s := in.Stop; s.SessionID != "cp" || s.Cwd != cwd || s.Active || !strings.HasSuffix(in.Transcript, "copilot.jsonl") || string(in.Stamp) != "1764496800000" {
		t.Errorf("read as %+v", in)
	}
	out, errs := hooktest.Run(t, []string{"copilot-stop", "--lint", "--state-dir", t.TempDir()}, raw)
	if r := stopCase.Check(t, []byte(out)); !strings.Contains(r, "packet/review-auto-continue") {
		t.Errorf("reason %q, stderr %q", r, errs)
	}
}

// The Copilot CLI events files the repository holds are told to be
// Copilot's and read as its format.
func TestRecordedSessions(t *testing.T) {
	hosttest.CheckSessions(t, copilot.Host.Transcript.Host, []hosttest.Session{
		{Archive: "transcript/testdata/sessions.txtar", File: "copilot.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "audit/testdata/mixed.txtar", File: "copilot/session-state/cp-week/events.jsonl", Stops: 2, Last: "## What I Just Did"},
		{Archive: "cmd/baton/testdata/script/hook_hosts.txtar", File: "copilot.jsonl", Stops: 1, Last: "## What I Just Did"},
	})
}
