package governance

import (
	"fmt"
	"io/fs"
	"iter"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// The validator's patterns, as it applies them: with PowerShell's -match
// (case-insensitive) unless noted. Where .NET looks around (Go's regexp
// does not), the code around the pattern does.
var (
	// The validator's whole-message word tests, each \b(…)\b with -match.
	progressWords = newWordList("completed", "updated", "implemented", "changed", "reviewed", "verified", "created", "recorded", "fixed", "finished", "added",
		"no files changed", "blocked", "waiting", "pending", "stopped", "open", "remaining")
	nextStepWords = newWordList("next step", "no further action needed", "review", "approve", "confirm", "run", "provide", "reply", "authorize", "sign off", "continue", "restart")
	reviewCue     = newWordList("review")
	windowsPath   = lazyre.New("(?i)\\b[A-Z]:[\\\\/][^\\s`]+")

	// Opaque references (Get-AuthoredParagraphs, Get-OpaqueReferenceCount).
	fences     = lazyre.New("(?s)```.*?```")
	commandEnv = lazyre.New(`(?s)<command\b[^>]*>.*?</command>`)
	opaqueRef  = lazyre.New(`(?i)\b(?:feature\s+\d+|iteration\s+\d+|T\d{3,}|FR-\d+|TG-[A-Za-z0-9-]+|[0-9a-f]{7,40})\b`)
	// The descriptor forms that make a paragraph "described inline"; nil
	// in notAfter: the form has no lookahead.
	descriptors = []struct{ re, after *lazyre.Regexp }{
		{lazyre.New(`(?i)\bfeature\s+\d+,\s+\w`), nil},
		{lazyre.New(`(?i)\biteration\s+\d+,\s+\w`), nil},
		{lazyre.New(`(?i)\(T\d{3,}\s+(?:and|through|-)\s*T\d{3,}\)`), nil},
		{lazyre.New(`(?i)\bT\d{3,}(?:\s+(?:and|through|-)\s*T\d{3,})?,\s+`), describedWord},
		{lazyre.New(`(?i)\(FR-\d+\s+(?:and|through|-)\s*FR-\d+\)`), nil},
		{lazyre.New(`(?i)\bFR-\d+(?:\s+(?:and|through|-)\s*FR-\d+)?,\s+`), describedWord},
		{lazyre.New(`(?i)\bTG-[A-Za-z0-9-]+,\s+\w`), nil},
		{lazyre.New(`(?i)\b[0-9a-f]{7,40},\s+`), describedWord},
	}
	// describedWord is (?!T\d|FR-\d|TG-|[0-9a-f]{7,40}\b)(?:the|\w{3,}).
	describedWord = lazyre.New(`(?i)^(?:the|\w{3,})`)
	anotherRef    = lazyre.New(`(?i)^(?:T\d|FR-\d|TG-|[0-9a-f]{7,40}\b)`)

	// The lead sentence (Get-LeadSentence, Get-GovernanceHitCount).
	leadLabel      = lazyre.New(`(?i)^(?:\*\*)?(Current progress status|Recommended next step|Owner|Reference)(?:\*\*)?$`)
	leadMarkupOnly = lazyre.New("^[#>*`\\-\\s]+$")
	leadSentence   = lazyre.New(`^.+?(?:[.!?](?:\s|$)|$)`)
	governanceRes  = []*lazyre.Regexp{ // governanceHits' patterns, for its test
		lazyre.New(`(?i)before-implement`),
		lazyre.New(`(?i)hardening-gate`),
		lazyre.New(`(?i)approval ref`),
		lazyre.New(`(?i)implementation approval`),
		lazyre.New(`(?i)traceability`),
		lazyre.New(`(?i)schema`),
		lazyre.New(`\bFR-\d+\b`),           // case-sensitive
		lazyre.New(`\bTG-[A-Za-z0-9-]+\b`), // case-sensitive
		lazyre.New(`(?i)\bgate\b`),
		lazyre.New(`(?i)\bvalidator\b`),
	}
	plainLeads = []string{"we need", "you need", "review ", "approve", "confirm", "run ", "manually", "updated", "completed", "finished", "i updated", "i completed", "i finished", "this slice", "next step", "provide"}

	blockerWord   = newWordList("blocked", "failed", "skipped", "risk", "deferred", "pending")
	disclosesWord = newWordList("because", "cannot", "needs", "waiting", "until", "confidence", "risk", "blocked", "skipped", "failed")

	placeholderActions = []string{"Nothing yet", "No action needed", "No action required", "Nothing to do", "No further action needed"}
	// (?i)\b(…)\b alternations, read word by word (wordList): as patterns
	// they took most of the check of a long "What I Need From You".
	userActionVerb   = newWordList("review", "approve", "confirm", "run", "provide", "reply", "authorize", "sign off", "restart", "test")
	transitionalWord = newWordList("waiting", "in progress", "still running", "background", "transition", "paused for now", "slice is complete")

	decisionID    = lazyre.New(`(?i)\b(?:authorization|decision|sign-off)-[a-z0-9-]+\b`)
	identifierRes = []*lazyre.Regexp{ // identifiers' patterns, for its test
		lazyre.New(`(?i)\bFR-\d+\b`),
		lazyre.New(`(?i)\bT\d{3,}\b`),
		lazyre.New(`(?i)\b[a-f0-9]{7,40}\b`),
		lazyre.New(`(?i)\b(?:authorization|decision|sign-off)-[a-z0-9-]+\b`),
		lazyre.New(`(?i)file:///[^\s)]+`),
	}
	wordRe     = lazyre.New(`[\pL\pN](?:[\pL\pN\-/]*[\pL\pN])?`)
	verdictCue = lazyre.New(`(?i)\b(approve|reject|authorize|sign off|confirm|accept|decline|pass|needs-work|blocked)\b`)

	promptsPlanQuestion = lazyre.New(`(?i)Before I plan from this spec, is there anything you want corrected, constrained, expanded, or discussed\?`)
	promptsContext      = newWordList("context", "because", "decision", "assumption", "risk", "tradeoff", "uncertain", "triggered", "scope", "package", "architecture", "release-blocking")
	promptsDefault      = newWordList("default", "recommend", "recommended", "consequence", "changing direction", "if we change", "if you change", "otherwise")
)

// validate makes the validator's checks on one packet, in its order.
func validate(m *message) {
	pass, text := m.pass, m.text
	first := m.p.Sections[0].Heading.Span

	// A long message's facts are read while the checks that do not need
	// them run (an editor's analysis of one large document has the other
	// CPU free); the findings are sorted, so their order is the same.
	var f facts
	if len(text) >= parallelFacts {
		done := make(chan struct{})
		go func() { f = scanFacts(text); close(done) }()
		independent(m)
		<-done
	} else {
		f = scanFacts(text)
	}
	if !f.progress {
		pass.Report(RuleMissingProgress, first, "the message states no progress: say where the work stands (what was completed, updated or verified, or what is blocked or pending)")
	}
	if !f.nextStep {
		pass.Report(RuleMissingNextStep, first, `the message names no next step: say the one next step ("Next step: review …", "approve …", "run …")`)
	}
	if f.review && !m.has("file:///") {
		if loc := findWindowsPath(text); loc != nil {
			pass.Report(RuleReviewPath, m.span(loc[0], loc[1]),
				fmt.Sprintf("a review request names %s as a path: give it as a file:/// URL, which the reader can open (file:///%s)", text[loc[0]:loc[1]], strings.ReplaceAll(text[loc[0]:loc[1]], `\`, "/")))
		}
	}
	if f.refs >= 3 {
		opaque(m)
	}
	if start, end := f.blocker[0], f.blocker[1]; start >= 0 && !f.discloses {
		pass.Report(RuleHiddenBlocker, m.span(start, end),
			fmt.Sprintf("%q names a blocker or a risk without saying why or what it needs: state it plainly (because …, needs …, until …)", text[start:end]))
	}

	if len(text) < parallelFacts {
		independent(m)
	}
	for _, issue := range m.settings.issues {
		pass.Report(RuleConfigIssue, first, "the project's .specrew/config.yml: "+issue)
	}
}

// parallelFacts is the message length from which scanFacts runs beside
// the other checks.
var parallelFacts = 64 << 10

// independent makes the checks of validate that do not read the facts.
func independent(m *message) {
	pass := m.pass
	jargonLead(m)
	if m.stopFormat {
		need, _ := m.body(packet.NeedFromYou)
		why, _ := m.body(packet.WhyStopped)
		if emptyAction(need) {
			pass.Report(RuleEmptyUserAction, m.at(packet.NeedFromYou),
				`"What I Need From You" asks for no action: name the one thing the user does now (review, approve, confirm, run, provide, reply, authorize, sign off, restart, test)`)
			if s, e := transitionalWord.index(why); s >= 0 {
				_, at := m.body(packet.WhyStopped)
				pass.Report(RuleTransitional, markdown.Span{Start: at + s, End: at + e},
					fmt.Sprintf("the stop is explained as transitional (%q) and asks nothing of the user: keep such an update to one progress line, and render a packet only for a real blocker or the end of long work", why[s:e]))
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
}

// blockerNamed is where the message names a blocker or risk: a word of
// the validator's list, or "blocking" where "non-" does not come before it
// ((?<!non-)blocking\b, with no \b before it); -1, -1 for none.
func blockerNamed(text string) (int, int) {
	if s, e := blockerWord.index(text); s >= 0 {
		return s, e
	}
	for from := 0; ; {
		i := indexFoldASCII(text[from:], "blocking")
		if i < 0 {
			return -1, -1
		}
		i += from
		end := i + len("blocking")
		if (end == len(text) || !isWord(text[end])) && (i < 4 || !strings.EqualFold(text[i-4:i], "non-")) {
			return i, end
		}
		from = end
	}
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
	return !userActionVerb.match(need)
}

// findWindowsPath is windowsPath.FindStringIndex, the pattern run only on
// a text that holds what every match holds: a colon, a slash or
// backslash after it, and before it a letter that starts a word (or a
// byte of a letter outside ASCII, which (?i) may fold to one). URLs
// (https://) have a letter before the colon, but inside a word.
func findWindowsPath(text string) []int {
	for i := 0; ; {
		k := strings.IndexByte(text[i:], ':')
		if k < 0 {
			return nil
		}
		c := i + k
		if c > 0 && c+1 < len(text) && (text[c+1] == '\\' || text[c+1] == '/') {
			if p := text[c-1]; p >= 0x80 || p|0x20 >= 'a' && p|0x20 <= 'z' && (c < 2 || !isWord(text[c-2])) {
				return windowsPath.FindStringIndex(text)
			}
		}
		i = c + 1
	}
}

// promptsCompliant is Test-DiscussionPromptsCompliant.
func promptsCompliant(t string) bool {
	if strings.TrimSpace(t) == "" {
		return false
	}
	if containsFold(t, "before i plan from this spec") && promptsPlanQuestion.MatchString(t) {
		return true
	}
	return strings.Contains(t, "?") && promptsContext.match(t) && promptsDefault.match(t)
}

// opaque is Test-HasOpaqueReferenceWarning: a paragraph of authored prose
// with three or more bare references and fewer than two forms that
// describe them inline.
func opaque(m *message) {
	b := []byte(m.text)
	blankFences(b)
	if strings.Contains(m.text, "<command") {
		for _, loc := range commandEnv.FindAllIndex(b, -1) {
			blank(b, loc[0], loc[1])
		}
	}
	blankLines(b, "PASS:", "FAIL:", "INFO:", "WARN:", "ERROR:", "TRACE:", ">")
	text := string(b)
	for off, para := range paragraphs(text) {
		if !hasDigit(para) && !hexRun(para) {
			continue
		}
		refs := opaqueRefs(para)
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
		hits := governanceHits(lead)
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
		m.pass.Report(RuleJargonLead, markdown.Span{Start: s.Body.Start + at, End: s.Body.Start + at + len(lead)},
			fmt.Sprintf("the section opens with %d lifecycle terms (gate, validator, FR-…, before-implement …) before saying what happened: lead with a plain sentence, and bring the formal references after it", hits))
		return
	}
}

// leadOf is Get-LeadSentence over a section's text: the first sentence of
// its first line that is neither a label nor markup alone, and where it
// starts in the text. The lines are read one by one up to that one: a
// section may be long, and most leads are on its first line.
func leadOf(body string) (string, int) {
	for off := 0; off <= len(body); {
		line := body[off:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j+1]
		}
		start := off
		if off += len(line); len(line) == 0 {
			off++ // the empty last line
		}
		t := strings.TrimSpace(line)
		if t == "" || markupOnly(t) || len(t) <= maxLeadLabel && leadLabel.MatchString(t) {
			continue
		}
		c := strings.TrimRight(strings.TrimLeft(t, "*"), "*")
		start += strings.Index(line, c)
		return strings.TrimSpace(firstSentence(c)), start
	}
	return "", 0
}

// maxLeadLabel is more than the longest text leadLabel matches: 27 bytes,
// and a few more for letters (?i) folds to two-byte ones (ſ for s).
const maxLeadLabel = 64

// markupOnly is leadMarkupOnly: ^[#>*`\-\s]+$.
func markupOnly(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '#', '>', '*', '`', '-', ' ', '\t', '\n', '\f', '\r':
		default:
			return false
		}
	}
	return t != ""
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

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// hexRun reports seven hex letters in a row (a commit id written without
// digits, as "defaced" is one to the validator's pattern).
func hexRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i] | 0x20; {
		case c >= 'a' && c <= 'f':
			if n++; n >= 7 {
				return true
			}
		default:
			n = 0
		}
	}
	return false
}

// paragraphs are the runs of lines that are not blank, by where each starts
// (the validator splits on (?:\n\s*\n)+).
func paragraphs(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		start := -1
		for i := 0; i <= len(text); {
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += i
			}
			if strings.TrimSpace(text[i:end]) == "" {
				if start >= 0 && !yield(start, strings.TrimRight(text[start:i], " \t\r\n")) {
					return
				}
				start = -1
			} else if start < 0 {
				start = i
			}
			i = end + 1
		}
		if start >= 0 {
			yield(start, strings.TrimRight(text[start:], " \t\r\n"))
		}
	}
}

// firstSentence is what ^.+?(?:[.!?](?:\s|$)|$) finds in a line: up to the
// first full stop, exclamation or question mark that ends the line or
// comes before a space (with that space).
func firstSentence(line string) string {
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case '.', '!', '?':
			if i+1 == len(line) {
				return line
			}
			if isSpace(line[i+1]) {
				return line[:i+2]
			}
		}
	}
	return line
}
