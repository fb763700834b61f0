package bench

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/internal/workspace"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

// BenchmarkDetectKind weighs kind detection against goldmark's parse of the
// same documents, both in one process, alternating: the detectors Parse
// runs (XMD's evidence read from the text: front matter, executable code
// blocks, XMD's own tags, the other capitalised tags listed) and the
// environment's step (analysis.KindIn: each listed tag resolved in the
// workspace, as for an MDX page). detect/parse is the detectors' time over
// the parse's, kindin/parse the environment's.
//
// It runs on the generated corpus, on MDX-like pages (the documents whose
// every tag is listed and resolved: the worst case), and, when
// BATON_BENCH_TREE names a folder (specrew's tree, say), on every *.md in
// it resolved against that folder.
func BenchmarkDetectKind(b *testing.B) {
	kindSetup(b)
	type doc struct{ path, text string }
	var gen, pages []doc
	for i, f := range kindCorpus.Files {
		gen = append(gen, doc{f.Path, f.Text})
		if i%4 == 0 {
			pages = append(pages, doc{fmt.Sprintf("docs/page%05d.md", i), mdxPage(rand.New(rand.NewPCG(uint64(i), 7)), len(f.Text))})
		}
	}
	genRoot := b.TempDir()
	for _, d := range append(gen, pages...) {
		if err := writeBenchFile(filepath.Join(genRoot, filepath.FromSlash(d.path)), d.text); err != nil {
			b.Fatal(err)
		}
	}
	sets := []struct {
		name string
		root string
		docs []doc
	}{{"generated", genRoot, gen}, {"mdx-pages", genRoot, pages}}
	if tree := os.Getenv("BATON_BENCH_TREE"); tree != "" {
		var docs []doc
		_ = filepath.WalkDir(tree, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && len(data) <= markdown.MaxDocumentBytes {
				rel, _ := filepath.Rel(tree, p)
				docs = append(docs, doc{filepath.ToSlash(rel), string(data)})
			}
			return nil
		})
		sets = append(sets, struct {
			name string
			root string
			docs []doc
		}{filepath.Base(tree), tree, docs})
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			parsed := make([]*markdown.Document, len(set.docs))
			envs := make([]analysis.Env, len(set.docs))
			dirs := workflow.NewDirs()
			fsys := workspace.FS(set.root, nil)
			var size int64
			for i, d := range set.docs {
				parsed[i] = markdown.Parse(d.path, d.text)
				envs[i] = analysis.Env{workflow.EnvFS: fsys, workflow.EnvPath: d.path, workflow.EnvDirs: dirs}
				size += int64(len(d.text))
			}
			md := goldmark.New()
			var parse, detect, kindIn time.Duration
			candidates := 0
			for b.Loop() {
				t0 := time.Now()
				for _, d := range set.docs {
					md.Parser().Parse(text.NewReader([]byte(d.text)))
				}
				t1 := time.Now()
				for _, d := range parsed {
					markdown.DetectKind(d)
				}
				t2 := time.Now()
				candidates = 0
				for i, d := range parsed {
					if d.Kind == markdown.KindOther && len(d.Components) > 0 {
						candidates++
						analysis.KindIn(d, nil, envs[i])
					}
				}
				t3 := time.Now()
				parse, detect, kindIn = parse+t1.Sub(t0), detect+t2.Sub(t1), kindIn+t3.Sub(t2)
			}
			b.ReportMetric(float64(detect)/float64(parse), "detect/parse")
			b.ReportMetric(float64(kindIn)/float64(parse), "kindin/parse")
			b.ReportMetric(float64(len(set.docs)), "docs")
			b.ReportMetric(float64(candidates), "resolved-docs")
			b.ReportMetric(float64(size)/1e6, "MB")
		})
	}
}

// mdxPage is a documentation page of about size bytes as MDX and
// Docusaurus sites write them: components with attributes and children,
// HTML, code, placeholders and expressions in prose, no sign of XMD.
func mdxPage(r *rand.Rand, size int) string {
	var b strings.Builder
	b.WriteString("---\ntitle: A page\n---\n\n<Intro>\n\n" + sentence(r) + "\n\n</Intro>\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Part %d\n\n%s Use <TOPIC> or Option <X>. {props.value}\n\n", i, sentence(r))
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "<Sandpack>\n\n```js\nexport default function App%d() { return <Greeting name=\"x\" />; }\n```\n\n</Sandpack>\n\n", i)
		case 1:
			fmt.Fprintf(&b, "<Note title=\"%s\">\n%s\n</Note>\n\n", words[r.IntN(len(words))], sentence(r))
		case 2:
			fmt.Fprintf(&b, "<details>\n<summary>More</summary>\n\n%s\n\n</details>\n\n", sentence(r))
		default:
			fmt.Fprintf(&b, "- %s\n- %s <Badge text=\"new\" />\n\n", sentence(r), sentence(r))
		}
	}
	return b.String()
}

func writeBenchFile(p, text string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}
