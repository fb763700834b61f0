package packet

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

var (
	RuleAutoContinue = &analysis.Rule{
		ID:       "packet/review-auto-continue",
		Summary:  `A packet that asks for review also says "nothing required", "I'll proceed" or the like.`,
		Severity: analysis.Error,
		Doc: `When What Needs Your Review holds a decision, an approval request, an open tradeoff or a
requested confirmation, the stop hands control to the user. The packet must then not say
"nothing blocking", "no action needed", "I'll proceed", "flag this if …", "unless you object" or
otherwise carry on by itself (specrew's FR-045a: *` + ReasonAutoContinue + `*).

A sentence that makes the same words wait for the user is fine: "I'll proceed once you approve"
is a held statement. The quick fix replaces the sentence with one that holds the work.`,
		Follows: []string{"specrew Test-ContinuousCoReviewStopPacketConsistency"},
	}
	RuleResponseMissing = &analysis.Rule{
		ID:       "packet/review-response-missing",
		Summary:  "A packet asks for review but What I Need From You does not say what response is wanted.",
		Severity: analysis.Error,
		Doc: `A review request must say exactly what the user should answer (FR-045a: *` + ReasonResponseMissing + `*).
baton accepts an actionable request (approve, reply, confirm, choose, decide, sign off, send back,
review, tell me …), a quoted reply such as ` + "`approved for plan`" + `, a reply named in code (below), a
list of verdict options, or a question. Write the reply you want, e.g.
` + "`Reply \"approve\" or \"send back\" with what to change.`" + `

Where specrew's code decides, baton decides the same way. Its validator
(` + "`extensions/specrew-speckit/validators/handoff-governance-validator.ps1`" + `, ` + "`Test-HasEmptyUserActionSection`" + `)
takes What I Need From You as stating an action when it holds one of review, approve, confirm, run,
provide, reply, authorize, sign off, restart or test; each is in baton's ` + "`request`" + ` list, so
"Next step: restart the session" states the response. baton accepts more, because FR-045a asks
for the exact response and these state one too: respond, choose, pick, select, decide, answer,
authorise, send back, tell me, let me know, check, verify, accept, reject, merge, comment, vote,
discuss, give me, share (specrew's own boundary packets offer "approve as-is, approve with
instructions, send back, or discuss prompt #N"), a quoted reply, a list of options, a question.
specrew's whole-text "next step" check (` + "`Test-HasExplicitNextStep`" + `) also counts continue; baton does
not take "continue" as the user's response: it is the agent's step, and "I'll continue" is one of
FR-045a's automatic continuations.

Packets often name the reply in code. baton reads a packet's prose with its code set aside, so it
reads What I Need From You's code on its own:

- A reply verb put to the user (type, enter, paste, say, write or send, starting its clause, as in
  "Type one of these:", "please paste …", "you can say …") states the response when it names the
  reply: in inline code later in its sentence ("Say ` + "`cap`" + ` or ` + "`no cap`" + `"), as its
  object ("type your verdict"), or in the code block (fenced or indented) or list right after it.
  These words are not in the ` + "`request`" + ` list: alone they are as often nouns or the agent's own
  steps ("the type of change", "enter the plan phase").
- Inline code, or a line of a code block, that is a verdict reply states the response with no
  request word: a reply that starts with approve, approved or approves (after an optional option
  label such as "1." or "Option 2:", a "yes," or an "I"/"we"), send back, reject or discuss, and
  is neither a question nor an approval put off ("approve once the tests pass"). That is what
  specrew's verdict reader takes as a verdict (` + "`Test-SpecrewHumanVerdictToken`" + ` in
  ` + "`scripts/internal/bootstrap/ConversationCaptureAccessor.ps1`" + `), except that baton wants send back,
  reject and discuss at the start of the line as well, so that a log line mentioning a rejection
  is not read as an option. So ` + "`approved for tasks`" + `, a list of backticked replies, and the
  gate-stop skill's "What's your verdict?" menu copied with the fence the skill shows it in
  (specrew's ` + "`specrew-gate-stop/SKILL.md`" + `) state the response.

specrew reads that code too: its validator matches the section's raw text, code and all
(` + "`Get-InteractionModelSectionMap`" + ` in ` + "`extensions/specrew-speckit/scripts/shared-governance.ps1`" + `
keeps every line of it), and its design-analysis gate looks for the verdict shape
` + "`approved for plan with Option <X>`" + ` before it strips code (` + "`Test-SpecrewDesignAnalysisGatePacket`" + ` in
` + "`scripts/internal/design-analysis-gate.ps1`" + `). The validator's word list holds neither "approved" nor
"type", so it gives a section that only says "Type one of these:" over ` + "`approved for tasks`" + ` its
soft warning ` + "`soft-warning.empty-user-action-section`" + `; baton follows specrew's verdict reader
there, which takes that reply as the approval.

Still missing: an empty section or code block, a code block of log or command output with no
request, code that only mentions a file, and "nothing", "none", "n/a" and the like, which are
` + "`packet/review-placeholder`" + ` (a list whose only item is code is not the placeholder "-", though its
prose, code set aside, reads so).`,
		Follows: []string{"specrew Test-ContinuousCoReviewStopPacketConsistency"},
	}
	RulePlaceholder = &analysis.Rule{
		ID:       "packet/review-placeholder",
		Summary:  `What I Need From You says "nothing" while the packet asks for review.`,
		Severity: analysis.Error,
		Doc: `"Nothing", "none", "n/a" or "no action needed" under What I Need From You tells the user no
answer is expected, while What Needs Your Review asks for one (FR-045a: *` + ReasonResponseMissing + `*).
State the response wanted instead; or, if nothing really needs review, move the items out of What
Needs Your Review.

The section is a placeholder when, trimmed of spaces and final punctuation, it is exactly one of
baton's ` + "`placeholder`" + ` phrases. They hold specrew's (` + "`$placeholderUserActionPhrases`" + ` in
` + "`extensions/specrew-speckit/validators/handoff-governance-validator.ps1`" + `: nothing yet, no action
needed, no action required, nothing to do, no further action needed) and add nothing, none, n/a and
the like, which FR-045a names ("never 'nothing'"). An empty section, which specrew also takes as
empty, is ` + "`packet/review-response-missing`" + `.`,
		Follows: []string{"specrew Test-ContinuousCoReviewStopPacketConsistency"},
	}
	RuleNotHeld = &analysis.Rule{
		ID:       "packet/review-not-held",
		Summary:  "A packet asks for review but What Happens Next does not hold the work.",
		Severity: analysis.Error,
		Doc: `A review request transfers control: What Happens Next must say the work waits for the answer
(FR-045a: *` + ReasonNotHeld + `*). Say so in words ("held", "paused", "waiting for your reply",
"will not proceed until …"), or make every next step conditional on the user: "On approval, I
will …", "If approved, …", "Once you reply, …", "After restart, …", "Planning follows on
approval." A step that goes ahead unconditionally ("I will run the checks and push the branch") is
flagged. The quick fixes make that step conditional, or add a sentence that holds the work.

The hold is read across the packet, as a person reads it:

- a step that Why I Stopped says waits for the user is held: after "Human judgment is required
  before I author plan.md", "I will author plan.md" under What Happens Next is what follows the
  judgment (specrew's valid boundary packet, ` + "`$realPacket`" + ` in ` + "`tests/integration/conformance-detection.tests.ps1`" + `);
- a packet carrying a valid verdict marker hands the boundary to the user: what happens next is
  what follows the verdict;
- a What I Need From You that leaves it to the user whether the work goes on ("tell me whether
  to continue") holds it (specrew's material-work packet, ` + "`$materialPacket`" + ` in the same test).

specrew computes none of this from text (` + "`Test-ContinuousCoReviewStopPacketConsistency`" + ` takes
booleans), so the reading is baton's. It follows specrew's vocabulary where there is one: restart
is the user's action in specrew's validator (` + "`Test-HasEmptyUserActionSection`" + `), so "After restart, …"
waits for the user.`,
		Follows: []string{"specrew Test-ContinuousCoReviewStopPacketConsistency"},
	}
	RuleInformationalItem = &analysis.Rule{
		ID:       "packet/informational-review-item",
		Summary:  "An informational note sits under What Needs Your Review.",
		Severity: analysis.Warning,
		Doc: `What Needs Your Review lists what the user must decide, approve or confirm. A note marked
"FYI", "Note:", "for your information" or "no action needed" is not a review item (FR-045a) and
makes the real items harder to see: move it to What I Just Did, or drop it.`,
	}
)

var consistencyRules = []*analysis.Rule{RuleAutoContinue, RuleResponseMissing, RulePlaceholder, RuleNotHeld, RuleInformationalItem}

const heldSentence = "The work is held until you reply."

func checkConsistency(pass *analysis.Pass, d *docChecks, p *Packet) {
	c := p.Consistency
	if c == nil {
		return
	}
	doc := pass.Doc
	for _, it := range c.Items {
		if it.Class == Informational {
			pass.Report(RuleInformationalItem, it.Span,
				`an informational note is not a review item and does not belong under "What Needs Your Review": move it to "What I Just Did", or drop it`)
		}
	}
	if !c.Live() || !c.HasSubstantiveReviewItems.Value {
		return
	}
	request := analysis.WithRelated(c.HasSubstantiveReviewItems.Spans[0], "the review request")

	for i, sp := range c.SaysNothingRequiredOrWillProceed.Spans {
		sen := c.ProceedSentences[i]
		pass.Report(RuleAutoContinue, sp, ReasonAutoContinue+": "+quote(doc.String(sp))+" here", request,
			analysis.WithFix(analysis.Fix{
				Title: "Replace with a sentence that holds the work",
				Edits: []analysis.Edit{{Span: sen, NewText: "I will not proceed until you reply."}},
			}))
	}

	need := p.Section(NeedFromYou)
	switch {
	case need == nil:
	case c.Placeholder != (markdown.Span{}):
		pass.Report(RulePlaceholder, c.Placeholder, ReasonResponseMissing+": "+quote(doc.String(c.Placeholder))+" asks for nothing", request,
			analysis.WithFix(analysis.Fix{
				Title: "State the response wanted",
				Edits: []analysis.Edit{{Span: c.Placeholder, NewText: `Reply "approve" to go ahead, or tell me what to change.`}},
			}))
	case !c.NeedsFromUserStatesResponse.Value:
		end := trimmedEnd(doc, need.Body)
		if end <= need.Body.Start {
			end = need.Heading.Span.End
		}
		opts := []func(*analysis.Finding){request}
		if !d.leftOpen(end) { // appended to a code or HTML block left open, the request would be part of it
			opts = append(opts, analysis.WithFix(analysis.Fix{
				Title: "Add the response wanted",
				Edits: []analysis.Edit{{Span: markdown.Span{Start: end, End: end}, NewText: d.lineBreak() + d.lineBreak() + `Reply "approve" to go ahead, or tell me what to change.` + d.apart(end)}},
			}))
		}
		pass.Report(RuleResponseMissing, need.Heading.Span, ReasonResponseMissing, opts...)
	}

	next := p.Section(HappensNext)
	if next == nil || c.HappensNextSaysHeld.Value {
		return
	}
	at := next.Heading.Span
	msg := ReasonNotHeld
	var fixes []func(*analysis.Finding)
	if len(c.Unheld) > 0 {
		at = c.Unheld[0]
		msg += ": " + quote(doc.String(at)) + " goes ahead without waiting for the user; make it conditional, e.g. \"On approval, …\""
		first := doc.String(c.Unheld[0])
		fixes = append(fixes, analysis.WithFix(analysis.Fix{
			Title: `Make it conditional: "On approval, …"`,
			Edits: []analysis.Edit{{Span: c.Unheld[0], NewText: "On approval, " + lowerFirst(first)}},
		}))
	}
	end := trimmedEnd(doc, next.Body)
	if end <= next.Body.Start {
		end = next.Heading.Span.End
	}
	fixes = append(fixes, request)
	if !d.leftOpen(end) { // as above
		fixes = append(fixes, analysis.WithFix(analysis.Fix{
			Title: "Add: " + heldSentence,
			Edits: []analysis.Edit{{Span: markdown.Span{Start: end, End: end}, NewText: d.lineBreak() + d.lineBreak() + heldSentence + d.apart(end)}},
		}))
	}
	pass.Report(RuleNotHeld, at, msg, fixes...)
}

// apart is what keeps a sentence inserted at end, the end of a line, a
// paragraph of its own: a line break more when the next line is not blank
// (a setext heading's text right under an empty section would otherwise
// take the sentence into the heading).
func (d *docChecks) apart(end int) string {
	rest := strings.TrimLeft(d.doc.Text[end:], " \t")
	if strings.HasPrefix(rest, "\r\n") {
		rest = rest[2:]
	} else if len(rest) > 0 && (rest[0] == '\n' || rest[0] == '\r') {
		rest = rest[1:]
	} else {
		return ""
	}
	if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
		rest = rest[:i]
	}
	if strings.TrimSpace(rest) == "" {
		return ""
	}
	return d.lineBreak()
}

// trimmedEnd is where a section's text ends, before trailing blank lines.
func trimmedEnd(doc *markdown.Document, s markdown.Span) int {
	return s.Start + len(strings.TrimRight(doc.String(s), " \t\r\n"))
}

func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		cut := 77
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return `"` + s + `"`
}

// lowerFirst lower-cases a sentence's first letter, unless it is "I".
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == 'I' && (len(s) == n || !unicode.IsLetter(rune(s[n]))) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}
