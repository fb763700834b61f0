package check

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/heapbudget"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/report"
)

// checker lints documents for `baton check`.
type checker struct {
	eng *engine.Engine
	reg *analysis.Registry
	fix FixOptions

	// linked maps each symbolic link a folder walk found to the walked
	// folder: --fix writes through it only to a file inside that folder.
	linked map[string]string
}

// newChecker builds the checker of one run: the engine every entry point
// uses, reading sessions from stateDir (--state-dir) first, then the
// configuration's state-dir, then clio-coder's folders; explicit is the
// --config file, or nil for the nearest .baton.yaml above each document.
func newChecker(reg *analysis.Registry, fix FixOptions, stateDir string, explicit *config.File) *checker {
	eng := engine.ForFiles(engine.FilesOptions{
		Registry: reg,
		Store:    session.NewStore(),
		StateDir: stateDir,
		Config:   explicit,
		Static:   true, // one run: what a walk up from a folder finds is found once
	})
	return &checker{eng: eng, reg: reg, fix: fix}
}

// checkFiles reads and analyses the files walk gives (a file, or what the
// walk could not read, in its place) and hands each result to emit, in the
// walk's order, reporting on stderr what could not be read; with --fix a
// file's fixes are written before it is emitted. Without --fix the walk
// goes on beside the analyses, and as many files are analysed at once as
// there are CPUs: the analyses share only what is safe to share (the
// session store, the component and bundle caches, the configurations). A
// result is emitted as soon as every file before it has been, and dropped
// by the caller once reported, so memory stays bounded by the files in
// flight, not the whole run: the workers are held at most aheadFiles files
// a worker, and heldBytes of analysed text, ahead of the oldest one not yet
// emitted. With --fix it goes one by one, each file's fixes written before
// the next is read, since a fixed file may be a component a later one
// invokes; and the walk ends first.
func (c *checker) checkFiles(walk func(add func(file string, err error)), stderr io.Writer, emit func(*fileResult)) (ok bool) {
	ok = true
	done := func(r *fileResult, err error) {
		if err != nil {
			printErr(stderr, err)
			ok = ok && errors.As(err, new(notice))
			return
		}
		if !c.writeFixed(r, stderr) {
			ok = false
		}
		emit(r)
	}
	type checked struct {
		file string
		r    *fileResult
		err  error // the walk's, or the file's
		done chan struct{}
	}
	n := runtime.GOMAXPROCS(0)
	if n <= 1 || c.fix.fix {
		var files []checked
		walk(func(f string, err error) { files = append(files, checked{file: f, err: err}) })
		for _, f := range files {
			if f.err != nil {
				done(nil, f.err)
				continue
			}
			done(c.checkFile(f.file))
		}
		return ok
	}
	// The workers run ahead of the report, so that one long file does not
	// hold the others up (the generated corpus's 900 KB stop packet took
	// its worker 12 ms, in which the other had stopped after eight files),
	// but no further than aheadFiles files a worker (next-emitted: taken
	// and not yet reported), nor past heldBytes of text analysed and not
	// yet reported: a result keeps its document.
	var (
		mu                  sync.Mutex
		moved               = sync.NewCond(&mu)
		files               []*checked
		walked              bool
		next, emitted, held int
		window              = aheadFiles * n
	)
	go func() {
		walk(func(f string, err error) {
			it := &checked{file: f, err: err, done: make(chan struct{})}
			if err != nil {
				close(it.done) // nothing to analyse: reported in its place
			}
			mu.Lock()
			files = append(files, it)
			mu.Unlock()
			moved.Broadcast()
		})
		mu.Lock()
		walked = true
		mu.Unlock()
		moved.Broadcast()
	}()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				mu.Lock()
				for next-emitted >= window || held > heldBytes || next >= len(files) && !walked {
					moved.Wait()
				}
				if next >= len(files) {
					mu.Unlock()
					return // walked, and every file taken
				}
				i, it := next, files[next]
				next++
				mu.Unlock()
				if it.err != nil {
					continue
				}
				if startHook != nil {
					startHook(i)
				}
				r, err := c.checkFile(it.file)
				mu.Lock()
				it.r, it.err = r, err
				held += r.size()
				mu.Unlock()
				close(it.done)
			}
		})
	}
	for i := 0; ; i++ {
		mu.Lock()
		for i >= len(files) && !walked {
			moved.Wait()
		}
		if i >= len(files) {
			mu.Unlock()
			break
		}
		it := files[i]
		if i >= next && it.err != nil {
			// A walk error is reported in its place, whether a worker has
			// passed it yet or not; a file waits for the worker that
			// takes it.
			next = i + 1
		}
		mu.Unlock()
		<-it.done
		mu.Lock()
		if aheadHook != nil {
			aheadHook(min(next, len(files))-i, window, held)
		}
		r, err := it.r, it.err
		files[i] = nil
		mu.Unlock()
		done(r, err)
		mu.Lock()
		emitted = i + 1
		held -= r.size()
		moved.Broadcast()
		mu.Unlock()
	}
	wg.Wait()
	if endHook != nil {
		endHook(next-emitted, held)
	}
	return ok
}

// aheadFiles and heldBytes bound how far checkFiles's workers run ahead
// of the report: files a worker, and bytes of text analysed and waiting
// (a variable for a test).
const aheadFiles = 32

var heldBytes = 128 << 10

// aheadHook, when set (by a test), is told before each file is emitted how
// many files from it on have been taken by the workers, the window, and
// the bytes of text analysed and not yet emitted.
var aheadHook func(ahead, window, held int)

// endHook, when set (by a test), is told once every file is emitted how
// many files the workers' window still counts and how many bytes of text:
// none, unless a count went wrong.
var endHook func(ahead, held int)

// startHook, when set (by a test), is called by a worker before it
// analyses the file of index i.
var startHook func(i int)

// size is the length of the text r keeps, 0 for no result.
func (r *fileResult) size() int {
	if r == nil || r.Doc == nil {
		return 0
	}
	return len(r.Doc.Text)
}

// checkFile reads and analyses one file.
func (c *checker) checkFile(path string) (*fileResult, error) {
	data, err := safefile.ReadFile(path, markdown.MaxDocumentBytes)
	if errors.Is(err, safefile.ErrTooLarge) {
		// Not read, and said so in one finding: a huge generated file does
		// not stop the run.
		if fi, serr := os.Stat(path); serr == nil {
			f, _ := c.configFor(path)
			cfg, _ := f.For(path)
			return newResult(path, "", "", c.reg.TooLargeResult(path, fi.Size(), &cfg)), nil
		}
	}
	if err != nil {
		return nil, err
	}
	defer heapbudget.Admit(len(data))()
	// The bytes read are the document's text: no one else holds them, and
	// nothing writes to them (markdown.ParseIndexed reads them in place).
	r := c.check(path, path, unsafe.String(unsafe.SliceData(data), len(data)))
	// Reporting reads the text, its lines and the findings: the syntax
	// tree is most of a document's memory.
	r.Doc.DropSyntax()
	if !c.fix.fixing() {
		r.Light()
	}
	return r, nil
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
		return c.reg.AnalyzeEnv(markdown.Parse(name, text), nil, nil)
	}
	return c.eng.Analyze(env, name, text)
}

// fileResult is what `baton check` found in one file (or standard input):
// the file as the report prints it, and what --fix, --diff and their
// summary need beside.
type fileResult struct {
	report.File
	path string // the file on disk; "" for standard input
	// original is the text as read, where the report needs it (a diff,
	// standard input's fixed text); was is what it was, always.
	original string
	was      digest
	count    int             // the findings of Doc, those past the cap of analysis.MaxFindings included
	fixing   analysis.Fixing // what the safe fixes that made Doc fixed and left (--fix, --diff)
}

// keepOriginal is the largest file whose text as read --fix keeps beside
// the fixed one (a file its fixes cannot be written to is then reported as
// it was read, without reading it again).
const keepOriginal = 1 << 20

// A digest is what a text was, without the text: its length, its hash
// and whether it began with a byte-order mark. --fix keeps it, not a
// file's text, while the fixed text is analysed: a large file is then held
// once, not twice.
type digest struct {
	n   int
	sum [sha256.Size]byte
	bom bool
}

func digestOf(s string) digest {
	return digest{n: len(s), sum: sha256.Sum256(readOnlyBytes(s)), bom: strings.HasPrefix(s, bom)}
}

// is reports whether s is the text d was made of.
func (d digest) is(s string) bool { return len(s) == d.n && sha256.Sum256(readOnlyBytes(s)) == d.sum }

// newResult holds the analysis of a file whose text was original.
func newResult(name, path, original string, res *analysis.Result) *fileResult {
	return &fileResult{File: report.NewFile(name, res), path: path, original: original, was: digestOf(original), count: res.Count()}
}

// changed reports whether fixing changed the text.
func (r *fileResult) changed() bool { return !r.was.is(r.Doc.Text) }

// check analyses one document; with --fix or --diff, the text its safe fixes
// make of it.
func (c *checker) check(name, path, text string) *fileResult {
	if c.fix.fixing() {
		// The text as read is kept where the report shows it (a diff) or
		// prints the fixed text of it (standard input), and for a file of
		// at most keepOriginal bytes; a larger file --fix writes keeps its
		// digest, and the text is let go while the fixed text is analysed.
		was, keep := digestOf(text), ""
		if c.fix.diff || path == "" || len(text) <= keepOriginal {
			keep = text
		}
		res, fx := analysis.FixAllCount(func(t string) *analysis.Result { return c.analyze(name, t) }, text)
		r := &fileResult{File: report.NewFile(name, res), path: path, original: keep, was: was, count: res.Count(), fixing: fx}
		return r
	}
	// Without fixing nothing asks what the text was: neither it nor its
	// digest is kept.
	res := c.analyze(name, text)
	return &fileResult{File: report.NewFile(name, res), path: path, count: res.Count()}
}

// reporter prints what check found as each file's result arrives: the
// fixed standard input (--fix) or the diff (--diff) on stdout, and the
// findings in the chosen format, on stdout unless stdout carries text. It
// keeps no file's result once it is printed.
type reporter struct {
	stdout, stderr io.Writer
	findings       *bufio.Writer // where the findings go
	format         report.Formatter
	code           int
	err            error
}

// newReporter starts the report of a run; stdinFixed is whether standard
// input is among the paths of a --fix run (its fixed text then goes to
// stdout, and the findings to stderr).
func (c *checker) newReporter(out report.Options, stdinFixed bool, stdout, stderr io.Writer) *reporter {
	to := stdout
	if c.fix.diff || (c.fix.fix && stdinFixed) {
		to = stderr
	}
	w := bufio.NewWriterSize(to, 64<<10)
	return &reporter{stdout: stdout, stderr: stderr, findings: w, format: report.NewFormatter(w, to, c.reg, out), code: ExitOK}
}

// file reports one file's result.
func (p *reporter) file(c *checker, r *fileResult) {
	var text []byte // what stdout carries instead of the findings
	switch {
	case c.fix.diff:
		if d := unifiedDiff(r.Name, r.original, r.Doc.Text); d != nil {
			text = d
			p.code = ExitFindings
		}
	case c.fix.fix && r.path == "":
		text = []byte(keepBOM(r.was.bom, r.Doc.Text)) // as --fix writes a file
	}
	if slices.ContainsFunc(r.Findings, func(f analysis.Finding) bool { return f.Severity == analysis.Error }) {
		p.code = ExitFindings
	}
	if p.err != nil {
		return
	}
	if len(text) > 0 {
		if _, err := p.stdout.Write(text); err != nil {
			p.err = err
			return
		}
	}
	p.err = p.format.File(&r.File)
}

// end finishes the report. It returns the exit status the findings and
// fixes call for, and false when printing failed.
func (p *reporter) end() (code int, ok bool) {
	if p.err == nil {
		p.err = p.format.End()
	}
	if p.err == nil {
		p.err = p.findings.Flush()
	}
	if p.err != nil {
		printErr(p.stderr, p.err)
		return p.code, false
	}
	return p.code, true
}
