package mcpserver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/baton-md/baton/internal/corpus"
	"github.com/baton-md/baton/stoppolicy"
)

// packet is one message of the agreement test, named by where it is from.
type packet struct{ name, text string }

// repoPackets are the stop messages of the repository's own tests: the
// Markdown members of the packet and stop-intent fixtures, and this
// package's packets.
func repoPackets(t *testing.T) []packet {
	t.Helper()
	ps := []packet{{"brokenPacket", brokenPacket}, {"sixPacket", sixPacket}, {"fullPacket", fullPacket}}
	for _, pattern := range []string{"../analysis/packet/testdata/*.txtar", "../analysis/stopintent/testdata/*.txtar"} {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no fixtures at %s: %v", pattern, err)
		}
		for _, f := range files {
			a, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range a.Files {
				if strings.HasSuffix(m.Name, ".md") {
					ps = append(ps, packet{filepath.Base(f) + "/" + m.Name, string(m.Data)})
				}
			}
		}
	}
	return ps
}

// corpusPackets are the Markdown documents of the shared corpus (specrew's
// Pester fixtures among them); none where it is absent, said.
func corpusPackets(t *testing.T) []packet {
	t.Helper()
	root, ok := corpus.Root()
	if !ok {
		t.Logf("the shared corpus is not beside this clone (looked for %s): its documents are not compared; CI has them", root)
		return nil
	}
	fixtures := corpus.Dir(t, "specrew/pester-fixtures")
	var ps []packet
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		ps = append(ps, packet{"corpus/" + filepath.ToSlash(rel), string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := countUnder(ps, fixtures, root); n == 0 {
		t.Fatalf("no packet of specrew's Pester fixtures (%s) was read", fixtures)
	}
	return ps
}

func countUnder(ps []packet, dir, root string) int {
	rel, _ := filepath.Rel(root, dir)
	n := 0
	for _, p := range ps {
		if strings.HasPrefix(p.name, "corpus/"+filepath.ToSlash(rel)+"/") {
			n++
		}
	}
	return n
}

// The stop hook (stoppolicy.Evaluate, with --lint) and check_stop decide
// every packet of the repository and of the shared corpus alike: the
// hook blocks exactly when check_stop says the message is not ready, and
// its reason is check_stop's todo, item for item. In a plain folder, and
// in a specrew project with a crossing pending, each message as it is and
// with the crossing's marker as its last line.
func TestHookAndCheckStopAgree(t *testing.T) {
	packets := append(repoPackets(t), corpusPackets(t)...)

	plain := t.TempDir()
	project := t.TempDir()
	write(t, filepath.Join(project, ".specrew", "start-context.json"),
		`{"schema":"v2","session_state":{"boundary_type":"feature-closeout"},"boundary_enforcement":{"enabled":true,"last_authorized_boundary":"iteration-closeout","pending_next_boundary":null,"verdict_history":[],"bypass_history":[]}}`)
	const marker = "<!-- SPECREW-VERDICT-BOUNDARY: iteration-closeout -> feature-closeout -->"
	s := newServer(t, t.TempDir())
	stateDir := t.TempDir()

	blocked, passed, pending := 0, 0, 0
	for i, p := range packets {
		if strings.TrimSpace(p.text) == "" {
			continue
		}
		for _, c := range []struct {
			where, dir, text string
		}{
			{"plain", plain, p.text},
			{"pending", project, p.text},
			{"pending+marker", project, strings.TrimRight(p.text, "\n") + "\n\n" + marker + "\n"},
		} {
			session := fmt.Sprintf("agree-%d-%s", i, c.where)
			hook := stoppolicy.Evaluate(stoppolicy.Stop{Host: "claude", SessionID: session, Cwd: c.dir, Message: c.text}, stoppolicy.Options{Lint: true, StateDir: stateDir})
			_, out, err := s.judgeStop(c.dir, StopInput{Message: c.text, Host: "claude", SessionID: session})
			if err != nil {
				t.Fatalf("%s (%s): check_stop: %v", p.name, c.where, err)
			}
			if hook.Released != "" || hook.Duplicate {
				t.Fatalf("%s (%s): the hook did not judge it: %+v", p.name, c.where, hook)
			}
			want := ""
			if len(out.Todo) > 0 {
				want = stoppolicy.ReasonPrefix + strings.Join(out.Todo, "\n- ")
			}
			if hook.Reason != want || out.Ready != (hook.Reason == "") {
				t.Errorf("%s (%s): they disagree\nthe hook: %q\ncheck_stop (ready %v): %q", p.name, c.where, hook.Reason, out.Ready, out.Todo)
			}
			switch {
			case hook.Reason == "":
				passed++
			case c.where == "pending" && strings.Contains(hook.Reason, "verdict marker"):
				pending++
				fallthrough
			default:
				blocked++
			}
		}
	}
	t.Logf("%d packets: %d stops blocked (%d for the pending crossing's marker), %d let through, by both", len(packets), blocked, pending, passed)
	if blocked == 0 || passed == 0 || pending == 0 {
		t.Errorf("the comparison exercised too little: %d blocked, %d pending, %d passed", blocked, pending, passed)
	}
}
