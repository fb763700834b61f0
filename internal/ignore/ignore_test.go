package ignore

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cases are .gitignore texts with paths, each path marked with whether git
// ignores it ("!" ignored) and whether it is a folder (a trailing "/").
var cases = []struct {
	name, gitignore string
	paths           []string
}{
	{"name at any depth", "*.log\nbuild\n", []string{"!a.log", "!x/b.log", "!build/", "!x/build/", "!build/f.md", "keep.md", "x/logs.md"}},
	{"anchored", "/top.md\ndocs/*.md\n", []string{"!top.md", "x/top.md", "!docs/a.md", "docs/sub/a.md", "x/docs/a.md"}},
	{"folders only", "out/\n", []string{"!out/", "!out/a.md", "!x/out/", "out.md"}},
	{"negation", "*.md\n!keep.md\n", []string{"!a.md", "keep.md", "x/keep.md", "!x/a.md"}},
	{"no re-include below an ignored folder", "specs/\n!specs/keep.md\n", []string{"!specs/", "!specs/keep.md"}},
	{"re-include inside a/**", "a/**\n!a/keep.md\n", []string{"a/", "!a/b.md", "a/keep.md", "!a/x/y.md"}},
	{"double star", "**/fixtures/**\ndocs/**/draft.md\n", []string{"!t/fixtures/a.md", "!fixtures/b.md", "!docs/draft.md", "!docs/x/y/draft.md", "docs/x/final.md"}},
	{"classes and escapes", "[ab].md\n\\#hash.md\n\\!bang.md\nspace\\ \n", []string{"!a.md", "c.md", "!#hash.md", "!!bang.md", "!space "}},
	{"comments and blanks", "# a comment\n\n   \n", []string{"# a comment", "a.md"}},
	{"braces are literal", "{a,b}.md\n", []string{"a.md", "!{a,b}.md"}},
	{"middle slash anchors", "a/b.md\n", []string{"!a/b.md", "x/a/b.md"}},
	{"trailing spaces", "t.md   \n", []string{"!t.md"}},
	// git reads a malformed pattern as one that matches nothing, the
	// literal text included, and goes on with the next line.
	{"malformed patterns match nothing", "foo[\n[]\nx[!]\n*.md\n!keep[.md\nb.md\n", []string{"foo[", "foo", "[]", "x[!]", "!a.md", "!keep[.md", "!b.md"}},
	{"a ] first in a class is a member", "[]a].md\n[!]x]y.md\n", []string{"!].md", "!a.md", "b.md", "!ay.md", "xy.md", "]y.md"}},
}

func matcher(t *testing.T, text string) *Matcher {
	t.Helper()
	m := &Matcher{}
	m.Add(ReadFile("", ".gitignore", []byte(text))...)
	return m
}

func TestMalformedLinesLeftOut(t *testing.T) {
	ps := ReadFile("", ".gitignore", []byte("a.md\nfoo[\n[\\\nb.md\n"))
	var got []string
	for _, p := range ps {
		got = append(got, p.Source+" "+p.Text)
	}
	if want := []string{".gitignore:1 a.md", ".gitignore:4 b.md"}; !slices.Equal(got, want) {
		t.Errorf("patterns = %q, want %q", got, want)
	}
}

func TestMatcher(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := matcher(t, c.gitignore)
			for _, p := range c.paths {
				want := strings.HasPrefix(p, "!")
				p = strings.TrimPrefix(p, "!")
				dir := strings.HasSuffix(p, "/")
				rel := strings.TrimSuffix(p, "/")
				if got := m.Ignored(rel, dir) != nil; got != want {
					t.Errorf("%q ignored = %v, want %v", p, got, want)
				}
			}
		})
	}
}

// TestMatcherAgreesWithGit asks git itself about every case, so the table
// above cannot drift from what git does.
func TestMatcherAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if out, err := exec.Command(git, "-C", dir, "init", "-q").CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(c.gitignore), 0o644); err != nil {
				t.Fatal(err)
			}
			m := matcher(t, c.gitignore)
			for _, p := range c.paths {
				p = strings.TrimPrefix(p, "!")
				isDir := strings.HasSuffix(p, "/")
				rel := strings.TrimSuffix(p, "/")
				full := filepath.Join(dir, filepath.FromSlash(rel))
				if isDir {
					if err := os.MkdirAll(full, 0o755); err != nil {
						t.Fatal(err)
					}
				} else {
					if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(full, nil, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				cmd := exec.Command(git, "-C", dir, "check-ignore", "-q", "--no-index", "--", rel)
				err := cmd.Run()
				gitIgnores := err == nil
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
					t.Fatalf("git check-ignore %s: %v", rel, err)
				}
				if got := m.Ignored(rel, isDir) != nil; got != gitIgnores {
					t.Errorf("%q: baton says ignored=%v, git says %v", p, got, gitIgnores)
				}
			}
		})
	}
}

func TestBaseFolder(t *testing.T) {
	ps := ReadFile("docs", "docs/.gitignore", []byte("*.tmp.md\n/local.md\n"))
	m := &Matcher{}
	m.Add(ps...)
	for rel, want := range map[string]bool{
		"docs/a.tmp.md": true, "docs/x/a.tmp.md": true, "a.tmp.md": false,
		"docs/local.md": true, "docs/x/local.md": false, "local.md": false,
	} {
		if got := m.Ignored(rel, false) != nil; got != want {
			t.Errorf("%s: ignored = %v, want %v", rel, got, want)
		}
	}
}

func TestMalformedPattern(t *testing.T) {
	if _, _, err := Parse("", "x", "[a"); err == nil {
		t.Error("an unclosed class is accepted")
	}
	p := matcher(t, "docs/\n").Ignored("docs/a.md", false)
	if p == nil || p.Source != ".gitignore:1" || p.Text != "docs/" {
		t.Errorf("deciding pattern = %+v, want docs/ at .gitignore:1", p)
	}
}
