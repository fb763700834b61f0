// Package hosttest holds what the tests of the host packages under
// agenthost/ share: a home and a project of the test's own, baton's
// hooks installed in them, files written there.
package hosttest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/transcript"
)

// Env is a project and a home in temporary folders, with an empty
// environment.
func Env(t testing.TB) hostsettings.Env {
	t.Helper()
	return hostsettings.Env{Project: t.TempDir(), Home: t.TempDir(), Getenv: func(string) string { return "" }}
}

// Install installs h's hooks with o in scope, as baton hook install does.
func Install(t testing.TB, h *hostsettings.Host, env hostsettings.Env, s hostsettings.Scope, o hostsettings.Options) {
	t.Helper()
	c, err := h.PlanInstall(env, h.File(env, s), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
}

// WriteFile writes text to path, making its folders.
func WriteFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteFiles writes files named by their path below the home ("~/…") or
// the project ("./…"), each text's PROJECT replaced by the project's
// path as a JSON string.
func WriteFiles(t testing.TB, env hostsettings.Env, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(env.Project, name[2:])
		if strings.HasPrefix(name, "~/") {
			p = filepath.Join(env.Home, name[2:])
		}
		WriteFile(t, p, strings.ReplaceAll(text, "PROJECT", hostsettings.Quote(env.Project)))
	}
}

// Extract writes the files of a txtar archive of the repository (rel, a
// path from the repository's root, e.g. transcript/testdata/sessions.txtar)
// into a folder of the test's own, and returns the folder. The tests of
// the host packages, two folders below the root, read the recorded
// payloads and session files the repository holds this way.
func Extract(t testing.TB, rel string) string {
	t.Helper()
	a := txtar.Parse(readFile(t, filepath.Join("..", "..", filepath.FromSlash(rel))))
	dir := t.TempDir()
	for _, f := range a.Files {
		WriteFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), string(f.Data))
	}
	return dir
}

// Payload is the hook input name of the archive extracted in dir, made
// to run here: its folder ("cwd", or "workspace_roots") is cwd, and
// a transcript it names by a relative path is the file of that name in
// dir.
func Payload(t testing.TB, dir, name, cwd string) []byte {
	t.Helper()
	data := readFile(t, filepath.Join(dir, name))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for k, v := range in {
		switch s, _ := v.(string); k {
		case "cwd":
			in[k] = cwd
		case "workspace_roots":
			in[k] = []string{cwd}
		case "transcript_path", "transcriptPath":
			if s != "" && !filepath.IsAbs(s) {
				in[k] = filepath.Join(dir, s)
			}
		}
	}
	out, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Session is a session file of a host that the repository holds: the
// archive, the file in it, the stops it holds and how its last message
// starts.
type Session struct {
	Archive, File string
	Stops         int
	Last          string
}

// CheckSessions reads each session as the formats registered with
// package transcript tell it: it must be told to be host's, and read as
// host's format, hold its stops and end with its last message.
func CheckSessions(t *testing.T, host string, sessions []Session) {
	for _, c := range sessions {
		t.Run(c.File, func(t *testing.T) {
			path := filepath.Join(Extract(t, c.Archive), filepath.FromSlash(c.File))
			data := readFile(t, path)
			if got := transcript.Detect(data); got != host {
				t.Errorf("told to be %q's, want %q's", got, host)
			}
			s, err := transcript.Read(path, host)
			if err != nil {
				t.Fatal(err)
			}
			if s.Host != host || len(s.Stops()) != c.Stops || !strings.HasPrefix(s.LastMessage(), c.Last) || c.Last == "" {
				t.Errorf("host %q, %d stops, last message %q; want %q, %d stops, a last message starting %q", s.Host, len(s.Stops()), s.LastMessage(), host, c.Stops, c.Last)
			}
		})
	}
}

// DecodeStrict decodes the repository's JSON file rel (from its root)
// into v, refusing any field v does not name.
func DecodeStrict(t testing.TB, rel string, v any) {
	t.Helper()
	data := readFile(t, filepath.Join("..", "..", filepath.FromSlash(rel)))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s does not have the documented shape: %v", rel, err)
	}
	if dec.More() {
		t.Fatalf("%s holds more than one JSON value", rel)
	}
}

// Hook is a hook as a hooks file holds it: its event and command line.
type Hook struct{ Event, Command string }

// DefaultHooks are the hooks baton hook install writes for h by default
// (with --lint on the stop hook): a plugin or extension of baton's runs
// the same.
func DefaultHooks(h *hostsettings.Host) []Hook {
	var hs []Hook
	for _, hk := range h.Hooks {
		hs = append(hs, Hook{hk.Event, strings.Join(append([]string{hk.Command()}, hostsettings.Options{Lint: true}.Args(hk.Stop())...), " ")})
	}
	return hs
}

// readFile reads a file of the repository, or one a test wrote, bounded
// as every read is (internal/safefile).
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := safefile.ReadFile(path, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
