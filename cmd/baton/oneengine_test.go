package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine/enginetest"
	"github.com/baton-md/baton/stoppolicy"
)

// One engine: `baton check`, the stop hook and `baton classify` build the
// same environment for the same document in the same workspace (its
// .baton.yaml with a rule off, a rule pattern and an added phrase; a
// specrew workspace with a boundary ahead of the last authorized one), so
// they report the same findings. check's come from its JSON output; the
// hook's and classify's from the environment they analyse stop messages
// in. (The server's side is server.TestServerEqualsCheck.)
func TestOneEngineSameFindings(t *testing.T) {
	dir, stopText := enginetest.Workspace(t)
	path := filepath.Join(dir, "stop.md")
	var out, errb bytes.Buffer
	run([]string{"check", "--format", "json", path}, strings.NewReader(""), &out, &errb)
	var rep struct {
		Files []struct {
			Findings []struct {
				Rule, Severity string
				Start          struct{ Line, Column int }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("check --format json: %v\n%s%s", err, out.String(), errb.String())
	}
	var fromCheck []string
	for _, f := range rep.Files[0].Findings {
		fromCheck = append(fromCheck, fmtFinding(f.Rule, f.Severity, f.Start.Line))
	}
	slices.Sort(fromCheck)

	env, err := stoppolicy.NewEnv(path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	doc, res := env.Analyze(path, stopText)
	var fromStop []string
	for _, f := range res.Findings {
		fromStop = append(fromStop, fmtFinding(f.Rule, f.Severity.String(), doc.Lines.Position(f.Span.Start, analysis.UTF8).Line+1))
	}
	slices.Sort(fromStop)
	if !slices.Equal(fromCheck, fromStop) {
		t.Errorf("check and the stop hook / classify differ:\ncheck: %q\nstop:  %q", fromCheck, fromStop)
	}
	// The configuration and the workspace did reach them.
	joined := strings.Join(fromCheck, " ")
	if strings.Contains(joined, "heading-level") || strings.Contains(joined, "review-not-held") {
		t.Errorf("the .baton.yaml was not applied: %q", fromCheck)
	}
	if !strings.Contains(joined, "stopintent/") || strings.Contains(joined, "stopintent/inert-continue@error") {
		t.Errorf("the specrew state or the rule pattern did not apply: %q", fromCheck)
	}
	if env.State.BoundaryPending.Value.String() != "true" {
		t.Errorf("the boundary ahead of the authorized one is not pending: %+v", env.State.BoundaryPending)
	}
}

func fmtFinding(rule, sev string, line int) string {
	return rule + "@" + sev + ":" + strconv.Itoa(line)
}
