package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/report"
	"github.com/baton-md/baton/transcript"
)

// completionScript returns what baton completion SHELL prints, written to
// a file.
func completionScript(t *testing.T, shell string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"completion", shell}, strings.NewReader(""), &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("baton completion %s: exit %d, stderr %q", shell, code, stderr.String())
	}
	path := filepath.Join(t.TempDir(), "baton."+shell)
	if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return stdout.String(), path
}

func needShell(t *testing.T, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed", shell)
	}
	return p
}

// TestCompletionScriptsParse: each script is valid in its shell, and names
// every command, subcommand and flag of the help table, and every --format.
func TestCompletionScriptsParse(t *testing.T) {
	syntax := map[string][]string{"bash": {"-n"}, "zsh": {"-n"}, "fish": {"--no-execute"}}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			text, path := completionScript(t, shell)
			for _, c := range commands {
				last := c.Name[strings.LastIndexByte(c.Name, ' ')+1:]
				if !strings.Contains(text, last) {
					t.Errorf("the %s script does not name the command %q", shell, c.Name)
				}
				for _, f := range c.flags() {
					if !strings.Contains(text, f.Name) {
						t.Errorf("the %s script does not name %s's flag --%s", shell, c.Name, f.Name)
					}
				}
			}
			for _, f := range report.Formats() {
				if !strings.Contains(text, f) {
					t.Errorf("the %s script does not offer --format %s", shell, f)
				}
			}
			sh := needShell(t, shell)
			out, err := exec.Command(sh, append(syntax[shell], path)...).CombinedOutput()
			if err != nil {
				t.Errorf("%s %v: %v\n%s", shell, syntax[shell], err, out)
			}
		})
	}
}

// TestBashCompletion runs the bash script's function on command lines, as
// bash's programmable completion calls it.
func TestBashCompletion(t *testing.T) {
	bash := needShell(t, "bash")
	_, path := completionScript(t, "bash")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	complete := func(line string) []string {
		t.Helper()
		// The words as bash splits the line; a trailing space starts a new,
		// empty word.
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, quote(w))
		}
		script := "source " + quote(path) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_baton\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", line, err, out)
		}
		return strings.Fields(string(out))
	}
	has := func(line string, want ...string) {
		t.Helper()
		got := complete(line)
		for _, w := range want {
			if !contains(got, w) {
				t.Errorf("completing %q: %q lacks %q", line, got, w)
			}
		}
	}
	lacks := func(line string, not ...string) {
		t.Helper()
		got := complete(line)
		for _, w := range not {
			if contains(got, w) {
				t.Errorf("completing %q: %q holds %q", line, got, w)
			}
		}
	}
	var top []string
	for _, c := range commands {
		if c.parent() == nil {
			top = append(top, c.Name)
		}
	}
	has("baton ", top...)
	has("baton ch", "check")
	lacks("baton ch", "serve")
	has("baton check --f", "--fix", "--format")
	has("baton check --format ", report.Formats()...)
	has("baton check --color ", "auto", "always", "never")
	has("baton check --format = ", report.Formats()...) // --format=, as bash splits it
	has("baton check --format = j", "json")
	has("baton check ", "notes.md")
	has("baton check --config ", "notes.md")
	has("baton hook ", "claude-stop", "claude-prompt", "claude-tool")
	has("baton hook claude-stop --", "--max-blocks", "--lint", "--require-packet", "--state-dir", "--help")
	has("baton serve --", "--stdio", "--help")
	has("baton classify --authorized ", "true", "false", "unknown")
	has("baton config ", "schema")
	has("baton completion ", "bash", "zsh", "fish")
	has("baton explain ", engine.Registry().Rules()[0].ID)
	has("baton help ", "check", "hook")
	has("baton audit --host ", transcript.Hosts()...)
	has("baton audit --format ", "text", "json", "html")
	lacks("baton audit --format ", "sarif")
	has("baton hook install --host ", hosts.SettingsIDs()...)
	has("baton hook uninstall --host ", hosts.SettingsIDs()...)
	lacks("baton check --state-dir ", "notes.md")
}

// TestFishCompletion asks fish for the completions of command lines.
func TestFishCompletion(t *testing.T) {
	fish := needShell(t, "fish")
	_, path := completionScript(t, "fish")
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"baton ", []string{"check", "serve", "hook", "completion"}},
		{"baton check --format ", report.Formats()},
		{"baton check --", []string{"--fix", "--diff", "--state-dir"}},
		{"baton hook ", []string{"claude-stop", "claude-tool"}},
		{"baton hook claude-stop --", []string{"--max-blocks", "--lint"}},
		{"baton completion ", []string{"bash", "zsh", "fish"}},
	} {
		cmd := exec.Command(fish, "--no-config", "-c", "source "+quote(path)+"; complete -C "+quote(tt.line))
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", tt.line, err, out)
		}
		var got []string
		for _, l := range strings.Split(string(out), "\n") {
			w, _, _ := strings.Cut(l, "\t")
			got = append(got, w)
		}
		for _, w := range tt.want {
			if !contains(got, w) {
				t.Errorf("completing %q: %q lacks %q", tt.line, got, w)
			}
		}
	}
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }

// TestZshCompletion runs the zsh script's function on command lines with
// _describe and _arguments replaced by functions that print what they are
// given: it proves which candidates and specs each line reaches (zsh's own
// _arguments, which reads the specs, needs an interactive shell).
func TestZshCompletion(t *testing.T) {
	zsh := needShell(t, "zsh")
	_, path := completionScript(t, "zsh")
	complete := func(words ...string) string {
		t.Helper()
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, quote(w))
		}
		script := `compdef() { :; }
_describe() { print -rl -- "${(@P)${@[-1]}}"; }
_arguments() { print -rl -- "$@"; }
source ` + quote(path) + `
words=(` + strings.Join(quoted, " ") + `)
CURRENT=` + strconv.Itoa(len(words)) + `
_baton`
		out, err := exec.Command(zsh, "-f", "-c", script).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", words, err, out)
		}
		return string(out)
	}
	has := func(out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%q lacks %q", out, w)
			}
		}
	}
	has(complete("baton", ""), "check:lint files", "hook:agent-host hooks", "completion:print a shell completion script")
	has(complete("baton", "check", "--f"), "--format[output format", ":format:(text json sarif github", "--fix[", "*:file:_files")
	has(complete("baton", "hook", ""), "claude-stop:a Claude Code Stop hook", "claude-tool:")
	has(complete("baton", "hook", "claude-stop", "--"), "--max-blocks[", "--state-dir[", ":state-dir:_files")
	has(complete("baton", "config", ""), "schema:print the JSON Schema")
	has(complete("baton", "completion", ""), "1:argument:(bash zsh fish)")
	has(complete("baton", "serve", "--"), "--stdio[", "--clientProcessId[")
	if out := complete("baton", "serve", "--"); strings.Contains(out, "--format") {
		t.Errorf("serve offers check's flags: %q", out)
	}
}

// TestCompletionEveryValue: every flag that takes a value completes as
// what it takes: its fixed set (each value one the command accepts), a
// folder, a file, or (a number, a span of time, an ID) nothing.
func TestCompletionEveryValue(t *testing.T) {
	for _, c := range completionModel() {
		for _, f := range c.Flags {
			if f.Bool {
				continue
			}
			kinds := 0
			for _, k := range []bool{len(f.Values) > 0, f.Dirs, f.Files, freeFlags[f.Name]} {
				if k {
					kinds++
				}
			}
			if kinds != 1 {
				t.Errorf("%s --%s: completes as %d kinds of value, want 1 (add it to flagValues, folderFlags, fileFlags or freeFlags)", c.Name, f.Name, kinds)
			}
		}
	}
	want := map[string][]string{
		"audit --host":          transcript.Hosts(),
		"audit --format":        {"text", "json", "html"},
		"hook install --host":   hosts.SettingsIDs(),
		"hook uninstall --host": hosts.SettingsIDs(),
		"check --format":        report.Formats(),
	}
	for key, values := range want {
		cmd, flag, _ := strings.Cut(key, " --")
		if got := flagValues(cmd, flag); !slices.Equal(got, values) {
			t.Errorf("%s completes %q, want %q", key, got, values)
		}
	}
	// Each value offered is one the command takes: no usage error.
	for _, h := range hosts.SettingsIDs() {
		dir := t.TempDir()
		if code, _, stderr := runBaton(t, "", "", "hook", "install", "--host", h, "--dir", dir, "--dry-run"); code == exitUsage && strings.Contains(stderr, "want one of") {
			t.Errorf("hook install --host %s: %s", h, stderr)
		}
	}
	for _, h := range transcript.Hosts() {
		if code, _, stderr := runBaton(t, "", "", "audit", "--host", h, t.TempDir()); strings.Contains(stderr, "want one of") {
			t.Errorf("audit --host %s: exit %d %s", h, code, stderr)
		}
	}
	for _, d := range []string{"state-dir", "dir", "workspace"} {
		for _, c := range completionModel() {
			for _, f := range c.Flags {
				if f.Name == d && !f.Dirs {
					t.Errorf("%s --%s does not complete folders", c.Name, d)
				}
			}
		}
	}
}

// TestStateDirCompletesFolders: --state-dir, --dir and --workspace offer
// folders, not files, in each shell.
func TestStateDirCompletesFolders(t *testing.T) {
	bash, path := completionScript(t, "bash")
	if !strings.Contains(bash, "'check':--state-dir|'check':-state-dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d") {
		t.Errorf("bash: check --state-dir does not complete folders")
	}
	zsh, _ := completionScript(t, "zsh")
	if !strings.Contains(zsh, "looked in first for the sessions of handoff documents]:state-dir:_files -/'") {
		t.Errorf("zsh: check --state-dir does not complete folders")
	}
	fish, _ := completionScript(t, "fish")
	if !strings.Contains(fish, "-l state-dir -x -a '(__fish_complete_directories (commandline -ct))'") {
		t.Errorf("fish: --state-dir does not complete folders")
	}
	sh, err := exec.LookPath("bash")
	if err != nil {
		return
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stop.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"baton check --state-dir ", "baton hook install --dir ", "baton audit --workspace "} {
		words := append(strings.Fields(line), "")
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, quote(w))
		}
		script := "source " + quote(path) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_baton\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(sh, "--norc", "--noprofile", "-c", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", line, err, out)
		}
		if got := strings.Fields(string(out)); !slices.Equal(got, []string{"state"}) {
			t.Errorf("completing %q: %q, want the folder alone", line, got)
		}
	}
}

// quote quotes s for a POSIX shell, in single quotes.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
