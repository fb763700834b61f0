package workflow_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
)

// A component file is asked its kind and size before it is read: a named
// pipe is no component (reading it would block for ever), and one larger
// than baton reads still resolves (it exists; its props are not checked),
// without being read at every analysis.
func TestComponentFilesAreStatedFirst(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	fsys := fstest.MapFS{
		"components/Pipe.md": {Mode: fs.ModeNamedPipe},
		"components/Huge.md": {Data: []byte(big)},
	}
	doc, res := analyze("w.md", "---\nprops: {}\n---\n\n<Pipe />\n<Huge a=\"1\" />\n", analysis.Env{workflow.EnvFS: fsys, workflow.EnvPath: "w.md"})
	var got []string
	for _, f := range res.Findings {
		if f.Rule == workflow.RuleUnresolvedComponent.ID {
			got = append(got, doc.String(f.Span))
		}
	}
	if len(got) != 1 || got[0] != "Pipe" {
		t.Errorf("unresolved = %q, want only Pipe (a named pipe is no component; Huge exists)", got)
	}
}
