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
type Workflow struct {
	// ComponentDirs are the folders component files are searched in, slash
	// paths relative to the folder holding the configuration file, cleaned;
	// nil when unset (the engine's default folders, components and ., are
	// searched), empty when set to an empty list (no folder is).
	ComponentDirs []string
	// Registered are names, * matching any run of characters, of the
	// components a host registers in TypeScript; they resolve.
	Registered []string
}

// workflow reads the workflow section.
func (p *parser) workflow(n *yaml.Node) {
	p.mapping(n, "workflow", keysOf(workflowKeys), func(key string, k, v *yaml.Node) {
		what := "workflow." + key
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
			p.f.Workflow.ComponentDirs = dirs
		case "registered":
			for i, name := range values {
				if msg := registeredName(name); msg != "" {
					p.errorf(nodes[i], "%s: %q %s", what, name, msg)
					continue
				}
				p.f.Workflow.Registered = append(p.f.Workflow.Registered, name)
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

// ComponentDirsBase is the folder the component folders are relative to,
// the configuration file's, or "" when it names none (or f is nil).
func (f *File) ComponentDirsBase() string {
	if f == nil || f.Workflow.ComponentDirs == nil {
		return ""
	}
	return f.Dir
}

// AddWorkflowEnv puts the workflow section in env, for a document whose
// workspace root is root: the component folders when root is the folder
// they are relative to (ComponentDirsBase), the names hosts register
// always. A nil File adds nothing.
func (f *File) AddWorkflowEnv(env analysis.Env, root string) {
	if f == nil {
		return
	}
	if f.Workflow.ComponentDirs != nil && root == f.Dir {
		env[workflow.EnvComponentDirs] = f.Workflow.ComponentDirs
	}
	if len(f.Workflow.Registered) > 0 {
		env[workflow.EnvRegistered] = f.Workflow.Registered
	}
}
