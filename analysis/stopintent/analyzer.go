package stopintent

import (
	"fmt"
	"iter"
	"math/bits"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// Env keys the analyzer reads.
const (
	// EnvWorkspace holds the specrew workspace's State.
	EnvWorkspace = "stopintent.workspace"
	// EnvOverrides holds a map[string]Tri of inputs set by hand (the CLI's
	// flags), by input name; they win over the workspace.
	EnvOverrides = "stopintent.overrides"
)

// Input is one classifier input, its value and where it came from.
type Input struct {
	Value  Tri
	Source string        // "text", a workspace file, SourceSpecrew, "flag", or "unknown"
	Span   markdown.Span // in the text, when the text decided it
	Why    string
}

// SourceSpecrew is the source of the inputs specrew's stop provider passes
// its classifier as constants.
//
// In a specrew project OwnedWorkInFlight and RuntimeWorkKnownTerminal are
// false, as specrew's stop provider passes them: it calls
// Resolve-ContinuousCoReviewStopIntent with -OwnedWorkInFlight:$false
// -RuntimeWorkKnownTerminal:$false whatever the stop, since those are
// "host-native async signals this provider does not track (an
// `intermediate` marker is the async fallback)"
// (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1 in
// alonf/specrew). So a plain stop there, without a marker or a request, is
// real, as specrew's tests/integration/conformance-stop-intent-wiring.tests.ps1
// (case (c), "I updated the provider and tests. Stopping here.") requires,
// and only an intermediate marker makes a stop intermediate. Outside a
// specrew project nothing says what tracks async work: they stay unknown.
const SourceSpecrew = "specrew"

// providerWhy says why each input SourceSpecrew gives is false.
var providerWhy = map[string]string{
	InInFlight:      "specrew's stop provider tracks no owned async work and passes OwnedWorkInFlight as false (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1); only an intermediate marker declares async work",
	InKnownTerminal: "specrew's stop provider tracks no owned async work and passes RuntimeWorkKnownTerminal as false (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1)",
	InUserAction:    "specrew's stop provider does not read a request or a question from the text and passes UserActionRequired as false (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1)",
	InBlocked:       "specrew's stop provider does not read the text for a blocker and passes AgentBlockedOrHandingBack as false (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1)",
	InComplete:      "specrew's stop provider does not read the text for completed work and passes RequestedWorkComplete as false (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1)",
}

// Stop is one stop message: a packet, or a whole document without packet
// sections.
type Stop struct {
	Span      markdown.Span
	Packet    *packet.Packet // nil for a message without sections
	Markers   []*Marker      // the stop's own markers, exact or near misses
	Intent    Intent         // what the exact markers declare; "" when none or both (ambiguous)
	Ambiguous bool
	Inputs    InputSet
	Class     Classification
	// Recorded: a saved gate record whose verdict is recorded, not a live stop.
	Recorded bool
	// Asks is what the text asks of the user (a review request, a
	// question, a response wanted), when it asks anything: specrew's
	// provider does not read it (Inputs has UserActionRequired false), so
	// a continue marker continues past it (RuleInertContinue says so).
	Asks *Input
}

// Model is every stop of a document, and the markers quoted in it.
type Model struct {
	Stops  []*Stop
	Quoted []*Marker
}

// StopAt returns the stop holding offset.
func (m *Model) StopAt(offset int) *Stop {
	for i, s := range m.Stops {
		// A stop ends where the next begins; the last one holds the end of the text.
		if offset >= s.Span.Start && (offset < s.Span.End || i == len(m.Stops)-1 && offset == s.Span.End) {
			return s
		}
	}
	return nil
}

var (
	RuleNearMiss = &analysis.Rule{
		ID:       "stopintent/near-miss",
		Summary:  "A comment looks like a stop-intent marker but is not the exact string.",
		Severity: analysis.Warning,
		Doc: "specrew matches the markers `" + ContinueMarker + "` and `" + IntermediateMarker + "` exactly " +
			"(a plain substring test). A marker in another case, with other spacing or with another word is " +
			"silently no marker at all, and the stop is classified as if it had none. The quick fix writes " +
			"the exact form.",
	}
	RuleAmbiguous = &analysis.Rule{
		ID:       "stopintent/ambiguous",
		Summary:  "A message declares both stop intents.",
		Severity: analysis.Warning,
		Doc: "With both the continue and the intermediate marker, the intent is ambiguous and specrew takes " +
			"none (it fails closed): neither the continue nor the async-yield path applies. Keep the one you " +
			"mean.",
	}
	RuleQuoted = &analysis.Rule{
		ID:       "stopintent/quoted-marker",
		Summary:  "A stop-intent marker inside code or a block quote still declares the stop's intent.",
		Severity: analysis.Hint,
		Doc: "specrew looks for the marker in the whole message as plain text " +
			"(`Get-ContinuousCoReviewStopIntentMarkerIntent`, a `String.Contains` test in " +
			"`scripts/internal/continuous-co-review/stop-intent-contract.ps1`): a marker inside a fenced or " +
			"indented code block, inline code or a block quote declares the intent as if it were written " +
			"outside. baton classifies the stop the same way, and says so here, since a marker quoted to show " +
			"it (a log excerpt, an example) is easily meant as no declaration at all. Write it outside code if " +
			"you mean it; otherwise leave it out of the message.",
		Follows: []string{"specrew Get-ContinuousCoReviewStopIntentMarkerIntent"},
	}
	RuleInertContinue = &analysis.Rule{
		ID:       "stopintent/inert-continue",
		Summary:  "A continue marker on a message that asks the user for something: the agent goes on, and the request goes unanswered.",
		Severity: analysis.Warning,
		Doc: "specrew's stop-intent contract puts a user action first in its precedence " +
			"(`Resolve-ContinuousCoReviewStopIntent`), but its stop provider never tells it of one: it passes " +
			"UserActionRequired as false (`specrew-conformance-provider.ps1`, \"v1\"). So a continue marker on a " +
			"message that asks a question or requests a review continues, where the authorization allows, and the " +
			"question never reaches the user. baton gives specrew's verdict at the stop (this finding never blocks " +
			"it, `--lint` included) and warns here of the hazard: remove the marker to hand the stop to the user, " +
			"or remove the request if the agent really may go on.",
		Follows: []string{"specrew Resolve-ContinuousCoReviewStopIntent (as the stop provider calls it)"},
	}
	RulePacketOnContinue = &analysis.Rule{
		ID:       "stopintent/packet-on-continue",
		Summary:  "A continue message renders a status packet.",
		Severity: analysis.Warning,
		Doc: "A `continue` stop is suppressed: there is no packet and no message; the agent performs the next " +
			"authorized action. A message that declares continue and also renders a packet contradicts itself: " +
			"drop the packet, or drop the marker if the stop should hand control back.",
	}
	RulePacketOnIntermediate = &analysis.Rule{
		ID:       "stopintent/packet-on-intermediate",
		Summary:  "An intermediate message renders a packet or a verdict marker.",
		Severity: analysis.Warning,
		Doc: "An `intermediate` stop is an async yield: one concise progress line and the marker, no packet and " +
			"no verdict marker; the agent resumes when its work completes. Drop the packet (and any verdict " +
			"marker), or drop the marker if the stop is real.",
	}
)

// Analyzer reads stop-intent markers and classifies each stop, reading the
// packet analyzer's model.
var Analyzer = &analysis.Analyzer{
	Name:     "stopintent",
	Kind:     markdown.KindPacket,
	Rules:    []*analysis.Rule{RuleNearMiss, RuleAmbiguous, RuleQuoted, RuleInertContinue, RulePacketOnContinue, RulePacketOnIntermediate},
	Requires: []*analysis.Analyzer{packet.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) any {
	pm, _ := pass.Model(packet.Analyzer).(*packet.Model)
	m := Build(pass.Doc, pm, pass.Env)
	for _, q := range m.Quoted {
		if q.Exact {
			pass.Report(RuleQuoted, q.Span, "this marker is quoted (in code or a block quote), yet specrew reads it as the message's own: it declares the "+string(q.Intent)+" intent for this stop; write it outside code if you mean it, or leave it out")
		}
	}
	for _, s := range m.Stops {
		check(pass, s)
	}
	return m
}

// Build finds the stops of a document and classifies each.
func Build(doc *markdown.Document, pm *packet.Model, env analysis.Env) *Model {
	m := &Model{}
	if pm != nil {
		for _, p := range pm.Packets {
			m.Stops = append(m.Stops, &Stop{Span: p.Span, Packet: p})
		}
	}
	if len(m.Stops) == 0 {
		m.Stops = []*Stop{{Span: markdown.Span{End: len(doc.Text)}}}
	}
	for _, mk := range findMarkers(doc) {
		if mk.Quoted {
			// specrew tests the whole message for the marker
			// (Get-ContinuousCoReviewStopIntentMarkerIntent: String.Contains),
			// code and quotes included: a quoted marker declares the intent
			// too, and RuleQuoted says so.
			m.Quoted = append(m.Quoted, mk)
			if !mk.Exact {
				continue // a near miss quoted: no declaration, to specrew or to a reader
			}
		}
		s := m.Stops[len(m.Stops)-1]
		for _, c := range m.Stops {
			if mk.Span.Start >= c.Span.Start && mk.Span.Start < c.Span.End {
				s = c
				break
			}
		}
		s.Markers = append(s.Markers, mk)
	}
	state, _ := env[EnvWorkspace].(State)
	overrides, _ := env[EnvOverrides].(map[string]Tri)
	for _, s := range m.Stops {
		classify(s, pm, state, overrides)
	}
	return m
}

func classify(s *Stop, pm *packet.Model, ws State, overrides map[string]Tri) {
	var cont, inter bool
	for _, mk := range s.Markers {
		if mk.Exact {
			cont = cont || mk.Intent == IntentContinue
			inter = inter || mk.Intent == IntentIntermediate
		}
	}
	switch {
	case cont && inter:
		s.Ambiguous = true
	case cont:
		s.Intent = IntentContinue
	case inter:
		s.Intent = IntentIntermediate
	}

	var in InputSet
	fromText := func(name string, f packet.Fact) {
		i := Input{Value: Of(f.Value), Source: "text", Why: f.Why}
		if len(f.Spans) > 0 {
			i.Span = f.Spans[0]
		}
		in.set(name, i)
	}
	var c *packet.Consistency
	if s.Packet != nil {
		c = s.Packet.Consistency
	} else if pm != nil {
		c = pm.Message
	}
	if c != nil {
		s.Recorded = !c.Live()
		for _, f := range []packet.Fact{c.HasSubstantiveReviewItems, c.Question, c.NeedsFromUserStatesResponse} {
			if f.Value && !s.Recorded {
				ask := Input{Value: True, Source: "text", Why: f.Why}
				if len(f.Spans) > 0 {
					ask.Span = f.Spans[0]
				}
				s.Asks = &ask
				break
			}
		}
	}
	switch {
	case ws.Specrew:
		// specrew's provider passes none of the three inputs a text could
		// decide (specrew-conformance-provider.ps1: "v1" leaves
		// UserActionRequired, AgentBlockedOrHandingBack and
		// RequestedWorkComplete false): in its project the stop goes by the
		// marker, the boundary and the authorization, whatever the text asks.
		for _, name := range []string{InUserAction, InBlocked, InComplete} {
			in.set(name, Input{Value: False, Source: SourceSpecrew, Why: providerWhy[name]})
		}
	case c != nil:
		// No provider runs outside a specrew project: the contract as its
		// text states it (stop-intent-contract.ps1's inputs, read from the text).
		ua := packet.Fact{Why: "the message asks nothing of the user"}
		if s.Asks != nil {
			ua = packet.Fact{Value: true, Why: s.Asks.Why, Spans: []markdown.Span{s.Asks.Span}}
		}
		fromText(InUserAction, ua)
		blocked := c.Blocked
		if !blocked.Value {
			blocked.Why = "nothing says the agent is blocked or hands control back"
		}
		fromText(InBlocked, blocked)
		complete := c.Complete
		if !complete.Value {
			complete.Why = "nothing says the requested work is complete"
		}
		fromText(InComplete, complete)
	}
	in.set(InMarkerFromAsst, Input{Value: True, Source: "text", Why: "a marker in the message itself is the assistant's own (quoted ones are ignored)"})
	fromWS := func(name string, src Source) {
		if !ws.Specrew || src.Value == Unknown {
			return
		}
		from := src.Path
		if from == "" { // decided by a file's absence
			from = "the .specrew/ workspace"
		}
		in.set(name, Input{Value: src.Value, Source: from, Why: src.Note})
	}
	fromWS(InBoundaryPending, ws.BoundaryPending)
	fromWS(InAuthorized, ws.Authorized)
	fromWS(InLoopGuardTripped, ws.LoopGuardTripped)
	if ws.Specrew {
		for _, name := range []string{InInFlight, InKnownTerminal} {
			in.set(name, Input{Value: False, Source: SourceSpecrew, Why: providerWhy[name]})
		}
	}
	for name, v := range overrides {
		in.set(name, Input{Value: v, Source: "flag", Why: "set by hand"}) // unknown too: a flag may undo the workspace
	}
	why := "not known from the text"
	if !ws.Specrew {
		why = "not known from the text (the workspace is not a specrew project)"
	}
	for i, name := range InputNames {
		if in.have&(1<<i) == 0 {
			in.set(name, Input{Source: "unknown", Why: why})
		}
	}
	s.Inputs = in
	values := make(map[string]Tri, len(InputNames))
	for name, i := range in.All() {
		values[name] = i.Value
	}
	s.Class = Classify(Inputs{Values: values, MarkerIntent: s.Intent})
}

func check(pass *analysis.Pass, s *Stop) {
	var exact []*Marker
	for _, mk := range s.Markers {
		if mk.Exact {
			exact = append(exact, mk)
			continue
		}
		nearMiss(pass, mk)
	}
	if s.Ambiguous {
		keep := func(i Intent) analysis.Fix {
			f := analysis.Fix{Title: "Keep only the " + string(i) + " marker"}
			for _, mk := range exact {
				if mk.Intent != i {
					f.Edits = append(f.Edits, analysis.Removal(pass.Doc, mk.Span))
				}
			}
			return f
		}
		pass.Report(RuleAmbiguous, exact[0].Span,
			"both stop-intent markers are declared, so the intent is ambiguous and no intent applies: keep the one you mean",
			analysis.WithFix(keep(IntentContinue)), analysis.WithFix(keep(IntentIntermediate)))
		return
	}
	if len(exact) == 0 || s.Recorded {
		return
	}
	mk := exact[0]
	switch {
	case s.Intent == IntentContinue && s.Asks != nil:
		ua := s.Asks
		opts := []func(*analysis.Finding){analysis.WithFix(analysis.Fix{Title: "Remove the continue marker", Edits: []analysis.Edit{analysis.Removal(pass.Doc, mk.Span)}})}
		if ua.Span != (markdown.Span{}) {
			opts = append(opts, analysis.WithRelated(ua.Span, "the request the user will not see"))
		}
		msg := "this continue marker is inert: the message asks the user for something (" + ua.Why + "), so the stop is real; under specrew's provider, which does not read the request, the agent would go on and no one would answer it: remove the marker, or the request"
		if s.Inputs.Get(InUserAction).Source == SourceSpecrew {
			msg = "this continue marker sends the agent on although the message asks the user for something (" + ua.Why + "): specrew's provider does not read the request, so no one answers it; remove the marker to hand the stop to the user, or remove the request"
		}
		pass.Report(RuleInertContinue, mk.Span, msg, opts...)
	case s.Intent == IntentContinue && s.Packet != nil:
		pass.Report(RulePacketOnContinue, mk.Span,
			"a continue message renders no status packet: the stop is suppressed and the agent performs the next authorized action; drop the packet, or the marker")
	case s.Intent == IntentIntermediate && s.Packet != nil:
		pass.Report(RulePacketOnIntermediate, mk.Span,
			"an intermediate message is one progress line with the marker, no packet: drop the packet, or the marker if the stop is real")
	case s.Intent == IntentIntermediate && ownVerdictMarker(pass.Doc, s.Span):
		pass.Report(RulePacketOnIntermediate, mk.Span,
			"an intermediate message carries no verdict marker: drop it, or this marker if the stop is a boundary")
	}
}

func nearMiss(pass *analysis.Pass, mk *Marker) {
	var fixes []func(*analysis.Finding)
	var msg string
	switch mk.Intent {
	case IntentContinue, IntentIntermediate:
		want := MarkerFor(mk.Intent)
		msg = fmt.Sprintf("not the exact marker, so specrew ignores it: write %s", want)
		fixes = append(fixes, analysis.WithFix(analysis.Fix{Title: "Write " + want, Safe: true, Edits: []analysis.Edit{{Span: mk.Span, NewText: want}}}))
	default:
		msg = fmt.Sprintf("%q is not a stop intent, so specrew ignores this marker: the intents are continue and intermediate", mk.Word)
		for _, i := range []Intent{IntentContinue, IntentIntermediate} {
			fixes = append(fixes, analysis.WithFix(analysis.Fix{Title: "Write " + MarkerFor(i), Edits: []analysis.Edit{{Span: mk.Span, NewText: MarkerFor(i)}}}))
		}
	}
	pass.Report(RuleNearMiss, mk.Span, msg, fixes...)
}

// ownVerdictMarker reports a verdict marker in the document's own HTML
// (not quoted) within span.
func ownVerdictMarker(doc *markdown.Document, span markdown.Span) bool {
	for _, h := range ownHTML(doc) {
		if h.Start >= span.Start && h.Start < span.End && strings.Contains(strings.ToUpper(doc.String(h)), "VERDICT-BOUNDARY") {
			return true
		}
	}
	return false
}

// numInputs is len(InputNames).
const numInputs = 9

// InputSet holds the classifier's inputs of a stop, one for each of
// InputNames: a map of them was 1.3 KB a document, held as long as an
// editor keeps the document open.
type InputSet struct {
	in   [numInputs]Input
	have uint16 // which are set, by index in InputNames
}

func inputIndex(name string) int { return slices.Index(InputNames, name) }

// set sets the input name; a name that is not one of InputNames is ignored.
func (s *InputSet) set(name string, in Input) {
	if i := inputIndex(name); i >= 0 {
		s.in[i], s.have = in, s.have|1<<i
	}
}

// Lookup returns the input name and whether it is set.
func (s *InputSet) Lookup(name string) (Input, bool) {
	if i := inputIndex(name); i >= 0 && s.have&(1<<i) != 0 {
		return s.in[i], true
	}
	return Input{}, false
}

// Get returns the input name, the zero Input when it is not set.
func (s *InputSet) Get(name string) Input {
	in, _ := s.Lookup(name)
	return in
}

// All yields the inputs that are set, in InputNames' order.
func (s *InputSet) All() iter.Seq2[string, Input] {
	return func(yield func(string, Input) bool) {
		for i, name := range InputNames {
			if s.have&(1<<i) != 0 && !yield(name, s.in[i]) {
				return
			}
		}
	}
}

// Len is how many inputs are set.
func (s *InputSet) Len() int { return bits.OnesCount16(s.have) }

func init() {
	if len(InputNames) != numInputs {
		panic("stopintent: numInputs is not len(InputNames)")
	}
}
