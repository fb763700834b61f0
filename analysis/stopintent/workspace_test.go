package stopintent_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-md/baton/analysis/stopintent"
)

const (
	pendingRel = ".specrew/runtime/pending-verdict-stop.md"
	contextRel = ".specrew/start-context.json"
	sessions   = ".specrew/runtime/conformance-sessions/"
)

func guardRel(session string) string { return sessions + session + "/continue-guard.json" }

const (
	authorizedJSON   = `{"session_state":{"boundary_type":"implement"},"boundary_enforcement":{"last_authorized_boundary":"plan"}}`
	unauthorizedJSON = `{"session_state":{"boundary_type":"implement"},"boundary_enforcement":{"last_authorized_boundary":""}}`
	// Working plan ahead of the authorized clarify, enforcement on: the
	// clarify -> plan verdict is due (specrew's legacy, unscoped reading).
	pendingJSON = `{"schema":"v2","session_state":{"boundary_type":"plan"},"boundary_enforcement":{"enabled":true,"last_authorized_boundary":"clarify","pending_next_boundary":null,"verdict_history":[],"bypass_history":[]}}`
)

// writeTree writes files (slash paths relative to root) and sets the
// modification times given.
func writeTree(t *testing.T, root string, files map[string]string, mtimes map[string]time.Time) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") { // just the directory
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, m := range mtimes {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), m, m); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot records every path under root with its size and modification
// time, to show that State writes nothing.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		out[p] = fmt.Sprint(fi.Mode(), fi.ModTime(), fi.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wsCase is a workspace, a session id, and what State should make of them.
type wsCase struct {
	name     string
	files    map[string]string    // slash paths relative to the root; a path ending in "/" is a directory
	mtimes   map[string]time.Time // modification times to set
	session  string
	specrew  bool
	pending  stopintent.Tri
	auth     stopintent.Tri
	guard    stopintent.Tri
	paths    [3]string // root-relative paths of the three Sources, "" for none
	problems []string  // substrings, one per expected problem, in order
}

func TestWorkspaceState(t *testing.T) {
	var (
		U = stopintent.Unknown
		F = stopintent.False
		T = stopintent.True
	)
	base := time.Date(2026, 7, 13, 12, 0, 0, 0, time.UTC)
	tests := []wsCase{
		{
			name:    "not a specrew project",
			files:   map[string]string{"README.md": "# hi", "runtime/pending-verdict-stop.md": "x"},
			specrew: false, pending: U, auth: U, guard: U,
		},
		{
			name:    ".specrew is a file, not a project",
			files:   map[string]string{".specrew": "not a dir"},
			specrew: false, pending: U, auth: U, guard: U,
		},
		{
			name:    "empty .specrew: nothing pending, no guard, authorization unknown",
			files:   map[string]string{".specrew/": ""},
			specrew: true, pending: F, auth: U, guard: F,
			problems: []string{"missing .specrew/start-context.json"},
		},
		{
			name:    "authorized by the last authorized boundary",
			files:   map[string]string{contextRel: authorizedJSON},
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			// specrew's stop provider reads boundary_enforcement.verdict_history only.
			name:    "a top-level verdict history does not authorize",
			files:   map[string]string{contextRel: `{"session_state":{"boundary_type":"plan"},"verdict_history":[{"verdict":"approved"}]}`},
			specrew: true, pending: F, auth: F, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "authorized by a verdict history under boundary_enforcement",
			files:   map[string]string{contextRel: `{"session_state":{"boundary_type":"plan"},"boundary_enforcement":{"verdict_history":["approved"]}}`},
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "authorized, with a UTF-8 byte order mark",
			files:   map[string]string{contextRel: "\uFEFF" + authorizedJSON},
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "pending overrides authorization",
			files:   map[string]string{contextRel: pendingJSON},
			specrew: true, pending: T, auth: F, guard: F,
			paths: [3]string{contextRel, contextRel, ""},
		},
		{
			// The rendered file is a signal; start-context.json is the authority
			// (here: enforcement not enabled, so nothing is pending).
			name:    "the pending-verdict file does not outweigh the start context",
			files:   map[string]string{contextRel: authorizedJSON, pendingRel: "# verdict due"},
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{contextRel, contextRel, ""},
		},
		{
			// specrew deletes the rendered file while a crossing is still pending
			// when stage evidence is missing: the start context still says pending.
			name:    "pending without the pending-verdict file",
			files:   map[string]string{contextRel: pendingJSON, ".specrew/runtime/": ""},
			specrew: true, pending: T, auth: F, guard: F,
			paths: [3]string{contextRel, contextRel, ""},
		},
		{
			name:    "pending with no start context: not authorized, and the missing file is a problem",
			files:   map[string]string{pendingRel: ""},
			specrew: true, pending: T, auth: F, guard: F,
			paths:    [3]string{pendingRel, pendingRel, ""},
			problems: []string{"missing .specrew/start-context.json"},
		},
		{
			name:    "empty boundary type",
			files:   map[string]string{contextRel: `{"session_state":{"boundary_type":""},"boundary_enforcement":{"last_authorized_boundary":"plan"}}`},
			specrew: true, pending: F, auth: F, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "missing boundary type",
			files:   map[string]string{contextRel: `{"session_state":{},"boundary_enforcement":{"last_authorized_boundary":"plan"}}`},
			specrew: true, pending: F, auth: F, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "boundary type of the wrong type",
			files:   map[string]string{contextRel: `{"session_state":{"boundary_type":7},"boundary_enforcement":{"last_authorized_boundary":"plan"}}`},
			specrew: true, pending: F, auth: F, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "empty last authorized boundary and no history",
			files:   map[string]string{contextRel: unauthorizedJSON},
			specrew: true, pending: F, auth: F, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "empty verdict histories",
			files:   map[string]string{contextRel: `{"session_state":{"boundary_type":"plan"},"verdict_history":[],"boundary_enforcement":{"verdict_history":[]}}`},
			specrew: true, pending: F, auth: F, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "malformed start context",
			files:   map[string]string{contextRel: `{"session_state":`},
			specrew: true, pending: F, auth: U, guard: F,
			paths:    [3]string{"", contextRel, ""},
			problems: []string{"malformed JSON in .specrew/start-context.json: "},
		},
		{
			name:    "start context that is not an object",
			files:   map[string]string{contextRel: `["implement"]`},
			specrew: true, pending: F, auth: U, guard: F,
			paths:    [3]string{"", contextRel, ""},
			problems: []string{"malformed JSON in .specrew/start-context.json: not a JSON object"},
		},
		{
			name:    "loop guard count 2",
			files:   map[string]string{contextRel: authorizedJSON, guardRel("s1"): `{"key":"k","count":2,"epoch":1}`},
			session: "s1",
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, guardRel("s1")},
		},
		{
			name:    "loop guard count 3",
			files:   map[string]string{contextRel: authorizedJSON, guardRel("s1"): `{"key":"k","count":3,"epoch":1}`},
			session: "s1",
			specrew: true, pending: F, auth: T, guard: T,
			paths: [3]string{"", contextRel, guardRel("s1")},
		},
		{
			name:    "loop guard count 3 without a session id",
			files:   map[string]string{contextRel: authorizedJSON, guardRel("s1"): `{"key":"k","count":3,"epoch":1}`},
			specrew: true, pending: F, auth: T, guard: T,
			paths: [3]string{"", contextRel, guardRel("s1")},
		},
		{
			name:    "malformed loop guard",
			files:   map[string]string{contextRel: authorizedJSON, guardRel("s1"): `{"count":`},
			session: "s1",
			specrew: true, pending: F, auth: T, guard: U,
			paths:    [3]string{"", contextRel, guardRel("s1")},
			problems: []string{"malformed JSON in .specrew/runtime/conformance-sessions/s1/continue-guard.json: "},
		},
		{
			name:    "loop guard count that is not a number",
			files:   map[string]string{contextRel: authorizedJSON, guardRel("s1"): `{"key":"k","count":"3"}`},
			session: "s1",
			specrew: true, pending: F, auth: T, guard: U,
			paths:    [3]string{"", contextRel, guardRel("s1")},
			problems: []string{`"count" is missing or not a number`},
		},
		{
			name: "session id selects its own guard (tripped)",
			files: map[string]string{contextRel: authorizedJSON,
				guardRel("a"): `{"key":"k","count":3,"epoch":1}`, guardRel("b"): `{"key":"k","count":0,"epoch":1}`},
			mtimes:  map[string]time.Time{guardRel("a"): base, guardRel("b"): base.Add(time.Hour)},
			session: "a",
			specrew: true, pending: F, auth: T, guard: T,
			paths: [3]string{"", contextRel, guardRel("a")},
		},
		{
			name: "session id selects its own guard (not tripped)",
			files: map[string]string{contextRel: authorizedJSON,
				guardRel("a"): `{"key":"k","count":3,"epoch":1}`, guardRel("b"): `{"key":"k","count":0,"epoch":1}`},
			mtimes:  map[string]time.Time{guardRel("a"): base.Add(time.Hour), guardRel("b"): base},
			session: "b",
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, guardRel("b")},
		},
		{
			name:    "session with no guard file, though another session tripped",
			files:   map[string]string{contextRel: authorizedJSON, guardRel("a"): `{"key":"k","count":9,"epoch":1}`},
			session: "c",
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name: "no session id: the newest guard (not tripped) wins",
			files: map[string]string{contextRel: authorizedJSON,
				guardRel("a"): `{"key":"k","count":3,"epoch":1}`, guardRel("b"): `{"key":"k","count":1,"epoch":1}`},
			mtimes:  map[string]time.Time{guardRel("a"): base, guardRel("b"): base.Add(time.Minute)},
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, guardRel("b")},
		},
		{
			name: "no session id: the newest guard (tripped) wins",
			files: map[string]string{contextRel: authorizedJSON,
				guardRel("a"): `{"key":"k","count":3,"epoch":1}`, guardRel("b"): `{"key":"k","count":1,"epoch":1}`},
			mtimes:  map[string]time.Time{guardRel("a"): base.Add(time.Minute), guardRel("b"): base},
			specrew: true, pending: F, auth: T, guard: T,
			paths: [3]string{"", contextRel, guardRel("a")},
		},
		{
			name:    "no session id: a session directory without a guard is skipped",
			files:   map[string]string{contextRel: authorizedJSON, sessions + "empty/": "", sessions + "stray.json": "{}"},
			specrew: true, pending: F, auth: T, guard: F,
			paths: [3]string{"", contextRel, ""},
		},
		{
			name:    "runtime is a file: the guard cannot be checked; the start context decides the rest",
			files:   map[string]string{contextRel: authorizedJSON, ".specrew/runtime": "not a directory"},
			specrew: true, pending: F, auth: T, guard: U,
			paths:    [3]string{contextRel, contextRel, ""},
			problems: []string{"cannot check .specrew/runtime/conformance-continue-guard.json", "cannot list .specrew/runtime/conformance-sessions"},
		},
		{
			name:    "runtime is a file and the start context has no boundary enforcement: pending cannot be checked",
			files:   map[string]string{contextRel: `{"session_state":{"boundary_type":"plan"}}`, ".specrew/runtime": "not a directory"},
			session: "s1",
			specrew: true, pending: U, auth: F, guard: U,
			paths:    [3]string{"", contextRel, ""},
			problems: []string{"cannot check .specrew/runtime/pending-verdict-stop.md", "cannot read .specrew/runtime/conformance-sessions/s1/continue-guard.json"},
		},
		{
			name:    "runtime is a file, but the start context says no anyway",
			files:   map[string]string{contextRel: unauthorizedJSON, ".specrew/runtime": "not a directory"},
			session: "s1",
			specrew: true, pending: F, auth: F, guard: U,
			paths:    [3]string{contextRel, contextRel, ""},
			problems: []string{"cannot read .specrew/runtime/conformance-sessions/s1/continue-guard.json"},
		},
		{
			name:    "start context is a directory",
			files:   map[string]string{contextRel + "/": ""},
			specrew: true, pending: F, auth: U, guard: F,
			problems: []string{"cannot read .specrew/start-context.json: not a regular file"},
		},
	}
	for _, bad := range []string{"../x", "a/b", "..", ".", `a\b`, "../../etc", "/abs"} {
		tests = append(tests, wsCase{
			name:    "invalid session id " + bad,
			files:   map[string]string{contextRel: authorizedJSON, guardRel("x"): `{"key":"k","count":3,"epoch":1}`, ".specrew/runtime/x/continue-guard.json": `{"count":3}`},
			session: bad,
			specrew: true, pending: F, auth: T, guard: U,
			paths:    [3]string{"", contextRel, ""},
			problems: []string{"invalid session id"},
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.files, tt.mtimes)
			before := snapshot(t, root)
			st := stopintent.NewWorkspace(root).State(tt.session)
			if st.Specrew != tt.specrew {
				t.Errorf("Specrew = %t, want %t", st.Specrew, tt.specrew)
			}
			for i, c := range []struct {
				name string
				got  stopintent.Source
				want stopintent.Tri
			}{{"BoundaryPending", st.BoundaryPending, tt.pending}, {"Authorized", st.Authorized, tt.auth}, {"LoopGuardTripped", st.LoopGuardTripped, tt.guard}} {
				if c.got.Value != c.want {
					t.Errorf("%s = %v (%s), want %v", c.name, c.got.Value, c.got.Note, c.want)
				}
				wantPath := ""
				if tt.paths[i] != "" {
					wantPath = filepath.Join(root, filepath.FromSlash(tt.paths[i]))
				}
				switch {
				case tt.paths[i] == "" && c.got.Value != stopintent.Unknown:
					// Decided by a file's absence: the path it looked for.
					if !strings.HasPrefix(c.got.Path, filepath.Join(root, ".specrew")+string(filepath.Separator)) {
						t.Errorf("%s.Path = %q, want the .specrew file whose absence decided it", c.name, c.got.Path)
					}
				case c.got.Path != wantPath:
					t.Errorf("%s.Path = %q, want %q", c.name, c.got.Path, wantPath)
				}
				if c.got.Note == "" {
					t.Errorf("%s has no note", c.name)
				}
			}
			if len(st.Problems) != len(tt.problems) {
				t.Fatalf("Problems = %q, want %d matching %q", st.Problems, len(tt.problems), tt.problems)
			}
			for i, p := range tt.problems {
				if !strings.Contains(st.Problems[i], p) {
					t.Errorf("Problems[%d] = %q, want it to contain %q", i, st.Problems[i], p)
				}
			}
			after := snapshot(t, root)
			if len(before) != len(after) {
				t.Errorf("State changed the tree: %d paths before, %d after", len(before), len(after))
			}
			for p, s := range before {
				if after[p] != s {
					t.Errorf("State changed %s", p)
				}
			}
		})
	}
}

// TestWorkspaceSymlinksNotFollowedOutside checks that nothing outside
// root/.specrew is read, whatever the links say.
func TestWorkspaceSymlinksNotFollowedOutside(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"ctx.json": authorizedJSON, "guard.json": `{"count":3}`, "sp/start-context.json": authorizedJSON}, nil)

	t.Run("linked files", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{sessions + "s/": ""}, nil)
		if err := os.Symlink(filepath.Join(outside, "ctx.json"), filepath.Join(root, filepath.FromSlash(contextRel))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		if err := os.Symlink(filepath.Join(outside, "guard.json"), filepath.Join(root, filepath.FromSlash(guardRel("s")))); err != nil {
			t.Fatal(err)
		}
		for _, session := range []string{"s", ""} {
			st := stopintent.NewWorkspace(root).State(session)
			if st.Authorized.Value != stopintent.Unknown || st.LoopGuardTripped.Value != stopintent.Unknown {
				t.Errorf("session %q: Authorized = %v, LoopGuardTripped = %v, want both unknown", session, st.Authorized.Value, st.LoopGuardTripped.Value)
			}
			if len(st.Problems) != 2 {
				t.Errorf("session %q: Problems = %q, want two", session, st.Problems)
			}
		}
	})
	t.Run("linked .specrew", func(t *testing.T) {
		root := t.TempDir()
		if err := os.Symlink(filepath.Join(outside, "sp"), filepath.Join(root, ".specrew")); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		st := stopintent.NewWorkspace(root).State("")
		if st.Authorized.Value != stopintent.Unknown || len(st.Problems) != 1 {
			t.Errorf("Authorized = %v, Problems = %q; want unknown and one problem", st.Authorized.Value, st.Problems)
		}
	})
	t.Run("link inside .specrew is fine", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{".specrew/real-context.json": authorizedJSON}, nil)
		if err := os.Symlink("real-context.json", filepath.Join(root, filepath.FromSlash(contextRel))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		st := stopintent.NewWorkspace(root).State("")
		if st.Authorized.Value != stopintent.True || len(st.Problems) != 0 {
			t.Errorf("Authorized = %v, Problems = %q; want true and none", st.Authorized.Value, st.Problems)
		}
	})
}

// TestWorkspaceCache checks that a file is read again only when its size or
// modification time changes.
func TestWorkspaceCache(t *testing.T) {
	if len(authorizedJSON) != len(unauthorizedJSON)+4 {
		t.Fatal("test setup: the two documents must differ by 4 bytes")
	}
	sameSize := strings.Replace(unauthorizedJSON, `{"session_state"`, `{    "session_state"`, 1) // unauthorized, padded with spaces
	if len(sameSize) != len(authorizedJSON) {
		t.Fatalf("test setup: %d != %d bytes", len(sameSize), len(authorizedJSON))
	}
	root := t.TempDir()
	old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	writeTree(t, root, map[string]string{contextRel: authorizedJSON}, map[string]time.Time{contextRel: old})
	path := filepath.Join(root, filepath.FromSlash(contextRel))
	w := stopintent.NewWorkspace(root)

	auth := func() stopintent.Tri { t.Helper(); return w.State("").Authorized.Value }
	if got := auth(); got != stopintent.True {
		t.Fatalf("first read: Authorized = %v, want true", got)
	}
	if got := auth(); got != stopintent.True {
		t.Fatalf("second read: Authorized = %v, want true", got)
	}

	// Same size, same modification time: the cached contents stand.
	if err := os.WriteFile(path, []byte(sameSize), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if got := auth(); got != stopintent.True {
		t.Errorf("after a rewrite with the same size and mtime: Authorized = %v, want true (cached)", got)
	}

	// A new modification time: read again.
	if err := os.Chtimes(path, old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := auth(); got != stopintent.False {
		t.Errorf("after changing the mtime: Authorized = %v, want false (read again)", got)
	}

	// A new size with the old modification time: read again.
	if err := os.WriteFile(path, []byte(authorizedJSON+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := auth(); got != stopintent.True {
		t.Errorf("after changing the size: Authorized = %v, want true (read again)", got)
	}

	// Removed, then put back with the very size and mtime it had: the
	// cache must not outlive the file.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := auth(); got != stopintent.Unknown {
		t.Errorf("after removing the file: Authorized = %v, want unknown", got)
	}
	if err := os.WriteFile(path, []byte(sameSize+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := auth(); got != stopintent.False {
		t.Errorf("after putting back different contents: Authorized = %v, want false", got)
	}
}

// TestWorkspaceConcurrent runs State from many goroutines while the files
// change, for the race detector.
func TestWorkspaceConcurrent(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{contextRel: authorizedJSON, guardRel("s"): `{"count":1}`}, nil)
	w := stopintent.NewWorkspace(root)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				session := ""
				if (i+j)%2 == 0 {
					session = "s"
				}
				st := w.State(session)
				if !st.Specrew {
					t.Error("not a specrew project")
					return
				}
			}
		}()
	}
	for j := range 20 {
		doc := authorizedJSON
		if j%2 == 1 {
			doc = unauthorizedJSON
		}
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(contextRel)), []byte(doc), 0o644); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
}
