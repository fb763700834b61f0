package codex_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/codex"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
)

// The Stop input the repository holds for Codex (the command line's
// script test, cmd/baton/testdata/script/hook_hosts.txtar): read into the
// stop, and blocked under --lint in Codex's reply.
func TestRecordedPayload(t *testing.T) {
	dir := hosttest.Extract(t, "cmd/baton/testdata/script/hook_hosts.txtar")
	cwd := t.TempDir()
	raw := hosttest.Payload(t, dir, "codex.json", cwd)
	in, err := codex.Host.Stop.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if s := in.Stop; s.SessionID != "cx" || s.Turn != "t1" || s.Cwd != cwd || s.Active || !strings.HasPrefix(s.Message, "## What I Just Did") || in.Transcript != "" || in.Skip != "" {
		t.Errorf("read as %+v", in)
	}
	out, errs := hooktest.Run(t, []string{"codex-stop", "--lint", "--state-dir", t.TempDir()}, raw)
	if r := stopCase.Check(t, []byte(out)); !strings.Contains(r, "line 15:") || !strings.Contains(r, "packet/review-auto-continue") {
		t.Errorf("reason %q, stderr %q", r, errs)
	}
}

// The Codex session files the repository holds (transcript's, audit's
// test archives) are told to be Codex's and read as its format.
func TestRecordedSessions(t *testing.T) {
	hosttest.CheckSessions(t, codex.Host.Transcript.Host, []hosttest.Session{
		{Archive: "transcript/testdata/sessions.txtar", File: "codex.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "transcript/testdata/hostshapes.txtar", File: "codex-0.169.0.jsonl", Stops: 3, Last: "Thanks: the callers are next."},
		{Archive: "audit/testdata/hooks.txtar", File: "codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-019a7c55-0169-7000-8000-0000000c0169.jsonl", Stops: 3, Last: "Thanks: the callers are next."},
		{Archive: "audit/testdata/mixed.txtar", File: "codex/sessions/2026/11/24/rollout-2026-11-24T10-00-00-cx-week.jsonl", Stops: 2, Last: "## What I Just Did"},
	})
}
