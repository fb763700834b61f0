package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"0a1b2c3d4e5f", true},
		{"session-a", true},
		{"Session_A.v2", true},
		{"a", true},
		{"...", true},
		{".hidden", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{".", false},
		{"..", false},
		{"../x", false},
		{"a/b", false},
		{`a\b`, false},
		{"/abs", false},
		{"a b", false},
		{"a\x00b", false},
		{"sessión", false},
		{"a:b", false},
		{"*", false},
	}
	for _, tc := range tests {
		if got := ValidID(tc.id); got != tc.want {
			t.Errorf("ValidID(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestDefaultStateDirs(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name   string
		getenv func(string) string
		goos   string
		home   string
		want   []string
	}{
		{"linux default", env(), "linux", "/home/u", []string{"/home/u/.local/state/clio-coder"}},
		{"linux XDG", env("XDG_STATE_HOME", "/xdg/state"), "linux", "/home/u", []string{"/xdg/state/clio-coder"}},
		{"linux XDG blank", env("XDG_STATE_HOME", "  "), "linux", "/home/u", []string{"/home/u/.local/state/clio-coder"}},
		{"all overrides in order", env("CLIO_CODER_STATE_DIR", "/s", "CLIO_CODER_HOME", "/h/", "XDG_STATE_HOME", "/xdg"), "linux", "/home/u",
			[]string{"/s", "/h/state", "/xdg/clio-coder"}},
		{"values trimmed", env("CLIO_CODER_STATE_DIR", " /s "), "linux", "/home/u", []string{"/s", "/home/u/.local/state/clio-coder"}},
		{"duplicates dropped", env("CLIO_CODER_STATE_DIR", "/h/state", "CLIO_CODER_HOME", "/h"), "linux", "/home/u", []string{"/h/state", "/home/u/.local/state/clio-coder"}},
		{"other unix like linux", env(), "freebsd", "/home/u", []string{"/home/u/.local/state/clio-coder"}},
		{"no home", env(), "linux", "", nil},
		{"nil getenv", nil, "linux", "/home/u", []string{"/home/u/.local/state/clio-coder"}},
		{"darwin", env("XDG_STATE_HOME", "/ignored"), "darwin", "/Users/u", []string{"/Users/u/Library/Application Support/clio-coder/state"}},
		{"darwin home", env("CLIO_CODER_HOME", "/c"), "darwin", "/Users/u", []string{"/c/state", "/Users/u/Library/Application Support/clio-coder/state"}},
		{"windows", env("LOCALAPPDATA", `C:\Users\u\AppData\Local`), "windows", `C:\Users\u`, []string{`C:\Users\u\AppData\Local\clio-coder\state`}},
		{"windows without LOCALAPPDATA", env(), "windows", `C:\Users\u`, []string{`C:\Users\u\AppData\Local\clio-coder\state`}},
		{"windows home", env("CLIO_CODER_HOME", `D:\clio\`), "windows", `C:\Users\u`, []string{`D:\clio\state`, `C:\Users\u\AppData\Local\clio-coder\state`}},
		{"root home", env(), "linux", "/", []string{"/.local/state/clio-coder"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := DefaultStateDirs(tc.getenv, tc.goos, tc.home)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DefaultStateDirs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCwdHash(t *testing.T) {
	sum := sha256.Sum256([]byte("/work/repo"))
	if got, want := CwdHash("/work/repo"), hex.EncodeToString(sum[:])[:16]; got != want {
		t.Errorf("CwdHash = %q, want %q", got, want)
	}
	if len(CwdHash("relative")) != 16 {
		t.Error("CwdHash of a relative cwd is not 16 hex digits")
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a") // no sessions folder at all
	b := filepath.Join(root, "b") // the id without current.jsonl, and another session
	c := filepath.Join(root, "c") // the session
	d := filepath.Join(root, "d") // the session again: c wins
	hash := CwdHash("/work/repo")
	mkdir := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mkdir(a)
	mkdir(filepath.Join(b, "sessions", hash, "s1"))
	newBuilder(t, "/work/repo").write(b, hash, "other")
	mkdir(filepath.Join(b, "sessions", "feedfacefeedface", "s1", "current.jsonl")) // a folder, not a file
	writeFile(t, filepath.Join(b, "sessions", "not-a-bucket"), "")
	wantDir := newBuilder(t, "/work/repo").write(c, hash, "s1")
	newBuilder(t, "/work/repo").write(d, CwdHash("/elsewhere"), "s1")

	pattern := func(sd, id string) string { return filepath.Join(sd, "sessions", "*", id) }

	t.Run("found in the first state folder that holds it", func(t *testing.T) {
		dir, looked, err := Find([]string{a, "", b, c, d}, "s1")
		if err != nil {
			t.Fatal(err)
		}
		if dir != wantDir {
			t.Errorf("dir = %q, want %q", dir, wantDir)
		}
		if diff := cmp.Diff([]string{pattern(a, "s1"), pattern(b, "s1"), pattern(c, "s1")}, looked); diff != "" {
			t.Errorf("looked (-want +got):\n%s", diff)
		}
	})
	t.Run("later folders", func(t *testing.T) {
		dir, _, err := Find([]string{d, c}, "s1")
		if err != nil || !strings.HasPrefix(dir, d) {
			t.Errorf("Find = %q, %v; want the session in %s", dir, err, d)
		}
	})
	t.Run("not found lists where it looked", func(t *testing.T) {
		dir, looked, err := Find([]string{a, b, c, c}, "nope")
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
		if dir != "" {
			t.Errorf("dir = %q", dir)
		}
		want := []string{pattern(a, "nope"), pattern(b, "nope"), pattern(c, "nope")}
		if diff := cmp.Diff(want, looked); diff != "" {
			t.Errorf("looked (-want +got):\n%s", diff)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say it looked in %s", err, w)
			}
		}
	})
	t.Run("two project folders of one state folder", func(t *testing.T) {
		e := filepath.Join(root, "e")
		one := newBuilder(t, "/work/repo").write(e, hash, "s1")
		two := newBuilder(t, "/work/repo").write(e, CwdHash("/moved/repo"), "s1")
		dir, _, err := Find([]string{e, c}, "s1")
		if !errors.Is(err, ErrAmbiguous) || dir != "" || !strings.Contains(err.Error(), one) || !strings.Contains(err.Error(), two) {
			t.Errorf("Find = %q, %v; want ErrAmbiguous naming %s and %s", dir, err, one, two)
		}
	})
	t.Run("no state folder", func(t *testing.T) {
		_, looked, err := Find(nil, "s1")
		if !errors.Is(err, ErrNotFound) || len(looked) != 0 {
			t.Errorf("Find(nil) = %v, %v", looked, err)
		}
	})
	for _, id := range []string{"../x", "a/b", ".", "..", "", strings.Repeat("x", 200), "../../etc"} {
		t.Run("invalid id "+id, func(t *testing.T) {
			dir, looked, err := Find([]string{a, b, c}, id)
			if !errors.Is(err, ErrInvalidID) || errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrInvalidID", err)
			}
			if dir != "" || looked != nil {
				t.Errorf("Find(%q) = %q, %q; want nothing built", id, dir, looked)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		cwd, p, want string
	}{
		// clio's contract tests
		{"/work/repo", "./src/a.ts", "src/a.ts"},
		{"/work/repo", "/work/repo/src/a.ts", "src/a.ts"},
		{"/elsewhere", "/elsewhere/x.ts", "x.ts"},
		{"/work/repo", "/elsewhere/x.ts", "/elsewhere/x.ts"},
		// trimming and trailing separators
		{"/work/repo", "  src/a.ts \n", "src/a.ts"},
		{"/work/repo", "\u00a0src/a.ts\ufeff", "src/a.ts"},
		{"/work/repo", "src/", "src"},
		{"/work/repo", `src\\`, "src"},
		{"/work/repo", "src///", "src"},
		// the root strips to "" (clio's /[\/]+$/), which names nothing
		{"/work/repo", "/", ""},
		{"/work/repo", "///", ""},
		{"/work/repo", `\`, ""},
		{"/work/repo", `/\/`, ""},
		{"/", "/", ""},
		{"/", "/.", "."},
		{"/", "/etc/hosts", "etc/hosts"},
		// the cwd itself and empty paths
		{"/work/repo", "", ""},
		{"/work/repo", "   ", ""},
		{"/work/repo", ".", "."},
		{"/work/repo", "./", "."},
		{"/work/repo", "/work/repo", "."},
		{"/work/repo", "/work/repo/", "."},
		{"/work/repo/", "src", "src"},
		// on POSIX a drive letter is a name like any other
		{"/work/repo", "./a:/0", "a:/0"},
		{"", "./a:/0", "a:/0"},
		{"/work/repo", "/work/repo/c:/x", "c:/x"},
		{"/work/repo", "c:/src/parser.py", "c:/src/parser.py"},
		{"", "c:/x", "c:/x"},
		// on Windows a relative name that looks like a drive keeps its "./"
		{`C:\work\repo`, `.\a:\0`, "./a:/0"},
		// lexical resolution
		{"/work/repo", "src/../lib/b.ts", "lib/b.ts"},
		{"/work/repo", "../repo/src/a.ts", "src/a.ts"},
		{"/work/repo", "../other/x", "/work/other/x"},
		{"/work/repo", "../../../../x", "/x"},
		{"/work/repo", "/work/repo2/x", "/work/repo2/x"},
		{"/work/repo", "/work/repo/../repo2", "/work/repo2"},
		// clio keeps a relative result starting with ".." absolute, even a
		// name such as "..foo"
		{"/work/repo", "..foo/x", "/work/repo/..foo/x"},
		{"/work/repo", "a//b/./c", "a/b/c"},
		// a session recorded on POSIX: '\' is part of a name
		{"/work/repo", `src\a.ts`, `src\a.ts`},
		{"/work/repo", `.\src\a.ts`, `.\src\a.ts`},
		{"/work/repo", `src\`, "src"},
		{"/work/repo", `/work/repo\src\a.ts`, `/work/repo\src\a.ts`},
		{"/home/dev/ws", `C:\Users\dev\ws\src\a.ts`, `C:\Users\dev\ws\src\a.ts`},
		// a session recorded on Windows: both separate, drives, case
		{`C:\work\repo`, `C:\work\repo\src\b.ts`, "src/b.ts"},
		{`C:\work\repo`, `c:\work\repo\src\b.ts`, "src/b.ts"},
		{`C:\work\repo`, `src\b.ts`, "src/b.ts"},
		{`C:\work\repo`, `D:\x\y.ts`, "D:/x/y.ts"},
		{`C:\work\repo`, `C:\`, "."}, // "C:" once stripped: cwd on drive C
		{`C:\work\repo`, `C:`, "."},
		{`C:\work\repo`, `c:src\b.ts`, "src/b.ts"},
		{`C:\work\repo`, `\other\x`, "C:/other/x"},
		{`C:\work\repo`, `C:\WORK\Repo\src\b.ts`, "src/b.ts"},
		{`C:\work\repo`, `\`, ""},
		{`C:\work\repo`, `C:\work\repo\..\..\..`, "C:/"},
		{`C:\work\repo`, `..\other`, "C:/work/other"},
		// no usable cwd: kept as given, cleaned
		{"", "./src/a.ts", "src/a.ts"},
		{"", "../x", "../x"},
		{"", "/abs/./x/", "/abs/x"},
		{"", "", ""},
		{"relative/cwd", "src/a.ts", "src/a.ts"},
		{"  /work/repo  ", "/work/repo/a", "a"},
	}
	for _, tc := range tests {
		if got := Normalize(tc.cwd, tc.p); got != tc.want {
			t.Errorf("Normalize(%q, %q) = %q, want %q", tc.cwd, tc.p, got, tc.want)
		}
	}
}

func TestLookupAndNearest(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("c1", "u1", "src/parser.ts")
	b.call("c2", "c1", "name", "edit", "args", map[string]any{"path": "/work/repo/src/lexer.ts"})
	b.read("c3", "c2", "docs/parser.ts")
	b.read("c4", "c3", "src/Parser.TS")
	b.read("c5", "c4", "test/parse.ts")
	l, err := NewStore().Ledger(b.writeTemp())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"src/parser.ts", "./src/parser.ts", "/work/repo/src/parser.ts", " src/parser.ts/ ", "src//parser.ts"} {
		ev, ok := l.Lookup(p)
		if !ok || len(ev) != 1 || ev[0].Line != 3 || ev[0].Tool != "read" || ev[0].TurnID != "c1" || ev[0].Timestamp != "ts-c1" || ev[0].Raw != "src/parser.ts" {
			t.Errorf("Lookup(%q) = %+v, %v", p, ev, ok)
		}
	}
	if ev, ok := l.Lookup("src/lexer.ts"); !ok || ev[0].Raw != "/work/repo/src/lexer.ts" {
		t.Errorf("Lookup(src/lexer.ts) = %+v, %v", ev, ok)
	}
	for _, p := range []string{"src/never-opened.ts", "/elsewhere/src/parser.ts", "../repo2/src/parser.ts", `src\parser.ts`, "/", `\`, "", "SRC/parser.ts"} {
		if _, ok := l.Lookup(p); ok {
			t.Errorf("Lookup(%q) found a path the session never touched", p)
		}
	}
	if _, ok := (*Ledger)(nil).Lookup("x"); ok {
		t.Error("nil Ledger found something")
	}

	tests := []struct {
		p    string
		n    int
		want []string
	}{
		{"lib/parser.ts", 3, []string{"src/parser.ts", "docs/parser.ts", "src/Parser.TS"}},
		{"src/lexr.ts", 2, []string{"src/lexer.ts", "src/parser.ts"}},
		{"src/parser.ts", 1, []string{"src/parser.ts"}},
		{"test/parser.ts", 10, []string{"docs/parser.ts", "src/parser.ts", "src/Parser.TS", "test/parse.ts", "src/lexer.ts"}},
		{"x", 0, nil},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, l.Nearest(tc.p, tc.n)); diff != "" {
			t.Errorf("Nearest(%q, %d) (-want +got):\n%s", tc.p, tc.n, diff)
		}
	}
	if got := (&Ledger{}).Nearest("x", 3); got != nil {
		t.Errorf("empty ledger: Nearest = %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"héllo", "hello", 1}, {"flaw", "lawn", 2},
	}
	for _, tc := range tests {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
