package config_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/google/go-cmp/cmp"
)

// TestParseWithEveryProblem: a file with syntax-level problems (a bad
// severity, an unknown key, a malformed pattern) and name problems (an
// unknown rule, an unknown phrase list) reports all of them at once, in
// file order, each file:line:column. Parse then Validate would report the
// names only once the rest was fixed.
func TestParseWithEveryProblem(t *testing.T) {
	text := "rules:\n" +
		"  packet/heading-levl: off\n" + // 2: unknown rule
		"  packet/section-order: fatal\n" + // 3: bad severity
		"handof: {}\n" + // 4: unknown key
		"overrides:\n" +
		"  - files: [\"**/*.{md\"]\n" + // 6: malformed pattern
		"    rules: { nope/x: off }\n" + // 7: unknown rule in an override
		"phrases:\n" +
		"  hold: [on ice]\n" // 9: unknown phrase list
	want := `.baton.yaml:2:3: unknown rule "packet/heading-levl": did you mean packet/heading-level?
.baton.yaml:3:25: unknown severity "fatal" for rule packet/section-order (want error, warning, info, hint or off)
.baton.yaml:4:1: unknown key "handof" in the configuration (want rules, overrides, handoff, phrases, ignore or workflow)
.baton.yaml:6:13: pattern "**/*.{md": malformed, so it can never match: check its [ ] classes, { } braces and \ escapes
.baton.yaml:7:14: unknown rule "nope/x" ` + "(`baton explain` lists the rules)" + `
.baton.yaml:9:3: unknown phrase list "hold" (want auto-continue, blocked, complete, held, informational, no-review, placeholder, request, response or substantive)`
	reg := engine.Registry()
	_, err := config.ParseWith(".baton.yaml", []byte(text), reg)
	var ce *config.Error
	if !errors.As(err, &ce) {
		t.Fatalf("ParseWith: %v, want a *config.Error", err)
	}
	if d := cmp.Diff(want, err.Error()); d != "" {
		t.Errorf("ParseWith (-want +got):\n%s", d)
	}

	// LoadWith, which baton check and the engine use, is the same.
	path := filepath.Join(t.TempDir(), config.FileName)
	write(t, path, text)
	if _, err := config.LoadWith(path, reg); err == nil || len(err.(*config.Error).Problems) != 6 {
		t.Errorf("LoadWith: %v, want the 6 problems", err)
	}

	// A valid file parses to what Parse gives.
	f, err := config.ParseWith(".baton.yaml", []byte(example), reg)
	if err != nil || f == nil {
		t.Fatalf("ParseWith(the example) = %v, %v", f, err)
	}
}
