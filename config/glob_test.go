package config_test

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/baton-md/baton/config"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"a.md", "a.md", true},
		{"a.md", "b.md", false},
		{"[[^]", "/", false}, // "[^" inside a class is two of its members (found by FuzzMatch)
		{"[[^]", "^", true},
		{"[^-]", "0", true}, // all but "-", as fnmatch reads it
		{"[^-]", "-", false},
		// A reversed range matches nothing, as to path.Match and Git (found
		// by FuzzMatch: doublestar matched its low end).
		{"[0- ]", "0", false},
		{"[0- ]", " ", false},
		{"[0- a]", "a", true},
		{"[0- a]", "0", false},
		{"[^0- ]", "0", true},
		{"[^0- ]", "/", false},
		{"[a-c]", "b", true},
		{"[\\]-a]", "]", true},
		{"a.md", "x/a.md", false}, // anchored: no implicit **/
		{"x/a.md", "x/a.md", true},
		{"*.md", "a.md", true},
		{"*.md", ".hidden.md", true},
		{"*.md", "x/a.md", false}, // * stays within a folder
		{"*", "a", true},
		{"*", "", true},
		{"*", "a/b", false},
		{"x/*", "x/a", true},
		{"x/*", "x/a/b", false},
		{"?.md", "a.md", true},
		{"?.md", "ab.md", false},
		{"?", "/", false},
		{"a?b", "a/b", false},
		{"**", "a", true},
		{"**", "a/b/c.md", true},
		{"**/*.md", "a.md", true}, // ** matches zero folders
		{"**/*.md", "a/b/c.md", true},
		{"**/*.md", "a/b/c.txt", false},
		{"**/*.draft.md", "x/y/stop.draft.md", true},
		{"**/*.draft.md", "stop.md", false},
		{"drafts/**", "drafts/a.md", true},
		{"drafts/**", "drafts/a/b/c.md", true},
		{"drafts/**", "drafts", true},
		{"drafts/**", "drafts2/a.md", false},
		{"drafts/**", "x/drafts/a.md", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/b", true},
		{"a/**/b", "a/x/y/z/b", true},
		{"a/**/b", "a/x/y/z/c", false},
		{"a/**/b/**/c", "a/1/b/2/b/3/c", true},
		{"**/**/x", "x", true},
		{"**/b/**", "a/b/c", true},
		{"**/b/**", "a/c", false},
		{"a**b", "axxb", true}, // ** inside a segment is a *
		{"a**b", "ax/xb", false},
		{"[abc].md", "b.md", true},
		{"[abc].md", "d.md", false},
		{"[a-c]x", "bx", true},
		{"[^a-c]x", "dx", true},
		{"[^a-c]x", "ax", false},
		{"[^x]", "/", false}, // a class never matches a /
		{"a[^x]b", "a/b", false},
		{"a[!x]b", "a/b", false},
		{"a[!x]b", "ayb", true},
		{`a\[^x]b`, "a[^x]b", true}, // an escaped [ opens no class
		{`a\[b`, "a[b", true},
		{"**/*.{md,markdown}", "a.md", true}, // braces: one of the alternatives
		{"**/*.{md,markdown}", "x/y/a.markdown", true},
		{"**/*.{md,markdown}", "x/a.mdx", false},
		{"{drafts,notes}/**", "notes/a.md", true},
		{"{drafts,notes}/**", "specs/a.md", false},
		{`\*.md`, "*.md", true},
		{`\*.md`, "a.md", false},
		{"ünï/*.md", "ünï/ç.md", true},
		{"?", "ç", true}, // one character, not one byte
		{"", "", true},
		{"", "a", false},
		{"a/", "a/", true},
	}
	for _, tt := range tests {
		got, err := config.Match(tt.pattern, tt.name)
		if err != nil {
			t.Errorf("Match(%q, %q): %v", tt.pattern, tt.name, err)
		}
		if got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func TestMatchBadPattern(t *testing.T) {
	for _, p := range []string{"[a", "x/[a", "a/**/[", `a\`, "[]", "*.{md", "{a,b", "[0\xb6]"} {
		for _, name := range []string{"", "zzz", "x/a"} {
			if ok, err := config.Match(p, name); ok || !errors.Is(err, path.ErrBadPattern) {
				t.Errorf("Match(%q, %q) = %v, %v; want false, path.ErrBadPattern", p, name, ok, err)
			}
		}
	}
}

// TestMatchManyStars: patterns full of ** stay fast (no backtracking blow-up).
func TestMatchManyStars(t *testing.T) {
	pattern := strings.Repeat("**/", 40) + "z"
	name := strings.Repeat("a/", 200) + "y"
	if ok, _ := config.Match(pattern, name); ok {
		t.Error("matched")
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("**/*.md", "a/b.md")
	f.Add("a/**/b/*", "a/b/c")
	f.Add("[^a]?", "bc")
	f.Add("*.{md,markdown}", "a.md")
	f.Add("a[!x]b", "a/b")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		ok, err := config.Match(pattern, name)
		if err != nil {
			return
		}
		// Without ** (and braces), Match is path.Match, which already keeps * and ?
		// within a folder, except that a class never matches a / either
		// (path.Match's "[^x]" matches "/"): then Match is never true where
		// path.Match is false, and agrees on names without a /.
		// Braces and [!x] are doublestar's, not path.Match's.
		if !strings.Contains(pattern, "**") && !strings.ContainsAny(pattern, "{}") && !strings.Contains(pattern, "[!") {
			want, perr := path.Match(pattern, name)
			if perr != nil {
				// path.Match is stricter than doublestar about what a class may
				// hold ("[^-]" is a class of all but "-" to doublestar, as to
				// fnmatch, and malformed to path.Match): nothing to compare.
				return
			}
			class := strings.Contains(pattern, "[") && strings.Contains(name, "/")
			if ok != want && (!class || ok) {
				t.Fatalf("Match(%q, %q) = %v, path.Match says %v", pattern, name, ok, want)
			}
		}
	})
}
