package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/report/reporttest"
)

// TestSummaryOnTerminal runs baton check with its standard error on a real
// terminal: the text format ends with one summary line there, which
// --quiet drops and no other format prints; standard output is the same
// bytes either way.
func TestSummaryOnTerminal(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"bad.md": reporttest.MissingSection, "clean.md": reporttest.Clean, "order.md": reporttest.OutOfOrder} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		name string
		args []string
		want string // the terminal's text; "" for nothing
	}{
		{"findings", []string{"bad.md", "clean.md", "order.md"}, "1 error, 1 warning, 1 hint in 2 of 3 files"},
		{"one file", []string{"bad.md"}, "1 error, 1 hint in 1 file"},
		{"clean", []string{"clean.md"}, "1 file, no problems"},
		{"a folder", []string{"."}, "1 error, 1 warning, 1 hint in 2 of 3 files"},
		{"quiet", []string{"--quiet", "bad.md"}, ""},
		{"json", []string{"--format", "json", "bad.md"}, ""},
		{"sarif", []string{"--format", "sarif", "bad.md"}, ""},
		{"github", []string{"--format", "github", "bad.md"}, ""},
		{"junit", []string{"--format", "junit", "bad.md"}, ""},
		{"gitlab", []string{"--format", "gitlab", "bad.md"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctrl, tty := reporttest.OpenPTY(t)
			defer ctrl.Close()
			var got bytes.Buffer
			done := make(chan struct{})
			go func() {
				io.Copy(&got, ctrl) // ends with an error once the terminal side is closed
				close(done)
			}()
			var onTerminal bytes.Buffer
			run(append([]string{"check"}, tc.args...), strings.NewReader(""), &onTerminal, tty)
			tty.Close()
			<-done
			if want := strings.TrimSpace(got.String()); want != tc.want {
				t.Errorf("the terminal showed %q, want %q", want, tc.want)
			}

			var piped, stderr bytes.Buffer
			run(append([]string{"check"}, tc.args...), strings.NewReader(""), &piped, &stderr)
			if stderr.Len() > 0 {
				t.Errorf("with standard error a pipe, it got %q", stderr.String())
			}
			if piped.String() != onTerminal.String() {
				t.Errorf("standard output changed with standard error on a terminal:\n%s\nthen\n%s", piped.String(), onTerminal.String())
			}
		})
	}
}
