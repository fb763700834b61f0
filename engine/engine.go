// Package engine builds the one environment every entry point analyses a
// document in: `baton check`, the language server, the stop hooks and
// `baton classify`. Given a document's path it finds the workspace root,
// the .baton.yaml that applies and its effective rules, the session
// resolver for handoff documents, the specrew workspace's state for stop
// messages, and the workflow file system for XMD components — the same
// for all four, so the same document in the same workspace gets the same
// findings whichever asks.
//
// What differs between entry points is only where those things are read
// from (the server overlays its open documents and watches what it reads;
// the CLI reads the disk once), which Sources says.
package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/packet/governance"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/headtree"
	"github.com/baton-md/baton/internal/memo"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/internal/workspace"
)

// Sources are where an entry point reads what the environment holds. A
// nil function has a default that reads the disk (see New).
type Sources struct {
	Registry *analysis.Registry
	// Config returns the .baton.yaml that applies to the document at path
	// (nil for none), loaded and validated against Registry.
	Config func(path string) (*config.File, error)
	// Ledger returns the session resolver for handoff documents, given the
	// state folder the configuration names ("" for none).
	Ledger func(stateDir string) handoff.Resolver
	// Dirs returns the workflow bundle cache of a workspace root. Nil: one
	// per root, kept by the engine; live ones (LiveDirs) for an entry point
	// whose files change under it.
	Dirs func(root string) *workflow.Dirs
	// LiveDirs makes the default bundle caches notice files that change
	// (the server's), where a run of the CLI reads each once.
	LiveDirs bool
	// Static says the files do not change while the engine is used (a run
	// of baton check): what is found by walking up from a folder (the
	// .baton.yaml, the workspace root, the specrew workspace) is found once
	// per folder, not once per document.
	Static bool
	// Specrew returns the state of the specrew workspace at root, for the
	// conformance session ("" for the most recent).
	Specrew func(root, session string) stopintent.State
	// NoGit says the files the Git commit checked out holds are not read
	// (see Env.Committed).
	NoGit bool
}

// Engine builds environments from its Sources.
type Engine struct {
	src Sources

	mu sync.Mutex
	// Static: what walking up from each folder found, each folder asked
	// once (its own answer, else its parent's: see fromParent).
	configAt   memo.Map[string, discovered] // the nearest .baton.yaml
	markedAt   memo.Map[string, string]     // the nearest marked folder (workspace.Marked), "" for none
	specrewAt  memo.Map[string, string]     // the nearest folder holding .specrew, "" for none
	configs    memo.Map[string, loaded]     // each .baton.yaml, loaded and validated once
	dirs       map[string]*workflow.Dirs
	workspaces map[string]*stopintent.Workspace
	states     memo.Map[string, stopintent.State] // Static: each workspace's state, by root and session
	rootFS     memo.Map[string, fs.FS]            // Static: each workspace's view, opened once a run
	heads      *headtree.Cache                    // the files of each repository's HEAD commit

	wd func() (string, error) // Static: the working folder, read once (abs)
}

type loaded struct {
	f   *config.File
	err error
}

// New returns an engine reading what src does not say from the disk: the
// nearest .baton.yaml above each document (each read once), bundle caches
// and specrew workspaces kept per root. src.Ledger has no default: nil
// checks no handoff document against a session.
func New(src Sources) *Engine {
	e := &Engine{src: src, dirs: map[string]*workflow.Dirs{}, workspaces: map[string]*stopintent.Workspace{}, wd: sync.OnceValues(os.Getwd)}
	if e.src.Config == nil {
		e.src.Config = e.nearestConfig
	}
	if e.src.Dirs == nil {
		e.src.Dirs = e.rootDirs
	}
	if e.src.Specrew == nil {
		e.src.Specrew = e.specrewState
	}
	if !e.src.NoGit {
		e.heads = headtree.New()
	}
	return e
}

// Registry is the registry the engine analyses with.
func (e *Engine) Registry() *analysis.Registry { return e.src.Registry }

// Env is the typed environment of one document.
type Env struct {
	Path string // the document's absolute path; "" for standard input
	Root string // its workspace root (workspace.RootFor); "" for standard input

	File     *config.File    // the .baton.yaml that applies; nil for none
	Config   analysis.Config // its rules and phrases for this document
	StateDir string          // its handoff.state-dir; "" when unset

	Ledger handoff.Resolver // nil: handoff documents are not checked against a session

	SpecrewRoot string            // the specrew workspace above the document; "" outside one
	Specrew     *stopintent.State // its state; nil outside one

	WorkflowFS   fs.FS // the workspace, with the entry point's open documents
	WorkflowPath string
	Dirs         *workflow.Dirs
	// Committed is what the commit checked out in the document's Git
	// repository holds, where `xmd workflow start` reads a bundle's
	// components from. The commit is named by reading .git's files when
	// the view is first asked (a bundle's check, the server's cache key);
	// its files are listed by running git once per commit (headtree), and
	// only when a bundle is checked. Nil, or not
	// known, without a repository or git.
	Committed *headtree.View

	Overrides map[string]stopintent.Tri // stop-intent inputs given by hand (baton classify's flags)
	// Boundary is the lifecycle boundary a stop message is checked at
	// (specrew's validator's -BoundaryName): the one the caller names, else
	// the specrew project's pending crossing's. The message is a boundary
	// handoff for it, whatever its text shows.
	Boundary string
}

// Request says which document an environment is for.
type Request struct {
	// Path of the document; relative paths are relative to the working
	// folder. "" is standard input: its configuration is the working
	// folder's, and it has no workspace.
	Path string
	// Overlay, given the workspace root, returns the texts to read in
	// place of files, by slash path relative to it (an editor's open
	// documents); nil reads the disk. It is called when the workspace is
	// first read (a workflow's analysis), not for every environment.
	Overlay func(root string) map[string]string
	// Untitled is a document with no place on disk (an editor's unsaved
	// buffer): no configuration file, workspace or specrew state applies.
	Untitled bool
	// Session is the conformance session whose specrew state is read
	// ("" for the most recent).
	Session string
	// SpecrewRoot, when set, is the specrew workspace to read instead of
	// the one found above the document (baton classify --workspace).
	SpecrewRoot string
	// Boundary, when set, is the boundary the message is checked at (Env.Boundary).
	Boundary string
}

// Env builds the environment of the document r names. A configuration
// that cannot be read or is invalid is an error: it is never silently
// ignored.
func (e *Engine) Env(r Request) (*Env, error) {
	env := &Env{Boundary: r.Boundary}
	if r.Untitled {
		if e.src.Ledger != nil {
			env.Ledger = e.src.Ledger("")
		}
		return env, nil
	}
	cfgPath := r.Path
	if r.Path != "" {
		abs, err := e.abs(r.Path)
		if err != nil {
			return nil, fmt.Errorf("environment of %s: %w", r.Path, err)
		}
		env.Path, cfgPath = abs, abs
	} else if wd, err := os.Getwd(); err == nil {
		cfgPath = filepath.Join(wd, "<stdin>")
	}
	f, err := e.src.Config(cfgPath)
	if err != nil {
		return nil, err
	}
	env.File = f
	cfg, settings := f.For(cfgPath)
	env.Config, env.StateDir = cfg, settings.StateDir
	if e.src.Ledger != nil {
		env.Ledger = e.src.Ledger(settings.StateDir)
	}
	if env.Path != "" {
		env.Root = e.root(env.Path, f.ComponentDirsBase(env.Path))
		if r.Overlay != nil {
			root, overlay := env.Root, r.Overlay
			env.WorkflowFS = workspace.LazyFS(root, func() map[string]string { return overlay(root) })
		} else {
			env.WorkflowFS = e.workspaceFS(env.Root)
		}
		env.WorkflowPath = workspace.Rel(env.Root, env.Path)
		env.Dirs = e.src.Dirs(env.Root)
		env.Committed = e.heads.For(filepath.Dir(env.Path), env.Root)
	}
	env.SpecrewRoot = r.SpecrewRoot
	if env.SpecrewRoot == "" {
		env.SpecrewRoot = e.specrewRoot(filepath.Dir(cfgPath))
	}
	if env.SpecrewRoot != "" {
		st := e.src.Specrew(env.SpecrewRoot, r.Session)
		env.Specrew = &st
		// While a crossing is pending, a packet in the project is its
		// boundary's handoff, as specrew's boundary gate validates it:
		// every entry point reads it so.
		if c := st.Crossing; env.Boundary == "" && st.BoundaryPending.Value == stopintent.True && c != nil {
			env.Boundary = c.To
		}
	}
	return env, nil
}

// envEntries is room for every entry Analysis may make: a map made with
// it is one table, where one grown past eight entries was made twice.
const envEntries = 16

// Analysis is the environment as the analyzers read it.
func (env *Env) Analysis() analysis.Env {
	m := make(analysis.Env, envEntries)
	if env.Ledger != nil {
		m[handoff.EnvLedger] = env.Ledger
	}
	if env.Path != "" {
		m[handoff.EnvPath] = env.Path
		m[handoff.EnvFolder] = safefile.DirFS(filepath.Dir(env.Path))
	}
	if env.WorkflowFS != nil {
		m[governance.EnvFS], m[governance.EnvRoot] = env.WorkflowFS, env.Root
		m[workflow.EnvFS] = env.WorkflowFS
		m[workflow.EnvPath] = env.WorkflowPath
		m[workflow.EnvDirs] = env.Dirs
		if env.Committed != nil {
			m[workflow.EnvCommitted] = env.Committed
		}
		env.File.AddWorkflowEnv(m, env.Root, env.Path)
	}
	if env.Specrew != nil {
		m[stopintent.EnvWorkspace] = *env.Specrew
	}
	if len(env.Overrides) > 0 {
		m[stopintent.EnvOverrides] = env.Overrides
	}
	if env.Boundary != "" {
		m[packet.EnvBoundary] = env.Boundary
	}
	return m
}

// Key changes when what the environment tells the analyzers does (for an
// entry point that caches analyses), the file system's contents aside.
func (env *Env) Key() string {
	k := fmt.Sprintf("root %s cfg %p state %s boundary %q head %s", env.Root, env.File, env.StateDir, env.Boundary, env.Committed.Key())
	if env.Specrew != nil {
		k += fmt.Sprintf(" specrew %v", *env.Specrew)
	}
	return k
}

// Analyze parses text as the document the environment is for (name is
// what messages call it) and analyses it.
func (e *Engine) Analyze(env *Env, name, text string) *analysis.Result {
	return e.AnalyzeDoc(env, markdown.Parse(name, text))
}

// AnalyzeDoc analyses a parsed document in env.
func (e *Engine) AnalyzeDoc(env *Env, doc *markdown.Document) *analysis.Result {
	cfg := env.Config
	return e.src.Registry.AnalyzeEnv(doc, &cfg, env.Analysis())
}

// SpecrewRoot is the nearest folder at or above dir holding a .specrew
// folder, or "".
func SpecrewRoot(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
		if specrewHere(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// specrewHere reports whether the folder d holds a .specrew folder.
func specrewHere(d string) bool {
	fi, err := os.Stat(filepath.Join(d, ".specrew"))
	return err == nil && fi.IsDir()
}

// fromParent is, once per folder of m, the answer here gives for dir, or
// when it has none, dir's parent's (the zero V at the top): each folder of
// a tree is asked once, not walked up from every folder, and the file
// system is asked without the engine's lock held.
func fromParent[V any](m *memo.Map[string, V], dir string, here func(dir string) (V, bool)) V {
	dir = filepath.Clean(dir)
	return m.Get(dir, func() V {
		if v, ok := here(dir); ok {
			return v
		}
		if parent := filepath.Dir(dir); parent != dir {
			return fromParent(m, parent, here)
		}
		var none V
		return none
	})
}

// discovered is what config.Discover finds.
type discovered struct {
	path string
	err  error
}

// discover is config.Discover, once per folder when Static.
func (e *Engine) discover(dir string) (string, error) {
	if !e.src.Static {
		return config.Discover(dir)
	}
	d := fromParent(&e.configAt, dir, func(dir string) (discovered, bool) {
		path, found, err := config.DiscoverHere(dir)
		return discovered{path, err}, found || err != nil
	})
	return d.path, d.err
}

// root is workspace.RootFor, its walk once per folder when Static.
func (e *Engine) root(path, configDir string) string {
	if configDir != "" {
		if _, ok := workspace.Inside(configDir, path); ok {
			return configDir
		}
	}
	if !e.src.Static {
		return workspace.Root(path)
	}
	dir := filepath.Dir(path)
	// A tree of 800 folders was thousands of stat calls, each folder
	// walking up to the top.
	if m := fromParent(&e.markedAt, dir, func(dir string) (string, bool) { return dir, workspace.Marked(dir) }); m != "" {
		return m
	}
	return dir // as workspace.Root: no marked folder above, the document's own
}

// specrewRoot is SpecrewRoot, once per folder when Static.
func (e *Engine) specrewRoot(dir string) string {
	if !e.src.Static || dir == "" {
		return SpecrewRoot(dir)
	}
	return fromParent(&e.specrewAt, dir, func(dir string) (string, bool) { return dir, specrewHere(dir) })
}

// nearestConfig is the default Config: the nearest .baton.yaml above
// path, each file loaded and validated once.
func (e *Engine) nearestConfig(path string) (*config.File, error) {
	p, err := e.discover(filepath.Dir(path))
	if err != nil || p == "" {
		return nil, err
	}
	l := e.configs.Get(p, func() loaded {
		f, err := LoadConfig(p, e.src.Registry)
		return loaded{f, err}
	})
	return l.f, l.err
}

// LoadConfig reads the configuration file at path and validates it against
// reg's rules.
func LoadConfig(path string, reg *analysis.Registry) (*config.File, error) {
	return config.LoadWith(path, reg) // every problem in one pass
}

func (e *Engine) rootDirs(root string) *workflow.Dirs {
	e.mu.Lock()
	defer e.mu.Unlock()
	d := e.dirs[root]
	if d == nil {
		if e.src.LiveDirs {
			d = workflow.NewLiveDirs()
		} else {
			d = workflow.NewDirs()
		}
		e.dirs[root] = d
	}
	return d
}

// workspaceFS is the view of the workspace at root, without open
// documents: one a run when Static (each view opens root once, when first
// read: every stop packet's analysis reads the workspace's specrew
// settings), one an analysis otherwise.
func (e *Engine) workspaceFS(root string) fs.FS {
	if !e.src.Static {
		return workspace.FS(root, nil)
	}
	return e.rootFS.Get(root, func() fs.FS { return workspace.FS(root, nil) })
}

func (e *Engine) specrewState(root, session string) stopintent.State {
	e.mu.Lock()
	ws := e.workspaces[root]
	if ws == nil {
		ws = stopintent.NewWorkspace(root)
		e.workspaces[root] = ws
	}
	e.mu.Unlock()
	if !e.src.Static {
		return ws.State(session)
	}
	// One run over files that do not change: the workspace's state files
	// are read once, not stat'ed and compared for every packet (a fifth
	// of check's time on specrew's own tree).
	return e.states.Get(root+"\x00"+session, func() stopintent.State { return ws.State(session) })
}

// Explicit wraps a configuration file given by hand (--config) as a Config
// source: it applies to every document.
func Explicit(f *config.File) func(string) (*config.File, error) {
	return func(string) (*config.File, error) { return f, nil }
}

// ConfigFor returns the configuration file that applies to the document
// at path ("" for standard input: the working folder's), as Env finds it.
func (e *Engine) ConfigFor(path string) (*config.File, error) {
	if path == "" {
		path = "<stdin>"
	}
	abs, err := e.abs(path)
	if err != nil {
		return nil, err
	}
	return e.src.Config(abs)
}

// abs is filepath.Abs of path. A Static engine reads the working folder
// once: filepath.Abs asks the system for it at every call (os.Getwd, two
// stats), and `baton check .` asked it twice for every document and once
// for every folder it walked.
func (e *Engine) abs(path string) (string, error) {
	if !e.src.Static || filepath.IsAbs(path) {
		return filepath.Abs(path)
	}
	wd, err := e.wd()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, path), nil
}

// Sessions is the resolver of handoff documents' sessions: it finds a
// session in the state folders dirs gives (asked at each lookup: settings
// may change) and reads its ledger from store. found, when not nil, is told
// each session folder read (the server watches its files).
func Sessions(store *session.Store, dirs func() []string, found func(dir string)) handoff.Resolver {
	return func(id string) handoff.Lookup {
		dir, looked, err := session.Find(dirs(), id)
		if err != nil {
			return handoff.Lookup{Err: err, Looked: looked}
		}
		l, err := store.Ledger(dir)
		if found != nil {
			found(dir)
		}
		return handoff.Lookup{Ledger: l, Err: err, Looked: looked}
	}
}
