package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/hook"
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// TestEveryCommandHasHelp: every entry of the help table (a command added
// later included) says what it does, reads and writes and its exit status,
// and --help, -h and help CMD print it on standard output with exit 0.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands {
		t.Run(c.Name, func(t *testing.T) {
			for what, s := range map[string]string{"Summary": c.Summary, "Text": c.Text, "Reads": c.Reads, "Writes": c.Writes, "Exit": c.Exit} {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s is empty", what)
				}
			}
			// The flags are read from the command's FlagSet, run with -h: a
			// command that does something else with -h shows none.
			if c.run != nil && len(c.flags()) == 0 {
				t.Errorf("run with -h, the command printed no flags (flag.PrintDefaults)")
			}
			if i := strings.LastIndexByte(c.Name, ' '); i >= 0 && c.parent() == nil {
				t.Errorf("a subcommand without its command %q in the table", c.Name[:i])
			}
			var want string
			for _, args := range [][]string{
				append(strings.Fields(c.Name), "--help"),
				append(strings.Fields(c.Name), "-h"),
				append([]string{"help"}, strings.Fields(c.Name)...),
			} {
				var stdout, stderr bytes.Buffer
				if code := run(args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
					t.Errorf("baton %s: exit %d, want 0", strings.Join(args, " "), code)
				}
				if stderr.Len() > 0 {
					t.Errorf("baton %s wrote to stderr: %s", strings.Join(args, " "), stderr.String())
				}
				if !strings.HasPrefix(stdout.String(), "usage: "+c.synopsis()+"\n") {
					t.Errorf("baton %s: %q does not start with the synopsis", strings.Join(args, " "), stdout.String())
				}
				for _, part := range []string{"\nreads:\n", "\nwrites:\n", "\nexit status:\n"} {
					if !strings.Contains(stdout.String(), part) {
						t.Errorf("baton %s lacks %q", strings.Join(args, " "), part)
					}
				}
				if want == "" {
					want = stdout.String()
				} else if stdout.String() != want {
					t.Errorf("baton %s prints another help than --help", strings.Join(args, " "))
				}
			}
		})
	}
}

// TestParseDefaults reads flag.PrintDefaults output back into flags.
func TestParseDefaults(t *testing.T) {
	text := "usage: baton x\n\nSome text.\n  -indented line that is not a flag\n\nflags:\n" +
		"  -v\tlog more\n" +
		"  -format string\n    \toutput format (default \"text\")\n" +
		"  -cpuprofile file\n    \twrite a profile to file\n    \tsecond line\n" +
		"  -fix\n    \tapply fixes\n"
	got := parseDefaults(text)
	want := []flagHelp{
		{Name: "v", Usage: "log more"},
		{Name: "format", Arg: "string", Usage: `output format (default "text")`},
		{Name: "cpuprofile", Arg: "file", Usage: "write a profile to file\nsecond line"},
		{Name: "fix", Usage: "apply fixes"},
	}
	if len(got) != len(want) {
		t.Fatalf("parseDefaults = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("flag %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestWantsHelp follows the commands' parser (flags.go): help anywhere
// before --, among the arguments too, a flag's value skipped.
func TestWantsHelp(t *testing.T) {
	flags := []flagHelp{{Name: "format", Arg: "string"}, {Name: "fix"}}
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"--help"}, true},
		{[]string{"-h"}, true},
		{[]string{"-help"}, true},
		{[]string{"--fix", "--help"}, true},
		{[]string{"--format", "json", "-h"}, true},
		{[]string{"--format=json", "-h"}, true},
		{[]string{"--format", "--help"}, false},
		{[]string{"--", "--help"}, false},
		{[]string{"a.md", "--help"}, true},
		{[]string{"-", "--help"}, true},
		{[]string{"a.md", "--", "--help"}, false},
		{nil, false},
	} {
		if got := wantsHelp(tt.args, flags); got != tt.want {
			t.Errorf("wantsHelp(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// TestHookInstallHelpNamesEveryHook: hook install --help names, for every
// host of the list, its project settings file and every hook install
// writes there, on the host's event (the prompt hooks of Codex, Gemini CLI,
// Cursor and Copilot were missing).
func TestHookInstallHelpNamesEveryHook(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"hook", "install", "--help"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	help := stdout.String()
	for _, h := range hosts.All {
		// The host's line: its name, its file, its events in order.
		var events, subs []string
		for _, hk := range h.Settings.Hooks {
			events = append(events, hk.Event)
			subs = append(subs, hk.Sub)
		}
		file := filepath.ToSlash(h.Settings.ProjectFile(hostsettings.Env{}))
		line := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(h.ID) + ` +` + regexp.QuoteMeta(file) + ` +` +
			regexp.QuoteMeta(strings.Join(events, ", ")) + `\n +\(baton hook ` + regexp.QuoteMeta(strings.Join(subs, ", ")) + `\)$`)
		if !line.MatchString(help) {
			t.Errorf("the help does not name %s's file %s, events %q and hooks %q:\n%s", h.ID, file, events, subs, help)
		}
	}
}

// Every listed host's hooks are commands of baton's: baton hook runs
// them (agenthost/hook's test) and the help table explains them (the
// docs row and the rest of a host's parts: agenthost/hosts's test).
func TestEveryHostHasItsHookCommands(t *testing.T) {
	for _, h := range hosts.All {
		subs := []string{h.ID + "-stop", h.ID + "-prompt"}
		if h.ToolHook {
			subs = append(subs, h.ID+"-tool")
		}
		for _, sub := range subs {
			if !hook.Known(sub) {
				t.Errorf("baton hook %s runs no hook", sub)
			}
			if c, _ := lookup([]string{"hook", sub}); c == nil || c.Name != "hook "+sub {
				t.Errorf("the help table has no entry for hook %s", sub)
			}
		}
	}
}
