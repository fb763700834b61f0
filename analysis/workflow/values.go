package workflow

// RegisteredValues are the components the engine or one of its hosts
// registers with `returns` declared, each with where it is registered in
// taras/executable.md (@ 307ca55c): they render nothing and must be invoked
// with `as` (packages/core/src/expand.ts: "declares `returns`, so it renders
// nothing and must be invoked with `as`"). Every other registration there
// (agent, testing, test-agent components; the workflow host's Repository,
// Worktree, Dir, Git.Switch, Git.Add, Git.Push, IssueTracker) declares none.
var RegisteredValues = map[string]string{
	"Elicit":      "packages/core/src/components/registry.ts, CORE_REGISTRY",
	"Glob":        "packages/core/src/components/registry.ts, CORE_REGISTRY",
	"Parse":       "packages/core/src/components/registry.ts, CORE_REGISTRY",
	"SafeParse":   "packages/core/src/components/registry.ts, CORE_REGISTRY",
	"WebForm":     "packages/web/src/components.ts, installWebComponents",
	"Git.Commit":  "packages/workflow/src/composition/installation.ts, useCompositionComponents",
	"PullRequest": "packages/workflow/src/composition/installation.ts, useCompositionComponents",
	"Issue":       "packages/workflow/src/composition/installation.ts, useCompositionComponents",
}

// isRegisteredValue reports the registered components that declare
// `returns` (RegisteredValues).
func isRegisteredValue(name string) bool {
	_, ok := RegisteredValues[name]
	return ok
}
