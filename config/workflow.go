package config

import (
	"path"
	"slices"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"go.yaml.in/yaml/v3"
)

// Workflow is the workflow section: how XMD components resolve, for what
// no static reading of the workspace tells.
//
//	workflow:
//	  component-dirs: [smoke-test, packages/core/components]  # the engine's --component-dir
//	  registered: [TestAgent.*, Probe]                        # names a host registers at run time
//	  mode: run                                               # run | test | workflow
//
// An override may hold a workflow section too, for the documents it
// matches: each key it sets replaces the top-level one.
type Workflow struct {
	// ComponentDirs are the folders component files are searched in, slash
	// paths relative to the folder holding the configuration file, cleaned;
	// nil when unset (the engine's default folders, components and . of
	// the workspace root, and the document's own folder are searched; see
	// workflow.SearchDirs), empty when set to an empty list (no folder is).
	ComponentDirs []string
	// Registered are names, * matching any run of characters, of the
	// components a host registers in TypeScript; they resolve. nil when
	// unset, as ComponentDirs.
	Registered []string
	// Mode is how the engine runs the documents (workflow.ModeRun,
	// ModeTest, ModeWorkflow), or "" to tell by the document (see
	// workflow.EnvMode).
	Mode string
}

// workflow reads the workflow section (what: where it is, "workflow" or
// "overrides[i].workflow").
func (p *parser) workflow(n *yaml.Node, what0 string, w *Workflow) {
	p.mapping(n, what0, keysOf(workflowKeys), func(key string, k, v *yaml.Node) {
		what := what0 + "." + key
		if key == "mode" {
			switch {
			case v.Kind != yaml.ScalarNode || isNull(v) || !slices.Contains([]string{workflow.ModeRun, workflow.ModeTest, workflow.ModeWorkflow}, v.Value):
				p.errorf(v, "%s must be run, test or workflow, not %s", what, describe(v))
			default:
				w.Mode = v.Value
			}
			return
		}
		values, nodes, ok := p.stringList(v, what)
		if !ok {
			return
		}
		switch key {
		case "component-dirs":
			dirs := []string{}
			for i, d := range values {
				clean, msg := componentDir(d)
				if msg != "" {
					p.errorf(nodes[i], "%s: %q %s", what, d, msg)
					continue
				}
				if !slices.Contains(dirs, clean) {
					dirs = append(dirs, clean)
				}
			}
			w.ComponentDirs = dirs
		case "registered":
			w.Registered = []string{}
			for i, name := range values {
				if msg := registeredName(name); msg != "" {
					p.errorf(nodes[i], "%s: %q %s", what, name, msg)
					continue
				}
				w.Registered = append(w.Registered, name)
			}
		}
	})
}

// componentDir cleans a component folder, or says why it is not one.
func componentDir(d string) (string, string) {
	switch {
	case strings.TrimSpace(d) == "":
		return "", "is empty: give a folder (. is the one holding .baton.yaml)"
	case strings.Contains(d, "\\"):
		return "", "holds a backslash: separate folders with /"
	case strings.HasPrefix(d, "/") || (len(d) > 1 && d[1] == ':'):
		return "", "is absolute: give it relative to the folder holding .baton.yaml"
	}
	clean := path.Clean(d)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", "lies outside the folder holding .baton.yaml, which stands for the folder xmd runs in"
	}
	return clean, ""
}

// registeredName says why a name cannot be a component's, or "".
func registeredName(name string) string {
	if name == "" {
		return "is empty"
	}
	if name[0] != '*' && (name[0] < 'A' || name[0] > 'Z') {
		return "is no component name: one starts with a capital letter (or is a pattern starting with *)"
	}
	for _, c := range name {
		if !(c == '.' || c == '_' || c == '*' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return "is no component name: it holds " + strings.TrimSpace(string(c)) + " (a name holds letters, digits, . and _, a pattern also *)"
		}
	}
	return ""
}

// WorkflowFor is the workflow section that applies to the document at
// path: the top-level one, then each matching override's keys in order.
func (f *File) WorkflowFor(path string) Workflow {
	if f == nil {
		return Workflow{}
	}
	w := f.Workflow
	rel := f.relative(path)
	for _, o := range f.Overrides {
		if o.Workflow == nil || rel == "" || !o.matches(rel) {
			continue
		}
		if o.Workflow.ComponentDirs != nil {
			w.ComponentDirs = o.Workflow.ComponentDirs
		}
		if o.Workflow.Registered != nil {
			w.Registered = o.Workflow.Registered
		}
		if o.Workflow.Mode != "" {
			w.Mode = o.Workflow.Mode
		}
	}
	return w
}

// ComponentDirsBase is the folder the component folders of the document
// at path are relative to, the configuration file's, or "" when it names
// none for it (or f is nil).
func (f *File) ComponentDirsBase(path string) string {
	if f == nil || f.WorkflowFor(path).ComponentDirs == nil {
		return ""
	}
	return f.Dir
}

// AddWorkflowEnv puts the workflow section that applies to the document at
// path in env, for a workspace root of root: the component folders when
// root is the folder they are relative to (ComponentDirsBase), the names
// hosts register and the mode always. A nil File adds nothing.
func (f *File) AddWorkflowEnv(env analysis.Env, root, path string) {
	if f == nil {
		return
	}
	w := f.WorkflowFor(path)
	if w.ComponentDirs != nil && root == f.Dir {
		env[workflow.EnvComponentDirs] = w.ComponentDirs
	}
	if len(w.Registered) > 0 {
		env[workflow.EnvRegistered] = w.Registered
	}
	if w.Mode != "" {
		env[workflow.EnvMode] = w.Mode
	}
}
