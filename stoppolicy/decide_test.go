package stoppolicy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
)

// memEnv is an environment built in memory: no .baton.yaml, and the
// specrew state given (nil: no specrew project), as engine.Env reads a
// project's (a pending crossing's boundary is the message's).
func memEnv(t *testing.T, spec *stopintent.State) *Env {
	t.Helper()
	eng := engine.New(engine.Sources{Registry: engine.Registry()})
	env, err := eng.Env(engine.Request{Untitled: true})
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{eng: eng, Env: env}
	if spec != nil {
		env.SpecrewRoot, env.Specrew = memRoot, spec
		e.Root, e.State = memRoot, *spec
		if c := spec.Crossing; spec.BoundaryPending.Value == stopintent.True && c != nil {
			env.Boundary = c.To
		}
	}
	return e
}

const memRoot = "/project-in-memory"

// memHistory is a transcript in memory.
type memHistory struct {
	steps  int
	anchor string
	marked string // the last assistant message with a verdict marker
}

func (h memHistory) StepsSincePerson() (int, string) { return h.steps, h.anchor }
func (h memHistory) LastMarked(marked func(string) bool) string {
	if marked(h.marked) {
		return h.marked
	}
	return ""
}

func src(v stopintent.Tri, note string) stopintent.Source {
	return stopintent.Source{Value: v, Note: note}
}

// specrew states of a project: one with a crossing pending, one working
// in an authorized phase.
func pendingSpec() *stopintent.State {
	return &stopintent.State{Specrew: true,
		BoundaryPending:  src(stopintent.True, "a verdict stop is pending"),
		Authorized:       src(stopintent.False, "a verdict boundary is pending"),
		LoopGuardTripped: src(stopintent.False, "no continue guard file"),
		Crossing:         &stopintent.Crossing{From: "plan", To: "tasks"},
	}
}

func workingSpec() *stopintent.State {
	return &stopintent.State{Specrew: true,
		BoundaryPending:  src(stopintent.False, "no boundary pending"),
		Authorized:       src(stopintent.True, "the phase is authorized"),
		LoopGuardTripped: src(stopintent.False, "no continue guard file"),
	}
}

const (
	plainStop    = "Sure: it returns nil."
	continueStop = "Tests pass for task 3; moving on to task 4.\n\n<!-- SPECREW-STOP-INTENT: continue -->\n"
	intermStop   = "Waiting for the CI run of task 4.\n\n<!-- SPECREW-STOP-INTENT: intermediate -->\n"
	sixPacket    = "## What I Just Did\n\nWrote the plan for the export feature: plan.md covers the data model and the API.\n\n## Why I Stopped\n\nThe plan is ready for review.\n\n## What Needs Your Review\n\n- Is the data model right?\n\n## What Happens Next\n\nOn approval, I break the plan into tasks.\n\n## Discussion Prompts\n\n1. Because large exports time out, should they be streamed? Recommended default: stream them.\n\n## What I Need From You\n\nApprove the plan, or tell me what to change.\n"
	marker       = "<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->"
)

// material is the turn's work in memory: a changed file since the baseline.
func material() *workState {
	base := &turnSnapshot{Head: "h1", Key: "k1", Entries: []turnEntry{}}
	return &workState{root: memRoot, snap: &turnSnapshot{Head: "h1", Key: "k2", Entries: []turnEntry{{Path: "a.go", Status: " M", Fingerprint: "f"}}},
		record: turnState{Baseline: base},
		delta:  turnDelta{Material: true, Key: "material|turn|k1k2", Paths: []string{"a.go"}}}
}

// The decision over in-memory state, lane by lane: what blocks, with what
// reason, what is let through and why, and what the verdict would write.
func TestDecide(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	hook := func(blocks int) *hookRecords { return &hookRecords{blocks: blocks} }
	for _, tc := range []struct {
		name  string
		in    Stop
		st    func() State
		check func(t *testing.T, v Verdict)
	}{
		{"conversation passes", Stop{Message: plainStop},
			func() State { return State{Options: Options{Lint: true}, Env: memEnv(t, nil)} },
			func(t *testing.T, v Verdict) { wantPass(t, v) }},
		{"lint blocks a broken packet on its findings", Stop{Message: autoContinue},
			func() State { return State{Options: Options{Lint: true}, Env: memEnv(t, nil)} },
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) == 0 || len(v.Reasons) != len(v.Findings) || !strings.HasPrefix(v.Reasons[0], "line 15: ") || v.Outcome != stopintent.Real {
					t.Errorf("reasons %q, findings %+v, outcome %q", v.Reasons, v.Findings, v.Outcome)
				}
			}},
		{"without lint the findings are a warning", Stop{Message: autoContinue},
			func() State { return State{Env: memEnv(t, nil)} },
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "not blocking") {
					t.Errorf("warnings %q", v.Warnings)
				}
			}},
		{"the loop bound releases", Stop{SessionID: "s", Message: autoContinue, Active: true},
			func() State {
				return State{Options: Options{Lint: true, MaxBlocks: 2}, Env: memEnv(t, nil), hook: hook(2)}
			},
			func(t *testing.T, v Verdict) {
				if !strings.Contains(v.Released, "already blocked 2 times in a row in session s") || !v.resetFirst || v.Result != nil {
					t.Errorf("%+v", v)
				}
			}},
		{"an unreadable count releases a stop after a block", Stop{Message: autoContinue, Active: true},
			func() State {
				return State{Options: Options{Lint: true}, Env: memEnv(t, nil), hook: &hookRecords{blocksErr: errTest}}
			},
			func(t *testing.T, v Verdict) {
				if !strings.Contains(v.Released, "cannot read the block count") {
					t.Errorf("%+v", v)
				}
			}},
		{"a host without the active flag: the count decides, and a pass resets it", Stop{Message: plainStop, NoActiveFlag: true},
			func() State { return State{Options: Options{Lint: true}, Env: memEnv(t, nil), hook: hook(1)} },
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if v.resetFirst || !v.resetAfter {
					t.Errorf("reset first %v, after %v", v.resetFirst, v.resetAfter)
				}
			}},
		{"a block is counted", Stop{Message: autoContinue},
			func() State { return State{Options: Options{Lint: true}, Env: memEnv(t, nil), hook: hook(0)} },
			func(t *testing.T, v Verdict) {
				if !v.count || !v.resetFirst || v.fire == "" {
					t.Errorf("count %v, reset %v, fire %q", v.count, v.resetFirst, v.fire)
				}
			}},
		{"the same stop within the window is a duplicate", Stop{Message: plainStop},
			func() State {
				h := hook(0)
				h.lastFire = fireRecord{ID: fireIdentity(Stop{Message: plainStop}, 0, "", nil, nil), Epoch: now.Unix() - 10}
				return State{Env: memEnv(t, nil), hook: h, Now: now}
			},
			func(t *testing.T, v Verdict) {
				if !v.Duplicate || v.Result != nil {
					t.Errorf("%+v", v)
				}
			}},
		{"the same stop after the window is judged", Stop{Message: plainStop},
			func() State {
				h := hook(0)
				h.lastFire = fireRecord{ID: fireIdentity(Stop{Message: plainStop}, 0, "", nil, nil), Epoch: now.Unix() - 61}
				return State{Env: memEnv(t, nil), hook: h, Now: now}
			},
			func(t *testing.T, v Verdict) {
				if v.Duplicate || v.Result == nil {
					t.Errorf("%+v", v)
				}
			}},
		{"a configuration that cannot be read releases", Stop{Message: autoContinue},
			func() State { return State{EnvErr: errTest} },
			func(t *testing.T, v Verdict) {
				if v.Released != errTest.Error() {
					t.Errorf("%+v", v)
				}
			}},
		{"a pending crossing without its marker", Stop{Message: sixPacket},
			func() State { return State{Env: memEnv(t, pendingSpec()), specrew: &specrewFiles{root: memRoot}} },
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], marker) || !strings.Contains(v.Reasons[0], "a verdict stop is pending") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"an escaped marker (of another crossing) is named", Stop{Message: sixPacket + "\n&lt;!-- SPECREW-VERDICT-BOUNDARY: clarify -> plan --&gt;\n"},
			func() State { return State{Env: memEnv(t, pendingSpec()), specrew: &specrewFiles{root: memRoot}} },
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "HTML-escaped") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"the marker carried: let through, the baseline advanced", Stop{Message: sixPacket + "\n" + marker + "\n"},
			func() State {
				return State{Env: memEnv(t, pendingSpec()), specrew: &specrewFiles{root: memRoot}, work: material()}
			},
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if tr := v.plan.turn; tr == nil || tr.Baseline.Key != "k2" || tr.Baseline.Event != "Stop" {
					t.Errorf("turn written %+v", v.plan.turn)
				}
			}},
		{"the marker in the transcript's last marked message", Stop{Message: "Anything else?", History: memHistory{marked: sixPacket + "\n" + marker + "\n"}},
			func() State { return State{Env: memEnv(t, pendingSpec()), specrew: &specrewFiles{root: memRoot}} },
			func(t *testing.T, v Verdict) { wantPass(t, v) }},
		{"specrew's own cap releases the crossing", Stop{Message: sixPacket},
			func() State {
				return State{Env: memEnv(t, pendingSpec()), specrew: &specrewFiles{root: memRoot, blocks: specrewBlockCap}}
			},
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "already blocked this plan -> tasks crossing 3 times") {
					t.Errorf("warnings %q", v.Warnings)
				}
			}},
		{"missing stage evidence asks for no verdict", Stop{Message: sixPacket + "\n" + marker + "\n"},
			func() State {
				spec := pendingSpec()
				spec.Evidence = &stopintent.Evidence{Missing: []string{"tasks.md"}}
				return State{Env: memEnv(t, spec), specrew: &specrewFiles{root: memRoot}}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "not ready for a verdict") || !strings.Contains(v.Reasons[0], "tasks.md") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"a boundary that cannot be recorded", Stop{Message: plainStop},
			func() State {
				spec := workingSpec()
				spec.Integrity, spec.BoundaryPending.Note = "boundary-unrecordable", "no approval ledger"
				return State{Env: memEnv(t, spec), specrew: &specrewFiles{root: memRoot}}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "cannot be recorded: no approval ledger") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"a workshop decision conflict", Stop{Message: plainStop},
			func() State {
				ws := workshopState{reason: "workshop-decision-binding-conflict", conflict: &bindingConflict{binding: "store", priorLens: "data", priorValue: "sql", lens: "ops", value: "kv"}}
				return State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot, workshop: ws}}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], `binding "store" was "sql" in lens "data"`) {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"material work without the packet", Stop{SessionID: "s", Message: plainStop},
			func() State { return State{Env: memEnv(t, nil), work: material()} },
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "material work (1 changed file(s), 0 new commit(s))") || !strings.Contains(v.Reasons[0], "five-part packet") {
					t.Errorf("reasons %q", v.Reasons)
				}
				if v.plan.claim != "material|turn|k1k2" || v.plan.turn != nil {
					t.Errorf("plan %+v", v.plan)
				}
			}},
		{"material work with the packet discharges the surface", Stop{Message: sixPacket},
			func() State { return State{Env: memEnv(t, nil), work: material()} },
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if tr := v.plan.turn; tr == nil || tr.Satisfied != "material|turn|k1k2" || tr.Baseline.Key != "k2" {
					t.Errorf("turn written %+v", v.plan.turn)
				}
			}},
		{"a surface already discharged owes nothing", Stop{Message: plainStop},
			func() State {
				w := material()
				w.record.Satisfied = w.delta.Key
				return State{Env: memEnv(t, nil), work: w}
			},
			func(t *testing.T, v Verdict) { wantPass(t, v) }},
		{"another session's surface owes nothing", Stop{Message: plainStop},
			func() State {
				w := material()
				w.foreign = true
				return State{Env: memEnv(t, nil), work: w}
			},
			func(t *testing.T, v Verdict) { wantPass(t, v) }},
		{"no Git state: no material check, said", Stop{Message: plainStop},
			func() State { return State{Env: memEnv(t, nil), work: &workState{root: memRoot, snapErr: errTest}} },
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if len(v.Warnings) != 1 || v.Warnings[0] != "no material-work check: "+errTest.Error() {
					t.Errorf("warnings %q", v.Warnings)
				}
			}},
		{"a long investigation owes the packet", Stop{Message: plainStop, History: memHistory{steps: longTurnEntries, anchor: "why is it slow?"}},
			func() State {
				w := material()
				w.delta = turnDelta{}
				return State{Env: memEnv(t, nil), work: w}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "a long investigation (15 or more") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"an intermediate stop after material work passes", Stop{Message: intermStop},
			func() State {
				return State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot}, work: material()}
			},
			func(t *testing.T, v Verdict) { wantPass(t, v) }},
		{"a workshop question after material work passes", Stop{Message: plainStop},
			func() State {
				return State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot, workshop: workshopState{active: true}}, work: material()}
			},
			func(t *testing.T, v Verdict) { wantPass(t, v) }},
		{"a continue stop gets the directive, counted", Stop{Message: continueStop},
			func() State {
				return State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot}, work: material(), hook: hook(0)}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.HasPrefix(v.Reasons[0], "continuation directive") {
					t.Fatalf("reasons %q", v.Reasons)
				}
				if tr := v.plan.turn; tr == nil || !v.plan.continued || tr.Continue.Count != 1 || tr.Continue.Key != "continue|material|turn|k1k2" {
					t.Errorf("plan %+v", v.plan)
				}
				// Should the count not be kept, no directive: the stop is let
				// through, and nothing is counted.
				if u := v.unkept; u == nil || len(u.Reasons) != 0 || u.count || u.plan.turn != nil {
					t.Errorf("unkept %+v", u)
				}
			}},
		{"the loop guard ends the directives", Stop{Message: continueStop},
			func() State {
				w := material()
				w.record.Continue.Key, w.record.Continue.Count = "continue|"+w.delta.Key, stopintent.LoopGuardLimit
				return State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot}, work: w}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "five-part packet") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"the caller's word for the work", Stop{Message: plainStop},
			func() State {
				st := State{Env: memEnv(t, nil)}
				st.DeclareWork(true)
				return st
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "files changed or commits made this turn") || v.plan.turn != nil || v.plan.claim != "" {
					t.Errorf("reasons %q, plan %+v", v.Reasons, v.plan)
				}
			}},
		{"asking what to build while a feature is in flight: a nudge", Stop{Message: "What would you like to build today?"},
			func() State {
				return State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot, activeSpec: "specs/010-export/spec.md"}}
			},
			func(t *testing.T, v Verdict) {
				wantPass(t, v)
				if len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "intake question while an active feature exists") {
					t.Errorf("warnings %q", v.Warnings)
				}
			}},
		{"asking what to build in a block: said in it", Stop{Message: "What would you like to build today?"},
			func() State {
				return State{Env: memEnv(t, pendingSpec()), specrew: &specrewFiles{root: memRoot, activeSpec: "specs/010-export/spec.md"}}
			},
			func(t *testing.T, v Verdict) {
				if len(v.Reasons) != 2 || !strings.HasPrefix(v.Reasons[1], "Also: an active feature already exists") {
					t.Errorf("reasons %q", v.Reasons)
				}
			}},
		{"the caller's stop-intent inputs", Stop{Message: continueStop, Inputs: map[string]stopintent.Tri{}},
			func() State { return MessageOnly(memEnv(t, nil), true) },
			func(t *testing.T, v Verdict) {
				if v.Outcome != "" {
					t.Errorf("outcome %q with nothing known, want it open", v.Outcome)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, Decide(tc.in, tc.st())) })
	}
}

func wantPass(t *testing.T, v Verdict) {
	t.Helper()
	if len(v.Reasons) != 0 || v.Released != "" || v.Duplicate || v.Result == nil {
		t.Errorf("want the stop judged and let through: reasons %q, released %q, duplicate %v", v.Reasons, v.Released, v.Duplicate)
	}
}

type testError struct{}

func (testError) Error() string { return "the test's error" }

var errTest error = testError{}

// Decide reads the state it is given and changes none of it: the same
// stop on the same state is the same verdict, however often it is asked.
func TestDecideChangesNoState(t *testing.T) {
	st := State{Options: Options{Lint: true}, Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot}, work: material(), hook: &hookRecords{}}
	before := *st.work.snap
	in := Stop{Message: continueStop}
	a, b := Decide(in, st), Decide(in, st)
	if strings.Join(a.Reasons, "|") != strings.Join(b.Reasons, "|") || a.fire != b.fire {
		t.Errorf("two verdicts: %q, %q", a.Reasons, b.Reasons)
	}
	if st.work.snap.Event != before.Event || st.work.record.Continue.Count != 0 || st.Env.Env.Overrides != nil {
		t.Errorf("the state changed: snapshot %+v, turn %+v, overrides %v", st.work.snap, st.work.record, st.Env.Env.Overrides)
	}
}

// Apply withdraws a continuation directive whose count it cannot keep
// (it could loop for ever), and says why; a block it cannot count is let
// through.
func TestApplyCannotKeepTheCount(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	st := State{Env: memEnv(t, workingSpec()), specrew: &specrewFiles{root: memRoot}, work: material(), hook: &hookRecords{},
		counter: Counter{Dir: notDir, Session: "s"}, session: "s", Options: Options{MaxBlocks: 3}}
	in := Stop{SessionID: "s", Message: continueStop}
	v := Decide(in, st)
	if len(v.Reasons) != 1 || !strings.HasPrefix(v.Reasons[0], "continuation directive") {
		t.Fatalf("the verdict: %q", v.Reasons)
	}
	out := st.Apply(v)
	if out.Reason != "" || len(out.Warnings) != 1 || !strings.HasPrefix(out.Warnings[0], "cannot count the continues (") {
		t.Errorf("outcome %+v", out)
	}
	in.Message = plainStop
	out = st.Apply(Decide(in, st))
	if out.Reason != "" || !strings.HasPrefix(out.Released, "cannot keep the block count: ") {
		t.Errorf("a material block that cannot be counted: %+v", out)
	}
}
