package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpandPaths: the expansion of baton check's arguments, in a folder
// of empty files.
func TestExpandPaths(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.md", "b.md", "x/c.md", "x/y/d.md", "x/.h/e.md", "z.txt", "k/:c.md"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	tests := []struct {
		args []string
		want []string
		err  string
	}{
		{[]string{"."}, []string{"."}, ""},
		{[]string{"-"}, []string{"-"}, ""},
		{[]string{"*.md"}, []string{"a.md", "b.md"}, ""},
		{[]string{"./*.md"}, []string{"a.md", "b.md"}, ""},
		{[]string{"**/*.md"}, []string{"a.md", "b.md", "k/:c.md", "x/.h/e.md", "x/c.md", "x/y/d.md"}, ""},
		{[]string{"x/**"}, []string{"x/.h/e.md", "x/c.md", "x/y/d.md"}, ""},
		{[]string{"b.md", "*.md"}, []string{"b.md", "a.md"}, ""}, // argument order, each file once
		{[]string{"**/*.md", "#x", "#k"}, []string{"a.md", "b.md"}, ""},
		{[]string{"**/*.md", "!x/*/*.md"}, []string{"a.md", "b.md", "k/:c.md", "x/c.md"}, ""},
		{[]string{"**/*.md", "#x/**", "#k/*", "x/c.md"}, []string{"a.md", "b.md", "x/c.md"}, ""}, // a negation removes only what came before
		{[]string{"a.md", "#a.md"}, nil, ""},
		{[]string{"*.md", "-", "#*"}, []string{"-"}, ""},
		{[]string{":a.md"}, []string{"a.md"}, ""},            // : is the literal prefix
		{[]string{":*.md"}, []string{"*.md"}, ""},            // so this is no pattern
		{[]string{"k/:c.md"}, []string{"k/:c.md"}, ""},       // an existing path first
		{[]string{"missing.md"}, []string{"missing.md"}, ""}, // not a pattern: the walk reports it
		{[]string{"*.nothing"}, nil, "*.nothing: no file matches this pattern"},
		{[]string{"[a"}, nil, "[a: malformed pattern"},
		{[]string{"#a.md"}, nil, "#a.md: a negation removes files from the patterns before it, and there are none"},
		{[]string{"x", "#x/c.md"}, nil, "#x/c.md: a negation cannot reach into the walk of the folder x"},
	}
	for _, tt := range tests {
		got, err := ExpandPaths(tt.args)
		if len(got) == 0 {
			got = nil
		}
		for i := range got {
			got[i] = filepath.ToSlash(got[i])
		}
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ExpandPaths(%q): error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ExpandPaths(%q): %v", tt.args, err)
			continue
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ExpandPaths(%q) (-want +got):\n%s", tt.args, d)
		}
	}
}
