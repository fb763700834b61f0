package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/engine/enginetest"
	"github.com/rogpeppe/go-internal/txtar"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The editor's "Fix all" and `baton check --fix` give the same document,
// byte for byte, on every rule fixture whose fixes change it: both apply
// analysis.FixAll. Each fixture is laid out twice, the CLI fixes one copy
// in place and the server's source.fixAll.baton edit is applied to the
// other.
func TestFixAllEqualsCheckFix(t *testing.T) {
	fixtures := enginetest.RuleFixtures(t)
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	fixed := 0
	for _, name := range fixtures {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var input string
		for _, f := range ar.Files {
			if f.Name == "input.md" {
				input = string(f.Data)
			}
		}
		if input == "" {
			continue
		}
		cli, ed := t.TempDir(), t.TempDir()
		for _, dir := range []string{cli, ed} {
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".md") || strings.HasSuffix(f.Name, ".ts") || strings.HasSuffix(f.Name, ".yaml") {
					p := filepath.Join(dir, filepath.FromSlash(f.Name))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		cmd := exec.Command(batonBin, "check", "--fix", "input.md")
		cmd.Dir = cli
		_ = cmd.Run() // exit 1 with findings left is fine
		want, err := os.ReadFile(filepath.Join(cli, "input.md"))
		if err != nil {
			t.Fatal(err)
		}
		if string(want) == input {
			continue // nothing to fix
		}
		fixed++
		u := uri.File(filepath.Join(ed, "input.md"))
		c.open(u, input)
		c.waitPush(u, version(1))
		var got string
		actions := c.codeActions(u, protocol.Range{}, nil, "source.fixAll.baton")
		switch len(actions) {
		case 0:
			got = input
		case 1:
			got = applyTextEdits(t, input, actions[0].Edit.Changes[u], markdown.UTF16)
		default:
			t.Fatalf("%s: %d fix-all actions", name, len(actions))
		}
		if got != string(want) {
			t.Errorf("%s: the editor's fix-all differs from baton check --fix\neditor:\n%s\ncheck --fix:\n%s", name, got, want)
		}
	}
	if fixed < 20 {
		t.Fatalf("only %d fixtures have fixes; the globs are stale", fixed)
	}
	t.Logf("%d fixtures with fixes: fix-all equals --fix on each", fixed)
}

// One engine: the server reports, for a document in a workspace with a
// .baton.yaml and a specrew state, the findings baton check reports.
func TestServerEqualsCheck(t *testing.T) {
	dir, stopText := enginetest.Workspace(t)
	cmd := exec.Command(batonBin, "check", "--format", "json", "stop.md")
	cmd.Dir = dir
	out, _ := cmd.Output()
	var rep struct {
		Files []struct {
			Findings []struct {
				Rule, Severity string
				Start          struct{ Line int }
			}
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil || len(rep.Files) != 1 {
		t.Fatalf("check --format json: %v\n%s", err, out)
	}
	var want []string
	for _, f := range rep.Files[0].Findings {
		want = append(want, fmt.Sprintf("%s@%d", f.Rule, f.Start.Line))
	}
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	u := uri.File(filepath.Join(dir, "stop.md"))
	c.open(u, stopText)
	var got []string
	for _, d := range c.waitPush(u, version(1)).Diagnostics {
		code, _ := d.Code.(protocol.String)
		got = append(got, fmt.Sprintf("%s@%d", string(code), d.Range.Start.Line+1))
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("the server and baton check differ:\nserver: %q\ncheck:  %q", got, want)
	}
}
