package stoppolicy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
)

// Verdict is the decision on a stop: why it is blocked (Reasons, none
// lets it through), what to say besides, or why it was let through
// unjudged; with the judgement of baton's rules it rests on, and what the
// decision changes in the hook's records (written by Apply).
type Verdict struct {
	// Reasons are why the stop is blocked, in order: the policy's lane,
	// then the findings of baton's rules that block (with Lint, or with a
	// reason of the policy). Reason joins them as the hook says it.
	Reasons  []string
	Warnings []string // what to say besides (the hook's standard error)
	// Released says why the stop is let through without a judgement (the
	// loop bound, an unreadable count or configuration); "" when judged.
	Released string
	// Duplicate: the same stop was answered already (a second delivery).
	Duplicate bool
	// Judgement is what baton's rules say of the message (zero when the
	// stop was released or a duplicate before it was read).
	Judgement

	// What Apply writes.
	resetFirst bool   // start the block count afresh (a stop this hook did not cause)
	fire       string // the stop's identity, remembered for the duplicate check
	plan       plan   // the turn record and the claim on a surface
	resetAfter bool   // a stop let through starts the count afresh (hosts without the active flag)
	count      bool   // count the block: one that cannot be counted is let through
	writeAt    int    // where in Warnings the writes' failures are said
	// unkept is the verdict when the continue count cannot be kept: no
	// continuation directive (it could loop for ever).
	unkept *Verdict
}

// plan is what a verdict writes of the turn: the turn record (the next
// baseline, the surface a packet discharged, the continue guard) and the
// session's claim on a changed surface.
type plan struct {
	root      string
	turn      *turnState
	claim     string
	continued bool // the turn record carries the continue count
}

// Reason is the block's reason as the hook gives it: ReasonPrefix and the
// reasons, one an item; "" when the stop is let through.
func (v Verdict) Reason() string {
	if len(v.Reasons) == 0 {
		return ""
	}
	return ReasonPrefix + strings.Join(v.Reasons, "\n- ")
}

// hookInputs are the stop-intent inputs a hook gives: like specrew's
// provider, the hooks track no async work, so nothing is in flight but
// what an intermediate marker declares.
func hookInputs() map[string]stopintent.Tri {
	return map[string]stopintent.Tri{stopintent.InInFlight: stopintent.False, stopintent.InKnownTerminal: stopintent.False}
}

// Decide decides a stop on the state read before it: the loop bound and
// the duplicate check (a hook's state only), baton's rules, and specrew's
// stop policy in its provider's order. It reads no file and writes none:
// every caller (the stop hooks through Evaluate, check_stop, baton audit,
// baton classify) decides through it, so they cannot disagree.
func Decide(in Stop, st State) Verdict {
	var v Verdict
	o := st.Options
	if o.MaxBlocks <= 0 {
		o.MaxBlocks = DefaultMaxBlocks
	}
	if h := st.hook; h != nil {
		active := in.Active
		if in.NoActiveFlag {
			active = h.blocksErr != nil || h.blocks > 0
		}
		count := 0
		switch {
		case !active:
			// A stop the host says this hook did not cause: start counting
			// afresh. Without the host's word (NoActiveFlag) the count was
			// 0 and there is nothing to start afresh; a reset would take
			// back a block another stop of the session counted meanwhile.
			v.resetFirst = !in.NoActiveFlag
		case h.blocksErr != nil:
			// This stop follows a block, and how many came before cannot
			// be told: letting it through is the only way not to loop.
			v.resetFirst = true
			v.Released = fmt.Sprintf("cannot read the block count (%v)", h.blocksErr)
			return v
		case h.blocks >= o.MaxBlocks:
			v.resetFirst = true
			v.Released = fmt.Sprintf("already blocked %d times in a row in session %s (--max-blocks)", h.blocks, in.SessionID)
			return v
		default:
			count = h.blocks
		}
		var snap *turnSnapshot
		if st.work != nil {
			snap = st.work.snap
		}
		v.fire = fireIdentity(in, count, h.turnMark, st.extra, snap)
		if age := st.Now.Unix() - h.lastFire.Epoch; h.lastFire.ID == v.fire && age >= 0 && age <= int64(dedupWindow.Seconds()) {
			v.Duplicate = true
			return v
		}
	}
	if st.EnvErr != nil || st.Env == nil {
		v.Released = "no environment to read the message in"
		if st.EnvErr != nil {
			v.Released = st.EnvErr.Error()
		}
		return v
	}
	v.Judgement = st.Env.judge(in.Message, in.Inputs)
	var warnings []string
	if n := v.Result.Doc.TooLarge; n > 0 {
		// Never silent: a message past the limit is not checked against
		// baton's rules, whatever the severity of baton/document-too-large.
		warnings = append(warnings, fmt.Sprintf("the message is %.1f MiB, over the %d MiB baton checks: its text was not checked against baton's rules (baton/document-too-large)", float64(n)/(1<<20), markdown.MaxDocumentBytes>>20))
	}
	before := v
	reasons, lane := st.lanes(in, v.Result, &v.plan)
	warnings = append(warnings, lane...)
	v.writeAt = len(warnings)
	if v.plan.continued {
		// Should the continue count not be kept, the stop is decided as
		// if the continue lane had given nothing.
		u := before
		u.plan = plan{root: v.plan.root, claim: v.plan.claim}
		u.writeAt = len(warnings)
		u = st.conclude(u, in, nil, slices.Clone(warnings))
		v.unkept = &u
	}
	return st.conclude(v, in, reasons, warnings)
}

// conclude adds the intake nudge and baton's rules' findings to the
// policy's reasons, and says what the hook counts.
func (st State) conclude(v Verdict, in Stop, reasons, warnings []string) Verdict {
	if sp := st.specrew; sp != nil && sp.activeSpec != "" && intakeQuestion.MatchString(in.Message) {
		// specrew's provider (#1, FR-011): asking what to build while a
		// feature is in flight restarts intake. It says so with a block
		// that fires anyway, and as a nudge otherwise.
		if len(reasons) > 0 {
			reasons = append(reasons, "Also: an active feature already exists - do NOT ask what to build; continue it.")
		} else {
			warnings = append(warnings, fmt.Sprintf("intake question while an active feature exists (specrew FR-011 #1): you asked the person what to build, but a feature is already in flight (spec exists at %s). Do not restart intake: read it and continue the active feature.", sp.activeSpec))
		}
	}
	var findings []string
	for _, f := range v.Findings {
		findings = append(findings, f.String())
	}
	switch {
	case st.Options.Lint || len(reasons) > 0:
		reasons = append(reasons, findings...)
	case len(findings) > 0:
		warnings = append(warnings, "not blocking (specrew's stop provider would not), but the message breaks baton's rules:\n  "+strings.Join(findings, "\n  "))
	}
	v.Reasons, v.Warnings = reasons, warnings
	if st.hook != nil {
		if len(reasons) == 0 {
			v.resetAfter = in.NoActiveFlag
		} else {
			v.count = true
		}
	}
	return v
}

// lanes is specrew's provider's block decision ($blockKind, in its order):
// a pending boundary whose stage evidence is missing (no marker asked for),
// a pending boundary without its marker, a boundary that cannot be
// recorded, a workshop decision conflict, and material work without the
// packet (a continue stop there gets the continuation directive; an
// intermediate one, or a workshop question, passes). The reasons, or none;
// the warnings; and in p what the decision writes of the turn.
func (st State) lanes(in Stop, res *analysis.Result, p *plan) (reasons, warnings []string) {
	msg, sp, w := in.Message, st.specrew, st.work
	if w != nil {
		p.root = w.root
	}
	// advance records that the stop discharged what was owed: the next
	// delta is measured from now.
	advance := func() {
		if w == nil || w.snap == nil {
			return
		}
		t := w.record
		snap := *w.snap
		snap.Event = "Stop"
		t.Baseline = &snap
		t.Continue.Key, t.Continue.Count = "", 0
		p.turn = &t
	}
	s := st.Env.State
	pending := sp != nil && s.BoundaryPending.Value == stopintent.True && s.Crossing != nil
	if c, ev := s.Crossing, s.Evidence; pending && ev != nil {
		// FR-068: the crossing is pending, but its stage owes evidence the
		// bound tree lacks (or cannot show): report that, and ask for no
		// verdict, whatever marker the message already carries.
		what := "the stage evidence is missing from the tree the crossing is bound to: " + strings.Join(ev.Missing, ", ") + ". Produce the missing artifact(s), commit them, and stop again so the crossing rebinds to a tree that holds them"
		if ev.Unverifiable {
			what = "its stage evidence cannot be checked against the tree the crossing is bound to (" + strings.Join(ev.Missing, "; ") + "). Fix the recorded state, then stop for the verdict"
		}
		return []string{fmt.Sprintf("the %s -> %s boundary is pending, but it is not ready for a verdict: %s. Say so plainly and name what is missing; present no approval options and write no SPECREW-VERDICT-BOUNDARY marker, since a verdict now would approve an increment that does not hold the work.", c.From, c.To, what)}, nil
	}
	if c := s.Crossing; pending {
		if crossingRendered(msg, in.History, c) {
			advance()
			return nil, nil
		}
		if n := sp.blocks; n >= specrewBlockCap {
			return nil, []string{fmt.Sprintf("specrew's provider has already blocked this %s -> %s crossing %d times in a row; not blocking again", c.From, c.To, n)}
		}
		reason := fmt.Sprintf("a lifecycle boundary is pending (%s), and your message does not carry the verdict marker for the %s -> %s crossing. Render the six-section packet (%s), every artifact reference a file:/// URL, and make this its last line: %s",
			s.BoundaryPending.Note, c.From, c.To, sixSections, c.Marker())
		if escapedMarker(msg) {
			// A host may hand the reason to the model XML-escaped
			// (docs/hosts.md): a model that copies it writes the marker
			// as text, which no host reads.
			reason += ". Your message has the marker HTML-escaped (&lt;!-- … --&gt;), which is text, not the marker: write it with the characters < and >"
		}
		return []string{reason}, nil
	}
	if sp != nil && s.Integrity == "boundary-unrecordable" {
		// FR-066: a boundary reached before the project's approval ledger
		// existed. Nothing can be approved, but the person must hear of it.
		return []string{fmt.Sprintf("a lifecycle boundary was reached but cannot be recorded: %s. Tell the person plainly that the boundary was reached, that it could not be recorded, and what is missing (the project's boundary-enforcement state: run the specrew start/bootstrap path). Present no approval options and write no SPECREW-VERDICT-BOUNDARY marker: there is no recorded crossing to approve.", s.BoundaryPending.Note)}, nil
	}
	var ws workshopState
	if sp != nil {
		ws = sp.workshop
		if c := ws.conflict; c != nil && ws.reason == "workshop-decision-binding-conflict" {
			return []string{fmt.Sprintf("workshop decision conflict: the durable binding %q was %q in lens %q but is %q in lens %q. Do not move to another lens or render the five-part packet. If the later value was a delegated or default choice, restore the earlier human-confirmed value and continue; if the person changed the decision on purpose, ask one short reconciliation question and bring every affected lens record to the same value first.",
				c.binding, c.priorValue, c.priorLens, c.value, c.lens)}, nil
		}
	}
	if w == nil {
		return nil, nil
	}
	key, what, err := w.material(in.History)
	if err != nil {
		return nil, []string{"no material-work check: " + err.Error()}
	}
	if key == "" {
		advance()
		return nil, nil
	}
	if packetPresent(msg) {
		if w.snap != nil {
			t := w.record
			t.Satisfied = key
			t.Baseline = w.snap
			t.Continue.Key, t.Continue.Count = "", 0
			p.turn = &t
		}
		return nil, nil
	}
	if strings.HasPrefix(key, "material|turn|") && in.SessionID != "" {
		// The provider records the session a demanded surface belongs to.
		p.claim = key
	}
	if ws.active {
		// The current lens's question is the expected pause (specrew's
		// workshop-intermediate): the packet would bury it.
		return nil, nil
	}
	outcome := stopintent.Real
	if si, _ := res.Model(stopintent.Analyzer).(*stopintent.Model); si != nil && len(si.Stops) > 0 {
		outcome = si.Stops[len(si.Stops)-1].Class.Outcome
	}
	switch outcome {
	case stopintent.Intermediate:
		return nil, nil // owned async work is in flight: the turn ends and resumes when it completes
	case stopintent.Continue:
		t := w.record
		if k := "continue|" + key; t.Continue.Key != k {
			t.Continue.Key, t.Continue.Count = k, 0
		}
		if t.Continue.Count < stopintent.LoopGuardLimit {
			t.Continue.Count++
			if !w.declared {
				p.turn, p.continued = &t, true
			}
			return []string{"continuation directive: your last message declared the continue marker while an already-authorized in-phase workflow still has remaining work. Perform the next authorized action now, then stop again. Do not render a status packet; this is an internal continuation, not a hand-back."}, nil
		}
	}
	return []string{fmt.Sprintf("this stop followed %s, but your message does not render the non-boundary context packet. Render the five-part packet (%s), every artifact reference a file:/// URL, then stop again. This is not a boundary stop: write no SPECREW-VERDICT-BOUNDARY marker.", what, fiveSections)}, nil
}

// Apply writes what the verdict changes — the block count, the stop
// remembered for the duplicate check, the turn record, the claim on a
// changed surface — and returns what the host is told. A block that
// cannot be counted is let through (it could loop for ever), and so is a
// continuation directive whose count cannot be kept. A state that holds
// none of the hook's records writes nothing.
func (st *State) Apply(v Verdict) Outcome {
	c := st.counter
	if v.resetFirst {
		c.reset()
	}
	if v.fire != "" {
		c.remember(fireRecord{ID: v.fire, Epoch: st.Now.Unix()})
	}
	if v.Released != "" || v.Duplicate {
		return Outcome{Released: v.Released, Duplicate: v.Duplicate}
	}
	if st.hook != nil {
		v = v.write(c)
	}
	out := Outcome{Warnings: v.Warnings}
	if len(v.Reasons) == 0 {
		if v.resetAfter {
			c.reset()
		}
		return out
	}
	if v.count {
		// The bound is checked again as the block is counted: another stop
		// of the session may have blocked since it was read.
		if n, counted, err := c.add(st.Options.MaxBlocks); err != nil {
			out.Released = "cannot keep the block count: " + err.Error()
			return out
		} else if !counted {
			out.Released = fmt.Sprintf("already blocked %d times in a row in session %s (--max-blocks)", n, st.session)
			return out
		}
	}
	out.Reason = v.Reason()
	return out
}

// write writes the verdict's plan of the turn, and returns the verdict the
// writes leave: the one without the continuation directive when its count
// could not be kept, with the failures said.
func (v Verdict) write(c Counter) Verdict {
	p := v.plan
	if p.root == "" {
		return v
	}
	if p.claim != "" {
		_ = c.claim(p.root, p.claim)
	}
	if p.turn == nil {
		return v
	}
	err := c.saveTurn(p.root, *p.turn)
	if err == nil {
		return v
	}
	say := "keep the turn baseline: " + err.Error()
	if v.unkept != nil {
		v = *v.unkept
		say = "cannot count the continues (" + err.Error() + "), so no continuation directive"
	}
	v.Warnings = slices.Insert(slices.Clone(v.Warnings), v.writeAt, say)
	return v
}
