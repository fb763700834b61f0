package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/config"
	"github.com/google/go-cmp/cmp"
)

func TestParseWorkflow(t *testing.T) {
	tests := []struct {
		name string
		text string
		want config.Workflow
	}{
		{"absent", "rules: {}\n", config.Workflow{}},
		{"empty section", "workflow:\n", config.Workflow{}},
		{"folders, cleaned, once each", "workflow:\n  component-dirs: [./smoke-test/, packages/core/components, smoke-test, .]\n",
			config.Workflow{ComponentDirs: []string{"smoke-test", "packages/core/components", "."}}},
		{"one folder", "workflow:\n  component-dirs: .reviews/components\n",
			config.Workflow{ComponentDirs: []string{".reviews/components"}}},
		{"an empty list searches no folder", "workflow:\n  component-dirs: []\n",
			config.Workflow{ComponentDirs: []string{}}},
		{"registered names and patterns", "workflow:\n  registered: [Probe, TestAgent.*, '*Provider']\n",
			config.Workflow{Registered: []string{"Probe", "TestAgent.*", "*Provider"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := config.Parse(".baton.yaml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, f.Workflow); d != "" {
				t.Errorf("Workflow (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseWorkflowErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       string
	}{
		{"unknown key", "workflow:\n  component-dir: [x]\n",
			`.baton.yaml:2:3: unknown key "component-dir" in workflow (want component-dirs, registered or mode)`},
		{"not a mapping", "workflow: [x]\n",
			`.baton.yaml:1:11: workflow must be a mapping, not a list`},
		{"folders not a list", "workflow:\n  component-dirs: {a: b}\n",
			`.baton.yaml:2:19: workflow.component-dirs must be a list of strings, not a mapping`},
		{"absolute folder", "workflow:\n  component-dirs: [ok, /abs]\n",
			`.baton.yaml:2:24: workflow.component-dirs: "/abs" is absolute: give it relative to the folder holding .baton.yaml`},
		{"folder outside", "workflow:\n  component-dirs:\n    - a/../../outside\n",
			`.baton.yaml:3:7: workflow.component-dirs: "a/../../outside" lies outside the folder holding .baton.yaml, which stands for the folder xmd runs in`},
		{"empty folder", "workflow:\n  component-dirs: ['']\n",
			`.baton.yaml:2:20: workflow.component-dirs: "" is empty: give a folder (. is the one holding .baton.yaml)`},
		{"lower-case name", "workflow:\n  registered: [probe]\n",
			`.baton.yaml:2:16: workflow.registered: "probe" is no component name: one starts with a capital letter (or is a pattern starting with *)`},
		{"name with a slash", "workflow:\n  registered: [Git/Push]\n",
			`.baton.yaml:2:16: workflow.registered: "Git/Push" is no component name: it holds / (a name holds letters, digits, . and _, a pattern also *)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse(".baton.yaml", []byte(tt.text))
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *config.Error", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("message:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// An override's workflow section replaces, for the documents it matches,
// each key it sets; the others stay the top-level ones.
func TestWorkflowFor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.FileName)
	text := "workflow:\n  component-dirs: [components]\n  registered: [Probe]\n" +
		"overrides:\n  - files: \"agent/**\"\n    workflow: { component-dirs: [agent/components] }\n" +
		"  - files: \"**/*.test.md\"\n    workflow: { mode: test, registered: [] }\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		want config.Workflow
	}{
		{"README.md", config.Workflow{ComponentDirs: []string{"components"}, Registered: []string{"Probe"}}},
		{"agent/README.md", config.Workflow{ComponentDirs: []string{"agent/components"}, Registered: []string{"Probe"}}},
		{"agent/a.test.md", config.Workflow{ComponentDirs: []string{"agent/components"}, Registered: []string{}, Mode: "test"}},
	} {
		got := f.WorkflowFor(filepath.Join(dir, filepath.FromSlash(tt.path)))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.path, d)
		}
	}
}
