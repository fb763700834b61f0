package gemini_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/gemini"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	_ "github.com/baton-md/baton/agenthost/hosts" // every host's format, to tell files apart
	"github.com/baton-md/baton/agenthost/internal/hosttest"
)

// The AfterAgent inputs the repository holds for Gemini CLI (the command
// line's script test, cmd/baton/testdata/script/hook_hosts.txtar): the
// response that proceeds is denied under --lint; a plain answer passes
// with {}; the retry, whose prompt_response holds the denied response and
// the fixed one, is judged on the fixed one alone, from the chat file.
func TestRecordedPayloads(t *testing.T) {
	dir := hosttest.Extract(t, "cmd/baton/testdata/script/hook_hosts.txtar")
	cwd, state := t.TempDir(), t.TempDir()
	raw := hosttest.Payload(t, dir, "gemini.json", cwd)
	in, err := gemini.Host.Stop.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if s := in.Stop; s.SessionID != "gm" || s.Cwd != cwd || s.Active || !strings.HasPrefix(s.Message, "## What I Just Did") || !in.Cumulative {
		t.Errorf("read as %+v", in)
	}
	run := func(name string) (string, string) {
		out, errs := hooktest.Run(t, []string{"gemini-stop", "--lint", "--state-dir", state}, hosttest.Payload(t, dir, name, cwd))
		return out, errs
	}
	if out, errs := run("gemini.json"); !strings.Contains(stopCase.Check(t, []byte(out)), "packet/review-auto-continue") {
		t.Errorf("gemini.json: reply %q, stderr %q", out, errs)
	}
	for _, name := range []string{"gemini-ok.json", "gemini-retry.json"} {
		if out, errs := run(name); strings.TrimSpace(out) != "{}" || errs != "" {
			t.Errorf("%s: reply %q, stderr %q; want {} and nothing said", name, out, errs)
		}
	}
}

// The Gemini CLI chat files the repository holds, JSON and JSON lines,
// are told to be Gemini CLI's and read as its format.
func TestRecordedSessions(t *testing.T) {
	hosttest.CheckSessions(t, gemini.Host.Transcript.Host, []hosttest.Session{
		{Archive: "transcript/testdata/sessions.txtar", File: "gemini.json", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "transcript/testdata/sessions.txtar", File: "gemini.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "transcript/testdata/hostshapes.txtar", File: "gemini-0.61.0.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "audit/testdata/hooks.txtar", File: "gemini/tmp/3f1a/chats/session-2026-12-01T11-00-gm-061.jsonl", Stops: 2, Last: "Backoff capped at 60 s."},
		{Archive: "audit/testdata/hooks.txtar", File: "gemini/tmp/3f1a/chats/session-2026-12-01T12-00-gm-hook.jsonl", Stops: 2, Last: "## What I Just Did"},
		{Archive: "audit/testdata/mixed.txtar", File: "gemini/tmp/ab12/chats/session-2026-11-25T00-00-gm-week.json", Stops: 2, Last: "Sure: the function returns nil when the cache is cold."},
		{Archive: "cmd/baton/testdata/script/hook_hosts.txtar", File: "gemini-chat.jsonl", Stops: 2, Last: "## What I Just Did"},
	})
}
