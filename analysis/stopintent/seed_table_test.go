package stopintent_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/stopintent"
)

// The seed's reasons, copied character for character from the return
// statements of Resolve-ContinuousCoReviewStopIntent in specrew's
// scripts/internal/continuous-co-review/stop-intent-contract.ps1 (NOT from
// classify.go's constants, so that the two are checked against each other).
const (
	seedReasonBoundary  = `a lifecycle verdict boundary is pending (a human handoff is due)`
	seedReasonUser      = `a substantive review request, a user question, or a required external action`
	seedReasonBlocked   = `execution cannot continue automatically, or the agent intentionally hands control back`
	seedReasonComplete  = `the requested work is complete and ready for a final report`
	seedReasonAsync     = `required owned async work is in flight; a one-line operational yield - the agent resumes when it completes`
	seedReasonLoopGuard = `continue-loop-guard tripped: repeated continue with no intervening material progress / unchanged workflow - an internal routing failure surfaced as a real stop`
	seedReasonContinue  = `the current assistant turn declares continue AND lifecycle authorization confirms remaining in-phase work; suppress the stop and perform the next authorized action`
	seedReasonDefault   = `no current-turn continue marker with authorization, no async in flight, and no other trigger; normal real-stop enforcement applies`
)

// seedResult is the [pscustomobject] the seed's $mk scriptblock builds:
// @{ outcome; enforce_packet; emit_progress; reason }.
type seedResult struct {
	outcome       string
	enforcePacket bool
	emitProgress  bool
	reason        string
}

// psEq is PowerShell's -eq on strings, which ignores case.
func psEq(a, b string) bool { return strings.EqualFold(a, b) }

// seedResolve is Resolve-ContinuousCoReviewStopIntent transcribed statement
// by statement, in the seed's order and with the seed's parameter names. It
// deliberately shares nothing with classify.go.
func seedResolve(
	LifecycleBoundaryPending bool,
	UserActionRequired bool,
	AgentBlockedOrHandingBack bool,
	RequestedWorkComplete bool,
	OwnedWorkInFlight bool,
	RuntimeWorkKnownTerminal bool,
	MarkerIntent string,
	MarkerFromAssistant bool,
	AuthorizedWorkRemains bool,
	ContinueLoopGuardTripped bool,
) seedResult {
	// $mk = { param([string]$outcome, [bool]$enforcePacket, [bool]$emitProgress, [string]$reason) [pscustomobject]@{ ... } }
	mk := func(outcome string, enforcePacket bool, emitProgress bool, reason string) seedResult {
		return seedResult{outcome: outcome, enforcePacket: enforcePacket, emitProgress: emitProgress, reason: reason}
	}
	// $effectiveMarker = if ($MarkerFromAssistant) { $MarkerIntent } else { '' }
	effectiveMarker := ""
	if MarkerFromAssistant {
		effectiveMarker = MarkerIntent
	}
	// 1. REAL
	if LifecycleBoundaryPending {
		return mk("real", true, false, seedReasonBoundary)
	}
	if UserActionRequired {
		return mk("real", true, false, seedReasonUser)
	}
	if AgentBlockedOrHandingBack {
		return mk("real", true, false, seedReasonBlocked)
	}
	if RequestedWorkComplete {
		return mk("real", true, false, seedReasonComplete)
	}
	// 2. INTERMEDIATE
	// $asyncInFlight = ($OwnedWorkInFlight -or ($effectiveMarker -eq 'intermediate')) -and (-not $RuntimeWorkKnownTerminal)
	asyncInFlight := (OwnedWorkInFlight || psEq(effectiveMarker, "intermediate")) && (!RuntimeWorkKnownTerminal)
	if asyncInFlight {
		return mk("intermediate", false, true, seedReasonAsync)
	}
	// 3. CONTINUE — marker and gate.
	// if (($effectiveMarker -eq 'continue') -and $AuthorizedWorkRemains)
	if psEq(effectiveMarker, "continue") && AuthorizedWorkRemains {
		if ContinueLoopGuardTripped {
			return mk("real", true, false, seedReasonLoopGuard)
		}
		return mk("continue", false, false, seedReasonContinue)
	}
	// 4. Otherwise → normal real-stop enforcement.
	return mk("real", true, false, seedReasonDefault)
}

var intents = []stopintent.Intent{stopintent.NoIntent, stopintent.IntentContinue, stopintent.IntentIntermediate}

// boolsOf spreads the 9 bits of mask over the boolean inputs in the seed's
// parameter order (bit 0 = LifecycleBoundaryPending … bit 8 =
// ContinueLoopGuardTripped).
func boolsOf(mask int, intent stopintent.Intent) stopintent.Bools {
	bit := func(i int) bool { return mask&(1<<i) != 0 }
	return stopintent.Bools{
		LifecycleBoundaryPending:  bit(0),
		UserActionRequired:        bit(1),
		AgentBlockedOrHandingBack: bit(2),
		RequestedWorkComplete:     bit(3),
		OwnedWorkInFlight:         bit(4),
		RuntimeWorkKnownTerminal:  bit(5),
		MarkerIntent:              intent,
		MarkerFromAssistant:       bit(6),
		AuthorizedWorkRemains:     bit(7),
		ContinueLoopGuardTripped:  bit(8),
	}
}

func seedResolveBools(b stopintent.Bools) seedResult {
	return seedResolve(b.LifecycleBoundaryPending, b.UserActionRequired, b.AgentBlockedOrHandingBack,
		b.RequestedWorkComplete, b.OwnedWorkInFlight, b.RuntimeWorkKnownTerminal, string(b.MarkerIntent),
		b.MarkerFromAssistant, b.AuthorizedWorkRemains, b.ContinueLoopGuardTripped)
}

func fromResult(r stopintent.Result) seedResult {
	return seedResult{outcome: string(r.Outcome), enforcePacket: r.EnforcePacket, emitProgress: r.EmitProgress, reason: r.Reason}
}

func row(b stopintent.Bools) string {
	return fmt.Sprintf("{LifecycleBoundaryPending:%t UserActionRequired:%t AgentBlockedOrHandingBack:%t RequestedWorkComplete:%t "+
		"OwnedWorkInFlight:%t RuntimeWorkKnownTerminal:%t MarkerIntent:%q MarkerFromAssistant:%t AuthorizedWorkRemains:%t ContinueLoopGuardTripped:%t}",
		b.LifecycleBoundaryPending, b.UserActionRequired, b.AgentBlockedOrHandingBack, b.RequestedWorkComplete,
		b.OwnedWorkInFlight, b.RuntimeWorkKnownTerminal, b.MarkerIntent, b.MarkerFromAssistant, b.AuthorizedWorkRemains, b.ContinueLoopGuardTripped)
}

// TestResolveMatchesSeedExhaustively compares Resolve with the transcribed
// seed on all 2^9 × 3 = 1536 inputs.
func TestResolveMatchesSeedExhaustively(t *testing.T) {
	n := 0
	for _, intent := range intents {
		for mask := range 1 << 9 {
			b := boolsOf(mask, intent)
			got, want := fromResult(stopintent.Resolve(b)), seedResolveBools(b)
			if got != want {
				t.Errorf("Resolve(%s)\n got  %+v\n seed %+v", row(b), got, want)
			}
			n++
		}
	}
	if n != 1536 {
		t.Fatalf("checked %d cases, want 1536", n)
	}
}

// TestResolveHandPicked checks rows worked out by reading the seed, as a
// second check independent of the transcription above.
func TestResolveHandPicked(t *testing.T) {
	const (
		cont  = stopintent.IntentContinue
		inter = stopintent.IntentIntermediate
	)
	tests := []struct {
		name    string
		in      stopintent.Bools
		outcome string
		reason  string
	}{
		{"nothing at all is a real stop, with the default reason",
			stopintent.Bools{}, "real", seedReasonDefault},
		{"no marker, assistant flag set, nothing else",
			stopintent.Bools{MarkerFromAssistant: true}, "real", seedReasonDefault},
		{"continue marker from the assistant with authorization continues",
			stopintent.Bools{MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true}, "continue", seedReasonContinue},
		{"continue marker not from the assistant is ignored",
			stopintent.Bools{MarkerIntent: cont, MarkerFromAssistant: false, AuthorizedWorkRemains: true}, "real", seedReasonDefault},
		{"intermediate marker not from the assistant is ignored",
			stopintent.Bools{MarkerIntent: inter, MarkerFromAssistant: false}, "real", seedReasonDefault},
		{"intermediate marker from the assistant yields",
			stopintent.Bools{MarkerIntent: inter, MarkerFromAssistant: true}, "intermediate", seedReasonAsync},
		{"known-terminal invalidates an intermediate marker",
			stopintent.Bools{MarkerIntent: inter, MarkerFromAssistant: true, RuntimeWorkKnownTerminal: true}, "real", seedReasonDefault},
		{"known-terminal registry work without a marker is not in flight",
			stopintent.Bools{OwnedWorkInFlight: true, RuntimeWorkKnownTerminal: true}, "real", seedReasonDefault},
		{"known-terminal work then falls through to an authorized continue",
			stopintent.Bools{OwnedWorkInFlight: true, RuntimeWorkKnownTerminal: true, MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true}, "continue", seedReasonContinue},
		{"registry work in flight needs no marker",
			stopintent.Bools{OwnedWorkInFlight: true}, "intermediate", seedReasonAsync},
		{"continue without authorization is a real stop with the default reason",
			stopintent.Bools{MarkerIntent: cont, MarkerFromAssistant: true}, "real", seedReasonDefault},
		{"continue with authorization and a tripped loop guard is a real stop",
			stopintent.Bools{MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true, ContinueLoopGuardTripped: true}, "real", seedReasonLoopGuard},
		{"a tripped loop guard without a continue marker is just the default",
			stopintent.Bools{AuthorizedWorkRemains: true, ContinueLoopGuardTripped: true, MarkerFromAssistant: true}, "real", seedReasonDefault},
		{"a tripped loop guard on an unauthorized continue is just the default",
			stopintent.Bools{MarkerIntent: cont, MarkerFromAssistant: true, ContinueLoopGuardTripped: true}, "real", seedReasonDefault},
		{"a pending boundary overrides everything",
			stopintent.Bools{LifecycleBoundaryPending: true, UserActionRequired: true, AgentBlockedOrHandingBack: true, RequestedWorkComplete: true,
				OwnedWorkInFlight: true, MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true, ContinueLoopGuardTripped: true}, "real", seedReasonBoundary},
		{"a pending boundary overrides an intermediate marker and work in flight",
			stopintent.Bools{LifecycleBoundaryPending: true, OwnedWorkInFlight: true, MarkerIntent: inter, MarkerFromAssistant: true}, "real", seedReasonBoundary},
		{"a user action overrides an authorized continue",
			stopintent.Bools{UserActionRequired: true, MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true}, "real", seedReasonUser},
		{"user action comes before blocked and complete",
			stopintent.Bools{UserActionRequired: true, AgentBlockedOrHandingBack: true, RequestedWorkComplete: true}, "real", seedReasonUser},
		{"blocked overrides work in flight",
			stopintent.Bools{AgentBlockedOrHandingBack: true, OwnedWorkInFlight: true}, "real", seedReasonBlocked},
		{"blocked comes before complete",
			stopintent.Bools{AgentBlockedOrHandingBack: true, RequestedWorkComplete: true}, "real", seedReasonBlocked},
		{"complete overrides an intermediate marker",
			stopintent.Bools{RequestedWorkComplete: true, MarkerIntent: inter, MarkerFromAssistant: true}, "real", seedReasonComplete},
		{"work in flight beats an authorized continue",
			stopintent.Bools{OwnedWorkInFlight: true, MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true}, "intermediate", seedReasonAsync},
		{"work in flight beats a tripped loop guard",
			stopintent.Bools{OwnedWorkInFlight: true, MarkerIntent: cont, MarkerFromAssistant: true, AuthorizedWorkRemains: true, ContinueLoopGuardTripped: true}, "intermediate", seedReasonAsync},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := seedResult{outcome: tt.outcome, enforcePacket: tt.outcome == "real", emitProgress: tt.outcome == "intermediate", reason: tt.reason}
			if got := fromResult(stopintent.Resolve(tt.in)); got != want {
				t.Errorf("Resolve(%s)\n got  %+v\n want %+v", row(tt.in), got, want)
			}
			// The table and the transcription must agree too.
			if got := seedResolveBools(tt.in); got != want {
				t.Errorf("seedResolve(%s)\n got  %+v\n want %+v", row(tt.in), got, want)
			}
		})
	}
}

// TestSeedReasonsVerbatim checks the copied reasons against the seed file
// itself when STOPINTENT_SEED names it (the seed is not part of the tree).
func TestSeedReasonsVerbatim(t *testing.T) {
	path := os.Getenv("STOPINTENT_SEED")
	if path == "" {
		t.Skip("set STOPINTENT_SEED to the seed file to check the reasons against it")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{seedReasonBoundary, seedReasonUser, seedReasonBlocked, seedReasonComplete,
		seedReasonAsync, seedReasonLoopGuard, seedReasonContinue, seedReasonDefault} {
		if !strings.Contains(string(data), "'"+r+"'") {
			t.Errorf("reason not in the seed: %q", r)
		}
	}
}

// bitOrder are the Classify input names in the order boolsOf uses.
var bitOrder = []string{
	stopintent.InBoundaryPending, stopintent.InUserAction, stopintent.InBlocked, stopintent.InComplete,
	stopintent.InInFlight, stopintent.InKnownTerminal, stopintent.InMarkerFromAsst, stopintent.InAuthorized,
	stopintent.InLoopGuardTripped,
}

// completions lists every Bools an Inputs may stand for.
func completions(in stopintent.Inputs) []stopintent.Bools {
	var out []stopintent.Bools
	for mask := range 1 << 9 {
		ok := true
		for i, n := range bitOrder {
			if v := in.Values[n]; v != stopintent.Unknown && (v == stopintent.True) != (mask&(1<<i) != 0) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, boolsOf(mask, in.MarkerIntent))
		}
	}
	return out
}

// checkSound checks that every completion's result is among the
// possibilities, that every possibility is some completion's result, that
// the possibilities are distinct, and that Outcome is set exactly when one
// outcome is possible.
func checkSound(t *testing.T, in stopintent.Inputs, c stopintent.Classification) {
	t.Helper()
	results := make([]stopintent.Result, len(c.Possible))
	for i, p := range c.Possible {
		results[i] = p.Result
		if slices.Contains(results[:i], p.Result) {
			t.Errorf("%v: duplicate possibility %+v", in, p.Result)
		}
	}
	reached := map[stopintent.Result]bool{}
	for _, b := range completions(in) {
		r := stopintent.Resolve(b)
		reached[r] = true
		if !slices.Contains(results, r) {
			t.Errorf("%v: Resolve(%s) = %+v is not among the possibilities %+v", in, row(b), r, c.Possible)
		}
		if fromResult(r) != seedResolveBools(b) {
			t.Errorf("Resolve(%s) disagrees with the seed", row(b))
		}
	}
	outcomes := map[stopintent.Outcome]bool{}
	for _, r := range results {
		outcomes[r.Outcome] = true
		if !reached[r] {
			t.Errorf("%v: possibility %+v is not reached by any completion", in, r)
		}
	}
	switch {
	case len(outcomes) == 1 && c.Outcome != results[0].Outcome:
		t.Errorf("%v: Outcome = %q, want %q", in, c.Outcome, results[0].Outcome)
	case len(outcomes) > 1 && c.Outcome != "":
		t.Errorf("%v: Outcome = %q with %d possible outcomes, want \"\"", in, c.Outcome, len(outcomes))
	}
	// DependsOn: the unknown inputs whose value changes the outcome for
	// some values of the others; none when the outcome is one.
	var depends []string
	if len(outcomes) > 1 {
		for _, n := range bitOrder {
			if in.Values[n] != stopintent.Unknown {
				continue
			}
			for _, b := range completions(in) {
				flipped := b
				*fieldOf(&flipped, n) = !*fieldOf(&b, n)
				if stopintent.Resolve(b).Outcome != stopintent.Resolve(flipped).Outcome {
					depends = append(depends, n)
					break
				}
			}
		}
	}
	if !slices.Equal(c.DependsOn, depends) {
		t.Errorf("%v: DependsOn = %q, want %q", in, c.DependsOn, depends)
	}
}

// fieldOf is the field of b that holds the input name.
func fieldOf(b *stopintent.Bools, name string) *bool {
	return map[string]*bool{
		stopintent.InBoundaryPending: &b.LifecycleBoundaryPending, stopintent.InUserAction: &b.UserActionRequired,
		stopintent.InBlocked: &b.AgentBlockedOrHandingBack, stopintent.InComplete: &b.RequestedWorkComplete,
		stopintent.InInFlight: &b.OwnedWorkInFlight, stopintent.InKnownTerminal: &b.RuntimeWorkKnownTerminal,
		stopintent.InMarkerFromAsst: &b.MarkerFromAssistant, stopintent.InAuthorized: &b.AuthorizedWorkRemains,
		stopintent.InLoopGuardTripped: &b.ContinueLoopGuardTripped,
	}[name]
}

func TestClassifyAllKnown(t *testing.T) {
	for _, intent := range intents {
		for mask := range 1 << 9 {
			in := stopintent.Inputs{Values: map[string]stopintent.Tri{}, MarkerIntent: intent}
			for i, n := range bitOrder {
				in.Values[n] = stopintent.Of(mask&(1<<i) != 0)
			}
			b := boolsOf(mask, intent)
			want := stopintent.Resolve(b)
			c := stopintent.Classify(in)
			if len(c.Possible) != 1 || c.Possible[0].Result != want || c.Possible[0].When != "" || c.Outcome != want.Outcome {
				t.Errorf("Classify(%s) = %+v, want the one possibility %+v with outcome %q", row(b), c, want, want.Outcome)
			}
		}
	}
}

func TestClassifyContinueMarkerWithUnknownWorkspace(t *testing.T) {
	in := stopintent.Inputs{
		MarkerIntent: stopintent.IntentContinue,
		Values: map[string]stopintent.Tri{
			stopintent.InUserAction:     stopintent.False,
			stopintent.InBlocked:        stopintent.False,
			stopintent.InComplete:       stopintent.False,
			stopintent.InMarkerFromAsst: stopintent.True,
			// boundary pending, in flight, known terminal, authorized and
			// loop guard are unknown.
		},
	}
	c := stopintent.Classify(in)
	if c.Outcome != "" {
		t.Errorf("Outcome = %q, want \"\" (several outcomes are possible)", c.Outcome)
	}
	outcomes := map[stopintent.Outcome]bool{}
	for _, p := range c.Possible {
		outcomes[p.Outcome] = true
		if p.When == "" {
			t.Errorf("possibility %+v has no condition", p.Result)
		}
	}
	for _, o := range []stopintent.Outcome{stopintent.Continue, stopintent.Intermediate, stopintent.Real} {
		if !outcomes[o] {
			t.Errorf("%q is not among the possible outcomes %+v", o, c.Possible)
		}
	}
	if n := len(completions(in)); n != 1<<5 {
		t.Fatalf("%d completions, want 32", n)
	}
	checkSound(t, in, c)
}

func TestClassifyUserActionWithEverythingElseUnknown(t *testing.T) {
	for _, intent := range intents {
		in := stopintent.Inputs{MarkerIntent: intent, Values: map[string]stopintent.Tri{stopintent.InUserAction: stopintent.True}}
		c := stopintent.Classify(in)
		if c.Outcome != stopintent.Real {
			t.Errorf("intent %q: Outcome = %q, want real", intent, c.Outcome)
		}
		// The only thing that outranks a user action is a pending boundary,
		// which is unknown here: the stop is real either way, with the
		// user-action reason unless a boundary is pending.
		reasons := map[string]string{}
		for _, p := range c.Possible {
			if p.Outcome != stopintent.Real {
				t.Errorf("intent %q: possible outcome %q, want only real", intent, p.Outcome)
			}
			reasons[p.Reason] = p.When
		}
		if len(reasons) != 2 || reasons[seedReasonUser] != stopintent.DescribeNot(stopintent.InBoundaryPending) ||
			reasons[seedReasonBoundary] != stopintent.Describe(stopintent.InBoundaryPending) {
			t.Errorf("intent %q: possibilities %+v, want the user-action reason unless a boundary is pending", intent, c.Possible)
		}
		checkSound(t, in, c)

		// With the boundary known not to be pending, the user-action reason is the only possibility.
		in.Values[stopintent.InBoundaryPending] = stopintent.False
		c = stopintent.Classify(in)
		if c.Outcome != stopintent.Real || len(c.Possible) != 1 || c.Possible[0].Reason != seedReasonUser || c.Possible[0].When != "" {
			t.Errorf("intent %q, no boundary: %+v, want one real possibility with the user-action reason", intent, c)
		}
		checkSound(t, in, c)
	}
}

// TestClassifySoundSampled checks soundness and completeness on the
// all-unknown inputs and on a fixed sample of partially known ones.
func TestClassifySoundSampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		in := stopintent.Inputs{MarkerIntent: intents[i%3], Values: map[string]stopintent.Tri{}}
		if i >= 3 {
			for _, n := range bitOrder {
				in.Values[n] = stopintent.Tri(rng.IntN(3)) // Unknown, False or True
			}
		}
		checkSound(t, in, stopintent.Classify(in))
	}
}

func TestTri(t *testing.T) {
	if stopintent.Of(true) != stopintent.True || stopintent.Of(false) != stopintent.False {
		t.Errorf("Of(true), Of(false) = %v, %v", stopintent.Of(true), stopintent.Of(false))
	}
	var zero stopintent.Tri
	if zero != stopintent.Unknown {
		t.Errorf("the zero Tri is %v, want unknown", zero)
	}
	for tri, want := range map[stopintent.Tri]string{stopintent.True: "true", stopintent.False: "false", stopintent.Unknown: "unknown", stopintent.Tri(7): "unknown"} {
		if got := tri.String(); got != want {
			t.Errorf("Tri(%d).String() = %q, want %q", int(tri), got, want)
		}
	}
	for s, want := range map[string]stopintent.Tri{
		"true": stopintent.True, "TRUE": stopintent.True, "True": stopintent.True,
		"false": stopintent.False, "False": stopintent.False,
		"unknown": stopintent.Unknown, "Unknown": stopintent.Unknown, "": stopintent.Unknown,
	} {
		got, err := stopintent.ParseTri(s)
		if err != nil || got != want {
			t.Errorf("ParseTri(%q) = %v, %v; want %v, nil", s, got, err, want)
		}
	}
	for _, s := range []string{"yes", "1", "t", " true", "maybe"} {
		if got, err := stopintent.ParseTri(s); err == nil || got != stopintent.Unknown {
			t.Errorf("ParseTri(%q) = %v, %v; want unknown and an error", s, got, err)
		}
	}
	// Round trip.
	for _, tri := range []stopintent.Tri{stopintent.True, stopintent.False, stopintent.Unknown} {
		if got, err := stopintent.ParseTri(tri.String()); err != nil || got != tri {
			t.Errorf("ParseTri(%q) = %v, %v", tri.String(), got, err)
		}
	}
}
