package governance

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// The validator's patterns, as it applies them: with PowerShell's -match
// (case-insensitive) unless noted. Where .NET looks around (Go's regexp
// does not), the code around the pattern does.
var (
	progressRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(completed|updated|implemented|changed|reviewed|verified|created|recorded|fixed|finished|added)\b`),
		regexp.MustCompile(`(?i)no files changed`),
		regexp.MustCompile(`(?i)\b(blocked|waiting|pending|stopped|open|remaining)\b`),
	}
	nextStepRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bnext step\b`),
		regexp.MustCompile(`(?i)\b(no further action needed)\b`),
		regexp.MustCompile(`(?i)\b(review|approve|confirm|run|provide|reply|authorize|sign off|continue|restart)\b`),
	}
	reviewCue   = regexp.MustCompile(`(?i)\breview\b`)
	windowsPath = regexp.MustCompile("(?i)\\b[A-Z]:[\\\\/][^\\s`]+")
	fileURIAny  = regexp.MustCompile(`(?i)file:///`)

	// Opaque references (Get-AuthoredParagraphs, Get-OpaqueReferenceCount).
	fences       = regexp.MustCompile("(?s)```.*?```")
	commandEnv   = regexp.MustCompile(`(?s)<command\b[^>]*>.*?</command>`)
	consoleLine  = regexp.MustCompile(`(?m)^\s*(?:PASS|FAIL|INFO|WARN|ERROR|TRACE):\s+.+$`) // case-sensitive, as [regex]::Replace
	quoteLine    = regexp.MustCompile(`(?m)^\s*>.+$`)
	paragraphSep = regexp.MustCompile(`(?:\n\s*\n)+`)
	opaqueRef    = regexp.MustCompile(`(?i)\b(?:feature\s+\d+|iteration\s+\d+|T\d{3,}|FR-\d+|TG-[A-Za-z0-9-]+|[0-9a-f]{7,40})\b`)
	// The descriptor forms that make a paragraph "described inline"; nil
	// in notAfter: the form has no lookahead.
	descriptors = []struct{ re, after *regexp.Regexp }{
		{regexp.MustCompile(`(?i)\bfeature\s+\d+,\s+\w`), nil},
		{regexp.MustCompile(`(?i)\biteration\s+\d+,\s+\w`), nil},
		{regexp.MustCompile(`(?i)\(T\d{3,}\s+(?:and|through|-)\s*T\d{3,}\)`), nil},
		{regexp.MustCompile(`(?i)\bT\d{3,}(?:\s+(?:and|through|-)\s*T\d{3,})?,\s+`), describedWord},
		{regexp.MustCompile(`(?i)\(FR-\d+\s+(?:and|through|-)\s*FR-\d+\)`), nil},
		{regexp.MustCompile(`(?i)\bFR-\d+(?:\s+(?:and|through|-)\s*FR-\d+)?,\s+`), describedWord},
		{regexp.MustCompile(`(?i)\bTG-[A-Za-z0-9-]+,\s+\w`), nil},
		{regexp.MustCompile(`(?i)\b[0-9a-f]{7,40},\s+`), describedWord},
	}
	// describedWord is (?!T\d|FR-\d|TG-|[0-9a-f]{7,40}\b)(?:the|\w{3,}).
	describedWord = regexp.MustCompile(`(?i)^(?:the|\w{3,})`)
	anotherRef    = regexp.MustCompile(`(?i)^(?:T\d|FR-\d|TG-|[0-9a-f]{7,40}\b)`)

	// The lead sentence (Get-LeadSentence, Get-GovernanceHitCount).
	leadLabel      = regexp.MustCompile(`(?i)^(?:\*\*)?(Current progress status|Recommended next step|Owner|Reference)(?:\*\*)?$`)
	leadMarkupOnly = regexp.MustCompile("^[#>*`\\-\\s]+$")
	leadSentence   = regexp.MustCompile(`^.+?(?:[.!?](?:\s|$)|$)`)
	governanceRes  = []*regexp.Regexp{
		regexp.MustCompile(`(?i)before-implement`),
		regexp.MustCompile(`(?i)hardening-gate`),
		regexp.MustCompile(`(?i)approval ref`),
		regexp.MustCompile(`(?i)implementation approval`),
		regexp.MustCompile(`(?i)traceability`),
		regexp.MustCompile(`(?i)schema`),
		regexp.MustCompile(`\bFR-\d+\b`),           // case-sensitive
		regexp.MustCompile(`\bTG-[A-Za-z0-9-]+\b`), // case-sensitive
		regexp.MustCompile(`(?i)\bgate\b`),
		regexp.MustCompile(`(?i)\bvalidator\b`),
	}
	plainLeads = []string{"we need", "you need", "review ", "approve", "confirm", "run ", "manually", "updated", "completed", "finished", "i updated", "i completed", "i finished", "this slice", "next step", "provide"}

	blockerWord   = regexp.MustCompile(`(?i)\b(blocked|failed|skipped|risk|deferred|pending)\b`)
	blockingWord  = regexp.MustCompile(`(?i)blocking\b`)
	disclosesWord = regexp.MustCompile(`(?i)\b(because|cannot|needs|waiting|until|confidence|risk|blocked|skipped|failed)\b`)

	placeholderActions = []string{"Nothing yet", "No action needed", "No action required", "Nothing to do", "No further action needed"}
	userActionVerb     = regexp.MustCompile(`(?i)\b(review|approve|confirm|run|provide|reply|authorize|sign off|restart|test)\b`)
	transitionalWord   = regexp.MustCompile(`(?i)\b(waiting|in progress|still running|background|transition|paused for now|slice is complete)\b`)

	identifierRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bFR-\d+\b`),
		regexp.MustCompile(`(?i)\bT\d{3,}\b`),
		regexp.MustCompile(`(?i)\b[a-f0-9]{7,40}\b`),
		regexp.MustCompile(`(?i)\b(?:authorization|decision|sign-off)-[a-z0-9-]+\b`),
		regexp.MustCompile(`(?i)file:///[^\s)]+`),
	}
	wordRe     = regexp.MustCompile(`[\pL\pN](?:[\pL\pN\-/]*[\pL\pN])?`)
	verdictCue = regexp.MustCompile(`(?i)\b(approve|reject|authorize|sign off|confirm|accept|decline|pass|needs-work|blocked)\b`)

	promptsPlanQuestion = regexp.MustCompile(`(?i)Before I plan from this spec, is there anything you want corrected, constrained, expanded, or discussed\?`)
	promptsContext      = regexp.MustCompile(`(?i)\b(context|because|decision|assumption|risk|tradeoff|uncertain|triggered|scope|package|architecture|release-blocking)\b`)
	promptsDefault      = regexp.MustCompile(`(?i)\b(default|recommend|recommended|consequence|changing direction|if we change|if you change|otherwise)\b`)
)

// validate makes the validator's checks on one packet, in its order.
func validate(m *message) {
	pass, text := m.pass, m.text
	first := m.p.Sections[0].Heading.Span

	if !anyMatch(text, progressRes...) {
		pass.Report(RuleMissingProgress, first, "the message states no progress: say where the work stands (what was completed, updated or verified, or what is blocked or pending)")
	}
	if !anyMatch(text, nextStepRes...) {
		pass.Report(RuleMissingNextStep, first, `the message names no next step: say the one next step ("Next step: review …", "approve …", "run …")`)
	}
	if reviewCue.MatchString(text) && !fileURIAny.MatchString(text) {
		if loc := windowsPath.FindStringIndex(text); loc != nil {
			pass.Report(RuleReviewPath, m.span(loc[0], loc[1]),
				fmt.Sprintf("a review request names %s as a path: give it as a file:/// URL, which the reader can open (file:///%s)", text[loc[0]:loc[1]], strings.ReplaceAll(text[loc[0]:loc[1]], `\`, "/")))
		}
	}
	opaque(m)
	jargonLead(m)
	if blockerNamed(text) && !disclosesWord.MatchString(text) {
		loc := blockerWord.FindStringIndex(text)
		if loc == nil {
			loc = blockingWord.FindStringIndex(text)
		}
		pass.Report(RuleHiddenBlocker, m.span(loc[0], loc[1]),
			fmt.Sprintf("%q names a blocker or a risk without saying why or what it needs: state it plainly (because …, needs …, until …)", text[loc[0]:loc[1]]))
	}

	if m.stopFormat {
		need, _ := m.body(packet.NeedFromYou)
		why, _ := m.body(packet.WhyStopped)
		if emptyAction(need) {
			pass.Report(RuleEmptyUserAction, m.at(packet.NeedFromYou),
				`"What I Need From You" asks for no action: name the one thing the user does now (review, approve, confirm, run, provide, reply, authorize, sign off, restart, test)`)
			if loc := transitionalWord.FindStringIndex(why); loc != nil {
				_, at := m.body(packet.WhyStopped)
				pass.Report(RuleTransitional, analysis.Span{Start: at + loc[0], End: at + loc[1]},
					fmt.Sprintf("the stop is explained as transitional (%q) and asks nothing of the user: keep such an update to one progress line, and render a packet only for a real blocker or the end of long work", why[loc[0]:loc[1]]))
			}
		}
		if m.boundary {
			boundaryChecks(m, need, why)
		}
	}
	if m.boundary && m.candidate() {
		if prompts, _ := m.body(packet.DiscussionPrompts); m.p.Section(packet.DiscussionPrompts) != nil && !promptsCompliant(prompts) {
			pass.Report(RuleContextFreePrompts, m.at(packet.DiscussionPrompts),
				"the discussion prompts ask without context or a default: give each question its context (because, the decision, the risk, the scope) and your recommended default or the consequence of each choice, and end it with a question mark")
		}
	}
	brokenURLs(m)
	markdownLinks(m)
	barePaths(m)
	for _, issue := range m.settings.issues {
		pass.Report(RuleConfigIssue, first, "the project's .specrew/config.yml: "+issue)
	}
}

func blockerNamed(text string) bool {
	if blockerWord.MatchString(text) {
		return true
	}
	for _, loc := range blockingWord.FindAllStringIndex(text, -1) {
		if loc[0] < 4 || !strings.EqualFold(text[loc[0]-4:loc[0]], "non-") {
			return true
		}
	}
	return false
}

// emptyAction is Test-HasEmptyUserActionSection.
func emptyAction(need string) bool {
	t := strings.TrimSpace(need)
	if t == "" {
		return true
	}
	for _, p := range placeholderActions {
		if strings.EqualFold(t, p) {
			return true
		}
	}
	return !userActionVerb.MatchString(need)
}

// promptsCompliant is Test-DiscussionPromptsCompliant.
func promptsCompliant(t string) bool {
	if strings.TrimSpace(t) == "" {
		return false
	}
	if promptsPlanQuestion.MatchString(t) {
		return true
	}
	return strings.Contains(t, "?") && promptsContext.MatchString(t) && promptsDefault.MatchString(t)
}

// opaque is Test-HasOpaqueReferenceWarning: a paragraph of authored prose
// with three or more bare references and fewer than two forms that
// describe them inline.
func opaque(m *message) {
	b := []byte(m.text)
	for _, re := range []*regexp.Regexp{fences, commandEnv, consoleLine, quoteLine} {
		for _, loc := range re.FindAllIndex(b, -1) {
			blank(b, loc[0], loc[1])
		}
	}
	text := string(b)
	start := 0
	seps := paragraphSep.FindAllStringIndex(text, -1)
	seps = append(seps, []int{len(text), len(text)})
	for _, sep := range seps {
		para := text[start:sep[0]]
		off := start
		start = sep[1]
		refs := opaqueRef.FindAllStringIndex(para, -1)
		if len(refs) < 3 || describedInline(para) {
			continue
		}
		ids := make([]string, 0, len(refs))
		for _, r := range refs {
			ids = append(ids, para[r[0]:r[1]])
		}
		var opts []func(*analysis.Finding)
		if fix := nameReferences(m, para, off, refs); len(fix.Edits) > 0 {
			opts = append(opts, analysis.WithFix(fix))
		}
		m.pass.Report(RuleOpaqueReferences, m.span(off+refs[0][0], off+refs[len(refs)-1][1]),
			fmt.Sprintf("%d bare references in one paragraph (%s): say what each is, inline (\"FR-008, the stop-message wording\", \"T003 and T004, the parser tests\")", len(refs), strings.Join(ids, ", ")), opts...)
		return // the validator warns once
	}
}

// describedInline reports two or more distinct descriptor forms in a
// paragraph.
func describedInline(para string) bool {
	n := 0
	for _, d := range descriptors {
		if d.after == nil {
			if d.re.MatchString(para) {
				n++
			}
			continue
		}
		for _, loc := range d.re.FindAllStringIndex(para, -1) {
			rest := para[loc[1]:]
			if !anotherRef.MatchString(rest) && d.after.MatchString(rest) {
				n++
				break
			}
		}
	}
	return n >= 2
}

// jargonLead is the validator's jargon-first-lead check on the lead
// sentence of each section, reported once.
func jargonLead(m *message) {
	seen := map[int]bool{}
	for _, s := range m.p.Sections {
		if s.Index < 0 || seen[s.Index] {
			continue
		}
		seen[s.Index] = true
		body := strings.ReplaceAll(m.pass.Doc.String(s.Body), "\r", " ")
		lead, at := leadOf(body)
		if lead == "" {
			continue
		}
		hits := 0
		for _, re := range governanceRes {
			hits += len(re.FindAllStringIndex(lead, -1))
		}
		if hits < 3 {
			continue
		}
		low := strings.ToLower(lead)
		plain := false
		for _, p := range plainLeads {
			if strings.HasPrefix(low, p) {
				plain = true
				break
			}
		}
		if plain {
			continue
		}
		m.pass.Report(RuleJargonLead, analysis.Span{Start: s.Body.Start + at, End: s.Body.Start + at + len(lead)},
			fmt.Sprintf("the section opens with %d lifecycle terms (gate, validator, FR-…, before-implement …) before saying what happened: lead with a plain sentence, and bring the formal references after it", hits))
		return
	}
}

// leadOf is Get-LeadSentence over a section's text: the first sentence of
// its first line that is neither a label nor markup alone, and where it
// starts in the text.
func leadOf(body string) (string, int) {
	off := 0
	for _, line := range strings.SplitAfter(body, "\n") {
		start := off
		off += len(line)
		t := strings.TrimSpace(line)
		if t == "" || leadLabel.MatchString(t) || leadMarkupOnly.MatchString(t) {
			continue
		}
		c := strings.TrimRight(strings.TrimLeft(t, "*"), "*")
		start += strings.Index(line, c)
		s := strings.TrimSpace(leadSentence.FindString(c))
		return s, start
	}
	return "", 0
}

func blank(b []byte, start, end int) {
	for i := start; i < end; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}

// nameReferences is the fix that writes, after the first mention of each
// requirement or task id the active feature defines, what it names
// ("FR-008, the stop message's wording"): not safe, since the words are the
// spec's, not the author's.
func nameReferences(m *message, para string, off int, refs [][]int) analysis.Fix {
	if m.names == nil {
		fsys, _ := m.pass.Env[EnvFS].(fs.FS)
		root, _ := m.pass.Env[EnvRoot].(string)
		m.names = names(fsys, root)
		if m.names == nil {
			m.names = map[string]string{}
		}
	}
	fix := analysis.Fix{Title: "Say what each reference names, from the feature's spec and tasks"}
	seen := map[string]bool{}
	for _, r := range refs {
		id := strings.ToUpper(para[r[0]:r[1]])
		desc, ok := m.names[id]
		if !ok || seen[id] || desc == "" {
			continue
		}
		seen[id] = true
		text := ", " + desc
		if rest := strings.TrimLeft(para[r[1]:], " "); rest != "" && !strings.ContainsAny(rest[:1], ",.;:)!?") {
			text += "," // the sentence goes on: close the description
		}
		at := m.span(off+r[1], off+r[1])
		fix.Edits = append(fix.Edits, analysis.Edit{Span: at, NewText: text})
	}
	return fix
}
