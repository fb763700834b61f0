package classify_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/classify"
)

const review = "## What I Just Did\n\nUpdated the parser.\n\n## Why I Stopped\n\nThe change alters the public API.\n\n" +
	"## What Needs Your Review\n\n- Should `Parse` return an error for empty input?\n\n## What Happens Next\n\n" +
	"On approval, I will update the callers.\n\n## What I Need From You\n\nReply \"approve\" or \"reject\".\n"

const continueMsg = "Tests pass for task 3; moving on to task 4.\n\n<!-- SPECREW-STOP-INTENT: continue -->\n"

func run(t *testing.T, text string, o classify.Options) (classify.Classification, string, int) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "stop.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := classify.Run(path, o, nil, &stdout, &stderr)
	var c classify.Classification
	if code == classify.ExitOK {
		if err := json.Unmarshal(stdout.Bytes(), &c); err != nil {
			t.Fatalf("%v:\n%s", err, stdout.String())
		}
	}
	return c, stderr.String(), code
}

// A review request decides the outcome from the text alone: real, with
// the review item's line; a continue message outside a specrew project
// turns on inputs nothing told, and the reason names the flags that set
// them; set on the command line, they settle it.
func TestRun(t *testing.T) {
	c, stderr, code := run(t, review, classify.Options{})
	if code != classify.ExitOK || c.Outcome != "real" || len(c.DependsOn) != 0 || c.EnforcePacket == nil || !*c.EnforcePacket {
		t.Fatalf("review request: exit %d, %+v\n%s", code, c, stderr)
	}
	flags := map[string]string{stopintent.InAuthorized: "authorized"}
	c, _, _ = run(t, continueMsg, classify.Options{FlagNames: flags})
	if c.Outcome != "undetermined" || len(c.Possible) < 2 || !strings.Contains(c.Reason, "--authorized") {
		t.Errorf("continue outside a specrew project: %+v", c)
	}
	all := map[string]stopintent.Tri{stopintent.InBoundaryPending: stopintent.False, stopintent.InAuthorized: stopintent.True,
		stopintent.InInFlight: stopintent.False, stopintent.InKnownTerminal: stopintent.False, stopintent.InLoopGuardTripped: stopintent.False}
	c, _, _ = run(t, continueMsg, classify.Options{Overrides: all, FlagNames: flags})
	if c.Outcome != "continue" || len(c.DependsOn) != 0 {
		t.Errorf("continue with every input set: %+v", c)
	}
	if _, stderr, code := run(t, "# Handoff\n\nCarried from session `s1`.\n", classify.Options{}); code != classify.ExitUsage || stderr == "" {
		t.Errorf("not a stop message: exit %d, %q", code, stderr)
	}
}
