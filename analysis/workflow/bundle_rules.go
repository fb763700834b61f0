package workflow

import (
	"fmt"
	"path"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
	"go.yaml.in/yaml/v3"
)

// checkBundle checks the `workflow` declaration of a workflow root as
// `xmd workflow start` reads it before the run exists
// (packages/cli/src/workflow-bundle.ts, declaredBundle, usableName,
// canonicalPath; packages/core/src/components/bundle.ts for core's names).
// The engine stops at the first refusal; baton reports each.
//
// A declaration that names `components` is one only that command reads,
// and is checked wherever it is written. One that does not (`workflow:
// true`, `workflow: {name: x}`) is another tool's key as far as `xmd run`
// is concerned: it is reported only where the configuration says the
// document is run by `xmd workflow start`.
func (k *checker) checkBundle() {
	c := k.c
	if c.bundleKey == nil {
		return
	}
	key, decl := c.bundleKey, c.bundleValue
	compsKey, comps := mapGet(decl, "components")
	if compsKey == nil {
		if k.configuredWorkflowRoot() {
			if decl == nil || decl.Kind != yaml.MappingNode {
				k.report(RuleBundle, c.yamlSpan(key), "workflow must be a mapping with one member, components (workflow: {components: {Plan: ./Plan.md}}): "+
					"`xmd workflow start` refuses the document before the run exists (\"the document's \\\"workflow\\\" frontmatter must be a mapping with one member, \\\"components\\\".\")")
			} else {
				k.report(RuleBundle, c.yamlSpan(key), "workflow declares no components member, and exactly one: write the bundle under workflow.components, or remove workflow: "+
					"`xmd workflow start` refuses the document before the run exists")
			}
		}
		return
	}
	for i := 0; i+1 < len(decl.Content); i += 2 {
		if m := decl.Content[i]; m.Value != "components" {
			k.report(RuleBundle, c.yamlSpan(m), fmt.Sprintf("workflow declares exactly one member, components: remove %s (`xmd workflow start` refuses the document before the run exists)", m.Value))
		}
	}
	comps = resolveAlias(comps)
	switch {
	case comps.Kind != yaml.MappingNode:
		k.report(RuleBundle, c.yamlSpan(compsKey), "workflow.components must be a mapping of component names to paths (Plan: ./Plan.md): `xmd workflow start` refuses the document before the run exists")
		return
	case len(comps.Content) == 0:
		k.report(RuleBundle, c.yamlSpan(compsKey), "workflow.components declares no component: declare one (Plan: ./Plan.md), or remove workflow to run the document without a bundle "+
			"(`xmd workflow start` refuses an empty bundle)")
		return
	}
	root := "."
	if c.Path != "" {
		root = path.Dir(c.Path)
	}
	for _, e := range c.Bundle {
		switch {
		case !isComponentName(e.Name):
			k.report(RuleBundle, e.NameSpan, fmt.Sprintf("%q is not a component name: each dot-separated part starts with an uppercase letter and holds only letters, digits and _ (`xmd workflow start` refuses the bundle)", e.Name))
			continue
		case Structural[e.Name]:
			k.report(RuleBundle, e.NameSpan, fmt.Sprintf("%s is structural syntax: a bundle cannot claim it", e.Name))
			continue
		case coreDefaults[e.Name]:
			k.report(RuleBundle, e.NameSpan, fmt.Sprintf("%s is a component the engine supplies: a bundle adds names, it cannot replace core's", e.Name))
			continue
		}
		if n := e.pathNode; n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
			k.report(RuleBundle, e.PathSpan, fmt.Sprintf("%s is declared without a path: give the relative path of the Markdown file beside the root (%s: ./%s.md)",
				e.Name, e.Name, strings.ReplaceAll(e.Name, ".", "/")))
			continue
		}
		p, why := bundlePath(root, e.Path)
		if why != "" {
			var opts []func(*analysis.Finding)
			if fix, ok := bundlePathFix(root, e); ok {
				opts = append(opts, analysis.WithFix(fix))
			}
			k.report(RuleBundle, e.PathSpan, fmt.Sprintf("%q is not a bundle path: it %s (a relative path of a .md file inside the root's folder, written once: no empty, . or .. segment, URL, package or glob)", e.Path, why), opts...)
			continue
		}
		if held, known := k.committed(p); known {
			// `xmd workflow start` reads the component from the HEAD
			// commit (readComponent), not from the working tree: a file
			// the commit holds runs as committed, whatever the working
			// tree has; one it does not hold refuses the start.
			if !held {
				msg := fmt.Sprintf("%s is not in the HEAD commit, which `xmd workflow start` reads a bundled component from: commit it (the start is refused: the component %q is not a file this workflow's commit holds)", p, e.Name)
				if k.r.fsys != nil && !k.r.isFile(p) {
					msg = fmt.Sprintf("%s: no such file in the workspace, nor in the HEAD commit `xmd workflow start` reads a bundled component from: create and commit it, or fix the path", p)
				}
				k.report(RuleBundle, e.PathSpan, msg)
			}
			continue
		}
		if k.r.fsys != nil && !k.r.isFile(p) {
			k.report(RuleBundle, e.PathSpan, fmt.Sprintf("%s: no such file in the workspace", p))
		}
	}
}

// committed reports whether the commit checked out holds the file at p (a
// path in the workspace), when the environment can tell (EnvCommitted).
func (k *checker) committed(p string) (held, known bool) {
	c, _ := k.pass.Env[EnvCommitted].(Committed)
	if c == nil {
		return false, false
	}
	return c.Holds(p)
}

// configuredWorkflowRoot reports a document the configuration says is run
// by `xmd workflow start`, and that is not a component another document's
// bundle lists.
func (k *checker) configuredWorkflowRoot() bool {
	mode, _ := k.pass.Env[EnvMode].(string)
	return mode == ModeWorkflow && k.r.isRunRoot()
}

// isComponentName is the engine's spelling of a component name
// (packages/core/src/components/registration.ts, isComponentName): each
// dot-separated part matches ^[A-Z][A-Za-z0-9_]*$.
func isComponentName(name string) bool {
	if name == "" {
		return false
	}
	for part := range strings.SplitSeq(name, ".") {
		if part == "" || part[0] < 'A' || part[0] > 'Z' {
			return false
		}
		for i := 1; i < len(part); i++ {
			if c := part[i]; !(isASCIILetter(c) || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
	}
	return true
}

// bundlePathFix writes a path refused only for a segment that walks
// nowhere (`sub//Plan.md`, `sub/./Plan.md`, `././Plan.md`) as the one
// path it means, keeping one leading `./`.
func bundlePathFix(root string, e *BundleEntry) (analysis.Fix, bool) {
	p := e.Path
	if strings.Contains(p, "..") || strings.ContainsAny(p, `"'\`) || e.pathNode == nil {
		return analysis.Fix{}, false
	}
	lead := ""
	if strings.HasPrefix(p, "./") {
		lead = "./"
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			segs = append(segs, s)
		}
	}
	clean := lead + strings.Join(segs, "/")
	if clean == p || len(segs) == 0 {
		return analysis.Fix{}, false
	}
	if _, why := bundlePath(root, clean); why != "" {
		return analysis.Fix{}, false
	}
	text := clean
	switch e.pathNode.Style {
	case yaml.DoubleQuotedStyle:
		text = `"` + clean + `"`
	case yaml.SingleQuotedStyle:
		text = "'" + clean + "'"
	case 0:
	default:
		return analysis.Fix{}, false
	}
	return analysis.Fix{Title: "Write the path " + clean, Safe: true,
		Edits: []analysis.Edit{{Span: markdown.Span{Start: e.PathSpan.Start, End: e.PathSpan.End}, NewText: text}}}, true
}
