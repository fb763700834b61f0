package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func manPage(t *testing.T) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"man"}, strings.NewReader(""), &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("baton man: exit %d, stderr %q", code, stderr.String())
	}
	return stdout.String()
}

// TestManPageIsCurrent fails when docs/baton.1 is not what baton man prints.
func TestManPageIsCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "baton.1")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `go run ./cmd/baton man > docs/baton.1`", err)
	}
	if d := cmp.Diff(manPage(t), string(got)); d != "" {
		t.Errorf("docs/baton.1 is stale: run `go run ./cmd/baton man > docs/baton.1`.\n(-generated +committed):\n%s", d)
	}
}

// TestManPageRenders formats the page with groff, warnings on, and checks
// that every command, its help and its flags are in what a reader sees.
func TestManPageRenders(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff is not installed")
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-P-cbou")
	cmd.Stdin = strings.NewReader(manPage(t))
	var out, warn bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &warn
	if err := cmd.Run(); err != nil {
		t.Fatalf("groff: %v\n%s", err, warn.String())
	}
	if warn.Len() > 0 {
		t.Errorf("groff warns:\n%s", warn.String())
	}
	// What a reader sees, with the lines joined and hyphenation undone.
	text := strings.Join(strings.Fields(regexp.MustCompile(`\x{2010}\n\s*`).ReplaceAllString(out.String(), "")), " ")
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, c := range commands {
		if !strings.Contains(text, words(c.synopsis())) {
			t.Errorf("the page lacks the synopsis %q", c.synopsis())
		}
		for _, f := range c.flags() {
			if !strings.Contains(text, "--"+f.Name) {
				t.Errorf("the page lacks %s's flag --%s", c.Name, f.Name)
			}
		}
		if first := strings.SplitN(c.Text, "\n", 2)[0]; !strings.Contains(text, words(first)) {
			t.Errorf("the page lacks %s's text %q", c.Name, first)
		}
	}
	for _, s := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "FILES", "SEE ALSO"} {
		if !strings.Contains(text, s) {
			t.Errorf("the page lacks the section %s", s)
		}
	}
}
