package workflow_test

import (
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus-golden/*.golden")

// corpusFinding is one finding on a corpus file.
type corpusFinding struct {
	file string
	rule string
	line string // "LINE:COL rule message"
}

// corpusFS reads the folder name of the third-party corpus of
// executable.md's documents (xmd in the shared corpus beside the
// repository; CI has it) into a workspace. The test is skipped where the
// corpus is absent.
func corpusFS(t testing.TB, name string) fstest.MapFS {
	t.Helper()
	return readFS(t, corpus.Dir(t, "xmd/"+name))
}

// readFS reads every file below dir, by slash path, into a workspace.
func readFS(t testing.TB, dir string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		t.Fatalf("read the corpus (%s): %v", dir, err)
	}
	if len(fsys) == 0 {
		t.Fatalf("the corpus folder %s is empty", dir)
	}
	return fsys
}

// lintCorpus analyses every Markdown file of the corpus folder name, with
// the whole folder as the workspace. kinds maps each file to its detected
// kind.
func lintCorpus(t *testing.T, name string) (findings []corpusFinding, kinds map[string]markdown.Kind) {
	t.Helper()
	fsys := corpusFS(t, name)
	kinds = map[string]markdown.Kind{}
	for _, f := range slices.Sorted(maps.Keys(fsys)) {
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		data := fsys[f].Data
		doc, res := analyze(f, string(data), analysis.Env{workflow.EnvFS: fsys, workflow.EnvPath: f})
		kinds[f] = doc.Kind
		for _, x := range res.Findings {
			checkSpan(t, f+" "+x.Rule, x.Span, len(data))
			findings = append(findings, corpusFinding{f, x.Rule, analysistest.Format(doc, x)})
		}
		if m, ok := res.Model(workflow.Analyzer).(*workflow.Model); ok {
			checkModel(t, string(data), m)
		}
	}
	return findings, kinds
}

// TestCorpusGolden pins what baton reports on each corpus folder
// (regenerate with -update; the report judges each finding).
func TestCorpusGolden(t *testing.T) {
	for _, name := range []string{"before-gating", "after-gating", "wip-tip", "main-examples"} {
		t.Run(name, func(t *testing.T) {
			fs, kinds := lintCorpus(t, name)
			var b strings.Builder
			files := make([]string, 0, len(kinds))
			for f := range kinds {
				files = append(files, f)
			}
			slices.Sort(files)
			for _, f := range files {
				fmt.Fprintf(&b, "== %s (%s)\n", f, kinds[f])
				for _, x := range fs {
					if x.file == f {
						fmt.Fprintf(&b, "%s\n", x.line)
					}
				}
			}
			golden := filepath.Join("testdata", "corpus-golden", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), b.String()); d != "" {
				t.Errorf("%s (-want +got):\n%s", golden, d)
			}
		})
	}
}

var gatingRules = []string{workflow.RuleUngatedTransition.ID, workflow.RuleCheckpointNoDecision.ID, workflow.RuleUnboundCheckpoint.ID}

func count(fs []corpusFinding, file string, rules ...string) int {
	n := 0
	for _, f := range fs {
		if f.file == file && slices.Contains(rules, f.rule) {
			n++
		}
	}
	return n
}

// TestGatingCommit is the proof the issue asks for: the workflow before
// executable.md's gating commit is flagged, the one after it is not, file by
// file.
func TestGatingCommit(t *testing.T) {
	before, _ := lintCorpus(t, "before-gating")
	after, kinds := lintCorpus(t, "after-gating")

	// start.md starts Planning and Implementation unconditionally after a
	// checkpoint, and its UserCheckpoint returns no decision.
	for _, w := range []string{
		"60:8 workflow/ungated-transition <Planning> runs after checkpoint handoffCheckpoint (line 53)",
		"73:8 workflow/ungated-transition <Implementation> runs after checkpoint handoffCheckpoint (line 53)",
		"73:8 workflow/ungated-transition <Implementation> runs after checkpoint authorization (line 66)",
		"53:8 workflow/checkpoint-without-decision <UserCheckpoint> resolves to UserCheckpoint.md, a text component",
		"66:8 workflow/checkpoint-without-decision <UserCheckpoint> resolves to UserCheckpoint.md, a text component",
		"79:8 workflow/checkpoint-without-decision <UserCheckpoint> resolves to UserCheckpoint.md, a text component",
	} {
		if !slices.ContainsFunc(before, func(f corpusFinding) bool { return f.file == "start.md" && strings.HasPrefix(f.line, w) }) {
			t.Errorf("before-gating/start.md: missing %s", w)
		}
	}
	if !slices.ContainsFunc(before, func(f corpusFinding) bool {
		return f.file == "UserCheckpoint.md" && f.rule == workflow.RuleCheckpointNoDecision.ID
	}) {
		t.Errorf("before-gating/UserCheckpoint.md: the component file itself is not flagged")
	}

	// Every file: what the gating rules report before and after.
	wantBefore := map[string]bool{"start.md": true, "Planning.md": true, "Implementation.md": true, "UserCheckpoint.md": true}
	files := make([]string, 0, len(kinds))
	for f := range kinds {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		b, a := count(before, f, gatingRules...), count(after, f, gatingRules...)
		t.Logf("%-20s gating findings: before %2d, after %d", f, b, a)
		if a != 0 {
			t.Errorf("after-gating/%s: %d gating findings, want none", f, a)
		}
		if (b > 0) != wantBefore[f] {
			t.Errorf("before-gating/%s: %d gating findings, want flagged = %v", f, b, wantBefore[f])
		}
	}
}

// TestCorpusKinds records which corpus files kind detection leaves out:
// the prose documents whose tags are all in inline code, the plain
// instruction fixtures, and main-examples' copy of
// packages/core/examples/hello-world.md, whose only sign of XMD is
// components that live in packages/core/components, which this flat copy
// lacks (in the repository it resolves them and is a workflow:
// TestExecutableMdTree). The analyzer never sees them.
func TestCorpusKinds(t *testing.T) {
	want := map[string][]string{
		"before-gating": {"primitives.md"},
		"after-gating":  {"primitives.md"},
		"wip-tip":       {"artifacts.md", "primitives.md", "tests/fixtures/AGENTS.md", "tests/fixtures/nested/AGENTS.md"},
		"main-examples": {"core-hello-world.md"},
	}
	for name, w := range want {
		_, kinds := lintCorpus(t, name)
		var got []string
		for f, k := range kinds {
			if k != markdown.KindWorkflow {
				got = append(got, f)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, w) {
			t.Errorf("%s: files not detected as workflows = %q, want %q", name, got, w)
		}
	}
}

// BenchmarkAnalyzeCorpus analyses every file of the WIP tip (23 files, the
// largest folder), resolving against the folder.
func BenchmarkAnalyzeCorpus(b *testing.B) {
	fsys := corpusFS(b, "wip-tip")
	for b.Loop() {
		for name, f := range fsys {
			analyze(name, string(f.Data), analysis.Env{workflow.EnvFS: fsys, workflow.EnvPath: name})
		}
	}
}
