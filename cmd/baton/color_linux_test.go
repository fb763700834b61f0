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

// TestColorOnTerminal runs baton check with its standard output on a real
// terminal: --color auto colours the findings unless NO_COLOR is set to a
// non-empty value; --color never does not colour them.
func TestColorOnTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.md")
	if err := os.WriteFile(path, []byte(reporttest.MissingSection), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		color   string
		noColor *string
		want    bool
	}{
		{"auto", "auto", nil, true},
		{"auto, NO_COLOR empty", "auto", new(""), true},
		{"auto, NO_COLOR=1", "auto", new("1"), false},
		{"auto, NO_COLOR=false", "auto", new("false"), false}, // any non-empty value
		{"never", "never", nil, false},
		{"always, NO_COLOR=1", "always", new("1"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noColor != nil {
				t.Setenv("NO_COLOR", *tc.noColor)
			} else {
				t.Setenv("NO_COLOR", "") // restored after the test
				os.Unsetenv("NO_COLOR")
			}
			ctrl, tty := reporttest.OpenPTY(t)
			defer ctrl.Close()
			var got bytes.Buffer
			done := make(chan struct{})
			go func() {
				io.Copy(&got, ctrl) // ends with an error once the terminal side is closed
				close(done)
			}()
			var stderr bytes.Buffer
			code := run([]string{"check", "--color", tc.color, path}, strings.NewReader(""), tty, &stderr)
			tty.Close()
			<-done
			if code != exitFindings {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitFindings, stderr.String())
			}
			out := got.String()
			if !strings.Contains(out, "packet/missing-section") {
				t.Fatalf("the terminal showed %q", out)
			}
			if colored := strings.Contains(out, "\x1b[1;31merror\x1b[0m \x1b[36mpacket/missing-section\x1b[0m"); colored != tc.want {
				t.Errorf("coloured: %v, want %v; the terminal showed %q", colored, tc.want, out)
			}
		})
	}
}
