package analysis

// The names XMD gives a meaning by themselves, wherever the document is:
// the language's structural constructs and the components its engine
// registers. A closed tag of one of them is XMD's own; any other
// capitalised tag is a component only when it resolves (a file, a bundle,
// a name the configuration registers), which the workflow kind decides
// with the workspace (see Detector.Confirm).

// XMDStructural are the language's own constructs
// (taras/executable.md, packages/core/src/structural.ts, RESERVED_STRUCTURAL).
var XMDStructural = nameSet("Content", "Output", "Return", "Let", "Each", "If", "Else", "Loop", "Break", "PrintErrors", "Answers", "Answer")

// XMDRegistered are the components the engine's packages register for every
// document `xmd run` and `xmd test` execute (packages/cli/src/cli.ts,
// installDocumentComponents): core's defaults (packages/core/src/components/registry.ts),
// its agent components (packages/core/src/agent/components.ts), the testing
// package's Testing, AssertThrows, its nested-execution harness and the
// ASSERTIONS table, bare Assert included (packages/testing/src/components.ts,
// execution-harness.ts, assertions.ts), the test agent's
// (packages/test-agent/src/components.ts) and WebForm (packages/web/src/components.ts).
// WhenPrompt is registered inside a test agent's worker, for the scripts it
// reads (packages/test-agent/src/worker/when-prompt.ts).
var XMDRegistered = nameSet(
	"Elicit", "TempDir", "Fetch", "File", "Glob", "Json", "Parse", "SafeParse", "Test",
	"AgentProvider", "Agent", "Session", "Session.Launch", "Prompt", "ApproveAll", "AskPermission",
	"Testing", "AssertThrows", "Execution", "WorkflowRun", "DiagnosticJournal", "CollectOutput", "CollectJournal",
	"Assert", "AssertFalse", "AssertExists", "AssertEquals", "AssertNotEquals", "AssertStrictEquals",
	"AssertNotStrictEquals", "AssertStringIncludes", "AssertMatch", "AssertNotMatch", "AssertGreater",
	"AssertGreaterOrEqual", "AssertLess", "AssertLessOrEqual",
	"TestAgent", "TestAgent.Scenario", "WhenPrompt", "WebForm")

// XMDHostRegistered are registered only by the workflow host
// (packages/workflow/src/composition/installation.ts).
var XMDHostRegistered = nameSet("Repository", "Worktree", "Dir", "Git.Switch", "Git.Add", "Git.Commit", "Git.Push",
	"PullRequest", "IssueTracker", "Issue")

// XMDOwnName says what XMD makes of name by itself: "structural" for its
// grammar, "registered" for a component its engine registers, "host" for
// one its workflow host registers, else "".
func XMDOwnName(name string) string {
	switch {
	case XMDStructural[name]:
		return "structural"
	case XMDRegistered[name]:
		return "registered"
	case XMDHostRegistered[name]:
		return "host"
	}
	return ""
}

func nameSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
