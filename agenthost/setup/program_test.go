package setup

import (
	"errors"
	"strings"
	"testing"
)

// TestHookProgram: hook install writes `baton` when one is on PATH, else
// this baton's absolute path, saying so; when this program cannot be
// named in a hook, it writes `baton` and warns that the host will not
// find it.
func TestHookProgram(t *testing.T) {
	onPath := func(string) (string, error) { return "/usr/local/bin/baton", nil }
	notOnPath := func(string) (string, error) { return "", errors.New("executable file not found in $PATH") }
	exe := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }
	for _, tt := range []struct {
		name                string
		look                func(string) (string, error)
		exe                 func() (string, error)
		program, note, warn string
	}{
		{"on PATH", onPath, exe("/opt/baton/baton"), "", "", ""},
		{"not on PATH", notOnPath, exe("/opt/baton/baton"), "/opt/baton/baton", "no baton on PATH: the hooks run this baton by its absolute path, /opt/baton/baton", ""},
		{"named otherwise", notOnPath, exe("/opt/baton/baton-dev"), "", "", "this program is named baton-dev, not baton"},
		{"a space in its path", notOnPath, exe("/opt/my tools/baton"), "", "", "holds a space or a quote"},
		{"go run", notOnPath, exe("/tmp/go-build123/b001/exe/baton"), "", "", "go run's temporary build"},
		{"no path", notOnPath, func() (string, error) { return "", errors.New("not supported") }, "", "", "own path is unknown"},
	} {
		program, note, warn := HookProgram(tt.look, tt.exe)
		if program != tt.program || !strings.HasPrefix(note, tt.note) || (tt.note == "") != (note == "") || !strings.Contains(warn, tt.warn) || (tt.warn == "") != (warn == "") {
			t.Errorf("%s: program %q, note %q, warn %q", tt.name, program, note, warn)
		}
	}
}
