package config_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const example = `rules:
  packet/heading-level: off
overrides:
  - files: ["drafts/**", "**/*.draft.md"]
    rules: { packet/review-not-held: warning }
handoff:
  state-dir: ~/.local/state/clio-coder
phrases:
  held: ["on ice"]
`

func cwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestParseValid(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	wd := cwd(t)
	ignore := cmpopts.IgnoreUnexported(config.File{})
	tests := []struct {
		name string
		text string
		want config.File
	}{
		{"empty", "", config.File{}},
		{"only a comment", "# nothing yet\n", config.File{}},
		{"empty document", "---\n", config.File{}},
		{"empty sections", "rules:\noverrides:\nhandoff:\nphrases:\n", config.File{}},
		{"the example", example, config.File{
			Rules: map[string]analysis.Severity{"packet/heading-level": analysis.Off},
			Overrides: []config.Override{{
				Files: []string{"drafts/**", "**/*.draft.md"},
				Rules: map[string]analysis.Severity{"packet/review-not-held": analysis.Warning},
			}},
			StateDir: filepath.Join(home, ".local", "state", "clio-coder"),
			Phrases:  map[string][]string{"held": {"on ice"}},
		}},
		{"severities in any case", "rules:\n  a/b: Error\n  a/c: HINT\n  a/d: info\n", config.File{
			Rules: map[string]analysis.Severity{"a/b": analysis.Error, "a/c": analysis.Hint, "a/d": analysis.Info},
		}},
		{"one pattern, one phrase; ./ and trailing /", "overrides:\n  - files: ./drafts/\n  - files: [./a.md]\nphrases:\n  held: on ice\n", config.File{
			Overrides: []config.Override{{Files: []string{"drafts/**"}}, {Files: []string{"a.md"}}},
			Phrases:   map[string][]string{"held": {"on ice"}},
		}},
		{"relative state-dir", "handoff:\n  state-dir: ../state\n", config.File{StateDir: filepath.Join(filepath.Dir(wd), "state")}},
		{"absolute state-dir", "handoff:\n  state-dir: /var/lib/clio//x/\n", config.File{StateDir: "/var/lib/clio/x"}},
		{"bare ~", "handoff:\n  state-dir: '~'\n", config.File{StateDir: home}},
		{"anchors and aliases", "rules: &r\n  a/b: off\noverrides:\n  - files: x\n    rules: *r\n", config.File{
			Rules:     map[string]analysis.Severity{"a/b": analysis.Off},
			Overrides: []config.Override{{Files: []string{"x"}, Rules: map[string]analysis.Severity{"a/b": analysis.Off}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := config.Parse(".baton.yaml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Path, tt.want.Dir = ".baton.yaml", wd
			if d := cmp.Diff(&tt.want, f, ignore); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	tests := []struct {
		name, text string
		want       string // the whole message; problems one a line
	}{
		{"unknown severity", "rules:\n  packet/heading-level: fatal\n",
			`.baton.yaml:2:25: unknown severity "fatal" for rule packet/heading-level (want error, warning, info, hint or off)`},
		{"unknown severity, deeper", "# comment\n\nrules:\n    packet/a: warning\n    packet/b: fatal\n",
			`.baton.yaml:5:15: unknown severity "fatal" for rule packet/b (want error, warning, info, hint or off)`},
		{"bool is not a severity", "rules:\n  packet/a: false\n",
			`.baton.yaml:2:13: unknown severity "false" for rule packet/a (want error, warning, info, hint or off)`},
		{"no severity", "rules:\n  packet/a:\n",
			`.baton.yaml:2:12: rule packet/a has no severity: want error, warning, info, hint or off, not empty`},
		{"severity a list", "rules:\n  packet/a: [off]\n",
			`.baton.yaml:2:13: rule packet/a has no severity: want error, warning, info, hint or off, not a list`},
		{"unknown top-level key", "rules: {}\nrule:\n  packet/a: off\n",
			`.baton.yaml:2:1: unknown key "rule" in the configuration (want rules, overrides, handoff, phrases, ignore or workflow)`},
		{"unknown handoff key", "handoff:\n  stateDir: /x\n",
			`.baton.yaml:2:3: unknown key "stateDir" in handoff (want state-dir)`},
		{"unknown kind", "overrides:\n  - files: x\n    kind: prompt\n",
			`.baton.yaml:3:11: overrides[0].kind must be packet, handoff, workflow or other, not "prompt"`},
		{"kind a list", "overrides:\n  - files: x\n    kind: [other]\n",
			`.baton.yaml:3:11: overrides[0].kind must be packet, handoff, workflow or other, not a list`},
		{"unknown override key", "overrides:\n  - files: x\n    severity: {}\n",
			`.baton.yaml:3:5: unknown key "severity" in overrides[0] (want files, rules, kind or workflow)`},
		{"duplicate top-level key", "rules: {}\nphrases: {}\nrules: {}\n",
			`.baton.yaml:3:1: the configuration sets rules twice (first at line 1)`},
		{"duplicate rule", "rules:\n  packet/x: off\n  packet/x: error\n",
			`.baton.yaml:3:3: rules sets packet/x twice (first at line 2)`},
		{"not a mapping", "- rules\n",
			`.baton.yaml:1:1: the configuration must be a mapping, not a list`},
		{"a scalar", "hello\n",
			`.baton.yaml:1:1: the configuration must be a mapping, not "hello"`},
		{"rules a list", "rules:\n  - packet/a\n",
			`.baton.yaml:2:3: rules must be a mapping, not a list`},
		{"complex key", "rules:\n  ? [a, b]\n  : off\n",
			`.baton.yaml:2:5: a key in rules must be a plain value, not a list`},
		{"overrides a mapping", "overrides:\n  files: x\n",
			`.baton.yaml:2:3: overrides must be a list of {files, rules}, not a mapping`},
		{"override a scalar", "overrides:\n  - drafts/**\n",
			`.baton.yaml:2:5: overrides[0] must be a mapping, not "drafts/**"`},
		{"override without files", "overrides:\n  - files: [a]\n  - rules: {packet/a: off}\n",
			`.baton.yaml:3:5: overrides[1] has no files: say which documents it applies to`},
		{"empty files", "overrides:\n  - files: []\n",
			`.baton.yaml:2:12: overrides[0].files is empty: give at least one pattern`},
		{"null files", "overrides:\n  - files:\n    rules: {}\n",
			`.baton.yaml:2:11: overrides[0].files is empty: give at least one pattern`},
		{"files a mapping", "overrides:\n  - files: {a: b}\n",
			`.baton.yaml:2:12: overrides[0].files must be a list of strings, not a mapping`},
		{"pattern a list", "overrides:\n  - files: [a, [b]]\n",
			`.baton.yaml:2:16: overrides[0].files must be a list of strings; this item is a list`},
		{"malformed pattern", "overrides:\n  - files: [ok, \"docs/[a\"]\n",
			`.baton.yaml:2:17: pattern "docs/[a": malformed, so it can never match: check its [ ] classes, { } braces and \ escapes`},
		{"unclosed brace", "overrides:\n  - files: [\"**/*.{md,markdown\"]\n",
			`.baton.yaml:2:13: pattern "**/*.{md,markdown": malformed, so it can never match: check its [ ] classes, { } braces and \ escapes`},
		{"empty segment", "overrides:\n  - files: [\"docs//a.md\"]\n",
			`.baton.yaml:2:13: pattern "docs//a.md": can never match: a document's path has no "" between two slashes`},
		{"dot segment", "overrides:\n  - files: [\"docs/./a.md\"]\n",
			`.baton.yaml:2:13: pattern "docs/./a.md": can never match: a document's path has no "." between two slashes`},
		{"absolute pattern", "overrides:\n  - files: /drafts/**\n",
			`.baton.yaml:2:12: pattern "/drafts/**": patterns are relative to the configuration file's folder: drop the leading /`},
		{"pattern above", "overrides:\n  - files: ../x.md\n",
			`.baton.yaml:2:12: pattern "../x.md": patterns match below the configuration file's folder only: ".." never matches`},
		{"empty pattern", "overrides:\n  - files: ['']\n",
			`.baton.yaml:2:13: pattern "": empty pattern`},
		{"override rules bad severity", "overrides:\n  - files: x\n    rules: {packet/a: loud}\n",
			`.baton.yaml:3:23: unknown severity "loud" for rule packet/a (want error, warning, info, hint or off)`},
		{"handoff a list", "handoff: [x]\n",
			`.baton.yaml:1:10: handoff must be a mapping, not a list`},
		{"state-dir empty", "handoff:\n  state-dir: ''\n",
			`.baton.yaml:2:14: handoff.state-dir must be a folder, not ""`},
		{"state-dir null", "handoff:\n  state-dir:\n",
			`.baton.yaml:2:13: handoff.state-dir must be a folder, not empty`},
		{"state-dir ~user", "handoff:\n  state-dir: ~bob/state\n",
			`.baton.yaml:2:14: handoff.state-dir "~bob/state": only ~ (your home folder) is expanded, not ~user`},
		{"phrases a list", "phrases: [held]\n",
			`.baton.yaml:1:10: phrases must be a mapping, not a list`},
		{"phrase list a mapping", "phrases:\n  held: {a: b}\n",
			`.baton.yaml:2:9: phrases.held must be a list of strings, not a mapping`},
		{"empty phrase", "phrases:\n  held: [on ice, '  ']\n",
			`.baton.yaml:2:18: phrases.held holds an empty phrase`},
		{"null phrase", "phrases:\n  held: [on ice, ~]\n",
			`.baton.yaml:2:18: phrases.held must be a list of strings; this item is empty`},
		{"two documents", "rules: {}\n---\nrules: {}\n",
			`.baton.yaml:2:1: a configuration file holds one YAML document; this is a second one`},
		{"YAML syntax: tab", "rules:\n\tpacket/a: off\n",
			`.baton.yaml:2: YAML: found character that cannot start any token`},
		{"YAML syntax: indentation", "rules:\n  a/b: off\nhandoff: x\n  bad: indent\n",
			`.baton.yaml:4: YAML: mapping values are not allowed in this context`},
		{"YAML syntax: unclosed quote", "rules:\n  a/b: 'off\n",
			`.baton.yaml:2: YAML: found unexpected end of stream`},
		{"YAML: unknown anchor", "rules: *nope\n",
			`.baton.yaml: YAML: unknown anchor 'nope' referenced`},
		{"every problem, in file order", "phrases:\n  held: ['']\nrule: {}\nrules:\n  a/b: fatal\nhandoff:\n  state-dir: []\n",
			".baton.yaml:2:10: phrases.held holds an empty phrase\n" +
				`.baton.yaml:3:1: unknown key "rule" in the configuration (want rules, overrides, handoff, phrases, ignore or workflow)` + "\n" +
				`.baton.yaml:5:8: unknown severity "fatal" for rule a/b (want error, warning, info, hint or off)` + "\n" +
				`.baton.yaml:7:14: handoff.state-dir must be a folder, not a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := config.Parse(".baton.yaml", []byte(tt.text))
			if err == nil {
				t.Fatalf("Parse = %+v, nil; want an error", f)
			}
			if f != nil {
				t.Errorf("Parse returned a File with its error")
			}
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Path != ".baton.yaml" || len(ce.Problems) == 0 {
				t.Errorf("error %#v is not a *config.Error for .baton.yaml", err)
			}
			if d := cmp.Diff(tt.want, err.Error()); d != "" {
				t.Errorf("message (-want +got):\n%s", d)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.FileName)
	if err := os.WriteFile(path, []byte("rules:\n  packet/heading-level: fatal\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := config.Load(path)
	if want := path + `:2:25: unknown severity "fatal"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load = %v, want %s…", err, want)
	}
	if err := os.WriteFile(path, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path || f.Dir != dir {
		t.Errorf("Path, Dir = %q, %q; want %q, %q", f.Path, f.Dir, path, dir)
	}
	if _, err := config.Load(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want a not-exist error", err)
	}
}

func TestValidate(t *testing.T) {
	reg := engine.Registry()
	tests := []struct {
		name, text, want string
	}{
		{"the example", example, ""},
		{"unknown rule, with a suggestion", "rules:\n  packet/heading-levl: off\n",
			`.baton.yaml:2:3: unknown rule "packet/heading-levl": did you mean packet/heading-level?`},
		{"unknown rule, nothing near", "rules:\n  nope/nothing-like-it: off\n",
			".baton.yaml:2:3: unknown rule \"nope/nothing-like-it\" (`baton explain` lists the rules)"},
		{"unknown rule in an override", "overrides:\n  - files: x\n    rules:\n      packet/section-order: off\n      packet/sections-order: off\n",
			`.baton.yaml:5:7: unknown rule "packet/sections-order": did you mean packet/section-order?`},
		{"unknown phrase list", "phrases:\n  hold: [on ice]\n  held: [on ice]\n",
			`.baton.yaml:2:3: unknown phrase list "hold" (want auto-continue, blocked, complete, held, informational, no-review, placeholder, request, response or substantive)`},
		{"every problem", "phrases:\n  x: [y]\nrules:\n  a/b: off\n",
			".baton.yaml:2:3: unknown phrase list \"x\" (want auto-continue, blocked, complete, held, informational, no-review, placeholder, request, response or substantive)\n" +
				".baton.yaml:4:3: unknown rule \"a/b\" (`baton explain` lists the rules)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := config.Parse(".baton.yaml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			err = f.Validate(reg)
			got := ""
			if err != nil {
				got = err.Error()
				var ce *config.Error
				if !errors.As(err, &ce) {
					t.Errorf("error %#v is not a *config.Error", err)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Validate (-want +got):\n%s", d)
			}
		})
	}
	var nilFile *config.File
	if err := nilFile.Validate(reg); err != nil {
		t.Errorf("nil File: %v", err)
	}
}

// TestReadmeExample: the schema the README shows parses and validates.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md shows no yaml block")
	}
	for _, b := range blocks {
		f, err := config.Parse(".baton.yaml", b[1])
		if err == nil {
			err = f.Validate(engine.Registry())
		}
		if err != nil {
			t.Errorf("README example:\n%s\n%v", b[1], err)
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "proj", config.FileName), "")
	write(t, filepath.Join(root, "proj", "sub", config.FileName), "")
	write(t, filepath.Join(root, "proj", "sub", "deep", "er", "doc.md"), "")
	write(t, filepath.Join(root, "proj", "other", "doc.md"), "")
	if err := os.MkdirAll(filepath.Join(root, "proj", "dirconf", config.FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, start, want string
	}{
		{"in the folder itself", "proj", "proj"},
		{"the nearest above", "proj/sub/deep/er", "proj/sub"},
		{"a file's folder", "proj/other", "proj"},
		{"a file", "proj/sub/deep/er/doc.md", "proj/sub"},
		{"a folder that does not exist", "proj/other/not/yet", "proj"},
		{"below a file", "proj/other/doc.md/x", "proj"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.Discover(filepath.Join(root, tt.start))
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(root, tt.want, config.FileName); got != want {
				t.Errorf("Discover = %q, want %q", got, want)
			}
		})
	}
	// A .baton.yaml that is there but is no file is an error naming it,
	// not skipped: whoever put it there meant it to configure baton.
	if err := os.Symlink(filepath.Join(root, "gone.yaml"), filepath.Join(root, "proj", "dangling", config.FileName)); err != nil {
		if err := os.MkdirAll(filepath.Join(root, "proj", "dangling"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, "gone.yaml"), filepath.Join(root, "proj", "dangling", config.FileName)); err != nil {
			t.Fatal(err)
		}
	}
	for start, want := range map[string]string{
		"proj/dirconf":  "dirconf/.baton.yaml is a folder, not a configuration file",
		"proj/dangling": "dangling/.baton.yaml is a symbolic link to nothing (it points to " + filepath.Join(root, "gone.yaml") + ")",
	} {
		if got, err := config.Discover(filepath.Join(root, start)); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Discover(%s) = %q, %v; want an error ending %q", start, got, err, want)
		}
	}
	t.Run("relative start", func(t *testing.T) {
		t.Chdir(filepath.Join(root, "proj", "sub", "deep"))
		got, err := config.Discover(".")
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(root, "proj", "sub", config.FileName); got != want {
			t.Errorf("Discover = %q, want %q", got, want)
		}
	})
	t.Run("none", func(t *testing.T) {
		none := filepath.Join(root, "none", "a", "b")
		if err := os.MkdirAll(none, 0o755); err != nil {
			t.Fatal(err)
		}
		got, err := config.Discover(none)
		if err != nil {
			t.Fatal(err)
		}
		if got != "" && strings.HasPrefix(got, root) {
			t.Errorf("Discover = %q, want none", got)
		}
		if got != "" {
			t.Skipf("a configuration above the temporary folder (%s) hides the none case", got)
		}
	})
}

func TestFor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.FileName)
	text := `rules:
  packet/heading-level: off
  packet/section-order: info
overrides:
  - files: ["drafts/**", "**/*.draft.md"]
    rules: { packet/review-not-held: warning, packet/section-order: hint }
  - files: "drafts/final/*.md"
    rules: { packet/section-order: error, packet/heading-level: warning }
  - files: "notes/"
handoff:
  state-dir: state
phrases:
  held: ["on ice"]
`
	write(t, path, text)
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	type sev = map[string]analysis.Severity
	base := sev{"packet/heading-level": analysis.Off, "packet/section-order": analysis.Info}
	tests := []struct {
		name, path string
		want       sev
	}{
		{"no override", filepath.Join(dir, "README.md"), base},
		{"first override by folder", filepath.Join(dir, "drafts", "a", "b.md"),
			sev{"packet/heading-level": analysis.Off, "packet/section-order": analysis.Hint, "packet/review-not-held": analysis.Warning}},
		{"first override by name, at any depth", filepath.Join(dir, "x", "y", "stop.draft.md"),
			sev{"packet/heading-level": analysis.Off, "packet/section-order": analysis.Hint, "packet/review-not-held": analysis.Warning}},
		{"both overrides, in order", filepath.Join(dir, "drafts", "final", "stop.md"),
			sev{"packet/heading-level": analysis.Warning, "packet/section-order": analysis.Error, "packet/review-not-held": analysis.Warning}},
		{"an override without rules", filepath.Join(dir, "notes", "n.md"), base},
		{"outside the folder", filepath.Join(filepath.Dir(dir), "drafts", "a.md"), base},
		{"not cleaned", dir + "/x/../drafts/a.md",
			sev{"packet/heading-level": analysis.Off, "packet/section-order": analysis.Hint, "packet/review-not-held": analysis.Warning}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, st := f.For(tt.path)
			if d := cmp.Diff(tt.want, cfg.Severity); d != "" {
				t.Errorf("Severity (-want +got):\n%s", d)
			}
			if d := cmp.Diff(map[string][]string{"held": {"on ice"}}, cfg.Phrases); d != "" {
				t.Errorf("Phrases (-want +got):\n%s", d)
			}
			if want := filepath.Join(dir, "state"); st.StateDir != want {
				t.Errorf("StateDir = %q, want %q", st.StateDir, want)
			}
		})
	}
	t.Run("relative path", func(t *testing.T) {
		t.Chdir(filepath.Join(dir))
		cfg, _ := f.For("drafts/a.md")
		if cfg.Severity["packet/review-not-held"] != analysis.Warning {
			t.Errorf("Severity = %v", cfg.Severity)
		}
	})
	t.Run("the result is the caller's", func(t *testing.T) {
		cfg, _ := f.For(filepath.Join(dir, "README.md"))
		cfg.Severity["packet/heading-level"] = analysis.Error
		cfg.Phrases["held"] = nil
		again, _ := f.For(filepath.Join(dir, "README.md"))
		if again.Severity["packet/heading-level"] != analysis.Off || len(again.Phrases["held"]) != 1 {
			t.Errorf("For shares its maps with the File: %+v", again)
		}
	})
	t.Run("nil File", func(t *testing.T) {
		var nilFile *config.File
		cfg, st := nilFile.For(filepath.Join(dir, "README.md"))
		if d := cmp.Diff(analysis.Config{}, cfg); d != "" || st != (config.Settings{}) {
			t.Errorf("nil File: %+v, %+v", cfg, st)
		}
	})
	t.Run("empty File", func(t *testing.T) {
		empty, err := config.Parse(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg, st := empty.For(filepath.Join(dir, "drafts", "a.md"))
		if d := cmp.Diff(analysis.Config{}, cfg); d != "" || st != (config.Settings{}) {
			t.Errorf("empty File: %+v, %+v", cfg, st)
		}
	})
}

// An override's kind forces the kind of the documents it matches; the
// last matching override that sets one wins, and says so.
func TestForKind(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.FileName)
	write(t, path, "overrides:\n  - files: \"docs/**\"\n    kind: other\n  - files: \"docs/flows/*.md\"\n    kind: workflow\n  - files: \"docs/flows/x.md\"\n    rules: { packet/heading-level: off }\n")
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path     string
		want     *markdown.Kind
		wantFrom string
	}{
		{"README.md", nil, ""},
		{"docs/a.md", ptr(markdown.KindOther), ".baton.yaml overrides[0]"},
		{"docs/flows/x.md", ptr(markdown.KindWorkflow), ".baton.yaml overrides[1]"},
	} {
		cfg, _ := f.For(filepath.Join(dir, filepath.FromSlash(tt.path)))
		if d := cmp.Diff(tt.want, cfg.Kind); d != "" || cfg.KindFrom != tt.wantFrom {
			t.Errorf("%s: Kind (-want +got):\n%s, from %q (want %q)", tt.path, d, cfg.KindFrom, tt.wantFrom)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// Rule patterns apply before the rule IDs of the same mapping, whatever
// the order written; an override's patterns apply after the top level.
func TestRulePatterns(t *testing.T) {
	f, err := config.Parse(filepath.Join(cwd(t), config.FileName), []byte(`rules:
  packet/missing-section: warning
  "packet/*": off
  "*/heading-*": info
overrides:
  - files: ["drafts/**"]
    rules:
      "packet/*": hint
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(engine.Registry()); err != nil {
		t.Fatal(err)
	}
	cfg, _ := f.For("stop.md")
	for id, want := range map[string]analysis.Severity{
		"packet/missing-section": analysis.Warning, // its ID beats the pattern
		"packet/heading-level":   analysis.Info,    // the later pattern wins
		"packet/section-order":   analysis.Off,
	} {
		if got := cfg.Severity[id]; got != want {
			t.Errorf("%s = %v, want %v", id, got, want)
		}
	}
	if _, ok := cfg.Severity["handoff/invented-path"]; ok {
		t.Error("a rule no pattern matches got a severity")
	}
	cfg, _ = f.For("drafts/stop.md")
	if got := cfg.Severity["packet/missing-section"]; got != analysis.Hint {
		t.Errorf("in drafts/, packet/missing-section = %v, want hint (the override)", got)
	}
}

func TestIgnore(t *testing.T) {
	f, err := config.Parse(filepath.Join(cwd(t), config.FileName), []byte("ignore:\n  - specs/\n  - \"*.draft.md\"\n  - \"!keep.draft.md\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"specs/a.md": true, "x/specs/a.md": true, "a.draft.md": true, "x/b.draft.md": true,
		"keep.draft.md": false, "a.md": false, filepath.Join(t.TempDir(), "specs", "a.md"): false,
	} {
		if got := f.Ignored(path, false) != nil; got != want {
			t.Errorf("%s: ignored = %v, want %v", path, got, want)
		}
	}
}
