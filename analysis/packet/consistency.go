package packet

import (
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// The reasons specrew's Test-ContinuousCoReviewStopPacketConsistency gives,
// word for word.
const (
	ReasonAutoContinue    = `a substantive review request cannot coexist with "nothing required" / "I'll proceed" / automatic continuation - a review-required stop transfers control to the user`
	ReasonResponseMissing = `a review request must state the EXACT response needed under "What I Need From You" (never "nothing")`
	ReasonNotHeld         = `a review request must say under "What Happens Next" that the work is HELD pending the response`
)

// ItemClass is how a review item reads.
type ItemClass int

const (
	Unmarked      ItemClass = iota // neither: counted as substantive, since the author put it there
	Substantive                    // a decision, approval, tradeoff or confirmation
	Informational                  // a note: not a review item
)

func (c ItemClass) String() string {
	return [...]string{"unmarked (counted as substantive)", "substantive", "informational"}[c]
}

// ReviewItem is one item of What Needs Your Review.
type ReviewItem struct {
	Span  markdown.Span
	Class ItemClass
	Cue   markdown.Span // the word that decided the class; empty for unmarked
}

// Fact is one input of the consistency contract, with the spans that
// decide it.
type Fact struct {
	Value bool
	Spans []markdown.Span
	Why   string // how it was decided, for hover
}

// Consistency is the FR-045a contract read from a packet's text.
type Consistency struct {
	// Recorded is set when What I Need From You records a verdict already
	// given (a saved gate record): the contract is for live stops only.
	Recorded markdown.Span
	Items    []ReviewItem

	HasSubstantiveReviewItems        Fact
	NeedsFromUserStatesResponse      Fact
	HappensNextSaysHeld              Fact
	SaysNothingRequiredOrWillProceed Fact
	// ProceedSentences are the sentences holding each span of
	// SaysNothingRequiredOrWillProceed, in its order, as they were read
	// (across the lines of a wrapped paragraph): a fix rewrites the whole
	// sentence.
	ProceedSentences []markdown.Span

	// Placeholder is What I Need From You's text when it asks for nothing.
	Placeholder markdown.Span
	// Unheld is What Happens Next's first step that goes ahead whatever
	// the user says.
	Unheld []markdown.Span

	// Text facts the stop-intent classifier reads.
	Blocked, Complete, Question Fact
}

// Live reports whether the contract applies (no verdict is recorded).
func (c *Consistency) Live() bool { return c.Recorded == (markdown.Span{}) }

// Verdict is the seed's answer: consistent, or the first reason it fails.
func (c *Consistency) Verdict() (bool, string) {
	switch {
	case !c.Live() || !c.HasSubstantiveReviewItems.Value:
		return true, ""
	case c.SaysNothingRequiredOrWillProceed.Value:
		return false, ReasonAutoContinue
	case !c.NeedsFromUserStatesResponse.Value:
		return false, ReasonResponseMissing
	case !c.HappensNextSaysHeld.Value:
		return false, ReasonNotHeld
	}
	return true, ""
}

var (
	quotedReply = lazyre.New("\"[^\"\\n]{2,}\"|“[^”\\n]{2,}”|`[^`\\n]{2,}`|'[^'\\n]{3,}'")
)

// readConsistency reads the contract's inputs from a packet.
func readConsistency(doc *markdown.Document, pt *proseText, ph *phrases, p *Packet) *Consistency {
	c := &Consistency{}
	str := pt.at
	need := p.Section(NeedFromYou)
	// Each phrase has "rec" in it: one pass over the section rules all of
	// them out, most often (a pass for each was costly where "verdict" and
	// "decision" are common).
	if need != nil && strings.Contains(pt.at(need.Body), "rec") {
		body := pt.at(need.Body)
		for _, ph := range []string{"recorded verdict", "verdict received", "verdict recorded", "decision recorded"} {
			if i := strings.Index(body, ph); i >= 0 {
				c.Recorded = markdown.Span{Start: need.Body.Start + i, End: need.Body.Start + i + len(ph)}
				break
			}
		}
	}

	// What Needs Your Review: its items and their classes.
	var informational map[markdown.Span]bool // made at the first note: most packets have none
	if rev := p.Section(NeedsReview); rev != nil && !ph.whole(ListPlaceholder, str(rev.Body)) && !ph.opens(ListNoReview, str(rev.Body)) {
		items := reviewItems(pt, rev.Body)
		// Exactly as many as there are items: the model is held as long as
		// an editor keeps the document open.
		c.Items = make([]ReviewItem, 0, len(items))
		for _, item := range items {
			t := str(item)
			ri := ReviewItem{Span: item}
			lead := markdown.Span{Start: item.Start, End: min(item.End, item.Start+40)}
			info, subst := pt.first(ListInformational, item), pt.first(ListSubstantive, item)
			switch {
			case strings.Contains(t, "?"):
				ri.Class = Substantive
				i := strings.Index(t, "?")
				ri.Cue = markdown.Span{Start: item.Start + i, End: item.Start + i + 1}
			case pt.first(ListInformational, lead) != nil || info != nil && subst == nil:
				ri.Class = Informational
				ri.Cue = markdown.Span{Start: item.Start + info[0], End: item.Start + info[1]}
				if informational == nil {
					informational = map[markdown.Span]bool{}
				}
				informational[item] = true
			case subst != nil:
				ri.Class = Substantive
				ri.Cue = markdown.Span{Start: item.Start + subst[0], End: item.Start + subst[1]}
			}
			c.Items = append(c.Items, ri)
			if ri.Class != Informational {
				c.HasSubstantiveReviewItems.Value = true
				c.HasSubstantiveReviewItems.Spans = append(c.HasSubstantiveReviewItems.Spans, item)
			}
		}
		c.HasSubstantiveReviewItems.Why = "What Needs Your Review has a decision, approval, tradeoff or confirmation (or an item not marked as a note)"
	}
	if !c.HasSubstantiveReviewItems.Value {
		c.HasSubstantiveReviewItems.Why = "What Needs Your Review has no item, or only notes"
	}

	// What I Need From You: the exact response wanted.
	if need != nil {
		body := str(need.Body)
		switch {
		case strings.TrimSpace(body) == "":
			// No prose, but perhaps code: the gate-stop skill's verdict
			// menu copied with its fence.
			c.NeedsFromUserStatesResponse = namedReply(pt, ph, need.Body)
			switch {
			case c.NeedsFromUserStatesResponse.Value:
			case strings.TrimSpace(doc.String(need.Body)) == "":
				c.NeedsFromUserStatesResponse.Why = "What I Need From You is empty"
			default:
				c.NeedsFromUserStatesResponse.Why = "What I Need From You has no prose, and its code names no reply"
			}
		case ph.whole(ListPlaceholder, body) && !hasCode(pt, need.Body):
			c.Placeholder = pt.trim(need.Body)
			c.NeedsFromUserStatesResponse.Why = "What I Need From You is a placeholder that asks for nothing"
		default:
			c.NeedsFromUserStatesResponse = statesResponse(pt, ph, need.Body)
		}
	} else {
		c.NeedsFromUserStatesResponse.Why = "the packet has no What I Need From You"
	}

	// What Happens Next: held in words, or every forward action conditional
	// (on the user, or on what Why I Stopped says waits for the user); or
	// held by the packet as a whole, as a reader takes it.
	if next := p.Section(HappensNext); next != nil {
		c.HappensNextSaysHeld, c.Unheld = held(pt, ph, next.Body, nil)
		// Why I Stopped is read for the steps it gates only when a step
		// goes ahead: gates only ever hold more steps.
		if why := p.Section(WhyStopped); why != nil && len(c.Unheld) > 0 {
			if gates := gatedSteps(pt, ph, why.Body); len(gates) > 0 {
				c.HappensNextSaysHeld, c.Unheld = held(pt, ph, next.Body, gates)
			}
		}
		if ph.whole(ListPlaceholder, str(next.Body)) { // "Nothing.": no step is taken
			c.HappensNextSaysHeld = Fact{Value: true, Spans: []markdown.Span{pt.trim(next.Body)}, Why: "What Happens Next says nothing will happen"}
		}
		if !c.HappensNextSaysHeld.Value {
			if f, ok := heldByPacket(pt, p, need); ok {
				c.HappensNextSaysHeld, c.Unheld = f, nil
			}
		}
	} else {
		c.HappensNextSaysHeld.Why = "the packet has no What Happens Next"
	}

	// Anywhere: "nothing required", "I'll proceed" and the like, unless the
	// same sentence waits for the user.
	c.SaysNothingRequiredOrWillProceed.Why = `no "nothing required" / "I'll proceed" phrase`
	for _, s := range p.Sections {
		if pt.first(ListAutoContinue, s.Body) == nil {
			continue // the common case: no sentence to split
		}
		for _, sen := range sentences(pt, s.Body) {
			if c.Placeholder != (markdown.Span{}) && sen.Span.Start >= c.Placeholder.Start && sen.Span.End <= c.Placeholder.End {
				continue
			}
			if inAny(sen.Span, informational) {
				continue
			}
			// One span a sentence: a fix rewrites the sentence as a whole.
			if loc := pt.first(ListAutoContinue, sen.Span); loc != nil && !conditional(ph, sen.Text) {
				c.SaysNothingRequiredOrWillProceed.Value = true
				c.ProceedSentences = append(c.ProceedSentences, sen.Span)
				c.SaysNothingRequiredOrWillProceed.Spans = append(c.SaysNothingRequiredOrWillProceed.Spans,
					markdown.Span{Start: sen.Span.Start + loc[0], End: sen.Span.Start + loc[1]})
				c.SaysNothingRequiredOrWillProceed.Why = "the packet says it needs nothing or will go on by itself"
			}
		}
	}

	// Why I Stopped: blocked or handing back; the work complete.
	if why := p.Section(WhyStopped); why != nil {
		c.Blocked = phraseFact(pt, ph, ListBlocked, why.Body, "Why I Stopped says the agent is blocked or hands control back")
		c.Complete = phraseFact(pt, ph, ListComplete, why.Body, "Why I Stopped says the requested work is complete")
	}
	for _, s := range []*Section{need, p.Section(NeedsReview)} {
		if s == nil {
			continue
		}
		if i := strings.Index(str(s.Body), "?"); i >= 0 && !c.Question.Value {
			c.Question = Fact{Value: true, Spans: []markdown.Span{{Start: s.Body.Start + i, End: s.Body.Start + i + 1}}, Why: "the packet asks the user a question"}
		}
	}
	return c
}

func phraseFact(pt *proseText, ph *phrases, list string, span markdown.Span, why string) Fact {
	f := Fact{}
	for _, loc := range pt.find(list, span) {
		f.Value = true
		f.Spans = append(f.Spans, markdown.Span{Start: span.Start + loc[0], End: span.Start + loc[1]})
	}
	if f.Value {
		f.Why = why
	}
	return f
}

func inAny(s markdown.Span, set map[markdown.Span]bool) bool {
	for o := range set {
		if s.Start >= o.Start && s.End <= o.End {
			return true
		}
	}
	return false
}

// heldByPacket reports a packet that holds its work outside What Happens
// Next: a verdict marker (the stop hands the boundary to the user, and what
// happens next is what follows the verdict), or a What I Need From You that
// leaves it to the user whether the work goes on ("tell me whether to
// continue").
func heldByPacket(pt *proseText, p *Packet, need *Section) (Fact, bool) {
	for _, mk := range p.Markers {
		if mk.Valid {
			return Fact{Value: true, Spans: []markdown.Span{mk.Span},
				Why: "the verdict marker hands the boundary to the user: what happens next waits for the verdict"}, true
		}
	}
	if need == nil {
		return Fact{}, false
	}
	if b := pt.at(need.Body); !strings.Contains(b, "whether") && !strings.Contains(b, "if ") {
		return Fact{}, false // the common case: no sentence to read
	}
	var w []string
	for _, s := range sentences(pt, need.Body) {
		w = appendWords(w[:0], s.Text)
		if asksWhetherToGoOn(w) {
			return Fact{Value: true, Spans: []markdown.Span{s.Span},
				Why: "What I Need From You leaves it to the user whether the work goes on"}, true
		}
	}
	return Fact{}, false
}

// asksWhetherToGoOn: "tell me whether to continue", "whether I should
// proceed", "if we should go ahead".
func asksWhetherToGoOn(w []string) bool {
	for i, x := range w {
		if x != "whether" && !(x == "if" && in(at(w, i+1), "i", "we")) {
			continue
		}
		for k := i + 1; k <= i+4 && k < len(w); k++ {
			if in(w[k], "continue", "proceed", "resume") || in(w[k], "go", "carry", "move") && in(at(w, k+1), "on", "ahead") {
				return true
			}
		}
	}
	return false
}

// gatedSteps reads Why I Stopped for the steps it says wait for the user
// ("Human judgment is required before I author plan.md": author), as the
// stems of their verbs.
func gatedSteps(pt *proseText, ph *phrases, body markdown.Span) []string {
	if !strings.Contains(pt.at(body), "before") {
		return nil
	}
	var out, w []string
	for _, s := range sentences(pt, body) {
		w = appendWords(w[:0], s.Text)
		for i, x := range w {
			if x != "before" || !waitsForUser(ph, w[:i]) {
				continue
			}
			// The step: a verb after "I" or "we" ("before I author"), or a
			// gerund ("before authoring"). A noun ("before the plan
			// review") names no step.
			j, subject := i+1, false
			if in(at(w, j), "i", "we") {
				j, subject = j+1, true
				for in(at(w, j), "can", "could", "may", "might", "will", "should", "shall") {
					j++
				}
			}
			if v := at(w, j); v != "" && !in(v, ",", ";", ":") && (subject || strings.HasSuffix(v, "ing")) {
				out = append(out, stem(v))
			}
		}
	}
	return out
}

// waitsForUser: the words say something is required of the user, or waits
// for their response ("Human judgment is required", "needs your approval").
func waitsForUser(ph *phrases, w []string) bool {
	need, user := false, false
	for i, x := range w {
		switch {
		case in(x, "required", "requires", "require", "needed", "needs", "need", "must", "wait", "waits", "waiting"):
			need = true
		case in(x, "human", "judgment", "judgement", "you", "your", "user", "operator", "maintainer", "reviewer") || ph.responseAt(w, i):
			user = true
		}
	}
	return need && user
}

// stem folds a verb's inflections together: author, authors, authoring and
// authored; write, writes and writing.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// gated reports a sentence taking a step Why I Stopped says waits for the
// user: its verb, after "will", "I'll", "to" or "then", is a gated one.
func gated(w, gates []string) bool {
	if len(gates) == 0 {
		return false
	}
	for i, x := range w {
		prev := at(w, i-1)
		if in(prev, "will", "shall", "to", "then") || strings.HasSuffix(prev, "'ll") || strings.HasSuffix(prev, "’ll") {
			if slices.Contains(gates, stem(x)) {
				return true
			}
		}
	}
	return false
}

// held reads What Happens Next; gates are the steps Why I Stopped says
// wait for the user (gatedSteps).
func held(pt *proseText, ph *phrases, body markdown.Span, gates []string) (Fact, []markdown.Span) {
	f := Fact{}
	if locs := pt.find(ListHeld, body); len(locs) > 0 {
		for _, loc := range locs {
			f.Spans = append(f.Spans, markdown.Span{Start: body.Start + loc[0], End: body.Start + loc[1]})
		}
		f.Value, f.Why = true, "What Happens Next says the work is held"
		return f, nil
	}
	var unheld []markdown.Span
	covered, conditionals := false, 0
	var w []string // one buffer for every sentence's words: nothing keeps them
	for _, s := range sentences(pt, body) {
		w = appendWords(w[:0], s.Text)
		switch {
		case conditionalWords(ph, w), forward(w) && gated(w, gates):
			covered = true
			conditionals++
			f.Spans = append(f.Spans, s.Span)
			continue
		case broken(w):
			covered = false
		case chained(w) && covered:
			continue
		}
		if !covered && forward(w) && !negated(w) {
			unheld = append(unheld, s.Span)
			break // the first step that goes ahead decides it
		}
	}
	switch {
	case len(unheld) > 0:
		f.Spans, f.Why = unheld, "What Happens Next goes ahead without waiting for the user"
	case conditionals > 0:
		f.Value, f.Why = true, "every next step in What Happens Next waits for the user"
	default:
		f.Why = "What Happens Next does not say the work waits for the user"
	}
	return f, unheld
}

// statesResponse reads What I Need From You: a request, a quoted reply, a
// reply named in code (namedReply), a list of options, or a question.
func statesResponse(pt *proseText, ph *phrases, body markdown.Span) Fact {
	t := pt.at(body)
	text, base := pt.b, pt.base
	at := func(loc []int, why string) Fact {
		return Fact{Value: true, Spans: []markdown.Span{{Start: body.Start + loc[0], End: body.Start + loc[1]}}, Why: why}
	}
	if locs := pt.find(ListRequest, body); len(locs) > 0 {
		return at(locs[0], "What I Need From You asks for an action")
	}
	if mayQuote(t) {
		if loc := quotedReply.FindStringIndex(t); loc != nil {
			return at(loc, "What I Need From You quotes the reply wanted")
		}
	}
	if f := namedReply(pt, ph, body); f.Value {
		return f
	}
	items := 0
	for start := body.Start; ; { // each line, as the text breaks them
		end := body.End
		if k := nextBreak(pt.text[start:body.End]); k >= 0 {
			end = start + k
		}
		if itemMarker(text[start-base:end-base], pt.text[start:end]) > 0 {
			items++
		}
		if end == body.End {
			break
		}
		start = end + 1
	}
	if items >= 2 {
		return Fact{Value: true, Spans: []markdown.Span{pt.trim(body)}, Why: "What I Need From You lists the options"}
	}
	if i := strings.Index(t, "?"); i >= 0 {
		return at([]int{i, i + 1}, "What I Need From You asks a question")
	}
	return Fact{Why: "What I Need From You does not say what response is wanted"}
}

// mayQuote reports whether t holds one of the quotes quotedReply needs:
// most sections have none, and the expression costs more than looking.
func mayQuote(t string) bool {
	return strings.IndexByte(t, '"') >= 0 || strings.IndexByte(t, '`') >= 0 || strings.IndexByte(t, '\'') >= 0 || strings.Contains(t, "“")
}

// reviewItems are the list items of What Needs Your Review, or its
// paragraphs when it has no list.
func reviewItems(pt *proseText, body markdown.Span) []markdown.Span {
	var lists, paras []markdown.Span
	for _, b := range pt.blocksIn(body) {
		switch n := b.n.(type) {
		case *ast.List:
			for it := n.FirstChild(); it != nil; it = it.NextSibling() {
				if is, ok := blockSpan(it); ok {
					lists = append(lists, is)
				}
			}
		case *ast.Paragraph:
			paras = append(paras, b.span)
		}
	}
	if len(lists) > 0 {
		return lists
	}
	return paras
}
