package governance

import "github.com/baton-md/baton/analysis"

const (
	validator = "`extensions/specrew-speckit/validators/handoff-governance-validator.ps1`"
	gate      = "`scripts/internal/design-analysis-gate.ps1`"
)

// Every rule the analyzer reports.
var Rules = []*analysis.Rule{
	RuleMissingProgress, RuleMissingNextStep, RuleReviewPath, RuleOpaqueReferences, RuleJargonLead,
	RuleHiddenBlocker, RuleEmptyUserAction, RuleTransitional, RuleThinSummary, RuleUnnamedBoundary,
	RuleUnactionableRequest, RuleContextFreePrompts, RuleBrokenURL, RuleMarkdownLink, RuleBarePath,
	RuleGateVerdictShape, RuleGateBarePath, RuleConfigIssue,
}

var (
	RuleConfigIssue = &analysis.Rule{
		ID:       "packet/specrew-config-issue",
		Summary:  "The project's .specrew/config.yml has an interaction_model setting specrew cannot use.",
		Severity: analysis.Warning,
		Doc: `specrew reads its bare-path settings from ` + "`interaction_model:`" + ` in ` + "`.specrew/config.yml`" + `
(` + "`Get-InteractionModelSettings`" + ` in ` + "`scripts/shared-governance.ps1`" + `): ` + "`bare_path_boundary_handoff_severity`" + `
(soft-warning or validation-fail) and ` + "`exemption_extensions`" + `, each with an id, a ` + "`pattern`" + ` (a path
it exempts from ` + "`packet/bare-path`" + `), an ` + "`approver`" + ` and a ` + "`rationale`" + `. Its validator warns with every stop
message of a setting it cannot use (` + "`soft-warning.bare-path-config-issue`" + `), and so does baton, on the
packet's first heading. An exemption whose pattern baton cannot read (a .NET construct Go's regular
expressions lack) is reported too, and exempts nothing.`,
		Follows: []string{"specrew soft-warning.bare-path-config-issue"},
	}
	RuleMissingProgress = &analysis.Rule{
		ID:       "packet/missing-progress-status",
		Summary:  "The message states no progress.",
		Severity: analysis.Warning,
		Doc: `A reader who was away must learn where the work stands. specrew's validator (` + validator + `,
` + "`Test-HasExplicitProgressStatus`" + `) warns when the whole message has none of its progress words: completed,
updated, implemented, changed, reviewed, verified, created, recorded, fixed, finished, added; "no files
changed"; or blocked, waiting, pending, stopped, open, remaining. Say what was done, or what is blocked.`,
		Follows: []string{"specrew soft-warning.missing-progress-status"},
	}
	RuleMissingNextStep = &analysis.Rule{
		ID:       "packet/missing-next-step",
		Summary:  "The message names no next step.",
		Severity: analysis.Warning,
		Doc: `specrew's validator (` + validator + `, ` + "`Test-HasExplicitNextStep`" + `) warns when the message
says neither "next step" nor "no further action needed", nor asks the user to review, approve, confirm,
run, provide, reply, authorize, sign off, continue or restart. Name the one next step.`,
		Follows: []string{"specrew soft-warning.missing-next-step"},
	}
	RuleReviewPath = &analysis.Rule{
		ID:       "packet/review-path-without-url",
		Summary:  "A review request names a local file by its Windows path, with no file:/// URL anywhere.",
		Severity: analysis.Warning,
		Doc: `When a message asks for a review and names a file by an absolute Windows path (` + "`C:\\\\repo\\\\spec.md`" + `,
in code too) but holds no ` + "`file:///`" + ` URL at all, the reader cannot open it from the terminal.
specrew's validator (` + validator + `, ` + "`Test-MissingReviewFileReference`" + `) warns; write the path as
a ` + "`file:///C:/repo/spec.md`" + ` URL.`,
		Follows: []string{"specrew soft-warning.review-file-reference-format"},
	}
	RuleOpaqueReferences = &analysis.Rule{
		ID:       "packet/opaque-references",
		Summary:  "A paragraph strings three or more bare ids (tasks, requirements, commits) without saying what they are.",
		Severity: analysis.Warning,
		Doc: `"Completed 012, 001, T009, T010, FR-008 and 070dd06" tells a returning reader nothing. specrew's validator
(` + validator + `, ` + "`Get-OpaqueReferenceCount`" + `) counts, in each paragraph of authored prose, the
references ` + "`feature N`, `iteration N`, `T123`, `FR-1`, `TG-x`" + ` and hex ids of 7 to 40 digits (commits);
three or more warn, unless the paragraph describes them inline in at least two forms
("FR-008, the stop-message wording", "(T003 through T004)", "feature 016, the interaction model").
Code blocks, ` + "`<command>`" + ` output, console lines (` + "`PASS:`, `ERROR:`" + ` …) and block quotes are not
authored prose and are not counted. Say what each reference is, in words, beside it.

In a specrew project whose active feature (` + "`feature_path`" + ` in ` + "`.specrew/start-context.json`" + `) defines the
ids, a fix writes after each the words its ` + "`spec.md`" + ` requirement or ` + "`tasks.md`" + ` task gives it; it is not
applied by ` + "`--fix`" + `, since the words are the spec's, for you to shorten.`,
		Follows: []string{"specrew soft-warning.opaque-numeric-references"},
	}
	RuleJargonLead = &analysis.Rule{
		ID:       "packet/jargon-first-lead",
		Summary:  "A section opens with lifecycle jargon before a plain sentence.",
		Severity: analysis.Warning,
		Doc: `specrew's validator (` + validator + `, ` + "`Get-LeadSentence`, `Get-GovernanceHitCount`" + `) reads the
first sentence of each section and warns when it holds three or more governance terms (before-implement,
hardening-gate, approval ref, implementation approval, traceability, schema, ` + "`FR-N`, `TG-x`" + `, gate,
validator) and does not open plainly ("we need", "review ", "approve", "confirm", "updated", "completed",
"this slice", "next step" …). Lead with what happened in plain words; bring the formal terms after.`,
		Follows: []string{"specrew soft-warning.jargon-first-lead"},
	}
	RuleHiddenBlocker = &analysis.Rule{
		ID:       "packet/hidden-blocker",
		Summary:  "A blocker or risk is named without saying why or what it needs.",
		Severity: analysis.Warning,
		Doc: `specrew's validator (` + validator + `) warns when the message says blocked, failed, skipped, risk,
deferred, pending or blocking but nowhere because, cannot, needs, waiting, until, confidence (or names the
risk, the block, the failure outright). State the blocker plainly: what it is, and what it needs.`,
		Follows: []string{"specrew soft-warning.hidden-blocker-or-risk"},
	}
	RuleEmptyUserAction = &analysis.Rule{
		ID:       "packet/empty-user-action",
		Summary:  "What I Need From You asks the user for no action.",
		Severity: analysis.Warning,
		Doc: `specrew's validator (` + validator + `, ` + "`Test-HasEmptyUserActionSection`" + `) warns when What I need
from you is empty, is only a placeholder (nothing yet, no action needed, no action required, nothing to
do, no further action needed), or asks for none of review, approve, confirm, run, provide, reply,
authorize, sign off, restart, test. Name the one thing the user does now. (baton's
` + "`packet/review-placeholder`" + ` is the error when such a section sits under a review request.)`,
		Follows: []string{"specrew soft-warning.empty-user-action-section"},
	}
	RuleTransitional = &analysis.Rule{
		ID:       "packet/transitional-stop",
		Summary:  "A packet for a stop that is only a transition (waiting, still running) and asks nothing.",
		Severity: analysis.Warning,
		Doc: `A stop explained as waiting, in progress, still running, in the background, a transition, paused for
now or "slice is complete", with no action asked of the user, is a progress update, not a hand-back.
specrew's validator (` + validator + `, ` + "`Test-HasTransitionalStopClaim`" + `) warns: keep such an update
to one line of progress (with the intermediate stop-intent marker where async work is in flight), and
render the packet for a real blocker or the end of long work.`,
		Follows: []string{"specrew soft-warning.transitional-stop-claim"},
	}
	RuleThinSummary = &analysis.Rule{
		ID:       "packet/thin-what-i-just-did",
		Summary:  "What I Just Did is too thin for a boundary handoff.",
		Severity: analysis.Warning,
		Doc: `At a boundary the person decides on what What I just did tells them. specrew's validator
(` + validator + `, ` + "`Get-IdentifierCount`, `Get-WordCount`" + `) wants at least three concrete identifiers
(` + "`FR-N`, `T123`" + `, commit ids, ` + "`decision-…`" + `, ` + "`file:///`" + ` links) and at least 50 words; at an
iteration or feature closeout either is enough. baton checks it on boundary packets: those with Discussion
Prompts, front matter naming the boundary or a verdict marker, and any packet while the specrew project
has a boundary pending.`,
		Follows: []string{"specrew soft-warning.thin-what-i-just-did"},
	}
	RuleUnnamedBoundary = &analysis.Rule{
		ID:       "packet/unnamed-boundary",
		Summary:  "Why I Stopped does not name the boundary the packet stops at.",
		Severity: analysis.Warning,
		Doc: `specrew's validator (` + validator + `, ` + "`Test-MentionsBoundary`" + `) warns when Why I stopped does not
name the boundary: for the boundaries it knows, one of its phrases ("implementation boundary",
"retrospective boundary", "review-boundary" …); for others (plan, tasks) the name itself. baton knows the
boundary from the packet's front matter (` + "`to_boundary`" + `), its verdict marker, or the specrew project's
pending crossing; where none says which, it does not guess and reports nothing.`,
		Follows: []string{"specrew soft-warning.unspecific-stop-boundary"},
	}
	RuleUnactionableRequest = &analysis.Rule{
		ID:       "packet/unactionable-request",
		Summary:  "What I Need From You at a boundary lacks the boundary's name, a file:/// target or the verdict wanted.",
		Severity: analysis.Warning,
		Doc: `At a boundary the request must be one the person can act on at once. specrew's validator
(` + validator + `, ` + "`Get-MissingUserRequestComponents`" + `) warns when What I need from you does not name the
boundary, holds no ` + "`file:///`" + ` link to inspect, or asks for no verdict (approve, reject, authorize,
sign off, confirm, accept, decline, pass, needs-work, blocked). The message lists what is missing.`,
		Follows: []string{"specrew soft-warning.unactionable-user-request"},
	}
	RuleContextFreePrompts = &analysis.Rule{
		ID:       "packet/context-free-prompts",
		Summary:  "A boundary packet's Discussion Prompts ask without context or a default.",
		Severity: analysis.Error,
		Doc: `"Should I continue?" gives the person nothing to decide with. specrew's validator fails a boundary
handoff (` + validator + `, ` + "`Test-DiscussionPromptsCompliant`" + `, a hard fail) unless its Discussion prompts
ask a question (a "?") with context (context, because, decision, assumption, risk, tradeoff, uncertain,
triggered, scope, package, architecture, release-blocking) and a default or consequence (default,
recommend, recommended, consequence, changing direction, if we change, if you change, otherwise), or ask
specrew's own planning question. An empty section fails too.`,
		Follows: []string{"specrew validation-fail.non-contextual-discussion-prompts"},
	}
	RuleBrokenURL = &analysis.Rule{
		ID:       "packet/broken-file-url",
		Summary:  "A file:/// reference names no file or folder.",
		Severity: analysis.Warning,
		Doc: `specrew's validator (` + validator + `, ` + "`Get-BrokenFileUriFindings`" + `) warns of each ` + "`file:///`" + `
URL whose path does not exist. baton checks the URLs that point into the workspace, in the workspace as
it is on disk; a URL to another place (another machine's drive, a folder outside the project) is not
judged, and nothing is checked where there is no workspace (standard input).`,
		Follows: []string{"specrew soft-warning.broken-file-url-reference"},
	}
	RuleMarkdownLink = &analysis.Rule{
		ID:       "packet/markdown-file-link",
		Summary:  "A file:/// URL is hidden behind Markdown link text.",
		Severity: analysis.Error,
		Doc: `A terminal shows ` + "`[plan.md](file:///…/plan.md)`" + ` as text the reader cannot click. specrew's
validator (` + validator + `, ` + "`Get-MarkdownFileLinkMatches`" + `) fails a boundary handoff that links a
` + "`file:///`" + ` URL this way (` + "`validation-fail.markdown-file-url-in-boundary-handoff`" + `, an error) and warns
of it in progress prose (` + "`soft-warning.markdown-file-url-in-narration`" + `, a warning). The quick fix writes
the URL bare.`,
		Follows: []string{"specrew validation-fail.markdown-file-url-in-boundary-handoff", "specrew soft-warning.markdown-file-url-in-narration"},
	}
	RuleBarePath = &analysis.Rule{
		ID:       "packet/bare-path",
		Summary:  "A repository path is written bare where a file:/// URL is wanted.",
		Severity: analysis.Error,
		Doc: `specrew wants every artifact a person must open as a ` + "`file:///`" + ` URL. Its validator
(` + validator + `, ` + "`Get-BarePathMatches`" + `) finds bare paths (` + "`specs/…`, `.specrew/…`, `tests/…`" + `, a
drive or ` + "`./`" + ` path, any path with an extension, README.md) outside code blocks, inline code, Markdown
file links and URLs, on lines that are not commands, console output, key: value or JSON. In a boundary
handoff specrew's boundary gates fail on one (` + "`validation-fail.bare-path-in-boundary-handoff`" + `: they run
the validator with ` + "`-BarePathBoundaryHandoffSeverity validation-fail`" + `), an error; in progress prose it is
a warning (` + "`soft-warning.bare-path-in-narration`" + `). A path in inline code is exempt, as a command is.

The quick fix writes the path as the ` + "`file:///`" + ` URL of the file, when it exists in the workspace.`,
		Follows: []string{"specrew validation-fail.bare-path-in-boundary-handoff", "specrew soft-warning.bare-path-in-narration"},
	}
	RuleGateVerdictShape = &analysis.Rule{
		ID:       "packet/gate-verdict-shape",
		Summary:  "A design-analysis gate packet does not name its verdict shape.",
		Severity: analysis.Error,
		Doc: `A saved design-analysis gate packet (front matter ` + "`gate: design-analysis`" + `) must say the verdict the
person gives: ` + "`approved for plan with Option <X>`" + `. specrew's gate (` + gate + `,
` + "`Test-SpecrewDesignAnalysisGatePacket`" + `) refuses to save or use a packet without it.`,
		Follows: []string{"specrew Test-SpecrewDesignAnalysisGatePacket (verdict shape)"},
	}
	RuleGateBarePath = &analysis.Rule{
		ID:       "packet/gate-bare-path",
		Summary:  "A design-analysis gate packet names an artifact by a bare path.",
		Severity: analysis.Error,
		Doc: `specrew's design-analysis gate (` + gate + `, ` + "`Test-SpecrewDesignAnalysisGatePacket`" + `) refuses a gate
packet whose prose, outside code and ` + "`file:///`" + ` URLs, names ` + "`specs/`, `.specrew/`, `.squad/` or `tests/`" + `
paths bare. Write the artifact as a ` + "`file:///`" + ` URL or in a code span.`,
		Follows: []string{"specrew Test-SpecrewDesignAnalysisGatePacket (bare artifact path)"},
	}
)
