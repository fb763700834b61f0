package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/report/reporttest"
)

// TestFormatterColorFollowsTerm checks that under --color auto the text
// format's colour is decided by the stream the output ends up on (term),
// not by the buffer it is written to first.
func TestFormatterColorFollowsTerm(t *testing.T) {
	t.Setenv("NO_COLOR", "") // restored after the test
	os.Unsetenv("NO_COLOR")
	ctrl, tty := reporttest.OpenPTY(t)
	defer ctrl.Close()
	defer tty.Close()
	reg := engine.Registry()
	r := analyzed(t, reg, "bad.md", reporttest.MissingSection)
	o := Options{Format: FormatText, Color: ColorAuto}
	var toTerminal, toBuffer bytes.Buffer
	if err := writeAll(NewFormatter(&toTerminal, tty, reg, o), []*File{r}); err != nil {
		t.Fatal(err)
	}
	if err := writeAll(NewFormatter(&toBuffer, &toBuffer, reg, o), []*File{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(toTerminal.String(), "\x1b[") || strings.Contains(toBuffer.String(), "\x1b[") {
		t.Errorf("bound for a terminal: %q; for a buffer: %q", toTerminal.String(), toBuffer.String())
	}
}
