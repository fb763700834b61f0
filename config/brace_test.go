package config_test

import (
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
)

// TestForBraces: an override's files pattern with braces applies to each
// alternative, at any depth, and to nothing else.
func TestForBraces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.FileName)
	write(t, path, "overrides:\n  - files: [\"**/*.{md,markdown}\"]\n    rules: { packet/heading-level: off }\n")
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"a.md", true},
		{"docs/deep/a.markdown", true},
		{"a.mdx", false},
		{"docs/a.txt", false},
	} {
		cfg, _ := f.For(filepath.Join(dir, filepath.FromSlash(tt.name)))
		sev, set := cfg.Severity["packet/heading-level"]
		if got := set && sev == analysis.Off; got != tt.want {
			t.Errorf("%s: override applied = %v, want %v", tt.name, got, tt.want)
		}
	}
}
