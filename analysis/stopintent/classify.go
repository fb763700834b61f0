// Package stopintent reads a stop message's stop-intent markers and
// classifies the stop as continue, intermediate or real, with specrew's
// precedence and reasons (FR-045a).
package stopintent

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Outcome is what a stop produces.
type Outcome string

const (
	Continue     Outcome = "continue"     // the stop is suppressed; the agent performs the next authorized action
	Intermediate Outcome = "intermediate" // one progress line; the agent resumes when its async work completes
	Real         Outcome = "real"         // control goes to the user, with a packet
)

// Intent is what a marker declares: "", "continue" or "intermediate".
type Intent string

const (
	NoIntent           Intent = ""
	IntentContinue     Intent = "continue"
	IntentIntermediate Intent = "intermediate"
)

// Bools are the classifier's inputs when every one is known.
type Bools struct {
	LifecycleBoundaryPending  bool
	UserActionRequired        bool
	AgentBlockedOrHandingBack bool
	RequestedWorkComplete     bool
	OwnedWorkInFlight         bool
	RuntimeWorkKnownTerminal  bool
	MarkerIntent              Intent
	MarkerFromAssistant       bool
	AuthorizedWorkRemains     bool
	ContinueLoopGuardTripped  bool
}

// field is the boolean input named name.
func (b *Bools) field(name string) *bool {
	switch name {
	case InBoundaryPending:
		return &b.LifecycleBoundaryPending
	case InUserAction:
		return &b.UserActionRequired
	case InBlocked:
		return &b.AgentBlockedOrHandingBack
	case InComplete:
		return &b.RequestedWorkComplete
	case InInFlight:
		return &b.OwnedWorkInFlight
	case InKnownTerminal:
		return &b.RuntimeWorkKnownTerminal
	case InMarkerFromAsst:
		return &b.MarkerFromAssistant
	case InAuthorized:
		return &b.AuthorizedWorkRemains
	case InLoopGuardTripped:
		return &b.ContinueLoopGuardTripped
	}
	panic("stopintent: no input " + name)
}

// Result is a classification, as specrew's Resolve-ContinuousCoReviewStopIntent returns it.
type Result struct {
	Outcome       Outcome `json:"outcome"`
	EnforcePacket bool    `json:"enforce_packet"`
	EmitProgress  bool    `json:"emit_progress"`
	Reason        string  `json:"reason"`
}

// The reasons, word for word as specrew gives them.
const (
	ReasonBoundaryPending = "a lifecycle verdict boundary is pending (a human handoff is due)"
	ReasonUserAction      = "a substantive review request, a user question, or a required external action"
	ReasonBlocked         = "execution cannot continue automatically, or the agent intentionally hands control back"
	ReasonComplete        = "the requested work is complete and ready for a final report"
	ReasonAsync           = "required owned async work is in flight; a one-line operational yield - the agent resumes when it completes"
	ReasonLoopGuard       = "continue-loop-guard tripped: repeated continue with no intervening material progress / unchanged workflow - an internal routing failure surfaced as a real stop"
	ReasonContinue        = "the current assistant turn declares continue AND lifecycle authorization confirms remaining in-phase work; suppress the stop and perform the next authorized action"
	ReasonDefault         = "no current-turn continue marker with authorization, no async in flight, and no other trigger; normal real-stop enforcement applies"
)

func realStop(reason string) Result {
	return Result{Outcome: Real, EnforcePacket: true, Reason: reason}
}

// Resolve classifies a stop whose inputs are all known, in specrew's order
// of precedence.
func Resolve(in Bools) Result {
	marker := NoIntent
	if in.MarkerFromAssistant {
		marker = in.MarkerIntent // a marker quoted from the user or an earlier turn is ignored
	}
	switch {
	case in.LifecycleBoundaryPending:
		return realStop(ReasonBoundaryPending)
	case in.UserActionRequired:
		return realStop(ReasonUserAction)
	case in.AgentBlockedOrHandingBack:
		return realStop(ReasonBlocked)
	case in.RequestedWorkComplete:
		return realStop(ReasonComplete)
	case (in.OwnedWorkInFlight || marker == IntentIntermediate) && !in.RuntimeWorkKnownTerminal:
		return Result{Outcome: Intermediate, EmitProgress: true, Reason: ReasonAsync}
	case marker == IntentContinue && in.AuthorizedWorkRemains:
		if in.ContinueLoopGuardTripped {
			return realStop(ReasonLoopGuard)
		}
		return Result{Outcome: Continue, Reason: ReasonContinue}
	}
	return realStop(ReasonDefault)
}

// Tri is an input that may be unknown.
type Tri int8

const (
	Unknown Tri = iota
	False
	True
)

// Of makes a known Tri.
func Of(b bool) Tri {
	if b {
		return True
	}
	return False
}

func (t Tri) String() string {
	switch t {
	case True:
		return "true"
	case False:
		return "false"
	}
	return "unknown"
}

// ParseTri reads "true", "false" or "unknown".
func ParseTri(s string) (Tri, error) {
	switch strings.ToLower(s) {
	case "true":
		return True, nil
	case "false":
		return False, nil
	case "unknown", "":
		return Unknown, nil
	}
	return Unknown, fmt.Errorf("%q is not true, false or unknown", s)
}

// Input names, as `baton classify` prints them.
const (
	InBoundaryPending  = "LifecycleBoundaryPending"
	InUserAction       = "UserActionRequired"
	InBlocked          = "AgentBlockedOrHandingBack"
	InComplete         = "RequestedWorkComplete"
	InInFlight         = "OwnedWorkInFlight"
	InKnownTerminal    = "RuntimeWorkKnownTerminal"
	InMarkerIntent     = "MarkerIntent"
	InMarkerFromAsst   = "MarkerFromAssistant"
	InAuthorized       = "AuthorizedWorkRemains"
	InLoopGuardTripped = "ContinueLoopGuardTripped"
)

// InputNames lists the boolean inputs in the seed's order.
var InputNames = []string{InBoundaryPending, InUserAction, InBlocked, InComplete, InInFlight, InKnownTerminal, InMarkerFromAsst, InAuthorized, InLoopGuardTripped}

// plain describes each boolean input for a person.
var plain = map[string]string{
	InBoundaryPending:  "a verdict boundary is pending",
	InUserAction:       "the message asks the user for something",
	InBlocked:          "the agent is blocked or hands control back",
	InComplete:         "the requested work is complete",
	InInFlight:         "owned async work is in flight",
	InKnownTerminal:    "the async work is known to have finished",
	InMarkerFromAsst:   "the marker is the assistant's own",
	InAuthorized:       "the phase is authorized",
	InLoopGuardTripped: "the continue loop guard has tripped",
}

// plainNot says each boolean input is false.
var plainNot = map[string]string{
	InBoundaryPending:  "no verdict boundary is pending",
	InUserAction:       "the message asks the user for nothing",
	InBlocked:          "the agent is not blocked and does not hand control back",
	InComplete:         "the requested work is not complete",
	InInFlight:         "no owned async work is in flight",
	InKnownTerminal:    "the async work is not known to have finished",
	InMarkerFromAsst:   "the marker is not the assistant's own",
	InAuthorized:       "the phase is not authorized",
	InLoopGuardTripped: "the continue loop guard has not tripped",
}

// Describe says an input in words, for conditions.
func Describe(name string) string { return plain[name] }

// DescribeNot says an input is false, in words.
func DescribeNot(name string) string { return plainNot[name] }

// Inputs are the classifier's inputs, any of which may be unknown. The
// marker's intent is always known: it is read from the text.
type Inputs struct {
	Values       map[string]Tri // by input name; a missing name is unknown
	MarkerIntent Intent
}

// Possibility is one outcome a stop may have, and when.
type Possibility struct {
	Result
	// When is the condition on the unknown inputs under which this result
	// holds, in words ("the phase is authorized and not …"); "" when the
	// result holds whatever they are.
	When string `json:"when,omitempty"`
}

// Classification is every outcome the known inputs allow.
type Classification struct {
	// Outcome is set when only one outcome is possible.
	Outcome  Outcome       `json:"outcome"`
	Possible []Possibility `json:"possible_outcomes"`
	// DependsOn are the unknown inputs the outcome turns on, in
	// InputNames' order: those whose value changes the outcome for some
	// values of the others. None when Outcome is set.
	DependsOn []string `json:"depends_on,omitempty"`
}

var classified sync.Map // input key → Classification; the inputs take few values

// Classify evaluates every combination of the unknown inputs and returns
// the distinct results with the condition for each.
func Classify(in Inputs) Classification {
	key := make([]byte, 0, len(InputNames)+len(in.MarkerIntent))
	for _, n := range InputNames {
		key = append(key, byte('0'+in.Values[n]))
	}
	key = append(key, in.MarkerIntent...)
	if c, ok := classified.Load(string(key)); ok {
		return clone(c.(Classification))
	}
	c := classifyAll(in)
	classified.Store(string(key), c)
	return clone(c)
}

// clone copies a classification, so that callers may not alter the cache.
func clone(c Classification) Classification {
	c.Possible = slices.Clone(c.Possible)
	c.DependsOn = slices.Clone(c.DependsOn)
	return c
}

func classifyAll(in Inputs) Classification {
	var unknown []string
	for _, n := range InputNames {
		if in.Values[n] == Unknown {
			unknown = append(unknown, n)
		}
	}
	type group struct {
		res    Result
		assign []uint32 // bit i set: unknown[i] is true
	}
	var groups []*group
	outcome := make([]Outcome, 1<<len(unknown)) // by assignment
	for a := uint32(0); a < 1<<len(unknown); a++ {
		b := Bools{MarkerIntent: in.MarkerIntent}
		for _, n := range InputNames {
			*b.field(n) = in.Values[n] == True
		}
		for i, n := range unknown {
			*b.field(n) = a&(1<<i) != 0
		}
		r := Resolve(b)
		outcome[a] = r.Outcome
		i := slices.IndexFunc(groups, func(g *group) bool { return g.res == r })
		if i < 0 {
			groups = append(groups, &group{res: r})
			i = len(groups) - 1
		}
		groups[i].assign = append(groups[i].assign, a)
	}
	var c Classification
	outcomes := map[Outcome]bool{}
	for _, g := range groups {
		p := Possibility{Result: g.res}
		if len(groups) > 1 {
			p.When = condition(unknown, g.assign)
		}
		c.Possible = append(c.Possible, p)
		outcomes[g.res.Outcome] = true
	}
	if len(outcomes) == 1 {
		c.Outcome = c.Possible[0].Outcome
		return c
	}
	for i, n := range unknown {
		for a := range outcome {
			if a&(1<<i) == 0 && outcome[a] != outcome[a|1<<i] {
				c.DependsOn = append(c.DependsOn, n)
				break
			}
		}
	}
	return c
}

// condition writes a set of assignments of the unknown inputs as an "or" of
// "and"s, each term as general as the set allows.
func condition(unknown []string, assign []uint32) string {
	in := map[uint32]bool{}
	for _, a := range assign {
		in[a] = true
	}
	n := len(unknown)
	// A term fixes the variables in mask to the bits in val.
	type term struct{ mask, val uint32 }
	covers := func(t term) bool {
		for a := uint32(0); a < 1<<n; a++ {
			if a&t.mask == t.val && !in[a] {
				return false
			}
		}
		return true
	}
	var terms []term
	for _, a := range assign {
		t := term{mask: 1<<n - 1, val: a}
		for i := 0; i < n; i++ {
			if g := (term{mask: t.mask &^ (1 << i), val: t.val &^ (1 << i)}); covers(g) {
				t = g
			}
		}
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	// Drop terms another term already covers.
	var kept []term
	for i, t := range terms {
		redundant := false
		for j, o := range terms {
			if i != j && o.mask&t.mask == o.mask && t.val&o.mask == o.val && (o != t) {
				redundant = true
			}
		}
		if !redundant {
			kept = append(kept, t)
		}
	}
	var ors []string
	for _, t := range kept {
		var ands []string
		for i, name := range unknown {
			if t.mask&(1<<i) == 0 {
				continue
			}
			if t.val&(1<<i) != 0 {
				ands = append(ands, Describe(name))
			} else {
				ands = append(ands, DescribeNot(name))
			}
		}
		if len(ands) == 0 {
			return ""
		}
		ors = append(ors, strings.Join(ands, " and "))
	}
	return strings.Join(ors, "; or ")
}
