package main

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/safefile"
)

// checker lints documents for `baton check`.
type checker struct {
	eng *engine.Engine
	reg *analysis.Registry
	fix fixOptions

	// linked maps each symbolic link a folder walk found to the walked
	// folder: --fix writes through it only to a file inside that folder.
	linked map[string]string
}

// newChecker builds the checker of one run: the engine every entry point
// uses, reading sessions from stateDir (--state-dir) first, then the
// configuration's state-dir, then clio-coder's folders; explicit is the
// --config file, or nil for the nearest .baton.yaml above each document.
func newChecker(reg *analysis.Registry, fix fixOptions, stateDir string, explicit *config.File) *checker {
	store := session.NewStore()
	src := engine.Sources{
		Registry: reg,
		Static:   true, // one run: what a walk up from a folder finds is found once
		Ledger: func(fromConfig string) handoff.Resolver {
			return resolverWith(store, cmp.Or(stateDir, fromConfig))
		},
	}
	if explicit != nil {
		src.Config = engine.Explicit(explicit)
	}
	return &checker{eng: engine.New(src), reg: reg, fix: fix}
}

// checkFiles reads and analyses files, in order, reporting on stderr any
// it cannot read, and writes their fixes with --fix. Without --fix it
// analyses as many at once as there are CPUs: the analyses share only
// what is safe to share (the session store, the component and bundle
// caches, the configurations), and the results are reported in order.
// With --fix it goes one by one, each file's fixes written before the next
// is read, since a fixed file may be a component a later one invokes.
func (c *checker) checkFiles(files []string, stderr io.Writer) (results []*fileResult, ok bool) {
	type checked struct {
		r   *fileResult
		err error
	}
	out := make([]checked, len(files))
	work := func(i int) {
		text, err := safefile.ReadFile(files[i], analysis.MaxDocumentBytes)
		if errors.Is(err, safefile.ErrTooLarge) {
			// Not read, and said so in one finding: a huge generated file
			// does not stop the run.
			if fi, serr := os.Stat(files[i]); serr == nil {
				f, _ := c.configFor(files[i])
				cfg, _ := f.For(files[i])
				out[i].r = newResult(files[i], "", "", c.reg.TooLargeResult(files[i], fi.Size(), &cfg))
				return
			}
		}
		if err != nil {
			out[i].err = err
			return
		}
		out[i].r = c.check(files[i], files[i], string(text))
		// Reporting reads the text, its lines and the findings: the
		// syntax tree is most of a document's memory, and held until every
		// file is done it made peak memory grow with the whole run.
		out[i].r.doc.DropSyntax()
	}
	ok = true
	done := func(i int) {
		if out[i].err != nil {
			printErr(stderr, out[i].err)
			ok = false
			return
		}
		if !c.writeFixed(out[i].r, stderr) {
			ok = false
		}
		results = append(results, out[i].r)
	}
	if n := min(runtime.GOMAXPROCS(0), len(files)); n > 1 && !c.fix.fix {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
					work(i)
				}
			})
		}
		wg.Wait()
		for i := range files {
			done(i)
		}
		return results, ok
	}
	for i := range files {
		work(i)
		done(i)
	}
	return results, ok
}

// configFor returns the configuration of a document ("<stdin>": the
// working folder's).
func (c *checker) configFor(name string) (*config.File, error) {
	if name == "<stdin>" {
		name = ""
	}
	return c.eng.ConfigFor(name)
}

// analyze analyses a document in the environment every entry point builds
// for it (engine.Env). A broken configuration was reported when the file
// was first checked; the document is then analysed with the defaults.
func (c *checker) analyze(name, text string) *analysis.Result {
	path := name
	if name == "<stdin>" {
		path = ""
	}
	env, err := c.eng.Env(engine.Request{Path: path})
	if err != nil {
		return c.reg.AnalyzeEnv(analysis.Parse(name, text), nil, nil)
	}
	return c.eng.Analyze(env, name, text)
}

// check analyses one document; with --fix or --diff, the text its safe fixes
// make of it.
func (c *checker) check(name, path, text string) *fileResult {
	if c.fix.fixing() {
		return newResult(name, path, text, analysis.FixAll(func(t string) *analysis.Result { return c.analyze(name, t) }, text))
	}
	return newResult(name, path, text, c.analyze(name, text))
}

// report prints what check found: the fixed standard input (--fix) or the
// diff (--diff) on stdout, and the findings in the chosen format, on stdout
// unless stdout carries text. It returns the exit status the findings and
// fixes call for, and false when printing failed.
func (c *checker) report(results []*fileResult, out outputOptions, stdout, stderr io.Writer) (code int, ok bool) {
	code = exitOK
	findingsTo := stdout
	var text bytes.Buffer // what stdout carries instead of the findings
	for _, r := range results {
		switch {
		case c.fix.diff:
			findingsTo = stderr
			if d := unifiedDiff(r.name, r.original, r.doc.Text); d != nil {
				text.Write(d)
				code = exitFindings
			}
		case c.fix.fix && r.path == "":
			findingsTo = stderr
			text.WriteString(r.doc.Text)
		}
		if slices.ContainsFunc(r.findings, func(f analysis.Finding) bool { return f.Severity == analysis.Error }) {
			code = exitFindings
		}
	}
	if _, err := stdout.Write(text.Bytes()); err != nil {
		printErr(stderr, err)
		return code, false
	}
	if err := writeFindings(findingsTo, results, c.reg, out); err != nil {
		printErr(stderr, err)
		return code, false
	}
	return code, true
}
