package hook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/hook"
	"github.com/baton-md/baton/agenthost/hosts"
)

// Every listed host's hooks are the runner's: Lookup finds the host of
// each, the usage names it, and nothing else is a hook.
func TestEveryHostHasItsHooks(t *testing.T) {
	for _, h := range hosts.All {
		for _, suffix := range []string{"-stop", "-prompt", "-tool"} {
			name := h.ID + suffix
			got, ok := hook.Lookup(name, suffix)
			if want := suffix != "-tool" || h.ToolHook; ok != want || (ok && got != h) || hook.Known(name) != want {
				t.Errorf("hook %s: host %v, %v; want %v", name, got, ok, want)
			}
			if ok && !strings.Contains(hook.Usage, name) {
				t.Errorf("the hook usage does not name %s", name)
			}
		}
	}
	for _, name := range []string{"nohost-stop", "stop", "-stop", "install"} {
		if hook.Known(name) {
			t.Errorf("%q is taken for a hook", name)
		}
	}
}

// Every listed host's package holds its stop hook to the contract every
// host's keeps (hooktest.Contract), in its own tests.
func TestEveryHostTestsItsContract(t *testing.T) {
	for _, h := range hosts.All {
		data, err := os.ReadFile(filepath.Join("..", h.ID, "hook_test.go"))
		if err != nil || !strings.Contains(string(data), "hooktest.Contract(t, ") {
			t.Errorf("agenthost/%s/hook_test.go does not run hooktest.Contract (%v)", h.ID, err)
		}
	}
}

// Fill breaks at spaces, at most 78 characters a line.
func TestFill(t *testing.T) {
	got := hook.Fill(strings.Repeat("word ", 40))
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if len(line) > 78 || strings.HasPrefix(line, " ") || strings.HasSuffix(line, " ") {
			t.Errorf("line %q", line)
		}
	}
	if !strings.HasSuffix(got, "word\n") {
		t.Errorf("%q does not end with the last word and a newline", got)
	}
}
