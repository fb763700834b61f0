package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
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
		fromStop = append(fromStop, fmtFinding(f.Rule, f.Severity.String(), doc.Lines.Position(f.Span.Start, markdown.UTF8).Line+1))
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

// A stop without a marker or a request, in a specrew project: the hooks,
// baton classify and the editor's hover and lens (each on the engine's
// environment) all say real, for specrew's default reason. The async inputs
// are what specrew's stop provider passes
// (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1):
// false. Outside a specrew project classify and the editor agree that the
// outcome is open (async work might be in flight); the hooks, which track
// no async work, decide real there too.
func TestOneEngineSpecrewAsyncInputs(t *testing.T) {
	const plain = "I updated the provider and tests. Stopping here.\n"
	const packet = "## What I Just Did\n\nMoved the retry cap into the client.\n\n## Why I Stopped\n\nA checkpoint after the change.\n\n" +
		"## What Needs Your Review\n\nNothing.\n\n## What Happens Next\n\nThe timeout handling, in the same task.\n\n## What I Need From You\n\nNothing.\n"
	specrew := t.TempDir()
	putFile(t, filepath.Join(specrew, ".specrew", "start-context.json"),
		`{"session_state":{"boundary_type":"plan"},"boundary_enforcement":{"last_authorized_boundary":"plan"}}`)
	other := t.TempDir()
	putFile(t, filepath.Join(other, ".baton.yaml"), "") // nothing above it applies

	for _, tt := range []struct {
		dir, name, text string
		want            stopintent.Outcome // classify's: "undetermined" when open
	}{
		{specrew, "plain.md", plain, stopintent.Real},
		{specrew, "packet.md", packet, stopintent.Real},
		{other, "plain.md", plain, "undetermined"},
		{other, "packet.md", packet, "undetermined"},
	} {
		path := filepath.Join(tt.dir, tt.name)
		putFile(t, path, tt.text)
		where := "a specrew project"
		if tt.dir == other {
			where = "elsewhere"
		}
		t.Run(where+"/"+tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run([]string{"classify", path}, strings.NewReader(""), &out, &errb); code != 0 {
				t.Fatalf("classify: exit %d\n%s", code, errb.String())
			}
			var c struct {
				Outcome  stopintent.Outcome
				Reason   string
				Possible []struct{ Outcome stopintent.Outcome } `json:"possible_outcomes"`
			}
			if err := json.Unmarshal(out.Bytes(), &c); err != nil {
				t.Fatalf("classify: %v\n%s", err, out.String())
			}
			if c.Outcome != tt.want {
				t.Errorf("classify: outcome %q, want %q\n%s", c.Outcome, tt.want, out.String())
			}
			if tt.want == stopintent.Real && (c.Reason != stopintent.ReasonDefault || len(c.Possible) != 1) {
				t.Errorf("classify: reason %q (%d possibilities), want %q alone", c.Reason, len(c.Possible), stopintent.ReasonDefault)
			}

			env, err := stoppolicy.NewEnv(path, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if j := env.Judge(tt.text); j.Outcome != stopintent.Real {
				t.Errorf("hook: outcome %q, want real", j.Outcome)
			}

			// The editor reads a plain message as ordinary Markdown: no
			// stop intent to show.
			if tt.text == plain {
				return
			}
			eng := engine.New(engine.Sources{Registry: engine.Registry()})
			eenv, err := eng.Env(engine.Request{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			res := eng.Analyze(eenv, path, tt.text)
			lenses := stopintent.Lenses(res)
			wantLens := "Stop intent: real — " + stopintent.ReasonDefault
			if tt.want == "undetermined" {
				wantLens = "Stop intent: intermediate or real — "
			}
			if len(lenses) != 1 || !strings.HasPrefix(lenses[0].Title, wantLens) {
				t.Errorf("editor: lenses %+v, want one starting %q", lenses, wantLens)
			}
			hs := stopintent.Hover(res, 4)
			if len(hs) == 0 {
				t.Fatal("editor: no hover on the first heading")
			}
			h := hs[len(hs)-1].Markdown
			row := "| OwnedWorkInFlight | false | specrew's stop provider: "
			if tt.want == "undetermined" {
				row = "| OwnedWorkInFlight | unknown | unknown"
			}
			if !strings.Contains(h, row) {
				t.Errorf("editor: hover lacks %q:\n%s", row, h)
			}
		})
	}
}

// putFile writes text at p, making its folders.
func putFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
