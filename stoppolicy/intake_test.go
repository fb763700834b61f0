package stoppolicy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// specrew's provider nudges an agent that asks what to build while a
// feature's spec exists, and says so in a block that fires anyway; a
// project with no spec, or a message that asks nothing of the kind, gets
// nothing.
func TestIntakeQuestion(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{"What would you like to build today?", true},
		{"What feature do you want me to create?", true},
		{"What should we do about the flaky test?", false},
		{"I built the parser. Next step: review it.", false},
	} {
		if got := intakeQuestion.MatchString(tc.msg); got != tc.want {
			t.Errorf("intake question %q: %v, want %v", tc.msg, got, tc.want)
		}
	}

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".specrew"), 0o755); err != nil {
		t.Fatal(err)
	}
	ask := Stop{Host: "claude", SessionID: "s1", Cwd: root, Message: "What would you like to build today?"}
	out := Evaluate(ask, Options{StateDir: t.TempDir()})
	if out.Reason != "" || strings.Contains(strings.Join(out.Warnings, "\n"), "intake question") {
		t.Errorf("no spec yet: %+v", out)
	}
	spec := filepath.Join(root, "specs", "010-export", "spec.md")
	if err := os.MkdirAll(filepath.Dir(spec), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec, []byte("# Spec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = Evaluate(ask, Options{StateDir: t.TempDir()})
	if out.Reason != "" || !strings.Contains(strings.Join(out.Warnings, "\n"), "intake question while an active feature exists") {
		t.Errorf("with a spec: %+v, want a nudge and no block", out)
	}
}
