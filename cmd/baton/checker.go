package main

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/internal/workspace"
)

// checker lints documents for `baton check`.
type checker struct {
	reg *analysis.Registry
	fix fixOptions

	stateDir string       // --state-dir
	explicit *config.File // --config, when given
	configs  map[string]*config.File
	store    *session.Store
	// dirs remembers, per workspace root, which files may declare a
	// workflow bundle: the files do not change during a run (fixes touch
	// tags and props, not workflow.components).
	dirs map[string]*workflow.Dirs
	mu   sync.Mutex // guards configs and dirs: files are checked several at once
	// linked maps each symbolic link a folder walk found to the walked
	// folder: --fix writes through it only to a file inside that folder.
	linked map[string]string
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

// configFor returns the configuration of a document: --config, else the
// nearest .baton.yaml above it (standard input: above the working folder).
func (c *checker) configFor(name string) (*config.File, error) {
	if c.explicit != nil {
		return c.explicit, nil
	}
	dir := "."
	if name != "<stdin>" {
		dir = filepath.Dir(name)
	}
	path, err := config.Discover(dir)
	if err != nil || path == "" {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.configs[path]; ok {
		return f, nil
	}
	f, err := loadConfig(path, c.reg)
	if err != nil {
		return nil, err
	}
	c.configs[path] = f
	return f, nil
}

func loadConfig(path string, reg *analysis.Registry) (*config.File, error) {
	f, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if err := f.Validate(reg); err != nil {
		return nil, err
	}
	return f, nil
}

func (c *checker) analyze(name, text string) *analysis.Result {
	f, _ := c.configFor(name) // errors were reported when the file was first checked
	cfg, settings := f.For(name)
	dir := cmp.Or(c.stateDir, settings.StateDir)
	env := analysis.Env{handoff.EnvLedger: resolverWith(c.store, dir)}
	if name != "<stdin>" {
		if abs, err := filepath.Abs(name); err == nil {
			root := workspace.RootFor(abs, f.ComponentDirsBase())
			env[workflow.EnvFS] = workspace.FS(root, nil)
			env[workflow.EnvPath] = workspace.Rel(root, abs)
			f.AddWorkflowEnv(env, root)
			c.mu.Lock()
			if c.dirs == nil {
				c.dirs = map[string]*workflow.Dirs{}
			}
			if c.dirs[root] == nil {
				c.dirs[root] = workflow.NewDirs()
			}
			env[workflow.EnvDirs] = c.dirs[root]
			c.mu.Unlock()
		}
	}
	return c.reg.AnalyzeEnv(analysis.Parse(name, text), &cfg, env)
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
