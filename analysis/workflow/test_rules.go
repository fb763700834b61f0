package workflow

import (
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
)

var RuleNoTests = &analysis.Rule{
	ID:       "workflow/no-tests",
	Summary:  "A `*.test.md` document, or a `<Testing>` region, holds no `<Test>`.",
	Severity: analysis.Error,
	Doc: "`xmd test` runs every `*.test.md` under the folder it is given, each in a testing session of its own, " +
		"and fails a document whose run discovered no test (packages/testing/src/use-testing.ts: " +
		"`no tests were discovered`). A `<Testing>` region fails the run it is in the same way when nothing " +
		"inside it is a test (packages/testing/src/components.ts, installTestingComponents: `a <Testing> " +
		"boundary discovered no tests`), in `xmd run` as in `xmd test`. Add a `<Test name=\"…\">` around the " +
		"assertions, or, for a document that is not a test, rename it so it does not end in `.test.md`.\n\n" +
		"baton reports a document or region with no `<Test>` anywhere in it and no component of the " +
		"repository's (Markdown or TypeScript) invoked in it, since a component's body may hold the tests. " +
		"A `<Test>` in a branch that does not run is not discovered either; baton does not guess which " +
		"branch runs. A `*.test.md` that shows no sign of XMD (plain prose) is not read as a workflow, and " +
		"not reported: baton cannot tell it from another tool's test fixture.\n\n" +
		"**The engine** fails the run: `xmd test` reports `tests failed: no tests were discovered` and exits 1.",
	Follows: []string{
		"executable.md packages/testing/src/use-testing.ts useTesting (no tests were discovered)",
		"executable.md packages/testing/src/components.ts installTestingComponents (a <Testing> boundary discovered no tests)",
	},
}

// checkTests reports a test document, and every <Testing> region, in
// which nothing can discover a test: no <Test>, and no invocation of a
// repository component whose body may hold one.
func (k *checker) checkTests() {
	testing := false
	for _, t := range k.c.Tags {
		if t.Name == "Testing" && t.Closed && k.resOf(t).Kind == ResolveRegistered {
			testing = true
			break
		}
	}
	// What `xmd test` runs: a *.test.md it finds in a folder. The test
	// mode a configuration names says how a document's components resolve
	// (a component of a test resolves as the test does), not that the
	// document is a test; the run and workflow modes say it is not.
	doc := IsTestDocument(k.r.docPath) && k.r.mode != ModeRun && k.r.mode != ModeWorkflow
	if !testing && !doc {
		return
	}
	// seen marks every tag above one that may discover a test; each tag
	// is marked once, so the walk is linear however deep the nesting.
	seen := make([]bool, len(k.c.Tags))
	any := false
	for _, t := range k.c.Tags {
		if !k.mayDiscoverTest(t) {
			continue
		}
		any = true
		for p := t.Parent; p != nil && !seen[p.Index]; p = p.Parent {
			seen[p.Index] = true
		}
	}
	if doc && !any {
		end := len(k.c.Text)
		for i := 0; i < len(k.c.Text); i++ {
			if k.c.Text[i] == '\n' {
				end = i
				break
			}
		}
		if end > 0 && k.c.Text[end-1] == '\r' {
			end--
		}
		k.report(RuleNoTests, markdown.Span{Start: 0, End: end}, "no <Test> in this test document: `xmd test` runs it and fails it (\"no tests were discovered\"); add a <Test name=\"…\"> around what it checks, or rename the document so it does not end in .test.md")
	}
	for _, t := range k.c.Tags {
		if t.Name == "Testing" && t.Closed && !seen[t.Index] && k.resOf(t).Kind == ResolveRegistered && !k.failureExpected(t) {
			k.report(RuleNoTests, t.NameSpan, ("<Testing> holds no <Test>: the run fails when it reaches this region (\"a <Testing> boundary discovered no tests\"); put the tests inside it"))
		}
	}
}

// mayDiscoverTest reports a tag whose expansion may record a test: a
// <Test>, or a component of the repository, whose body baton does not
// follow.
func (k *checker) mayDiscoverTest(t *Tag) bool {
	if !t.Closed {
		return false
	}
	switch k.resOf(t).Kind {
	case ResolveRegistered:
		return t.Name == "Test"
	case ResolveFile, ResolveBundle, ResolveUnknown, ResolveUnresolved:
		return true
	}
	return false
}
