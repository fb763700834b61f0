package workflow_test

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/analysistest"
	"github.com/rogpeppe/go-internal/txtar"
)

// searchLayout is a workspace, a document in it, and the engine's search
// path for that document, written out by hand from the engine's source
// (see workflow.SearchDirs): the test derives what each tag resolves to
// from that path alone, by the engine's probe, and asks baton's answers to
// agree with it.
type searchLayout struct {
	name  string
	doc   string            // the document's path in the workspace
	files map[string]string // the workspace's other files
	// search is the engine's search path for doc: each folder is probed
	// for N.md, N.ts, N/index.md, N/index.ts (a dot in N a folder).
	search []string
	// registered are the names .baton.yaml's workflow.registered names (a
	// trailing * matching any run), resolving with no file.
	registered []string
	// bundled are the names the workflow bundle that lists doc declares,
	// with their files. A workflow run resolves a member's other names
	// through no file: one search finds is reported all the same.
	bundled map[string]string
}

// The component files: a Markdown component with front matter (so that
// completion offers it too) and a .ts one, read by nobody.
const (
	mdComponent = "---\nprops:\n  type: { type: string }\n---\nA note.\n"
	tsComponent = "export default function* Component() {}\n"
)

// searchTags are the names each layout is asked about: a plain name and a
// dotted one, which is a folder to the engine.
var searchTags = []string{"Callout", "Ui.Card"}

var searchLayouts = []searchLayout{
	{
		name:   "beside the document",
		doc:    "docs/page.md",
		files:  map[string]string{"docs/Callout.md": mdComponent, "docs/Ui/Card.ts": tsComponent},
		search: []string{"components", ".", "docs"},
	},
	{
		name:   "in the root's components",
		doc:    "docs/guide/page.md",
		files:  map[string]string{"components/Callout.ts": tsComponent, "components/Ui/Card/index.md": mdComponent},
		search: []string{"components", ".", "docs/guide"},
	},
	{
		name:   "in the root folder",
		doc:    "docs/page.md",
		files:  map[string]string{"Callout.md": mdComponent, "Ui/Card/index.ts": tsComponent},
		search: []string{"components", ".", "docs"},
	},
	{
		// The case: a documentation site's components folder. The
		// engine run from the root searches components/ and ./ there; no
		// folder of the default path is docs/components.
		name:   "in docs/components above a nested document",
		doc:    "docs/guide/page.md",
		files:  map[string]string{"docs/components/Callout.ts": tsComponent, "docs/components/Ui/Card.md": mdComponent},
		search: []string{"components", ".", "docs/guide"},
	},
	{
		name:   "in docs/components below the document's folder",
		doc:    "docs/page.md",
		files:  map[string]string{"docs/components/Callout.ts": tsComponent, "docs/components/Ui/Card.md": mdComponent},
		search: []string{"components", ".", "docs"},
	},
	{
		name:   "in a folder above the document",
		doc:    "docs/guide/page.md",
		files:  map[string]string{"docs/Callout.md": mdComponent, "docs/Ui/Card.ts": tsComponent},
		search: []string{"components", ".", "docs/guide"},
	},
	{
		// xmd test DIR: the document's folder, the folder given (any
		// above), then the configured ones (test-target.ts).
		name:   "a test document, in a folder above it",
		doc:    "docs/guide/page.test.md",
		files:  map[string]string{"docs/Callout.md": mdComponent, "docs/components/Ui/Card.md": mdComponent},
		search: []string{"docs/guide", "docs", ".", "components"},
	},
	{
		// --component-dir replaces the defaults: neither components/ nor
		// the document's folder is searched.
		name: "in a configured component folder",
		doc:  "docs/page.md",
		files: map[string]string{
			".baton.yaml":           "workflow:\n  component-dirs: [site/xmd]\n",
			"site/xmd/Callout.md":   mdComponent,
			"components/Ui/Card.md": mdComponent,
			"docs/Ui/Card.ts":       tsComponent,
		},
		search: []string{"site/xmd"},
	},
	{
		name:       "registered by a host",
		doc:        "docs/page.md",
		files:      map[string]string{".baton.yaml": "workflow:\n  registered: [Callout, Ui.*]\n"},
		search:     []string{"components", ".", "docs"},
		registered: []string{"Callout", "Ui.*"},
	},
	{
		// A member of a workflow bundle resolves its names through it;
		// what the bundle does not declare, through the files.
		name: "in the workflow bundle that lists the document",
		doc:  "wf/stages/Plan.md",
		files: map[string]string{
			"wf/start.md":           "---\nworkflow:\n  components:\n    Plan: ./stages/Plan.md\n    Callout: ./parts/Callout.md\n---\n\n<Plan />\n",
			"wf/parts/Callout.md":   mdComponent,
			"components/Ui/Card.md": mdComponent,
		},
		search:  []string{"components", ".", "wf/stages"},
		bundled: map[string]string{"Callout": "wf/parts/Callout.md"},
	},
	{
		name:   "nowhere",
		doc:    "docs/page.md",
		files:  map[string]string{"docs/components/Other.ts": tsComponent},
		search: []string{"components", ".", "docs"},
	},
}

// The engine's answers (packages/core/src/components/select.ts,
// selectComponent).
const (
	unresolved = "unresolved"
	registered = "registered"
	bundled    = "bundle"
	file       = "file"
	// outside: a file `xmd run` finds for a member of a workflow bundle,
	// which a workflow run, searching no files, does not.
	outside = "outside"
)

// engineResolves is what the engine's search path answers for name, and
// the file: the bundle's entry, a registered name, the first candidate
// file that exists (probeComponentPath), else unresolved.
func (l searchLayout) engineResolves(name string) (kind, at string) {
	if p, ok := l.bundled[name]; ok {
		return bundled, p
	}
	for _, r := range l.registered {
		if r == name || strings.HasSuffix(r, "*") && strings.HasPrefix(name, strings.TrimSuffix(r, "*")) {
			return registered, ""
		}
	}
	n := strings.ReplaceAll(name, ".", "/")
	for _, dir := range l.search {
		for _, c := range []string{n + ".md", n + ".ts", n + "/index.md", n + "/index.ts"} {
			if _, ok := l.files[path.Join(dir, c)]; ok {
				if l.bundled != nil {
					return outside, path.Join(dir, c)
				}
				return file, path.Join(dir, c)
			}
		}
	}
	return unresolved, ""
}

// analyzeAt lays out files and the document in a repository and analyses
// the document as every entry point does.
func analyzeAt(t *testing.T, files map[string]string, docPath, text string) *analysis.Result {
	t.Helper()
	dir := t.TempDir()
	put := func(p, data string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(".git/HEAD", "ref: refs/heads/main\n")
	for p, data := range files {
		put(p, data)
	}
	put(docPath, text)
	return analysistest.AnalyzeAt(t, filepath.Join(dir, filepath.FromSlash(docPath)), docPath, text, "")
}

func unresolvedFindings(res *analysis.Result, name string) []analysis.Finding {
	var out []analysis.Finding
	for _, f := range res.Findings {
		if f.Rule == workflow.RuleUnresolvedComponent.ID && strings.HasPrefix(f.Message, "<"+name+">") {
			out = append(out, f)
		}
	}
	return out
}

// No tag is ever both resolved and unresolved: for every layout and tag,
// the kind check (workflow.Confirm, on a page nothing else makes a
// workflow), the unresolved-component rule, hover, definition and
// completion (on a workflow) give the one answer the engine's search path
// gives.
func TestComponentSearchPathOneAnswer(t *testing.T) {
	for _, l := range searchLayouts {
		for _, name := range searchTags {
			t.Run(l.name+"/"+name, func(t *testing.T) {
				kind, want := l.engineResolves(name)
				resolves := kind == registered || kind == bundled || kind == file
				tag := "<" + name + " type=\"tip\">Keep it short.</" + name + ">\n"

				// The kind check, on a page only the tag could make a workflow.
				page := "# A page\n\n" + tag
				res := analyzeAt(t, l.files, l.doc, page)
				confirmed := res.Doc.Kind == markdown.KindWorkflow
				switch {
				case confirmed != resolves:
					t.Errorf("the page is read as %s (%s); the engine's answer for <%s> is %s %s", res.Doc.Kind, res.Doc.KindWhy, name, kind, want)
				case confirmed && !strings.Contains(res.Doc.KindWhy, want):
					t.Errorf("the page is a workflow because %s; the engine resolves <%s> to %s", res.Doc.KindWhy, name, want)
				case !confirmed && len(res.Findings) > 0:
					t.Errorf("a page that is no workflow has findings: %v", res.Findings)
				}
				if u := unresolvedFindings(res, name); confirmed && len(u) > 0 {
					t.Errorf("<%s> made the page a workflow (%s) and is reported unresolved: %s", name, res.Doc.KindWhy, u[0].Message)
				}

				// The rule and the editor features, on a workflow by its front matter.
				wf := "---\nprops: {}\n---\n\n" + tag
				res = analyzeAt(t, l.files, l.doc, wf)
				if res.Doc.Kind != markdown.KindWorkflow {
					t.Fatalf("the workflow is read as %s", res.Doc.Kind)
				}
				if u := unresolvedFindings(res, name); (len(u) > 0) == resolves {
					t.Errorf("unresolved-component findings %v; the engine's answer for <%s> is %s %s", u, name, kind, want)
				}
				off := strings.Index(wf, "<"+name) + 1
				var defs []string
				for _, loc := range workflow.Definition(res, off) {
					defs = append(defs, loc.Path)
				}
				var wantDefs []string
				if want != "" {
					wantDefs = []string{want}
				}
				if !slices.Equal(defs, wantDefs) {
					t.Errorf("definition of <%s> = %q, want %q", name, defs, wantDefs)
				}
				hover := ""
				for _, h := range workflow.Hover(res, off) {
					hover += h.Markdown
				}
				wantHover := map[string]string{unresolved: "unresolved", registered: "registered component",
					bundled: "`" + want + "`", file: "`" + want + "`", outside: "a workflow run does not find it"}[kind]
				if !strings.Contains(hover, wantHover) {
					t.Errorf("hover on <%s> says %q, want %q in it", name, hover, wantHover)
				}

				// Completion offers a component file's name as the name
				// that resolves to it, and only from the search path.
				open := wf + "<"
				res = analyzeAt(t, l.files, l.doc, open)
				offered := ""
				if c := workflow.Complete(res, len(open)); c != nil {
					for _, it := range c.Items {
						if it.Label == name {
							offered = it.Detail
						}
					}
				}
				wantOffer := map[string]string{bundled: "workflow bundle: ", file: "component file: " + want, outside: "component file: " + want}[kind]
				if (offered == "") != (wantOffer == "") || !strings.HasPrefix(offered, wantOffer) {
					t.Errorf("completion offers <%s> as %q, want %q", name, offered, wantOffer)
				}
			})
		}
	}
}

// A documentation site whose pages use its own MDX and Vue components,
// with a components/ folder below the root (testdata/docs-site.txtar):
// each page is read as the engine would read it from the search path. A
// page whose tags the engine does not resolve is no workflow and gets no
// finding; the one it resolves <Callout> from is a workflow, and that tag
// is not reported unresolved.
func TestDocsSiteComponentsKind(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "docs-site.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	want := map[string]string{}
	for _, f := range ar.Files {
		if f.Name != "kinds" {
			files[f.Name] = string(f.Data)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
			p, kind, _ := strings.Cut(line, " ")
			want[p] = kind
		}
	}
	pages := 0
	for p, text := range files {
		if !strings.HasSuffix(p, ".md") {
			continue
		}
		pages++
		res := analyzeAt(t, files, p, text)
		kind := res.Doc.Kind.String()
		if kind != want[p] {
			t.Errorf("%s is read as %s (%s), want %s", p, kind, res.Doc.KindWhy, want[p])
		}
		switch {
		case kind != "workflow":
			for _, f := range res.Findings {
				t.Errorf("%s, no workflow, has a finding: %s %s", p, f.Rule, f.Message)
			}
		case len(unresolvedFindings(res, "Callout")) > 0:
			t.Errorf("%s is a workflow because %s, and <Callout> is reported unresolved", p, res.Doc.KindWhy)
		}
	}
	if pages != len(want) {
		t.Errorf("%d pages, %d kinds listed", pages, len(want))
	}
}
