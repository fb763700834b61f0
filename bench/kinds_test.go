package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

// kindCorpusN documents of the generated corpus (1 KB to 1 MB, every kind,
// good and bad) are what the per-kind ratios run on: about 8 MB.
const kindCorpusN = 1000

var (
	kindOnce   sync.Once
	kindCorpus *Corpus
	kindEnv    map[markdown.Kind]analysis.Env
)

// registry is every analyzer baton ships, with the workflow analyzer added
// when the suite does not list it yet.
func registry(tb testing.TB) *analysis.Registry {
	as := engine.Analyzers()
	if !slices.Contains(as, workflow.Analyzer) {
		as = slices.Insert(as, len(as)-1, workflow.Analyzer) // before the suppression analyzer, which runs last
	}
	r, err := analysis.NewRegistry(as...)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// kindSetup generates the corpus once and the environment each kind is
// linted in: handoff documents resolve their sessions to ledgers read once
// from the written store (the server and CLI cache them the same way; the
// ledger's own cost is handoff/session's BenchmarkLedger*), workflows see a
// workspace holding the UserCheckpoint component.
func kindSetup(tb testing.TB) {
	kindOnce.Do(func() {
		kindCorpus = Generate(kindCorpusN, 1)
		dir, err := os.MkdirTemp("", "baton-bench-state-")
		if err != nil {
			tb.Fatal(err)
		}
		defer os.RemoveAll(dir)
		for p, t := range kindCorpus.State {
			name := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(t), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		store := session.NewStore()
		ledgers := map[string]handoff.Lookup{}
		for p := range kindCorpus.State {
			if filepath.Base(p) != "current.jsonl" {
				continue
			}
			sd := filepath.Join(dir, filepath.FromSlash(filepath.Dir(p)))
			l, err := store.Ledger(sd)
			ledgers[filepath.Base(sd)] = handoff.Lookup{Ledger: l, Err: err}
		}
		kindEnv = map[markdown.Kind]analysis.Env{
			markdown.KindHandoff: {handoff.EnvLedger: handoff.Resolver(func(id string) handoff.Lookup { return ledgers[id] })},
			markdown.KindWorkflow: {
				workflow.EnvFS:   fstest.MapFS{"components/UserCheckpoint.md": {Data: []byte(UserCheckpoint)}},
				workflow.EnvPath: "w.md",
			},
		}
	})
}

// BenchmarkKindRatio reports, per document kind, lint time (everything
// `baton check` does per document: parse, detect the kind, run every rule)
// over goldmark's parse time of the same documents, both run in one
// process, alternating. The goal is at most 1.5.
func BenchmarkKindRatio(b *testing.B) {
	kindSetup(b)
	reg := registry(b)
	for _, k := range []markdown.Kind{markdown.KindPacket, markdown.KindHandoff, markdown.KindWorkflow} {
		docs := kindCorpus.OfKind(k)
		b.Run(kindName[k], func(b *testing.B) { lintToParse(b, reg, docs, kindEnv[k]) })
	}
}

// BenchmarkKindRatioBySize is BenchmarkKindRatio split by document size:
// below 4 KB (most files), 4–64 KB, and 64 KB–1 MB. Per-document costs
// (front matter, maps, the workflow resolver) weigh most on small ones.
func BenchmarkKindRatioBySize(b *testing.B) {
	kindSetup(b)
	reg := registry(b)
	for _, k := range []markdown.Kind{markdown.KindPacket, markdown.KindHandoff, markdown.KindWorkflow} {
		for _, r := range []struct {
			name     string
			min, max int
		}{{"1-4KB", 0, 4 << 10}, {"4-64KB", 4 << 10, 64 << 10}, {"64KB-1MB", 64 << 10, 2 << 20}} {
			var docs []string
			for _, d := range kindCorpus.OfKind(k) {
				if len(d) >= r.min && len(d) < r.max {
					docs = append(docs, d)
				}
			}
			b.Run(kindName[k]+"/"+r.name, func(b *testing.B) {
				lintToParse(b, reg, docs, kindEnv[k])
				b.ReportMetric(float64(len(docs)), "docs")
			})
		}
	}
}

var kindName = map[markdown.Kind]string{markdown.KindPacket: "packet", markdown.KindHandoff: "handoff", markdown.KindWorkflow: "workflow"}

// lintToParse times goldmark's parse of docs, then baton's lint of them,
// alternating, and reports lint/parse, baton's own parse over goldmark's,
// and both throughputs.
func lintToParse(b *testing.B, reg *analysis.Registry, docs []string, env analysis.Env) {
	var size int64
	for _, d := range docs {
		size += int64(len(d))
	}
	md := goldmark.New()
	var parse, lint, own time.Duration
	for b.Loop() {
		t0 := time.Now()
		for _, d := range docs {
			md.Parser().Parse(text.NewReader([]byte(d)))
		}
		t1 := time.Now()
		for _, d := range docs {
			t := time.Now()
			doc := markdown.Parse("d.md", d)
			own += time.Since(t)
			reg.AnalyzeEnv(doc, nil, env)
		}
		parse += t1.Sub(t0)
		lint += time.Since(t1)
	}
	b.ReportMetric(float64(lint)/float64(parse), "lint/parse")
	// The share of lint that is baton's own parse (goldmark with the inline
	// parsers rules read, front matter, line index, headings, kind): the
	// rest is the rules.
	b.ReportMetric(float64(own)/float64(parse), "ownparse/parse")
	b.ReportMetric(float64(size)/(float64(parse)/float64(b.N))*1e3, "parseMB/s")
	b.ReportMetric(float64(size)/(float64(lint)/float64(b.N))*1e3, "lintMB/s")
	b.ReportMetric(0, "ns/op")
}

// TestGenerateIsDeterministic: the same seed gives the same bytes, every
// document is detected as the kind it was generated as, and the bad ones
// have findings.
func TestGenerateIsDeterministic(t *testing.T) {
	a, b := Generate(300, 3), Generate(300, 3)
	if len(a.Files) != len(b.Files) || len(a.State) != len(b.State) {
		t.Fatal("two generations with the same seed differ in size")
	}
	for i := range a.Files {
		if a.Files[i] != b.Files[i] {
			t.Fatalf("file %s differs between two generations with the same seed", a.Files[i].Path)
		}
	}
	for p, s := range a.State {
		if b.State[p] != s {
			t.Fatalf("state file %s differs between two generations with the same seed", p)
		}
	}
	kindSetup(t)
	reg := registry(t)
	seen := map[markdown.Kind]int{}
	for _, f := range kindCorpus.Files {
		doc := markdown.Parse(f.Path, f.Text)
		if doc.Kind != f.Kind {
			t.Errorf("%s: detected as %v, generated as %v", f.Path, doc.Kind, f.Kind)
			continue
		}
		seen[f.Kind]++
		if !f.Good && len(reg.AnalyzeEnv(doc, nil, kindEnv[f.Kind]).Findings) == 0 {
			t.Errorf("%s: generated bad, but baton finds nothing", f.Path)
		}
		if len(f.Text) < 1<<10 || len(f.Text) > 1<<20+64<<10 {
			t.Errorf("%s: %d bytes, outside 1 KB-1 MB", f.Path, len(f.Text))
		}
	}
	for _, k := range []markdown.Kind{markdown.KindPacket, markdown.KindHandoff, markdown.KindWorkflow} {
		if seen[k] == 0 {
			t.Errorf("no %v in the corpus", k)
		}
	}
}

// TestGoodPacketsAreClean: a packet generated well formed gets no error, and
// none of the FR-045a consistency findings: the generator writes its review
// request, its hold and the response it wants as a consistent packet does.
func TestGoodPacketsAreClean(t *testing.T) {
	reg := registry(t)
	c := Generate(600, 5)
	good := 0
	for _, f := range c.Files {
		if f.Kind != markdown.KindPacket || !f.Good {
			continue
		}
		good++
		for _, fd := range reg.Analyze(markdown.Parse(f.Path, f.Text), nil).Findings {
			if fd.Severity == analysis.Error || strings.HasPrefix(fd.Rule, "packet/review-") {
				t.Errorf("%s: generated good, but %s: %s", f.Path, fd.Rule, fd.Message)
			}
		}
	}
	if good == 0 {
		t.Fatal("no good packet generated")
	}
}

// TestWrittenCorpusResolvesItsComponent: the corpus written to a folder is
// a workspace holding the component its workflows invoke, so a linter run
// over the folder times the workflow rules, not one unresolved-component
// error per invocation.
func TestWrittenCorpusResolvesItsComponent(t *testing.T) {
	dir := t.TempDir()
	c := Generate(200, 7)
	if err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Sources{Registry: engine.Registry(), Static: true})
	workflows := 0
	for _, f := range c.Files {
		if f.Kind != markdown.KindWorkflow {
			continue
		}
		workflows++
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		env, err := eng.Env(engine.Request{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range eng.Analyze(env, path, f.Text).Findings {
			if fd.Rule == "workflow/unresolved-component" {
				t.Fatalf("%s: %s", f.Path, fd.Message)
			}
		}
	}
	if workflows == 0 {
		t.Fatal("no workflow generated")
	}
}
