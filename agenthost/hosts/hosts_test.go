package hosts_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// Every host listed is complete: a stop adapter that reads an input and
// writes a reply, settings with its stop and prompt hooks, a transcript
// format baton reads, and its row in docs/hosts.md. A host that lacks one
// of them fails here, not in a user's session.
func TestEveryHostIsComplete(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "hosts.md"))
	if err != nil {
		t.Fatal(err)
	}
	postures := []hostsettings.Posture{hostsettings.Hard, hostsettings.Corrective, hostsettings.Preventive, hostsettings.Cooperative}
	seen := map[string]bool{}
	for _, h := range hosts.All {
		t.Run(h.ID, func(t *testing.T) {
			if h.ID == "" || h.Name == "" || seen[h.ID] {
				t.Fatalf("host %q (%q): want a unique ID and a name", h.ID, h.Name)
			}
			seen[h.ID] = true
			if !slices.Contains(postures, h.Posture) {
				t.Errorf("posture %q is none of %v", h.Posture, postures)
			}
			if hosts.Lookup(h.ID) != h {
				t.Errorf("Lookup(%q) is not the host", h.ID)
			}

			// The stop adapter.
			a := h.Stop
			if a.Parse == nil || a.Block == nil || a.MessageField == "" || a.TranscriptField == "" {
				t.Fatalf("incomplete stop adapter: parse %t, block %t, fields %q %q", a.Parse != nil, a.Block != nil, a.MessageField, a.TranscriptField)
			}
			if _, err := a.Parse([]byte(`{}`)); err != nil {
				t.Errorf("parse {}: %v", err)
			}
			if _, err := a.Parse([]byte(`not json`)); err == nil || !strings.Contains(err.Error(), "the hook input is not JSON") {
				t.Errorf("parse of no JSON: %v, want the input's error", err)
			}
			reply, err := json.Marshal(a.Block("the reason"))
			if err != nil || !strings.Contains(string(reply), `"the reason"`) {
				t.Errorf("block reply %s (%v) does not carry the reason", reply, err)
			}
			for _, r := range []any{a.Pass, a.PromptPass} {
				if s, ok := r.(string); r != nil && (!ok || !json.Valid([]byte(s))) {
					t.Errorf("reply %v is not a JSON text", r)
				}
			}

			// Its settings: hook install writes its stop hook and its
			// prompt hook, the commands baton hook runs.
			s := h.Settings
			if s == nil {
				t.Fatal("no settings for hook install")
			}
			if s.Name != h.ID || s.Posture != h.Posture || s.Title == "" || s.Why == "" {
				t.Errorf("settings %q %q posture %q, want the host's ID %q and posture %q, a title and why", s.Name, s.Title, s.Posture, h.ID, h.Posture)
			}
			var subs []string
			for _, hk := range s.Hooks {
				subs = append(subs, hk.Sub)
				if hk.Entry == nil || len(hk.Entry("baton hook "+hk.Sub)) == 0 {
					t.Errorf("hook %s writes no entry", hk.Sub)
				}
			}
			if s.ProjectFile == nil || s.UserFile == nil || s.ProjectDir == nil || s.UserDir == nil || len(s.CmdKeys) == 0 {
				t.Errorf("settings lack their files, folders or command keys")
			}
			for _, want := range []string{h.ID + "-stop", h.ID + "-prompt"} {
				if !slices.Contains(subs, want) {
					t.Errorf("settings install %v, not %s", subs, want)
				}
			}
			if h.MCP != nil && (h.MCP.Name != h.ID || h.MCP.Title == "" || h.MCP.ProjectFile == nil || h.MCP.UserFile == nil) {
				t.Errorf("MCP settings %q %q, want the host's ID %q and a title", h.MCP.Name, h.MCP.Title, h.ID)
			}

			// Its transcripts.
			f := h.Transcript
			if f.Host != h.ID || !slices.Contains(transcript.Hosts(), f.Host) {
				t.Fatalf("transcript format %q is not the host's, or none of %v", f.Host, transcript.Hosts())
			}
			if f.Claims == nil && f.ClaimsFile == nil {
				t.Errorf("transcript format %q says nothing of how Detect tells its files", f.Host)
			}
			empty := filepath.Join(t.TempDir(), "session")
			if err := os.WriteFile(empty, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := transcript.Read(empty, f.Host); err != nil {
				t.Errorf("no reader for transcript format %q: %v", f.Host, err)
			}

			// Its help: the events its hooks run on, and the help of each
			// of its hooks (a tool hook's only where it has one).
			if h.StopEvent == "" || h.PromptEvent == "" {
				t.Errorf("no events named for its hooks: %q, %q", h.StopEvent, h.PromptEvent)
			}
			helps := []*agenthost.HookHelp{h.StopHelp, h.PromptHelp}
			if h.ToolHook {
				helps = append(helps, h.ToolHelp)
			} else if h.ToolHelp != nil {
				t.Errorf("help for a tool hook it does not have")
			}
			for _, hh := range helps {
				if hh == nil || hh.Summary == "" || hh.Text == "" || hh.Reads == "" || hh.Writes == "" {
					t.Errorf("its hooks' help is missing or incomplete: %+v", hh)
				}
			}

			// Its docs: the row of docs/hosts.md's table, claiming no more
			// than the adapter's posture, and its section.
			row := fmt.Sprintf("| %s | `baton hook %s-stop` | %s |", h.Name, h.ID, h.Posture)
			if !strings.Contains(string(doc), row) {
				t.Errorf("docs/hosts.md has no row starting %q", row)
			}
			if !strings.Contains(string(doc), "\n## "+s.Title) {
				t.Errorf("docs/hosts.md has no section for %s (## %s)", h.Name, s.Title)
			}
		})
	}
}

// transcript reads no format that no listed host writes.
func TestNoTranscriptFormatOutsideTheList(t *testing.T) {
	for _, f := range transcript.Hosts() {
		if !slices.Contains(hosts.Transcripts(), f) {
			t.Errorf("transcript.Hosts has %q, which no listed host reads", f)
		}
	}
}

// Each host's settings folders are managed: what hook install writes there
// is never material work at a stop. specrew's own are too.
func TestHostFoldersAreManaged(t *testing.T) {
	for _, h := range hosts.All {
		for _, p := range []string{h.Help.ProjectFolder, h.Help.UserFolder} {
			p = strings.TrimPrefix(p, "~/") + "settings.json"
			if !stoppolicy.IsManaged(p) {
				t.Errorf("%s: %s counts as material work", h.ID, p)
			}
		}
	}
	for p, want := range map[string]bool{".specrew/state.json": true, ".gitignore": true, "src/.codex/x": false, "README.md": false, ".codexx/a": false} {
		if got := stoppolicy.IsManaged(p); got != want {
			t.Errorf("IsManaged(%q) = %v, want %v", p, got, want)
		}
	}
}

// A host is one package: outside agenthost/<host>, no non-test Go file of
// the project names it in more than four files (the list here, and the
// few places an upstream's own text names its folder). A host whose ID is
// an ordinary word (cursor) is named by its title, its folder, its hooks'
// names or its ID quoted, not by the word in prose.
func TestHostNamedInFewPlaces(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hosts.All {
		pat := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(h.ID))
		if strings.EqualFold(h.ID, h.Settings.Title) {
			q := regexp.QuoteMeta(h.ID)
			pat = regexp.MustCompile(regexp.QuoteMeta(h.Settings.Title) + `\b|[."]` + q + `\b|\b` + q + `-`)
		}
		own := filepath.Join(root, "agenthost", h.ID) + string(filepath.Separator)
		var naming []string
		for _, f := range files {
			if strings.HasPrefix(f, own) {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if pat.Match(b) {
				rel, _ := filepath.Rel(root, f)
				naming = append(naming, filepath.ToSlash(rel))
			}
		}
		if len(naming) > 4 {
			t.Errorf("%s is named in %d non-test files outside agenthost/%s: %v", h.ID, len(naming), h.ID, naming)
		}
	}
}

// The help's joined phrases hold every host's own: names, the environment
// each host's files are found by, and a phrase only where a host has one.
func TestHelpPhrases(t *testing.T) {
	names, env := hosts.Names(), hosts.Env()
	for _, h := range hosts.All {
		if !strings.Contains(names, h.Settings.Title) {
			t.Errorf("Names() = %q, without %s", names, h.Settings.Title)
		}
		for _, e := range append([]string{h.Help.HomeEnv}, h.Help.Env...) {
			if e != "" && strings.Count(env, e+", ") != 1 {
				t.Errorf("Env() = %q: %s not there once", env, e)
			}
		}
	}
	if got := hosts.Phrases(func(h agenthost.HostHelp) string { return h.Installed }); strings.Count(got, " and ") > 1 || got == "" {
		t.Errorf("Phrases(Installed) = %q", got)
	}
}
