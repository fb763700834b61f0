package handoff

import (
	"fmt"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff/session"
)

const layout = "```markdown\n# Handoff\n\n**Goal:** <goal>\n\nCarried from session `<id>`.\n\n## Decisions\n\n- <summary>\n  <rationale>\n- <label or key>: <value> _(settled)_\n\n## Facts\n\n- <fact>\n\n## Files\n\n- `<path>`: <why>\n\n### dropped (not in this session's read ledger)\n\n- `<path>`: <why>\n\n## Commands\n\n- `<argv>`: <why>\n\n## Open questions\n\n- <question>\n\n## Bounds applied\n\n- facts: kept 32 of 41; the rest were dropped by the facts bound\n- 1 entry was cut to 512 bytes and marked with …[truncated]\n```"

var (
	RuleGoalMissing = &analysis.Rule{
		ID:       "handoff/goal-missing",
		Summary:  "A handoff document has no goal.",
		Severity: analysis.Error,
		Doc: "A handoff carries a session's working state into a fresh session *for a goal*: the line " +
			"`**Goal:** <goal>` under `# Handoff` tells the next session what to accomplish, and clio's " +
			"`/handoff` refuses to run without one.\n\nAdd the line (or fill it in) with a goal of at least 12 " +
			"characters that names the work, e.g. `**Goal:** finish the working-set eviction rules`.",
	}
	RuleGoalStoplist = &analysis.Rule{
		ID:       "handoff/goal-stoplist",
		Summary:  `The goal is a word such as "continue" that names no goal.`,
		Severity: analysis.Error,
		Doc: "clio refuses the goals `continue`, `keep going`, `same`, `next`, `go on`, `proceed` and " +
			"`resume` (compared trimmed and case-insensitively): each says \"carry on\" without saying what " +
			"to carry on with, which is exactly the state a handoff exists to end. This check comes before the " +
			"length check, as in clio.\n\nReplace it with what the next session should accomplish.",
	}
	RuleGoalShort = &analysis.Rule{
		ID:       "handoff/goal-short",
		Summary:  "The goal is shorter than 12 characters.",
		Severity: analysis.Error,
		Doc: "clio's gate refuses a goal shorter than 12 characters after trimming (counted as JavaScript " +
			"counts string length: UTF-16 code units), because anything shorter cannot name what to " +
			"continue. `fix it` is refused; `finish the eviction rules` is accepted. The goal has no upper " +
			"bound.\n\nSay what the next session should accomplish, in a few more words.",
	}
	RuleSessionLine = &analysis.Rule{
		ID:       "handoff/session-line",
		Summary:  "The \"Carried from session `<id>`.\" line is missing, malformed, or names an unusable id.",
		Severity: analysis.Warning,
		Doc: "The line ``Carried from session `<id>`.`` names the session the document was drawn from. " +
			"baton reads it to find that session's read ledger and decision board, and checks every file and " +
			"settled decision against them; without it (or with an id it cannot use) those checks cannot run.\n\n" +
			"Write it exactly as clio renders it, under the goal: the id in backticks, a full stop after. An id is " +
			"one safe path component (letters, digits, `.`, `_`, `-`; not `.` or `..`); clio mints 12-character " +
			"base36 ids such as `k3x9m2p7q1wz`. The quick fix rewrites a line whose id can be read.\n\n" +
			"A document without the line is taken for a handoff only when the rest is clio's layout exactly " +
			"(`# Handoff`, the `**Goal:**` line, then only clio's sections in its order, only lists under them); " +
			"a `# Handoff` note of another shape is not checked at all.",
	}
	RuleListBound = &analysis.Rule{
		ID:       "handoff/list-bound",
		Summary:  "A list holds more items than clio's bound allows.",
		Severity: analysis.Warning,
		Doc: "clio bounds each list the model extracts: at most 24 decisions, 32 facts, 48 files (kept and " +
			"dropped together), 16 commands and 16 open questions. Settled decisions from the decision board " +
			"come on top and do not count. A longer list means the document was edited past what a handoff " +
			"carries.\n\nThe finding sits on the first item past the bound. Drop what the next session does not " +
			"need; the quick fix drops the items past the bound and notes it under `## Bounds applied` " +
			"(`facts: kept 32 of 41; the rest were dropped by the facts bound`).",
	}
	RuleStringBound = &analysis.Rule{
		ID:       "handoff/string-bound",
		Summary:  "A string is longer than 512 UTF-8 bytes.",
		Severity: analysis.Warning,
		Doc: "Every string of a handoff (a decision's summary and rationale, a fact, a file's path and why, a " +
			"command's argv and why, an open question) is at most **512 UTF-8 bytes**, the truncation marker " +
			"`…[truncated]` (14 bytes) included. Bytes, not characters: `é` is 2 bytes, a CJK character 3, an " +
			"emoji 4.\n\nShorten it. The quick fix cuts it as clio does: it keeps the longest prefix that ends on " +
			"a whole character and leaves room for the marker, appends `…[truncated]`, and records the cut " +
			"under `## Bounds applied` (settled decisions come from the board, whose cuts clio does not count).",
	}
	RuleBoundsUnaccounted = &analysis.Rule{
		ID:       "handoff/bounds-unaccounted",
		Summary:  "A string carries the …[truncated] marker but Bounds applied does not say so.",
		Severity: analysis.Warning,
		Doc: "When the byte bound cuts strings, clio says so under `## Bounds applied`: " +
			"`1 entry was cut to 512 bytes and marked with …[truncated]` (or `K entries were …`), so nothing is " +
			"cut silently. A marker without that note hides from the next session that something is missing " +
			"(settled decisions aside: clio does not count the board's cuts).\n\nOnly a string clio's cut could have " +
			"left counts: `boundHandoffString` (src/domains/session/handoff.ts) cuts only strings over 512 bytes and " +
			"keeps the first 498 bytes less a split character, so what it marks is always 509 to 512 bytes long. A " +
			"shorter string that ends with `…[truncated]` (a fact that says \"the old log ended with …[truncated]\") " +
			"is text the model wrote, which clio renders verbatim and never counts; baton says nothing about it.\n\n" +
			"The quick fix adds the note with the number of marked strings.",
	}
	RuleBoundsStale = &analysis.Rule{
		ID:       "handoff/bounds-stale",
		Summary:  "A Bounds applied note no longer matches the document.",
		Severity: analysis.Warning,
		Doc: "`## Bounds applied` tells the next session what clio cut: `<list>: kept N of M; the rest were " +
			"dropped by the <list> bound` per list, and `K entries were cut to 512 bytes and marked with " +
			"…[truncated]`. After editing, a note can be wrong: it says `kept 24 of 30` but the list now has " +
			"23 items (settled decisions are not counted), or it says 3 entries were cut but 2 strings carry " +
			"the marker.\n\nOne allowance: clio folds an extracted decision that restates a settled one into it *after* " +
			"the bound, so in a document with settled decisions the decisions note may say more were kept, and the " +
			"cut note count more cuts, than the document shows.\n\nA second: clio's `parseHandoffExtraction` " +
			"(src/domains/session/handoff.ts) applies the bound to decisions, files and commands *before* it " +
			"discards the records missing a required field (a decision's summary; a file's path or why; a " +
			"command's argv or why), so its own note may say `decisions: kept 24 of 30` over 22 rendered " +
			"decisions. For those three lists a note that says more were kept than the document shows is " +
			"taken as clio wrote it; one that says fewer is stale. Facts and open questions are filtered before " +
			"the bound: their note counts exactly what is rendered.\n\nThe quick fix rewrites the note to match the document, or removes it when nothing is " +
			"left to account for.",
	}
	RuleSectionOrder = &analysis.Rule{
		ID:       "handoff/section-order",
		Summary:  "Handoff sections are out of order.",
		Severity: analysis.Warning,
		Doc: "clio renders the sections in a fixed order: Decisions, Facts, Files, the dropped paths " +
			"(`### dropped (not in this session's read ledger)`), Commands, Open questions, Bounds applied. " +
			"baton keeps the longest run already in order and flags each other section, saying where it " +
			"belongs; move it (its heading and its items) there.\n\n" + layout,
	}
	RuleDuplicateSection = &analysis.Rule{
		ID:       "handoff/duplicate-section",
		Summary:  "A handoff section appears twice.",
		Severity: analysis.Warning,
		Doc: "Each section appears once. A reader that looks for a section takes the first one and may miss " +
			"the items of the copy (baton counts both against the list's bound). Move the copy's items into " +
			"the first section and remove the copy.",
	}
	RuleUnknownSection = &analysis.Rule{
		ID:       "handoff/unknown-section",
		Summary:  "A section that clio's handoff document does not have.",
		Severity: analysis.Hint,
		Doc: "A handoff document has the sections Decisions, Facts, Files (with its dropped paths), Commands, " +
			"Open questions and Bounds applied. Another section is carried to the next session as written, but " +
			"nothing bounds or checks it. If it holds decisions, facts, files, commands or questions, move its " +
			"items to that section.\n\n" + layout,
	}
	RuleEmptySection = &analysis.Rule{
		ID:       "handoff/empty-section",
		Summary:  "A handoff section has no items.",
		Severity: analysis.Hint,
		Doc: "clio leaves an empty list out entirely: no heading, no \"none\" placeholder. An empty section " +
			"tells the next session nothing. Remove the heading (the quick fix does), or add items.",
	}
	RuleHeadingForm = &analysis.Rule{
		ID:       "handoff/heading-form",
		Summary:  "A section heading is not written as clio writes it.",
		Severity: analysis.Hint,
		Doc: "clio writes the section headings as level-2 ATX headings (`## Decisions`, `## Facts`, `## Files`, " +
			"`## Commands`, `## Open questions`, `## Bounds applied`) and the dropped paths under the level-3 " +
			"heading `### dropped (not in this session's read ledger)`. baton recognises other spellings and " +
			"levels, but tools that read the document look for these. The quick fix rewrites the heading.",
	}
	RuleMalformedItem = &analysis.Rule{
		ID:       "handoff/malformed-item",
		Summary:  "An item or a line of a section is not in the form clio renders.",
		Severity: analysis.Warning,
		Doc: "Each section is a list, one `- ` item per entry:\n\n" +
			"- files and dropped files: `` - `<path>`: <why> ``; commands: `` - `<argv>`: <why> ``. Paths and argv " +
			"are printed unescaped, so a backtick inside one breaks the form (and baton cannot read the path).\n" +
			"- decisions: `- <summary>`, ` _(settled)_` after a board decision, and the rationale on the next line " +
			"indented two spaces.\n" +
			"- Bounds applied: only the notes clio writes.\n\nAn empty item, or text under a section that is not a " +
			"list item, is flagged too. Rewrite the item in its section's form.",
	}
	RuleVerbatimHeading = &analysis.Rule{
		ID:       "handoff/verbatim-heading",
		Summary:  "A heading that is the text of a string clio rendered verbatim.",
		Severity: analysis.Warning,
		Doc: "clio's `renderHandoffDocument` (src/domains/session/handoff.ts) writes each string of the " +
			"extraction as it is, line breaks included, and a blank line before every heading it means. A " +
			"fact that holds `\"…\\n## Files\\n- `src/evil.py`: …\"` therefore makes a heading of its own, glued " +
			"to the line above it: to a Markdown reader, and to the next session, it opens a second `## Files` " +
			"section whose items read as files this session touched. clio did this, not the operator; the " +
			"finding names the item the heading comes from.\n\nbaton reads such a heading (one with no blank line " +
			"before it, in a document whose other headings have one) as what it is: it is not counted as a " +
			"duplicate or out-of-order section, its lines are not held to a section's form, and its path items are " +
			"still checked against the read ledger, so a path the session never touched is reported as invented. " +
			"Take the text out of the item, or rewrite it on one line.\n\nA path or command holding a backtick is " +
			"clio's verbatim rendering too (`` - `docs/we`ird.md`: why ``): baton reads it up to the first " +
			"`` `: `` and checks it, with no finding.",
	}
	RuleInventedPath = &analysis.Rule{
		ID:       "handoff/invented-path",
		Summary:  "A path under ## Files was never touched by the session.",
		Severity: analysis.Error,
		Doc: "Every path under `## Files` must be in the session's read ledger: the paths its own tool calls " +
			"(read, edit, write, ls, find, grep, artifact) and file entries touched, on the active `/tree` " +
			"path, normalized against the session's working directory. A path the session never touched is an " +
			"invention, even if it exists on disk: the check is never against the file system. clio moves such " +
			"paths to `### dropped (not in this session's read ledger)`; one added while editing is what this " +
			"rule catches.\n\nPaths compare as clio's `normalizeHandoffPath` (src/domains/session/handoff.ts) " +
			"leaves them, with Node's path functions of the system the session ran on (told by its working " +
			"directory): trimmed, every trailing `/` and `\\` stripped, resolved against the working directory and " +
			"made relative to it, exactly, case included. On Linux and macOS `\\` is a character of a name, so " +
			"`src\\cache.py` and `src/cache.py` are two files; on Windows both separate. The root `/` (or a lone " +
			"`\\`) strips to nothing, which no ledger holds: clio always drops it, and so does this rule.\n\n" +
			"The message lists the nearest paths the ledger holds (a typo?). The quick fix moves " +
			"the item to the dropped section. Needs the session store (see `handoff/ledger-unavailable`).",
	}
	RuleRestorablePath = &analysis.Rule{
		ID:       "handoff/restorable-path",
		Summary:  "A dropped path is in the session's read ledger after all.",
		Severity: analysis.Info,
		Doc: "A path under `### dropped (not in this session's read ledger)` that the ledger does hold (for " +
			"example the model spelled it `./src/b.ts` or absolute, and it normalizes to a ledger path) can " +
			"go back under `## Files`. The quick fix moves it there, written in its normalized form.\n\n" +
			"It is reported only where clio's `validateHandoffFiles` (src/domains/session/handoff.ts) would have " +
			"kept it: a spelling clio's `normalizeHandoffPath` does not fold (`src\\parser.py` for `src/parser.py` in a " +
			"session recorded on Linux, `SRC/parser.py`, the root `/`) stays dropped without a word.",
	}
	RuleSettledMismatch = &analysis.Rule{
		ID:       "handoff/settled-mismatch",
		Summary:  "A settled decision does not match the session's decision board.",
		Severity: analysis.Error,
		Doc: "A decision marked `_(settled)_` reads `<label or key>: <value>` of an active decision on the " +
			"session's decision board: it is what the operator answered. One that matches no active decision, " +
			"or whose value differs, misrepresents that answer to the next session.\n\nThe quick fix sets the " +
			"value to the board's; for a decision the board does not hold, drop the `_(settled)_` marker (or the " +
			"decision).",
	}
	RuleUntouchedMention = &analysis.Rule{
		ID:       "handoff/untouched-mention",
		Summary:  "A path in backticks in a decision, fact or command was never touched by the session.",
		Severity: analysis.Hint,
		Doc: "A backticked token that looks like a path (it holds a `/`, or ends in a file extension such as " +
			"`.ts`) in Decisions, Facts or a command's why, and that no path of the session's read ledger " +
			"matches (exactly, as a folder holding a ledger path, or by its trailing components), may be " +
			"something the model made up. Check it; if the next session needs the file, list it under " +
			"`## Files` only if this session read it.",
	}
	RuleLedgerUnavailable = &analysis.Rule{
		ID:       "handoff/ledger-unavailable",
		Summary:  "The session's read ledger could not be read, so files are not checked.",
		Severity: analysis.Info,
		Doc: "baton checks files and settled decisions against the session the document names, found in " +
			"clio-coder's state folder at `<stateDir>/sessions/<cwdHash>/<id>/current.jsonl`. The state folder " +
			"is `$CLIO_CODER_STATE_DIR`, else `$CLIO_CODER_HOME/state`, else the platform's default " +
			"(`$XDG_STATE_HOME/clio-coder` or `~/.local/state/clio-coder` on Linux), unless configured. When " +
			"the session cannot be found or read, baton says where it looked and checks no path, rather than " +
			"calling every path invented.\n\nPoint baton at the right state folder, or ignore this on a machine " +
			"that does not hold the session.",
	}
)

// Analyzer checks handoff documents: clio-coder's /handoff review document,
// and the task-memory snapshot a context-handoff brief carries. Env keys:
// EnvLedger, EnvPath, EnvFolder.
var Analyzer = &analysis.Analyzer{
	Name: "handoff",
	Kind: markdown.KindHandoff,
	Rules: []*analysis.Rule{
		RuleGoalMissing, RuleGoalStoplist, RuleGoalShort, RuleSessionLine,
		RuleListBound, RuleStringBound, RuleBoundsUnaccounted, RuleBoundsStale,
		RuleSectionOrder, RuleDuplicateSection, RuleUnknownSection, RuleEmptySection, RuleHeadingForm, RuleMalformedItem,
		RuleInventedPath, RuleRestorablePath, RuleSettledMismatch, RuleUntouchedMention, RuleLedgerUnavailable,
		RuleVerbatimHeading,
		RuleTaskMemoryFileName, RuleTaskMemoryNewest, RuleTaskMemorySize, RuleTaskMemoryFence,
		RuleTaskMemoryShape, RuleTaskMemoryCap, RuleTaskMemoryEntry,
	},
	Run: run,
}

// Model is what a run builds: the document, and the session's ledger when
// the environment resolved it (nil otherwise), so hover can show evidence.
type Model struct {
	Doc    *Doc
	Lookup *Lookup
}

func run(pass *analysis.Pass) any {
	// A brief carrying a task-memory snapshot is checked as clio's reader
	// reads it; it is a review document too only when it has that layout
	// (or a configuration says it is a handoff and it has no snapshot).
	if tm := readTaskMemory(pass.Doc); tm != nil {
		checkTaskMemory(pass, tm)
		if !IsHandoff(pass.Doc) {
			return nil
		}
	}
	c := &checker{pass: pass, doc: pass.Doc, d: Parse(pass.Doc), nl: lineBreak(pass.Doc)}
	c.goal()
	c.session()
	c.structure()
	c.items()
	c.bounds()
	m := &Model{Doc: c.d}
	if lk := resolve(pass.Env, c.d); lk != nil {
		m.Lookup = lk
		c.ledger(lk)
	}
	return m
}

type checker struct {
	pass *analysis.Pass
	doc  *markdown.Document
	d    *Doc
	nl   string
}

// anchor is where a finding about the whole document goes: the title (the
// start of the text when there is none).
func (c *checker) anchor() markdown.Span { return c.d.Title }

func (c *checker) goal() {
	d := c.d
	switch {
	case !d.HasGoal():
		c.pass.Report(RuleGoalMissing, c.anchor(),
			`the document has no "**Goal:** <goal>" line: add one under "# Handoff" saying what the next session should accomplish`)
	case d.Goal == "":
		c.pass.Report(RuleGoalMissing, d.GoalLine, "the goal is empty: say what the next session should accomplish")
	default:
		switch GoalProblem(d.Goal) {
		case "stoplist":
			c.pass.Report(RuleGoalStoplist, d.GoalSpan,
				fmt.Sprintf("%q names no goal (clio's /handoff refuses it): say what the next session should accomplish", d.Goal))
		case "short":
			c.pass.Report(RuleGoalShort, d.GoalSpan,
				fmt.Sprintf("a goal needs at least %d characters; %q is %d: say what the next session should accomplish", MinGoalLength, d.Goal, GoalLength(d.Goal)))
		}
	}
}

func (c *checker) session() {
	d := c.d
	if !d.HasSession() {
		c.pass.Report(RuleSessionLine, c.anchor(),
			"the document has no \"Carried from session `<id>`.\" line, so its files and settled decisions cannot be checked against the session")
		return
	}
	valid := session.ValidID(d.SessionID)
	if d.SessionMalformed != "" {
		var opts []func(*analysis.Finding)
		if valid {
			canon := "Carried from session `" + d.SessionID + "`."
			opts = append(opts, analysis.WithFix(analysis.Fix{
				Title: "Rewrite as " + canon, Safe: true,
				Edits: []analysis.Edit{{Span: d.SessionLine, NewText: canon}},
			}))
		}
		c.pass.Report(RuleSessionLine, d.SessionLine,
			"the session line should read \"Carried from session `<id>`.\": "+d.SessionMalformed, opts...)
		if d.SessionID == "" {
			return
		}
	}
	if !valid {
		c.pass.Report(RuleSessionLine, d.SessionSpan,
			fmt.Sprintf("%q is not a session id baton can look up (one path component of letters, digits, \".\", \"_\" and \"-\"), so nothing is checked against the session", d.SessionID))
	}
}

func (c *checker) structure() {
	var known []*Section
	for _, s := range c.d.Sections {
		if s.Glued {
			c.verbatimHeading(s)
			continue
		}
		if !s.Known {
			c.pass.Report(RuleUnknownSection, s.Heading.Span,
				fmt.Sprintf("%q is not a section of a handoff document: nothing bounds or checks it; move its items to the section they belong to", s.Heading.Text))
			continue
		}
		if want := CanonicalHeading(s.Name); strings.TrimSpace(c.doc.String(s.Heading.Span)) != want {
			c.pass.Report(RuleHeadingForm, s.Heading.Span, fmt.Sprintf("clio writes this heading as %q", want),
				analysis.WithFix(analysis.Fix{Title: "Rewrite as " + want, Safe: true,
					Edits: []analysis.Edit{{Span: s.Heading.Span, NewText: want}}}))
		}
		if s.DuplicateOf != nil {
			c.pass.Report(RuleDuplicateSection, s.Heading.Span,
				fmt.Sprintf("%q appears twice: move its items into the first one and remove this copy", CanonicalHeading(s.Name)),
				analysis.WithRelated(s.DuplicateOf.Heading.Span, "first "+s.Name+" section"))
		} else {
			known = append(known, s)
		}
		if len(s.Items) == 0 && len(s.Stray) == 0 {
			c.pass.Report(RuleEmptySection, s.Heading.Span,
				fmt.Sprintf("%q has no items: clio leaves an empty section out", CanonicalHeading(s.Name)),
				analysis.WithFix(analysis.Fix{Title: "Remove the empty section", Safe: true,
					Edits: []analysis.Edit{c.removeSection(s)}}))
		}
	}
	keys := make([]int, len(known))
	for i, s := range known {
		keys[i] = s.Index
	}
	for _, mv := range analysis.OutOfOrder(keys) {
		s := known[mv.I]
		switch {
		case mv.Before >= 0:
			before := known[mv.Before]
			c.pass.Report(RuleSectionOrder, s.Heading.Span,
				fmt.Sprintf("%q is out of order: move it before %q", CanonicalHeading(s.Name), CanonicalHeading(before.Name)),
				analysis.WithRelated(before.Heading.Span, "belongs before this section"))
		case mv.After >= 0:
			after := known[mv.After]
			c.pass.Report(RuleSectionOrder, s.Heading.Span,
				fmt.Sprintf("%q is out of order: move it after %q", CanonicalHeading(s.Name), CanonicalHeading(after.Name)),
				analysis.WithRelated(after.Heading.Span, "belongs after this section"))
		}
	}
}

// verbatimHeading reports a glued section: a heading clio rendered as part
// of a string, naming the item it comes from.
func (c *checker) verbatimHeading(s *Section) {
	lines := c.doc.Lines
	prev := lines.LineStart(lines.LineOf(s.Heading.Span.Start) - 1)
	from := "the line above it"
	var related []func(*analysis.Finding)
	if sec := c.d.SectionAt(prev); sec != nil {
		for _, it := range sec.Items {
			if it.Span.Start <= prev {
				from = fmt.Sprintf("the %s item on line %d", strings.ToLower(sec.Name), lines.LineOf(it.Span.Start)+1)
				related = []func(*analysis.Finding){analysis.WithRelated(it.Span, "the item it is part of")}
			}
		}
	}
	name := s.Heading.Text
	if s.Known {
		name = CanonicalHeading(s.Name)
	}
	c.pass.Report(RuleVerbatimHeading, s.Heading.Span,
		fmt.Sprintf("this heading is text of %s: clio renders a string's line breaks verbatim, and writes a blank line before every heading it means; to a reader, and to the next session, what follows is a %q section of its own", from, name),
		related...)
}

func (c *checker) items() {
	for _, s := range c.d.Sections {
		if !s.Known || s.Glued {
			continue
		}
		for _, it := range s.Items {
			if it.Malformed != "" {
				c.pass.Report(RuleMalformedItem, it.Span, it.Malformed)
			}
		}
		for _, sp := range s.Stray {
			c.pass.Report(RuleMalformedItem, sp,
				fmt.Sprintf("text under %q that is not a list item: clio writes each entry as a \"- \" item", CanonicalHeading(s.Name)))
		}
	}
}
