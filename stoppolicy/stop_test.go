package stoppolicy

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/stopintent"
)

const autoContinue = "## What I Just Did\n\nAdded the retry cap.\n\n## Why I Stopped\n\nThe cap changes caller behaviour.\n\n## What Needs Your Review\n\n- Do you approve a 60 second cap?\n\n## What Happens Next\n\nI'll proceed with the callers tonight.\n\n## What I Need From You\n\nReply \"approve\" or \"no cap\".\n"

// Judge gives the findings that block, on the message's own lines, and the
// outcome stop intent gives it.
func TestJudge(t *testing.T) {
	env, err := NewEnv(t.TempDir()+"/last-message.md", "", "")
	if err != nil {
		t.Fatal(err)
	}
	j := env.Judge(autoContinue)
	if len(j.Findings) == 0 || j.Findings[0].Line != 15 || !strings.HasPrefix(j.Findings[0].Rule, "packet/") || j.Outcome != stopintent.Real {
		t.Errorf("Judge = %+v", j)
	}
	if j := env.Judge("Sure: it returns nil."); len(j.Findings) != 0 {
		t.Errorf("conversation has blocking findings: %+v", j.Findings)
	}
}

// A host that cannot say whether a stop follows a block (NoActiveFlag)
// is bounded by baton's count alone: blocks in a row up to MaxBlocks, then
// a release; and a stop let through starts the count afresh.
func TestEvaluateWithoutActiveFlag(t *testing.T) {
	o := Options{MaxBlocks: 2, Lint: true, StateDir: t.TempDir()}
	stop := func(msg string) Outcome {
		return Evaluate(Stop{Host: "copilot", SessionID: "s", Cwd: t.TempDir(), Message: msg, NoActiveFlag: true}, o)
	}
	if out := stop(autoContinue); !strings.HasPrefix(out.Reason, ReasonPrefix) {
		t.Fatalf("first stop: %+v", out)
	}
	if out := stop(autoContinue + "\n"); out.Reason == "" {
		t.Fatalf("second stop: %+v", out)
	}
	if out := stop(autoContinue + "\n\n"); out.Reason != "" || !strings.Contains(out.Released, "already blocked 2 times") {
		t.Fatalf("third stop: %+v", out)
	}
	if out := stop(autoContinue); out.Reason == "" {
		t.Fatalf("after the release: %+v", out)
	}
	if out := stop("Sure: it returns nil."); out.Reason != "" || out.Released != "" {
		t.Fatalf("a passing stop: %+v", out)
	}
	if n, _ := (Counter{Dir: o.StateDir, Session: "s"}).count(); n != 0 {
		t.Errorf("a stop let through left the count at %d", n)
	}
}

// The same stop delivered twice within the window is answered once; a
// re-render after a block is a new stop (the count differs).
func TestEvaluateDuplicate(t *testing.T) {
	o := Options{Lint: true, StateDir: t.TempDir()}
	s := Stop{Host: "codex", SessionID: "d", Cwd: t.TempDir(), Message: "Sure: it returns nil."}
	if out := Evaluate(s, o); out.Duplicate || out.Reason != "" {
		t.Fatalf("first delivery: %+v", out)
	}
	if out := Evaluate(s, o); !out.Duplicate {
		t.Fatalf("the second delivery of that stop: %+v", out)
	}
	s.Message = autoContinue
	if out := Evaluate(s, o); out.Reason == "" {
		t.Fatalf("a new message: %+v", out)
	}
	s.Active = true
	if out := Evaluate(s, o); out.Duplicate || out.Reason == "" {
		t.Fatalf("the re-render after the block: %+v", out)
	}
}
