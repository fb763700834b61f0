package stopintent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysistest"
)

func TestRules(t *testing.T) {
	analysistest.Run(t, "testdata", stopintent.Analyzer) // and packet, which it requires
}

const (
	continueMessage = "Tests pass for task 3; moving on to task 4.\n\n<!-- SPECREW-STOP-INTENT: continue -->\n"

	reviewPacket = `## What I Just Did

Updated the parser and its tests.

## Why I Stopped

The change alters the public API.

## What Needs Your Review

- Should ` + "`Parse`" + ` return an error for empty input?

## What Happens Next

On approval, I will update the callers.

## What I Need From You

Reply "approve" or "reject".
`

	pendingPath = "/ws/.specrew/runtime/pending-verdict-stop.md"
)

// build parses text and builds its stop-intent model the way the analyzer
// does, after the packet model.
func build(t *testing.T, text string, env analysis.Env) (*markdown.Document, *stopintent.Model) {
	t.Helper()
	doc := markdown.Parse("input.md", text)
	if doc.Kind != markdown.KindPacket {
		t.Fatalf("kind = %v, want %v", doc.Kind, markdown.KindPacket)
	}
	m := stopintent.Build(doc, packet.BuildWith(doc, nil), env)
	if len(m.Stops) != 1 {
		t.Fatalf("%d stops, want 1", len(m.Stops))
	}
	return doc, m
}

func outcomes(c stopintent.Classification) []stopintent.Outcome {
	var out []stopintent.Outcome
	for _, p := range c.Possible {
		if !slices.Contains(out, p.Outcome) {
			out = append(out, p.Outcome)
		}
	}
	return out
}

func reasons(c stopintent.Classification) []string {
	var out []string
	for _, p := range c.Possible {
		out = append(out, p.Reason)
	}
	return out
}

// possibility returns the possibility with the reason given, or nil.
func possibility(c stopintent.Classification, reason string) *stopintent.Possibility {
	for i := range c.Possible {
		if c.Possible[i].Reason == reason {
			return &c.Possible[i]
		}
	}
	return nil
}

// pendingState is a specrew workspace with a verdict stop pending.
func pendingState() stopintent.State {
	return stopintent.State{
		Specrew:          true,
		BoundaryPending:  stopintent.Source{Value: stopintent.True, Path: pendingPath, Note: "a verdict stop is pending"},
		Authorized:       stopintent.Source{Value: stopintent.False, Path: pendingPath, Note: "a verdict boundary is pending"},
		LoopGuardTripped: stopintent.Source{Value: stopintent.False, Note: "no continue guard file"},
	}
}

// A one-line continue message outside a workspace: the outcome depends on
// what the text cannot tell, so it is open, and continue (when the phase is
// authorized) and real are both possible.
func TestBuildContinueMessage(t *testing.T) {
	_, m := build(t, continueMessage, nil)
	s := m.Stops[0]
	if s.Packet != nil {
		t.Error("a one-line message has a packet")
	}
	if s.Intent != stopintent.IntentContinue || s.Ambiguous {
		t.Errorf("intent = %q (ambiguous %v), want continue", s.Intent, s.Ambiguous)
	}
	if len(s.Markers) != 1 || !s.Markers[0].Exact {
		t.Errorf("markers = %+v, want the one exact marker", s.Markers)
	}
	if s.Class.Outcome != "" {
		t.Errorf("outcome = %q, want \"\" (several are possible)", s.Class.Outcome)
	}
	got := outcomes(s.Class)
	for _, want := range []stopintent.Outcome{stopintent.Continue, stopintent.Real} {
		if !slices.Contains(got, want) {
			t.Errorf("possible outcomes %v lack %s", got, want)
		}
	}
	cont := possibility(s.Class, stopintent.ReasonContinue)
	if cont == nil {
		t.Fatalf("no possibility with the continue reason: %q", reasons(s.Class))
	}
	if !strings.Contains(cont.When, "the phase is authorized") || strings.Contains(cont.When, "the phase is not authorized") {
		t.Errorf("continue holds when %q; want a condition that the phase is authorized", cont.When)
	}
	if cont.EnforcePacket || cont.EmitProgress {
		t.Errorf("continue: enforce_packet %v, emit_progress %v; want both false", cont.EnforcePacket, cont.EmitProgress)
	}
	for name, want := range map[string]stopintent.Tri{
		stopintent.InUserAction:      stopintent.False,
		stopintent.InBlocked:         stopintent.False,
		stopintent.InComplete:        stopintent.False,
		stopintent.InMarkerFromAsst:  stopintent.True,
		stopintent.InBoundaryPending: stopintent.Unknown,
		stopintent.InAuthorized:      stopintent.Unknown,
		stopintent.InInFlight:        stopintent.Unknown,
	} {
		if in := s.Inputs.Get(name); in.Value != want {
			t.Errorf("%s = %v (source %q), want %v", name, in.Value, in.Source, want)
		}
	}
	if in := s.Inputs.Get(stopintent.InAuthorized); in.Source != "unknown" {
		t.Errorf("%s: source %q, want \"unknown\"", stopintent.InAuthorized, in.Source)
	}
}

// A review packet: real for the user's sake. The input comes from the text
// and its span points at the review item.
func TestBuildReviewPacket(t *testing.T) {
	doc, m := build(t, reviewPacket, nil)
	s := m.Stops[0]
	if s.Packet == nil {
		t.Fatal("no packet")
	}
	if s.Class.Outcome != stopintent.Real {
		t.Errorf("outcome = %q, want real; possible: %q", s.Class.Outcome, reasons(s.Class))
	}
	if p := possibility(s.Class, stopintent.ReasonUserAction); p == nil {
		t.Errorf("no possibility with the user-action reason: %q", reasons(s.Class))
	} else if !p.EnforcePacket || p.EmitProgress {
		t.Errorf("user action: enforce_packet %v, emit_progress %v; want true, false", p.EnforcePacket, p.EmitProgress)
	}
	ua := s.Inputs.Get(stopintent.InUserAction)
	if ua.Value != stopintent.True || ua.Source != "text" {
		t.Errorf("%s = %v from %q, want true from \"text\"", stopintent.InUserAction, ua.Value, ua.Source)
	}
	if ua.Span == (markdown.Span{}) {
		t.Fatal("the user-action input has no span")
	}
	if got := doc.String(ua.Span); !strings.Contains(got, "Should `Parse` return an error for empty input?") {
		t.Errorf("the user-action span holds %q, want the review item", got)
	}
	if line := doc.Lines.LineOf(ua.Span.Start) + 1; line != 11 {
		t.Errorf("the user-action span is on line %d, want 11", line)
	}

	// In a specrew project with nothing pending, the stop goes as specrew's
	// provider takes it: it reads no user action from the text, so the
	// default reason is the only one, and the request is kept as Asks.
	ws := stopintent.State{Specrew: true, BoundaryPending: stopintent.Source{Value: stopintent.False, Note: "nothing pending"}}
	_, m = build(t, reviewPacket, analysis.Env{stopintent.EnvWorkspace: ws})
	s = m.Stops[0]
	if got := reasons(s.Class); s.Class.Outcome != stopintent.Real || len(got) != 1 || got[0] != stopintent.ReasonDefault {
		t.Errorf("with nothing pending: outcome %q, reasons %q; want real for the default reason alone", s.Class.Outcome, got)
	}
	if ua := s.Inputs.Get(stopintent.InUserAction); ua.Value != stopintent.False || ua.Source != stopintent.SourceSpecrew {
		t.Errorf("%s = %v from %q in a specrew project, want false from specrew's provider", stopintent.InUserAction, ua.Value, ua.Source)
	}
	if s.Asks == nil || !strings.Contains(doc.String(s.Asks.Span), "Should `Parse` return an error") {
		t.Errorf("Asks = %+v, want the review item", s.Asks)
	}
}

// A pending verdict stop in the workspace makes the stop real for the
// boundary, and the input names the file it came from.
func TestBuildWorkspaceBoundaryPending(t *testing.T) {
	for _, text := range []string{continueMessage, reviewPacket} {
		_, m := build(t, text, analysis.Env{stopintent.EnvWorkspace: pendingState()})
		s := m.Stops[0]
		in := s.Inputs.Get(stopintent.InBoundaryPending)
		if in.Value != stopintent.True || in.Source != pendingPath {
			t.Errorf("%s = %v from %q, want true from %q", stopintent.InBoundaryPending, in.Value, in.Source, pendingPath)
		}
		if got := reasons(s.Class); s.Class.Outcome != stopintent.Real || len(got) != 1 || got[0] != stopintent.ReasonBoundaryPending {
			t.Errorf("outcome %q, reasons %q; want real for the pending boundary alone", s.Class.Outcome, got)
		}
		if p := s.Class.Possible[0]; p.When != "" {
			t.Errorf("the only possibility holds when %q, want \"\"", p.When)
		}
	}
}

// A State that is not a specrew project says nothing, whatever its values.
func TestBuildWorkspaceNotSpecrew(t *testing.T) {
	st := pendingState()
	st.Specrew = false
	_, m := build(t, continueMessage, analysis.Env{stopintent.EnvWorkspace: st})
	s := m.Stops[0]
	if in := s.Inputs.Get(stopintent.InBoundaryPending); in.Value != stopintent.Unknown || in.Source != "unknown" {
		t.Errorf("%s = %v from %q, want unknown", stopintent.InBoundaryPending, in.Value, in.Source)
	}
	if s.Class.Outcome != "" {
		t.Errorf("outcome = %q, want \"\"", s.Class.Outcome)
	}
}

// The overrides (the CLI's flags) win over the workspace.
func TestBuildOverridesWinOverWorkspace(t *testing.T) {
	env := analysis.Env{
		stopintent.EnvWorkspace: pendingState(),
		stopintent.EnvOverrides: map[string]stopintent.Tri{
			stopintent.InBoundaryPending:  stopintent.False,
			stopintent.InAuthorized:       stopintent.True,
			stopintent.InInFlight:         stopintent.False,
			stopintent.InKnownTerminal:    stopintent.False,
			stopintent.InLoopGuardTripped: stopintent.False,
		},
	}
	_, m := build(t, continueMessage, env)
	s := m.Stops[0]
	for _, name := range []string{stopintent.InBoundaryPending, stopintent.InAuthorized, stopintent.InLoopGuardTripped} {
		if in := s.Inputs.Get(name); in.Source != "flag" {
			t.Errorf("%s comes from %q, want \"flag\"", name, in.Source)
		}
	}
	if in := s.Inputs.Get(stopintent.InBoundaryPending); in.Value != stopintent.False {
		t.Errorf("%s = %v, want false (the override)", stopintent.InBoundaryPending, in.Value)
	}
	if got := reasons(s.Class); s.Class.Outcome != stopintent.Continue || len(got) != 1 || got[0] != stopintent.ReasonContinue {
		t.Errorf("outcome %q, reasons %q; want continue alone", s.Class.Outcome, got)
	}

	// An override of one input leaves the workspace's others alone.
	env[stopintent.EnvOverrides] = map[string]stopintent.Tri{stopintent.InInFlight: stopintent.True}
	_, m = build(t, continueMessage, env)
	s = m.Stops[0]
	if in := s.Inputs.Get(stopintent.InBoundaryPending); in.Value != stopintent.True || in.Source != pendingPath {
		t.Errorf("%s = %v from %q, want true from the workspace", stopintent.InBoundaryPending, in.Value, in.Source)
	}
	if in := s.Inputs.Get(stopintent.InInFlight); in.Value != stopintent.True || in.Source != "flag" {
		t.Errorf("%s = %v from %q, want true from \"flag\"", stopintent.InInFlight, in.Value, in.Source)
	}
	if s.Class.Outcome != stopintent.Real {
		t.Errorf("outcome = %q, want real (the pending boundary comes first)", s.Class.Outcome)
	}
}

// Quoted markers declare the intent as specrew reads them (the whole
// message); both exact markers declare nothing.
func TestBuildQuotedAndAmbiguous(t *testing.T) {
	_, m := build(t, reviewPacket+"\n```\n"+stopintent.ContinueMarker+"\n```\n", nil)
	if s := m.Stops[0]; s.Intent != stopintent.IntentContinue || len(s.Markers) != 1 {
		t.Errorf("a marker quoted in code: intent %q, markers %d; want continue, 1", s.Intent, len(s.Markers))
	}
	_, m = build(t, reviewPacket+"\n```\n"+stopintent.ContinueMarker+"\n```\n\n> "+stopintent.IntermediateMarker+"\n", nil)
	if s := m.Stops[0]; s.Intent != stopintent.NoIntent || !s.Ambiguous {
		t.Errorf("both markers quoted: intent %q, ambiguous %v; want none, ambiguous", s.Intent, s.Ambiguous)
	}
	if len(m.Quoted) != 2 {
		t.Errorf("%d quoted markers, want 2", len(m.Quoted))
	}

	_, m = build(t, "Moving on.\n\n"+stopintent.ContinueMarker+"\n"+stopintent.IntermediateMarker+"\n", nil)
	s := m.Stops[0]
	if !s.Ambiguous || s.Intent != stopintent.NoIntent {
		t.Errorf("both markers: ambiguous %v, intent %q; want ambiguous with no intent", s.Ambiguous, s.Intent)
	}
	if slices.Contains(outcomes(s.Class), stopintent.Continue) {
		t.Errorf("both markers: continue is possible (%q), want no continue without an intent", reasons(s.Class))
	}
}

// The plain stop of specrew's tests/integration/conformance-stop-intent-wiring.tests.ps1,
// case (c): no marker, no request.
const plainStop = "I updated the provider and tests. Stopping here.\n"

// authorizedState is that test's fixture (-Working 'plan' -LastAuth 'plan'):
// an authorized phase, nothing pending, no loop guard.
func authorizedState() stopintent.State {
	ctx := "/ws/.specrew/start-context.json"
	return stopintent.State{
		Specrew:          true,
		BoundaryPending:  stopintent.Source{Value: stopintent.False, Path: ctx, Note: "no verdict is pending"},
		Authorized:       stopintent.Source{Value: stopintent.True, Path: ctx, Note: `boundary "plan", last authorized boundary "plan"`},
		LoopGuardTripped: stopintent.Source{Value: stopintent.False, Note: "no continue guard file"},
	}
}

// In a specrew project the async inputs are what specrew's stop provider
// passes (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1):
// false. A plain stop there is real, for the default reason alone, as
// specrew's tests require; outside a specrew project they stay unknown and
// intermediate stays possible.
func TestBuildPlainStopAsyncInputs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		env    analysis.Env
		text   string
		want   stopintent.Outcome   // "" when several are possible
		possib []stopintent.Outcome // the possible outcomes
		async  stopintent.Tri
		source string
	}{
		{"specrew project, authorized", analysis.Env{stopintent.EnvWorkspace: authorizedState()}, plainStop,
			stopintent.Real, []stopintent.Outcome{stopintent.Real}, stopintent.False, stopintent.SourceSpecrew},
		// A .specrew/ with nothing in it: still specrew's provider, still
		// real (whether for the default reason or a pending boundary).
		{"empty specrew project", analysis.Env{stopintent.EnvWorkspace: stopintent.State{Specrew: true}}, plainStop,
			stopintent.Real, []stopintent.Outcome{stopintent.Real}, stopintent.False, stopintent.SourceSpecrew},
		// The provider's async fallback: the intermediate marker alone
		// (the wiring test's case (b)).
		{"specrew project, intermediate marker", analysis.Env{stopintent.EnvWorkspace: authorizedState()}, "Waiting for CI.\n\n" + stopintent.IntermediateMarker + "\n",
			stopintent.Intermediate, []stopintent.Outcome{stopintent.Intermediate}, stopintent.False, stopintent.SourceSpecrew},
		{"not a specrew project", nil, plainStop,
			"", []stopintent.Outcome{stopintent.Real, stopintent.Intermediate}, stopintent.Unknown, "unknown"},
		{"not a specrew project (State says so)", analysis.Env{stopintent.EnvWorkspace: stopintent.State{}}, plainStop,
			"", []stopintent.Outcome{stopintent.Real, stopintent.Intermediate}, stopintent.Unknown, "unknown"},
		// A flag wins over the provider's constant.
		{"specrew project, --in-flight true", analysis.Env{stopintent.EnvWorkspace: authorizedState(), stopintent.EnvOverrides: map[string]stopintent.Tri{stopintent.InInFlight: stopintent.True}}, plainStop,
			stopintent.Intermediate, []stopintent.Outcome{stopintent.Intermediate}, stopintent.False, stopintent.SourceSpecrew},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// As the stop hooks and baton classify read it: a plain
			// message is a stop message too.
			doc := markdown.Parse("input.md", tt.text)
			doc.Kind = markdown.KindPacket
			s := stopintent.Build(doc, packet.BuildWith(doc, nil), tt.env).Stops[0]
			if s.Class.Outcome != tt.want || !slices.Equal(outcomes(s.Class), tt.possib) {
				t.Errorf("outcome %q, possible %v (%q); want %q, possible %v", s.Class.Outcome, outcomes(s.Class), reasons(s.Class), tt.want, tt.possib)
			}
			if tt.name == "specrew project, authorized" {
				if got := reasons(s.Class); len(got) != 1 || got[0] != stopintent.ReasonDefault {
					t.Errorf("reasons %q, want the default reason alone", got)
				}
			}
			if _, flagged := tt.env[stopintent.EnvOverrides]; flagged {
				if in := s.Inputs.Get(stopintent.InInFlight); in.Value != stopintent.True || in.Source != "flag" {
					t.Errorf("%s = %v from %q, want true from the flag", stopintent.InInFlight, in.Value, in.Source)
				}
				return
			}
			for _, name := range []string{stopintent.InInFlight, stopintent.InKnownTerminal} {
				in := s.Inputs.Get(name)
				if in.Value != tt.async || in.Source != tt.source {
					t.Errorf("%s = %v from %q, want %v from %q", name, in.Value, in.Source, tt.async, tt.source)
				}
				if tt.source == stopintent.SourceSpecrew && !strings.Contains(in.Why, "specrew-conformance-provider.ps1") {
					t.Errorf("%s: why %q does not cite specrew's provider", name, in.Why)
				}
			}
		})
	}
}
