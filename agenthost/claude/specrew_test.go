package claude_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/stoppolicy"
)

// The hook's input and reply types of Claude Code's adapter.
type (
	hookInput    = claude.Input
	hookDecision = claude.Decision
)

// The cases of specrew's stop-provider tests
// (tests/integration/conformance-detection.tests.ps1 and
// conformance-stop-intent-wiring.tests.ps1 at alonf/specrew acbb4366), each
// rebuilt here with messages and .specrew state of our own writing in the
// same shape: a Git project with .specrew/start-context.json (New-Fixture),
// a spec and stage evidence committed (New-Spec, New-BoundaryStageEvidence,
// whose crossing is bound to HEAD as a scoped pending_crossing), dirty user
// files (New-HandoverSnapshot), a turn baseline (the SessionStart or
// UserPromptSubmit lane: baton hook claude-prompt) and a transcript
// (New-Transcript). Each step's want is specrew's decision.

// Our messages, in the shapes of specrew's tests' $materialPacket and
// $longProse ($realPacket: hooktest.BoundaryPacket).
const materialPacket = `## What I Just Did

Changed the exporter and its tests (file:///work/src/export.go, file:///work/src/export_test.go).

## Why I Stopped

A non-boundary stop after code and test changes.

## What Needs Your Review

The new quoting of commas in exported fields.

## What Happens Next

I will run the whole suite and update the changelog.

## What I Need From You

Look at the quoting and tell me whether to go on.
`

var longProse = strings.Repeat("I looked through the exporter, the quoting function and the three call sites, and the behaviour matches what we discussed; ", 6) +
	"there are a couple of ways to go from here and I am not sure which you prefer, so tell me how you would like to continue."

type turn struct{ role, text string }

// transcriptLines writes turns as New-Transcript does: one line each.
func transcriptLines(turns ...turn) []string {
	var out []string
	for _, t := range turns {
		b, _ := json.Marshal(map[string]any{"type": t.role, "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": t.text}}}})
		out = append(out, string(b))
	}
	return out
}

// fragmentLines writes one assistant response as Claude Code does, one line
// per content block under one message id (New-RawAssistantFragmentLines).
func fragmentLines(id string, n int, tool bool) []string {
	if tool && n < 3 {
		n = 3
	}
	var out []string
	for f := 1; f <= n; f++ {
		var c map[string]any
		switch {
		case tool && f == n-1:
			c = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%s_%d", id, f), "name": "Bash", "input": map[string]any{"command": "gh run list"}}
		case f == 1:
			c = map[string]any{"type": "thinking", "thinking": "thinking " + id}
		default:
			c = map[string]any{"type": "text", "text": fmt.Sprintf("text fragment %d of %s", f, id)}
		}
		b, _ := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{"id": id, "type": "message", "role": "assistant", "content": []any{c}}})
		out = append(out, string(b))
	}
	return out
}

func humanLine(text string) string {
	b, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	return string(b)
}

// hookProject is a specrew project whose stops Claude Code's hooks judge.
type hookProject struct {
	*hooktest.Project
	n int // the stops so far
}

func newHookProject(t *testing.T, working, lastAuth string, enabled bool) *hookProject {
	return &hookProject{Project: hooktest.NewProject(t, working, lastAuth, enabled)}
}

func boundaryPacket(from, to string) string { return hooktest.BoundaryPacket(from, to) }

func (p *hookProject) run(sub string, in hookInput, extra ...string) (stdout, stderr string) {
	p.T.Helper()
	raw, _ := json.Marshal(in)
	return hooktest.Run(p.T, append([]string{sub, "--state-dir", p.State}, extra...), raw)
}

// prompt is the turn-start lane (SessionStart / UserPromptSubmit).
func (p *hookProject) prompt() {
	p.run("claude-prompt", hookInput{SessionID: p.Session, Cwd: p.Root, HookEventName: "UserPromptSubmit"})
}

// stop fires the Stop hook with a transcript of these lines.
func (p *hookProject) stop(lines []string, active bool) (blocked bool, reason, stderr string) {
	p.T.Helper()
	p.n++
	path := filepath.Join(p.Root, ".specrew", "runtime", fmt.Sprintf("transcript-%d.jsonl", p.n))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.T.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		p.T.Fatal(err)
	}
	out, errs := p.run("claude-stop", hookInput{SessionID: p.Session, TranscriptPath: path, Cwd: p.Root, HookEventName: "Stop", StopHookActive: active})
	if out == "" {
		return false, "", errs
	}
	var d hookDecision
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.Decision != "block" {
		p.T.Fatalf("hook output %q is not a block", out)
	}
	return true, d.Reason, errs
}

func (p *hookProject) say(text string) (bool, string, string) {
	return p.stop(transcriptLines(turn{"assistant", text}), false)
}

// expect checks a decision: blocked or not, and what the reason says.
func expect(t *testing.T, what string, blocked bool, reason string, wantBlock bool, contains []string, lacks []string) {
	t.Helper()
	if blocked != wantBlock {
		t.Fatalf("%s: blocked = %v, want %v (specrew's decision); reason: %s", what, blocked, wantBlock, reason)
	}
	for _, c := range contains {
		if !strings.Contains(reason, c) {
			t.Errorf("%s: the reason does not say %q: %s", what, c, reason)
		}
	}
	for _, c := range lacks {
		if strings.Contains(reason, c) {
			t.Errorf("%s: the reason says %q: %s", what, c, reason)
		}
	}
}

const (
	fiveDemand = "five-part packet"
	markerCP   = hooktest.MarkerCP
	anyMarker  = "<!-- SPECREW-VERDICT-BOUNDARY"
	contDemand = "continuation directive"
)

func TestHookBoundaryCases(t *testing.T) {
	t.Run("Case 1: working plan ahead of authorized clarify, no packet: block naming the clarify -> plan marker", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		b, r, _ := p.stop(transcriptLines(turn{"user", "continue"}, turn{"assistant", "I wrote plan.md and moved on to the tasks."}), false)
		expect(t, "Case 1", b, r, true, []string{"What I Just Did", "Discussion Prompts", markerCP}, nil)
	})
	t.Run("Case 2: the packet for the pending crossing: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		b, r, _ := p.stop(transcriptLines(turn{"user", "continue"}, turn{"assistant", boundaryPacket("clarify", "plan")}), false)
		expect(t, "Case 2", b, r, false, nil, nil)
	})
	t.Run("Case 19: the six headings without the marker: block for the marker", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		noMarker := strings.Replace(boundaryPacket("clarify", "plan"), markerCP, "", 1)
		b, r, _ := p.say(noMarker)
		expect(t, "Case 19", b, r, true, []string{markerCP}, nil)
	})
	t.Run("the marker HTML-escaped, as Codex's hook prompt shows it: block, and say it is escaped", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		escaped := strings.Replace(boundaryPacket("clarify", "plan"), markerCP, html.EscapeString(markerCP), 1)
		b, r, _ := p.say(escaped)
		expect(t, "escaped", b, r, true, []string{markerCP, "HTML-escaped"}, nil)
		noMarker := strings.Replace(boundaryPacket("clarify", "plan"), markerCP, "", 1)
		if _, r, _ := p.say(noMarker); strings.Contains(r, "HTML-escaped") {
			t.Errorf("a packet with no marker at all is told its marker is escaped: %q", r)
		}
	})
	t.Run("Case 2, as specrew's capture reads it: a follow-up answer after the packet owes it no more", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		b, r, _ := p.stop(transcriptLines(turn{"assistant", boundaryPacket("clarify", "plan")}, turn{"user", "what does prompt 1 mean?"},
			turn{"assistant", "It asks whether CSV alone is enough for the first release."}), false)
		expect(t, "follow-up", b, r, false, nil, nil)
	})
	t.Run("Case 2, the other way: a bare marker is no packet", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		b, r, _ := p.say("Done.\n\n" + markerCP)
		expect(t, "bare marker", b, r, true, []string{markerCP}, nil)
	})
	t.Run("Case 9: two gates ahead: the contiguous crossing, never the jump", func(t *testing.T) {
		p := newHookProject(t, "tasks", "clarify", true)
		p.Evidence("tasks", "clarify")
		b, r, _ := p.say("tasks.md drafted; proceeding.")
		expect(t, "Case 9", b, r, true, []string{markerCP}, []string{"plan -> tasks -->", "clarify -> tasks -->"})
	})
	t.Run("Case 9b: the first unauthorized crossing's marker suppresses although working jumped to tasks", func(t *testing.T) {
		p := newHookProject(t, "tasks", "clarify", true)
		p.Evidence("tasks", "clarify")
		b, r, _ := p.say(boundaryPacket("clarify", "plan"))
		expect(t, "Case 9b", b, r, false, nil, nil)
	})
	t.Run("Case 9c: a gate-skipping plan -> tasks marker does not suppress", func(t *testing.T) {
		p := newHookProject(t, "tasks", "clarify", true)
		p.Evidence("tasks", "clarify")
		b, r, _ := p.say(boundaryPacket("plan", "tasks"))
		expect(t, "Case 9c", b, r, true, []string{markerCP}, nil)
	})
	t.Run("Case 10: a stale clarify -> plan packet earlier in the transcript does not suppress plan -> tasks", func(t *testing.T) {
		p := newHookProject(t, "tasks", "plan", true)
		p.Evidence("tasks", "plan")
		b, r, _ := p.stop(transcriptLines(turn{"assistant", boundaryPacket("clarify", "plan")}, turn{"user", "approved for plan"},
			turn{"assistant", "Plan approved. I wrote tasks.md and am starting the implementation."}), false)
		expect(t, "Case 10", b, r, true, []string{"<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->"}, nil)
	})
	t.Run("Case 11: the marker of the pending crossing suppresses", func(t *testing.T) {
		p := newHookProject(t, "tasks", "plan", true)
		p.Evidence("tasks", "plan")
		b, r, _ := p.stop(transcriptLines(turn{"user", "continue"}, turn{"assistant", boundaryPacket("plan", "tasks")}), false)
		expect(t, "Case 11", b, r, false, nil, nil)
	})
	t.Run("Case 11b: first boundary: the intake -> specify marker suppresses", func(t *testing.T) {
		p := newHookProject(t, "clarify", "", true)
		p.Evidence("clarify", "")
		b, r, _ := p.say(boundaryPacket("intake", "specify"))
		expect(t, "Case 11b", b, r, false, nil, nil)
	})
	t.Run("Case 11c: first boundary: specify -> clarify is not the first crossing", func(t *testing.T) {
		p := newHookProject(t, "clarify", "", true)
		p.Evidence("clarify", "")
		b, r, _ := p.say(boundaryPacket("specify", "clarify"))
		expect(t, "Case 11c", b, r, true, []string{"<!-- SPECREW-VERDICT-BOUNDARY: intake -> specify -->"}, nil)
	})
	t.Run("Case 12: enforcement disabled never blocks", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", false)
		b, r, _ := p.say("plan.md written.")
		expect(t, "Case 12", b, r, false, nil, nil)
	})
	t.Run("Case (d): a continue marker at a pending boundary is ignored: the boundary block fires", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Spec()
		p.Evidence("plan", "clarify")
		b, r, _ := p.stop(transcriptLines(turn{"user", "continue"}, turn{"assistant", "I wrote plan.md and started on tasks.\n\n" + stopintent.ContinueMarker}), false)
		expect(t, "Case (d)", b, r, true, []string{markerCP}, []string{contDemand})
	})
	t.Run("Case PH-f: a pending boundary blocks whatever the material baseline", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		p.Dirty("src/export.go", "src/export_test.go")
		p.prompt()
		b, r, _ := p.stop(transcriptLines(turn{"user", "continue"}, turn{"assistant", "plan.md is written; moving on."}), false)
		expect(t, "Case PH-f", b, r, true, []string{"Discussion Prompts", markerCP}, nil)
	})
	t.Run("Case 20: another feature's workshop does not affect the active feature's boundary block", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		p.Write("specs/009-abandoned/spec.md", "# abandoned\n")
		p.Write("specs/009-abandoned/lens-applicability.json", `{"workshop_intake":true,"confirmation_required":true,"selected":["product-domain"],"workshop":{}}`)
		b, r, _ := p.say("plan.md written; proceeding.")
		expect(t, "Case 20", b, r, true, []string{markerCP}, nil)
	})
	t.Run("Case 21: a raw specify workflow invocation at a firing boundary still blocks", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		b, r, _ := p.say("I will now invoke specify workflow --type feature to scaffold the next phase.")
		expect(t, "Case 21", b, r, true, []string{markerCP}, nil)
	})
	t.Run("Case 7: blocks up to the cap, then lets the stop through; a rendered packet resets the count", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		for n := 1; n <= 3; n++ {
			b, r, _ := p.stop(transcriptLines(turn{"assistant", fmt.Sprintf("plan.md written (attempt %d).", n)}), n > 1)
			expect(t, fmt.Sprintf("Case 7 block %d", n), b, r, true, []string{markerCP}, nil)
		}
		b, r, errs := p.stop(transcriptLines(turn{"assistant", "plan.md written (attempt 4)."}), true)
		expect(t, "Case 7 over the cap", b, r, false, nil, nil)
		if !strings.Contains(errs, "already blocked 3 times") {
			t.Errorf("Case 7: over the cap, stderr does not say why: %q", errs)
		}
		b, r, _ = p.stop(transcriptLines(turn{"assistant", boundaryPacket("clarify", "plan")}), false)
		expect(t, "Case 7 packet", b, r, false, nil, nil)
		b, r, _ = p.stop(transcriptLines(turn{"assistant", "plan.md written (after the reset)."}), false)
		expect(t, "Case 7 after the reset", b, r, true, []string{markerCP}, nil)
	})
	t.Run("Case 13: specrew's own block count for this advance at the cap: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		p.Write(".specrew/runtime/conformance-stop-block.json", `{"key":"plan|clarify","count":3}`)
		b, r, errs := p.say("plan.md written.")
		expect(t, "Case 13", b, r, false, nil, nil)
		if !strings.Contains(errs, "already blocked") {
			t.Errorf("Case 13: stderr does not say why: %q", errs)
		}
	})
	t.Run("Case 14: a block count that cannot be kept: fail open", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		p.State = filepath.Join(p.Root, ".fixture-base") // a file where the state folder should be
		b, r, errs := p.say("plan.md written.")
		expect(t, "Case 14", b, r, false, nil, nil)
		if !strings.Contains(errs, "letting the stop through") {
			t.Errorf("Case 14: stderr does not say why: %q", errs)
		}
	})
	t.Run("Case 15: no readable last message: fail open", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		out, errs := p.run("claude-stop", hookInput{SessionID: p.Session, Cwd: p.Root, HookEventName: "Stop"})
		if out != "" || !strings.Contains(errs, "letting the stop through") {
			t.Errorf("Case 15: out %q, stderr %q; want no block, and why", out, errs)
		}
	})
	t.Run("Case 8: the hook leaves start-context.json as it was", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		before, _ := os.ReadFile(filepath.Join(p.Root, ".specrew", "start-context.json"))
		p.say("plan.md written.")
		after, _ := os.ReadFile(filepath.Join(p.Root, ".specrew", "start-context.json"))
		if !bytes.Equal(before, after) {
			t.Error("Case 8: start-context.json changed")
		}
	})
	t.Run("Case 22: a duplicate delivery of the same stop blocks once", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		lines := transcriptLines(turn{"assistant", "plan.md written."})
		b, r, _ := p.stop(lines, false)
		expect(t, "Case 22 first", b, r, true, []string{markerCP}, nil)
		p.n-- // the same transcript file again
		b, r, _ = p.stop(lines, false)
		expect(t, "Case 22 duplicate", b, r, false, nil, nil)
	})
	t.Run("Case 22, the other way: the same message over a changed tree is a new stop", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		b, r, _ := p.say("Done.")
		expect(t, "clean tree", b, r, false, nil, nil)
		p.Dirty("src/export.go")
		b, r, _ = p.say("Done.")
		expect(t, "after an edit", b, r, true, []string{fiveDemand}, nil)
	})
	t.Run("Case 23: a corrupt or unwritable record of the last fire only disables the duplicate check", func(t *testing.T) {
		for _, bad := range []string{"corrupt", "directory"} {
			p := newHookProject(t, "plan", "clarify", true)
			p.Evidence("plan", "clarify")
			fire := (stoppolicy.Counter{Dir: p.State, Session: p.Session}).Path() + ".fire"
			if bad == "corrupt" {
				if err := os.WriteFile(fire, []byte("{ not json ::"), 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := os.MkdirAll(fire, 0o700); err != nil {
				t.Fatal(err)
			}
			b, r, _ := p.say("plan.md written.")
			expect(t, "Case 23 "+bad, b, r, true, []string{markerCP}, nil)
		}
	})
	t.Run("Case 24: two different messages after identical trailing entries both block", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		var trail []turn
		for range 45 {
			trail = append(trail, turn{"user", "identical trailing entry"})
		}
		b, r, _ := p.stop(transcriptLines(append([]turn{{"assistant", "MESSAGE A: plan.md written, no packet."}}, trail...)...), false)
		expect(t, "Case 24 A", b, r, true, []string{markerCP}, nil)
		b, r, _ = p.stop(transcriptLines(append([]turn{{"assistant", "MESSAGE B: another summary, still no packet."}}, trail...)...), false)
		expect(t, "Case 24 B", b, r, true, []string{markerCP}, nil)
	})
}

func TestHookConversationAndMaterialCases(t *testing.T) {
	t.Run("Case 3: caught up, a short reply: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		b, r, _ := p.say("Plan approved; proceeding.")
		expect(t, "Case 3", b, r, false, nil, nil)
	})
	t.Run("Case 4: a long discussion answer with a spec: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		b, r, _ := p.stop(transcriptLines(turn{"user", "go"}, turn{"assistant", longProse}), false)
		expect(t, "Case 4", b, r, false, nil, nil)
	})
	t.Run("Case 4b: a long message before any spec: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		b, r, _ := p.say(longProse)
		expect(t, "Case 4b", b, r, false, nil, nil)
	})
	t.Run("Cases 4c, 4d, 4d2, 4d3: material work needs the packet once per surface", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/export.go", "src/export_test.go")
		b, r, _ := p.say("I updated the exporter and its tests. Stopping here.")
		expect(t, "Case 4c", b, r, true, []string{fiveDemand, "What I Just Did", "What I Need From You"}, []string{anyMarker, "Discussion Prompts"})
		b, r, _ = p.stop(transcriptLines(turn{"assistant", materialPacket}), true)
		expect(t, "Case 4d", b, r, false, nil, nil)
		b, r, _ = p.say("That is the remaining list of open issues.")
		expect(t, "Case 4d2", b, r, false, nil, nil)
		p.Dirty("docs/export.md")
		b, r, _ = p.say("I made one more related change.")
		expect(t, "Case 4d3", b, r, true, []string{fiveDemand}, nil)
	})
	t.Run("Case 4e: a conversation stop after earlier material work the baseline holds: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/export.go", "src/export_test.go")
		p.prompt()
		b, r, _ := p.say(longProse)
		expect(t, "Case 4e", b, r, false, nil, nil)
	})
	t.Run("Case 4f: the forced continuation still without the packet blocks again, the packet releases", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/export.go", "src/export_test.go")
		b, r, _ := p.say("I changed code and tests, stopping.")
		expect(t, "Case 4f first", b, r, true, []string{fiveDemand}, nil)
		b, r, _ = p.stop(transcriptLines(turn{"assistant", "Still stopping without the packet."}), true)
		expect(t, "Case 4f retry", b, r, true, []string{fiveDemand}, nil)
		b, r, _ = p.stop(transcriptLines(turn{"assistant", materialPacket}), true)
		expect(t, "Case 4f packet", b, r, false, nil, nil)
	})
	t.Run("Case 4g: a workshop-shaped material turn without workshop state needs the packet", func(t *testing.T) {
		p := newHookProject(t, "", "", true)
		p.Spec()
		p.Dirty("AGENTS.md", "CLAUDE.md", "specs/010-export/notes.md")
		b, r, _ := p.say("### architecture-core lens\n\nThe component boundary is settled; one choice remains.\n\nShould the repository own the transition, or the application service behind a port?\n<!-- SPECREW-WORKSHOP-QUESTION: feature=010-export; iteration=001; lens=architecture-core -->")
		expect(t, "Case 4g", b, r, true, []string{fiveDemand}, nil)
	})
	t.Run("Case 4h: a material commit after a completed workshop, with no boundary yet, needs the packet", func(t *testing.T) {
		p := newHookProject(t, "", "", true)
		p.Spec()
		p.prompt()
		p.CommitFile("src/budget.go")
		b, r, _ := p.say("I committed the hook budget fix and the tree is clean.")
		expect(t, "Case 4h", b, r, true, []string{fiveDemand, "1 new commit(s)"}, nil)
	})
	t.Run("Case 4i: the same in a project with several features", func(t *testing.T) {
		p := newHookProject(t, "", "", true)
		p.Write("specs/001-abandoned/spec.md", "# abandoned\n")
		p.Spec()
		p.prompt()
		p.CommitFile("src/capture.go")
		b, r, _ := p.say("I committed the verdict capture fix and refreshed the demo project.")
		expect(t, "Case 4i", b, r, true, []string{fiveDemand}, nil)
	})
	t.Run("Case PH-a: a short consultation with no writes: no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		b, r, _ := p.stop(transcriptLines(turn{"user", "what does the exporter do?"}, turn{"assistant", "It writes the rows as CSV with one quoting rule."}), false)
		expect(t, "Case PH-a", b, r, false, nil, nil)
	})
	t.Run("Cases PH-b, PH-c, PH-e, PH-b2: status over an older dirty tree, then new work, its packet, a follow-up", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/export.go", "src/export_test.go") // an earlier session's dirt
		p.prompt()
		b, r, _ := p.stop(transcriptLines(turn{"user", "status"}, turn{"assistant", "Iteration 003 is running; 8 tasks done, T019 in progress."}), false)
		expect(t, "Case PH-b", b, r, false, nil, nil)
		p.Dirty("src/module.go", "src/module_test.go")
		b, r, _ = p.stop(transcriptLines(turn{"user", "fix it"}, turn{"assistant", "I implemented the module and its tests. Stopping here."}), false)
		expect(t, "Case PH-c", b, r, true, []string{fiveDemand}, nil)
		b, r, _ = p.stop(transcriptLines(turn{"user", "fix it"}, turn{"assistant", materialPacket}), true)
		expect(t, "Case PH-e", b, r, false, nil, nil)
		b, r, _ = p.stop(transcriptLines(turn{"user", "thanks"}, turn{"assistant", "Summarized above; nothing else changed."}), false)
		expect(t, "Case PH-b2", b, r, false, nil, nil)
	})
	t.Run("Case PH-prompt: a same-path edit after the turn's baseline is this turn's work", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/prompt-owned.go")
		p.prompt()
		p.Write("src/prompt-owned.go", "same path, new content\n")
		b, r, _ := p.say("I reworked the prompt-owned file.")
		expect(t, "Case PH-prompt", b, r, true, []string{fiveDemand, "1 changed file(s)"}, nil)
	})
	t.Run("Cases PH-b3, PH-c2: a discharged commit stays quiet; a new commit needs a packet", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/export.go", "src/export_test.go")
		p.CommitFile("src/record.go")
		b, r, _ := p.say(materialPacket)
		expect(t, "Case PH-b3 packet", b, r, false, nil, nil)
		b, r, _ = p.stop(transcriptLines(turn{"user", "what happens next?"}, turn{"assistant", "The Mac test is complete; the other slots are separate."}), false)
		expect(t, "Case PH-b3 follow-up", b, r, false, nil, nil)
		p.CommitFile("src/second.go")
		b, r, _ = p.say("I committed a second substantial change.")
		expect(t, "Case PH-c2", b, r, true, []string{fiveDemand}, nil)
	})
	t.Run("Case PH-d: a long read-only investigation needs the packet; with it, no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		turns := []turn{{"user", "investigate the flaky test"}}
		for i := 1; i <= 16; i++ {
			turns = append(turns, turn{"assistant", fmt.Sprintf("Step %d: reading module %d against the failure.", i, i)})
		}
		b, r, _ := p.stop(transcriptLines(turns...), false)
		expect(t, "Case PH-d", b, r, true, []string{fiveDemand, "long investigation"}, nil)
		turns[len(turns)-1] = turn{"assistant", materialPacket}
		b, r, _ = p.stop(transcriptLines(turns...), true)
		expect(t, "Case PH-d packet", b, r, false, nil, nil)
	})
	t.Run("Cases PH-g, PH-h, PH-i, PH-j: responses count once however many lines they take", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		lines := []string{humanLine("why does the packet fire on a plain reply?")}
		for m := 1; m <= 5; m++ {
			lines = append(lines, fragmentLines(fmt.Sprintf("msg_g%d", m), 3, false)...)
		}
		b, r, _ := p.stop(lines, false)
		expect(t, "Case PH-g", b, r, false, nil, nil)

		lines = []string{humanLine("check CI status")}
		for m := 1; m <= 3; m++ {
			lines = append(lines, fragmentLines(fmt.Sprintf("msg_h%d", m), 5, true)...)
		}
		b, r, _ = p.stop(lines, false)
		expect(t, "Case PH-h", b, r, false, nil, nil)

		lines = []string{humanLine("investigate the flaky test across the suite")}
		for m := 1; m <= 16; m++ {
			lines = append(lines, fragmentLines(fmt.Sprintf("msg_j%d", m), 2, true)...)
		}
		b, r, _ = p.stop(lines, false)
		expect(t, "Case PH-j", b, r, true, []string{fiveDemand}, nil)

		q := newHookProject(t, "plan", "plan", true)
		q.Spec()
		q.Dirty("src/export.go", "src/export_test.go")
		b, r, _ = q.stop(append([]string{humanLine("fix it")}, fragmentLines("msg_i1", 3, true)...), false)
		expect(t, "Case PH-i", b, r, true, []string{fiveDemand}, nil)
	})
	t.Run("Cases 5, 5b, 6, 18: intake questions and raw specify workflow are no block", func(t *testing.T) {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		b, r, _ := p.say("Welcome! What would you like to build today?")
		expect(t, "Case 5", b, r, false, nil, nil)
		p.Dirty("src/export.go", "src/export_test.go")
		b, r, _ = p.say(materialPacket + "\n\nBefore I go on: what would you like to build next?")
		expect(t, "Case 5b", b, r, false, nil, nil)
		q := newHookProject(t, "plan", "plan", true)
		b, r, _ = q.say("I'll run: specify workflow --type feature.")
		expect(t, "Case 6", b, r, false, nil, nil)
		b, r, _ = q.say("Per the contract I will NOT run the raw `specify.exe workflow` automation.")
		expect(t, "Case 18", b, r, false, nil, nil)
	})
}

// conformance-stop-intent-wiring.tests.ps1: the stop-intent classifier on a
// material, packet-less, non-boundary stop.
func TestHookStopIntentWiring(t *testing.T) {
	material := func(t *testing.T) *hookProject {
		p := newHookProject(t, "plan", "plan", true)
		p.Spec()
		p.Dirty("src/export.go", "src/export_test.go")
		return p
	}
	t.Run("Case (a): continue with an authorized phase: a continuation directive, not the packet", func(t *testing.T) {
		p := material(t)
		b, r, _ := p.stop(transcriptLines(turn{"user", "continue"}, turn{"assistant", "I applied the resolver change to the three call sites; more authorized in-phase work remains.\n\n" + stopintent.ContinueMarker}), false)
		expect(t, "Case (a)", b, r, true, []string{contDemand, "next authorized action"}, []string{fiveDemand, "What I Just Did", "What I Need From You", anyMarker})
	})
	t.Run("Case (b): intermediate: no block", func(t *testing.T) {
		p := material(t)
		b, r, _ := p.say("Started the long verification suite; it is still running in the background.\n\n" + stopintent.IntermediateMarker)
		expect(t, "Case (b)", b, r, false, nil, nil)
	})
	t.Run("Case (c): no marker: the five-part packet", func(t *testing.T) {
		p := material(t)
		b, r, _ := p.say("I updated the exporter and its tests. Stopping here.")
		expect(t, "Case (c)", b, r, true, []string{fiveDemand, "What I Just Did", "What I Need From You"}, []string{contDemand, anyMarker})
	})
	t.Run("Case (e): a runaway continue on one surface is bounded: the fourth gets the packet demand", func(t *testing.T) {
		p := material(t)
		for n := 1; n <= 3; n++ {
			b, r, _ := p.stop(transcriptLines(turn{"assistant", fmt.Sprintf("In-phase work goes on (attempt %d).\n\n%s", n, stopintent.ContinueMarker)}), n > 1)
			expect(t, fmt.Sprintf("Case (e) continue %d", n), b, r, true, []string{contDemand}, []string{fiveDemand})
		}
		b, r, _ := p.stop(transcriptLines(turn{"assistant", "Same surface, no progress (attempt 4).\n\n" + stopintent.ContinueMarker}), false)
		expect(t, "Case (e) guard tripped", b, r, true, []string{fiveDemand}, []string{contDemand})
	})
}

// .baton.yaml changes what the hook reads in the message where the text
// decides. In a specrew project the stop's intent is not read from the
// text: specrew's provider passes AgentBlockedOrHandingBack as false
// whatever the message says, so a phrase added to the blocked list leaves a
// continue stop a continue stop (the continuation directive, not the packet
// demand). baton's rules are read from it: with --lint, a phrase added to
// the held list makes a review packet's What Happens Next hold the work,
// and the stop it blocked goes through.
func TestHookConfigPhrases(t *testing.T) {
	p := newHookProject(t, "plan", "plan", true)
	p.Spec()
	p.Dirty("src/export.go")
	msg := "## What I Just Did\n\nPorted the exporter.\n\n## Why I Stopped\n\nThe build is wedged on the old toolchain.\n\n## What Happens Next\n\nThe next exporter.\n\n" + stopintent.ContinueMarker + "\n"
	b, r, _ := p.say(msg)
	expect(t, "without .baton.yaml", b, r, true, []string{contDemand}, []string{fiveDemand})
	p.Write(".baton.yaml", "phrases:\n  blocked: [\"wedged\"]\n")
	b, r, _ = p.stop(transcriptLines(turn{"assistant", msg + "\n(again)"}), true)
	expect(t, "with the blocked phrase", b, r, true, []string{contDemand}, []string{fiveDemand})

	review := "## What I Just Did\n\nPorted the exporter.\n\n## Why I Stopped\n\nThe cap changes caller behaviour.\n\n## What Needs Your Review\n\n- Do you approve a 60 second cap?\n\n" +
		"## What Happens Next\n\nThe callers stay on ice.\n\n## What I Need From You\n\nReply \"approve\" or \"no cap\".\n"
	lint := func() (bool, string) {
		out, _ := p.run("claude-stop", hookInput{SessionID: p.Session, Cwd: p.Root, HookEventName: "Stop", LastAssistantMessage: review}, "--lint")
		return out != "", out
	}
	p.Write(".baton.yaml", "")
	b, r = lint()
	expect(t, "--lint, without the held phrase", b, r, true, []string{"packet/review-not-held"}, []string{fiveDemand, contDemand})
	p.Write(".baton.yaml", "phrases:\n  held: [\"on ice\"]\n")
	b, r = lint()
	expect(t, "--lint, with the held phrase", b, r, false, nil, nil)
}

// lens writes the durable workshop state as New-LensApplicability does: the
// feature's lens-applicability.json and, unless featureOnly, the
// iteration's, each completed lens with its full record and its Markdown
// file; then commits it, so that it is no material work.
func (p *hookProject) lens(selected, done []string, iteration string, bindings map[string]map[string]string, featureOnly bool) {
	workshop := map[string]any{}
	for _, d := range done {
		rec := map[string]any{"agenda": []string{"A decision topic"}, "decision": "The decision for " + d, "depth": "full", "moved_on": true, "confirmation": "human-confirmed", "confirmation_scope": "lens-question"}
		if b, ok := bindings[d]; ok {
			rec["bindings"] = b
		}
		workshop[d] = rec
	}
	b, _ := json.MarshalIndent(map[string]any{"workshop_intake": true, "confirmation_required": true, "selected": selected, "workshop": workshop}, "", "  ")
	dirs := []string{"specs/010-export"}
	if !featureOnly {
		dirs = append(dirs, "specs/010-export/iterations/"+iteration)
	}
	for _, dir := range dirs {
		p.Write(dir+"/lens-applicability.json", string(b))
		for _, d := range done {
			p.Write(dir+"/workshop/"+d+".md", "# "+d+"\n\nThe decision record.\n")
		}
	}
	p.Git("add", "--", "specs")
	p.Git("commit", "--quiet", "-m", "fixture lens state")
}

// preAgenda writes a feature's workshop before its agenda is confirmed
// (New-PreAgendaLensApplicability).
func (p *hookProject) preAgenda(selected []string) {
	if selected == nil {
		selected = []string{}
	}
	b, _ := json.Marshal(map[string]any{"schema_version": "1.0", "workshop_intake": true, "confirmation_required": true, "agenda_status": "pending-confirmation", "selected": selected, "workshop": map[string]any{}})
	p.Write("specs/010-export/lens-applicability.json", string(b))
	p.Git("add", "--", "specs")
	p.Git("commit", "--quiet", "-m", "fixture pre-agenda lens state")
}

// The workshop cases (16 to 17) of conformance-detection.tests.ps1: durable
// workshop state, never the message, makes a material stop the lens
// question's pause.
func TestHookWorkshopCases(t *testing.T) {
	const (
		liveQuestion      = "Lens 1 of 8: architecture-core. The design question is how to split ingestion, approval and publishing. Would you rather take the decisions together, or one at a time?"
		iterationQuestion = "### architecture-core lens\n\nThe component boundary is settled; one choice remains.\n\nShould the repository own the transition, or the application service behind a port?\n<!-- SPECREW-WORKSHOP-QUESTION: feature=010-export; iteration=001; lens=architecture-core -->"
		featureQuestion   = "### architecture-core lens\n\nThe product boundary is settled; one choice remains.\n\nShould the repository own the transition, or the application service behind a port?\n<!-- SPECREW-WORKSHOP-QUESTION: feature=010-export; scope=feature; lens=architecture-core -->"
	)
	two := []string{"architecture-core", "data-storage"}
	material := func(p *hookProject) { p.Dirty("src/export.go", "src/export_test.go") }
	cases := []struct {
		name       string
		setup      func(t *testing.T) *hookProject
		msg        string
		block      bool
		says, lack []string
	}{
		{"Case 16: an active iteration workshop: the unmarked lens question is the pause", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, nil, "001", nil, false)
			material(p)
			return p
		}, liveQuestion, false, nil, nil},
		{"Case 16b: a pending boundary overrides the workshop", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "clarify", true)
			p.Spec()
			p.Evidence("plan", "clarify")
			p.lens(two, nil, "001", nil, false)
			material(p)
			return p
		}, iterationQuestion, true, []string{markerCP}, nil},
		{"Case 16c: the state decides, not the prose", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, nil, "001", nil, false)
			material(p)
			return p
		}, "I saved the current discussion and am pausing for your response.", false, nil, nil},
		{"Case 16d: the workshop of another iteration is stale", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, nil, "002", nil, false)
			material(p)
			return p
		}, strings.Replace(iterationQuestion, "iteration=001", "iteration=002", 1), true, []string{fiveDemand}, nil},
		{"Case 16e: a feature-level intake before any iteration", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.lens(two, nil, "", nil, true)
			material(p)
			return p
		}, liveQuestion, false, nil, nil},
		{"Case 16pa: a product-domain question before the agenda", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.preAgenda(nil)
			material(p)
			return p
		}, "Who uses this product day to day, and what does their workflow look like?", false, nil, nil},
		{"Case 16pb: a pending boundary overrides the pre-agenda state", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "clarify", true)
			p.Spec()
			p.Evidence("plan", "clarify")
			p.preAgenda(nil)
			material(p)
			return p
		}, "Who uses this product?", true, []string{markerCP}, nil},
		{"Case 16pc: a pre-agenda state with a selected lens is malformed", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.preAgenda([]string{"architecture-core"})
			material(p)
			return p
		}, "Who uses this product?", true, []string{fiveDemand}, nil},
		{"Case 16pd: an iteration on disk ends the pre-agenda exception", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.preAgenda(nil)
			if err := os.MkdirAll(filepath.Join(p.Root, "specs", "010-export", "iterations", "001"), 0o755); err != nil {
				t.Fatal(err)
			}
			material(p)
			return p
		}, "Who uses this product?", true, []string{fiveDemand}, nil},
		{"Case 16e2: the only durable workshop is found without a feature in the start context", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.lens(two, nil, "", nil, true)
			material(p)
			return p
		}, "Should we continue with the next architecture decision?", false, nil, nil},
		{"Case 16e3: contradictory bindings get the reconciliation, not the packet", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.lens([]string{"architecture-core", "integration-api", "devops-operations"}, []string{"architecture-core", "integration-api"}, "",
				map[string]map[string]string{"architecture-core": {"article-initiation": "on-demand"}, "integration-api": {"article-initiation": "scheduled-polling"}}, true)
			material(p)
			return p
		}, "Preparing the DevOps lens now.", true, []string{"workshop decision conflict", "article-initiation"}, []string{"## What I Just Did"}},
		{"Case 16f: a feature marker in the text does not redirect from the iteration's state", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, nil, "001", nil, false)
			material(p)
			return p
		}, featureQuestion, false, nil, nil},
		{"Case 16g: an iteration marker in the text does not redirect from the feature's state", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			p.Spec()
			p.lens(two, nil, "", nil, true)
			material(p)
			return p
		}, iterationQuestion, false, nil, nil},
		{"Case 16h: a boundary without an iteration cannot borrow the feature's workshop", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Write(".specrew/start-context.json", `{"schema":"v2","session_state":{"active":true,"boundary_type":"plan","feature_ref":"010-export"},"boundary_enforcement":{"enabled":true,"last_authorized_boundary":"plan","pending_next_boundary":null,"verdict_history":[],"bypass_history":[]}}`)
			p.Spec()
			p.lens(two, nil, "", nil, true)
			material(p)
			return p
		}, featureQuestion, true, []string{fiveDemand}, nil},
		{"Case 16i: an unreadable start context proves no workshop", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Write(".specrew/start-context.json", "{not-json")
			p.Spec()
			p.lens(two, nil, "", nil, true)
			material(p)
			return p
		}, featureQuestion, true, []string{fiveDemand}, nil},
		{"Case 16j: without a start context, an iteration on disk ends the feature exception", func(t *testing.T) *hookProject {
			p := newHookProject(t, "", "", true)
			if err := os.Remove(filepath.Join(p.Root, ".specrew", "start-context.json")); err != nil {
				t.Fatal(err)
			}
			p.Spec()
			p.lens(two, nil, "", nil, true)
			if err := os.MkdirAll(filepath.Join(p.Root, "specs", "010-export", "iterations", "001"), 0o755); err != nil {
				t.Fatal(err)
			}
			material(p)
			return p
		}, featureQuestion, true, []string{fiveDemand}, nil},
		{"Case 16k: a loose moved_on flag is no completed lens", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, nil, "001", nil, false)
			p.Write("specs/010-export/iterations/001/lens-applicability.json", `{"workshop_intake":true,"confirmation_required":true,"selected":["architecture-core","data-storage"],"workshop":{"architecture-core":{"moved_on":true}}}`)
			p.Git("add", "--", "specs")
			p.Git("commit", "--quiet", "-m", "loose")
			material(p)
			return p
		}, liveQuestion, true, []string{fiveDemand}, nil},
		{"Case 16l: a completed lens without its Markdown record", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, []string{"architecture-core"}, "001", nil, false)
			p.Git("rm", "--quiet", "specs/010-export/iterations/001/workshop/architecture-core.md")
			p.Git("commit", "--quiet", "-m", "drop the record")
			material(p)
			return p
		}, liveQuestion, true, []string{fiveDemand}, nil},
		{"Case 16m: a lens selected twice", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens([]string{"architecture-core", "architecture-core"}, nil, "001", nil, false)
			material(p)
			return p
		}, liveQuestion, true, []string{fiveDemand}, nil},
		{"Case 16n: lenses completed out of order", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, []string{"data-storage"}, "001", nil, false)
			material(p)
			return p
		}, liveQuestion, true, []string{fiveDemand}, nil},
		{"Case 16o: malformed lens-applicability.json", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "plan", true)
			p.Spec()
			p.lens(two, nil, "001", nil, false)
			p.Write("specs/010-export/iterations/001/lens-applicability.json", "{not-json")
			p.Git("add", "--", "specs")
			p.Git("commit", "--quiet", "-m", "malformed")
			material(p)
			return p
		}, liveQuestion, true, []string{fiveDemand}, nil},
		{"Case 17: a complete workshop proves no pause; the boundary blocks", func(t *testing.T) *hookProject {
			p := newHookProject(t, "plan", "clarify", true)
			p.Spec()
			p.Evidence("plan", "clarify")
			p.lens([]string{"product-domain", "data-storage"}, []string{"product-domain", "data-storage"}, "001", nil, false)
			return p
		}, "spec.md written; plan.md drafted.", true, []string{markerCP}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.setup(t)
			b, r, _ := p.say(c.msg)
			expect(t, c.name, b, r, c.block, c.says, c.lack)
			if strings.HasPrefix(c.name, "Case 16:") {
				p.n--
				b, r, _ = p.say(c.msg) // a duplicate delivery stays a no-op
				expect(t, c.name+" (duplicate)", b, r, false, nil, nil)
			}
		})
	}
}

// Cases PH-ms and PH-degraded: two sessions in one project keep their own
// baselines; changes a session's tool calls made are its own, so another
// session's status stop is not billed for them, while the owner's stop
// needs exactly one packet. The tool hook itself never blocks (specrew's
// PostToolUse lane only nudges).
func TestHookSessions(t *testing.T) {
	p := newHookProject(t, "plan", "plan", true)
	p.Spec()
	p.Dirty("src/preexisting.go", "src/preexisting_test.go")
	pa, pb := *p.Project, *p.Project // each session its own
	a, b := hookProject{Project: &pa}, hookProject{Project: &pb}
	a.Session, b.Session = "session-a", "session-b"
	a.prompt()
	b.prompt()
	p.Dirty("src/session-b.go", "src/session-b_test.go")
	out, _ := b.run("claude-tool", hookInput{SessionID: b.Session, Cwd: b.Root, HookEventName: "PostToolUse"})
	if out != "" {
		t.Fatalf("Case PH-degraded: the tool hook wrote %q; it never blocks", out)
	}
	blocked, r, _ := a.stop(transcriptLines(turn{"user", "status"}, turn{"assistant", "The other session is still working; I changed nothing here."}), false)
	expect(t, "Case PH-ms session A", blocked, r, false, nil, nil)
	blocked, r, _ = b.stop(transcriptLines(turn{"user", "finish the repair"}, turn{"assistant", "I implemented the session B repair and its tests."}), false)
	expect(t, "Case PH-ms session B", blocked, r, true, []string{fiveDemand}, nil)
	if n := strings.Count(r, fiveDemand); n != 1 {
		t.Errorf("Case PH-ms: session B is asked %d times for the packet, want once: %s", n, r)
	}
}

// The stage-evidence gate (FR-068; Set-SpecrewStageEvidenceGate, whose
// cases are in specrew's fr068 tests): the crossing stays pending, but when
// the bound tree lacks the stage's evidence, or no tree can show it, the
// hook asks for no verdict and names no marker, even if the message has one.
func TestHookStageEvidence(t *testing.T) {
	t.Run("an unscoped crossing cannot be verified", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		b, r, _ := p.say("plan.md written.")
		expect(t, "unscoped", b, r, true, []string{"not ready for a verdict", "no readable bound tree"}, []string{markerCP})
	})
	t.Run("the bound tree lacks plan.md", func(t *testing.T) {
		p := newHookProject(t, "plan", "clarify", true)
		p.Evidence("plan", "clarify")
		p.Git("rm", "--quiet", "specs/010-export/iterations/001/plan.md")
		p.Git("commit", "--quiet", "-m", "drop the plan")
		commit := p.Git("rev-parse", "HEAD")
		tree := p.Git("rev-parse", "HEAD^{tree}")
		sum := sha256.Sum256([]byte(strings.Join([]string{"clarify", "plan", "plan", commit, tree}, "\x1f")))
		p.Context("plan", "clarify", true, map[string]any{
			"crossing_id": "crossing-" + hex.EncodeToString(sum[:]), "from_boundary": "clarify", "to_boundary": "plan", "working_boundary": "plan",
			"boundary_commit_hash": commit, "artifact_state_kind": "git-tree", "artifact_state_id": tree, "recorded_at": "2026-06-20T00:00:00Z",
		})
		b, r, _ := p.say(boundaryPacket("clarify", "plan")) // a pre-rendered marker does not bypass the refusal
		expect(t, "missing plan.md", b, r, true, []string{"not ready for a verdict", "plan.md", "write no SPECREW-VERDICT-BOUNDARY marker"}, []string{markerCP})
		st := stopintent.NewWorkspace(p.Root).State("")
		if st.BoundaryPending.Value != stopintent.True {
			t.Errorf("the crossing is no longer pending (%s); the gate suppresses only the demand", st.BoundaryPending.Note)
		}
	})
	t.Run("clarify owes a session block in spec.md", func(t *testing.T) {
		p := newHookProject(t, "clarify", "specify", true)
		p.Write("specs/010-export/spec.md", "# Feature Specification: Export\n\n## Clarifications\n\nNone yet.\n\n## Scope\n\n### Session 2026-06-20\n")
		p.Evidence("plan", "specify") // commits the iteration files; the spec keeps no session under Clarifications
		b, r, _ := p.say("clarify is done.")
		expect(t, "clarify", b, r, true, []string{"not ready for a verdict", "Clarifications session block"}, []string{"<!-- SPECREW-VERDICT-BOUNDARY: specify -> clarify -->"})
	})
}

// FR-066: a boundary reached before the approval ledger existed (schema v1,
// no boundary_enforcement) is spoken to, with no marker to write.
func TestHookUnrecordableBoundary(t *testing.T) {
	p := newHookProject(t, "plan", "", true)
	p.Write(".specrew/start-context.json", `{"schema":"v1","session_state":{"boundary_type":"plan"}}`)
	b, r, _ := p.say("plan.md written.")
	expect(t, "unrecordable", b, r, true, []string{"cannot be recorded", "write no SPECREW-VERDICT-BOUNDARY marker"}, []string{"<!-- SPECREW-VERDICT-BOUNDARY:"})
}
