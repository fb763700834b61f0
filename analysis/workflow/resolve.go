package workflow

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/internal/memo"
	"github.com/baton-md/baton/internal/safefile"
)

// ResolutionKind is the tier that answers a component name.
type ResolutionKind int

const (
	// ResolveUnknown: no workspace to look in (no EnvFS), and the name is
	// neither structural nor registered.
	ResolveUnknown ResolutionKind = iota
	ResolveStructural
	ResolveRegistered
	ResolveBundle // the workflow root's `workflow.components`
	ResolveFile   // a repository file found by the search order
	ResolveUnresolved
)

var resolutionNames = [...]string{"unknown", "structural", "registered", "bundle", "file", "unresolved"}

func (k ResolutionKind) String() string {
	if k >= 0 && int(k) < len(resolutionNames) {
		return resolutionNames[k]
	}
	return "unknown"
}

// Resolution is what a tag's name resolves to.
type Resolution struct {
	Kind ResolutionKind
	// Path is the slash path, in the workspace FS, of the file that answers
	// (file and bundle), or of the file a bundle names that does not exist.
	Path string
	// Component is the parsed target for a Markdown file; nil for a .ts
	// component, an unreadable file, and every other kind.
	Component *Component
	// Host is true for the components only a workflow host registers
	// (`xmd workflow start`): Repository, Worktree, Git.*, PullRequest, …
	Host bool
	// Looked lists the candidates tried, for an unresolved name, and
	// Searched the folders they are in (SearchDirs).
	Looked   []string
	Searched []string
	// Configured is true for a name the configuration says a host
	// registers (EnvRegistered).
	Configured bool
	// OutsideBundle is true for a file found by the search order although a
	// workflow bundle applies: `xmd run` finds it, but a workflow run
	// searches no files and resolves the name to nothing.
	OutsideBundle bool
}

// Structural are the language's own constructs (structuralNames).
var Structural = structuralNames

// Registered are the components the engine's packages register for every
// document `xmd run` and `xmd test` execute (registeredNames).
var Registered = registeredNames

// coreDefaults are the names core registers itself
// (packages/core/src/components/registry.ts, CORE_COMPONENT_NAMES): a
// workflow bundle may not declare them (bundle.ts, installedBundle). Any
// other registered name a bundle may declare, and then the bundle's file
// answers for it.
var coreDefaults = set("Elicit", "TempDir", "Fetch", "File", "Glob", "Json", "Parse", "SafeParse", "Test")

// HostRegistered are registered only by the workflow host
// (hostNames).
var HostRegistered = hostNames

func isRegistered(name string) (registered, host bool) {
	switch {
	case Registered[name]:
		return true, false
	case HostRegistered[name]:
		return true, true
	}
	return false, false
}

// DefaultComponentDirs are the folders the engine searches for component
// files when none is configured, relative to the folder it runs in
// (packages/core/src/components/select.ts, DEFAULT_COMPONENT_DIRS; the
// default of --component-dir in packages/cli/src/cli.ts).
var DefaultComponentDirs = []string{"components", "."}

// SearchDirs are the folders, slash paths in the workspace FS, that a
// document's component names are looked for in, in order. It is the one
// search path of baton: the unresolved-component rule, hover, definition
// and completion, and the kind check that reads a page as a workflow
// (Confirm) all resolve through it, so no tag is found by one and missed by
// another.
//
// The engine probes N.md, N.ts, N/index.md, N/index.ts in each folder of
// its search path in turn (packages/core/src/components/select.ts,
// selectComponent and probeComponentPath), folders relative to the folder
// it runs in, which it calls the workspace root (specs/executable-mdx-spec.md
// §1.2). Its search path is:
//
//   - for `xmd run DOC`, --component-dir: DEFAULT_COMPONENT_DIRS,
//     `components` and `.`, unless given (packages/cli/src/cli.ts, the
//     componentDir option, passed to execute as componentDirs);
//   - for a document `xmd test DIR` finds, the document's own folder, then
//     the folder it was given, then --component-dir
//     (packages/cli/src/test-target.ts, componentSearchPath).
//
// baton runs the engine from the workspace root (the folder holding
// .baton.yaml or .git), so its search path is:
//
//  1. the configured folders (EnvComponentDirs), which replace the default
//     ones as --component-dir does; unset, `components` and `.` of the
//     workspace root (DefaultComponentDirs);
//  2. when none is configured, the document's own folder, the first folder
//     of componentSearchPath: a component beside the document that invokes
//     it is found, as `xmd test` finds it. No other folder the engine
//     might be run in is guessed: the components/ folder of a folder below
//     the root is not searched, so a site's docs/components/Callout.ts
//     answers <Callout> in no page of docs/ (the engine run from the root
//     resolves it in none either);
//  3. for a test document (a name ending in .test.md, the default pattern
//     of `xmd test`, or every document in ModeTest), componentSearchPath's
//     order: its own folder, then each folder above it (one of them is the
//     folder `xmd test` was given), then the folders of 1.
//
// A folder is listed once, at its first place. The registered names
// (Registered, HostRegistered, EnvRegistered) and the workflow bundle are
// the resolver's other tiers (resolve).
func SearchDirs(docPath string, configured []string) []string {
	return searchDirs(docPath, configured, "")
}

// searchDirs is SearchDirs in a mode (EnvMode): in ModeTest every document
// is searched as a test document, in ModeRun and ModeWorkflow none is.
func searchDirs(docPath string, configured []string, mode string) []string {
	dirs := configured
	if dirs == nil {
		dirs = DefaultComponentDirs
	}
	out := make([]string, 0, len(dirs)+4)
	add := func(d string) {
		d = path.Clean(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if mode == ModeTest || (mode == "" && IsTestDocument(docPath)) {
		for dir := path.Dir(docPath); ; dir = path.Dir(dir) {
			add(dir)
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	for _, d := range dirs {
		add(d)
	}
	if configured == nil {
		add(path.Dir(docPath))
	}
	return out
}

// IsTestDocument reports a document `xmd test` finds in a folder it is
// given: its name matches the default pattern **/*.test.md.
func IsTestDocument(docPath string) bool {
	return strings.HasSuffix(docPath, ".test.md")
}

// registeredByHost reports a name the configuration says a host registers
// (EnvRegistered): a pattern where * matches any run of characters, dots
// included.
func registeredByHost(patterns []string, name string) bool {
	for _, p := range patterns {
		if globMatch(p, name) {
			return true
		}
	}
	return false
}

// globMatch matches name against a pattern whose only special character is
// *, any run of characters.
func globMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(name, mid)
		if i < 0 {
			return false
		}
		name = name[i+len(mid):]
	}
	return strings.HasSuffix(name, last)
}

// resolver resolves names for one pass, reading the workspace through fsys
// and caching what it parsed.
type resolver struct {
	fsys    fs.FS // nil: no workspace
	dirs    *Dirs // nil: each folder is listed afresh
	docPath string
	self    *Component
	bundle  *bundle
	// search are the folders component files are looked for in
	// (SearchDirs); registered the names a host registers at run time.
	search     []string
	registered []string
	// mode is how the engine runs the document (EnvMode), ModeWorkflow for
	// a document a workflow bundle applies to, "" when nothing says.
	mode string
	// parsed, missing and cache are made on their first entry: most
	// documents resolve one or two names through the workspace. The
	// document itself is self, at docPath, without an entry.
	parsed  map[string]*Component
	missing map[string]bool
	cache   map[string]*Resolution
	recent  recent[*Resolution] // in front of cache
	// ts holds what was read of each TypeScript component (tsComponent).
	ts map[string]tsFacts
}

// bundle is the `workflow.components` declaration that applies to the
// document: the one it declares as a root, or the one of the root that
// lists it.
type bundle struct {
	RootPath string
	Entries  map[string]string // name -> normalized path
}

func newResolver(fsys fs.FS, dirs *Dirs, docPath string, self *Component, componentDirs, registered []string, mode string) *resolver {
	r := &resolver{fsys: fsys, dirs: dirs, docPath: docPath, self: self, registered: registered, mode: mode}
	r.search = searchDirs(docPath, componentDirs, mode)
	r.bundle = r.findBundle()
	if mode == "" && r.bundle != nil {
		// Only `xmd workflow start` reads a bundle: a document one applies
		// to is the root or a component of a workflow run.
		r.mode = ModeWorkflow
	}
	return r
}

// isRunRoot reports a document a run starts from, as far as the workspace
// tells: one that declares the workflow bundle that applies to it, or one
// no bundle lists (a component file reads only through a bundle in a
// workflow run) in a workspace baton can search for the roots that would.
func (r *resolver) isRunRoot() bool {
	if r.bundle != nil {
		return r.bundle.RootPath == r.docPath || (r.docPath == "" && len(r.self.Bundle) > 0)
	}
	return r.fsys != nil && r.docPath != ""
}

// docDir is the folder of the document, "." at the root of the FS.
func (r *resolver) docDir() string {
	if r.docPath == "" {
		return "."
	}
	return path.Dir(r.docPath)
}

// NormalizeBundlePath normalizes a `workflow.components` path against the
// root's folder; ok is false for a path the engine refuses (bundlePath).
func NormalizeBundlePath(rootDir, p string) (string, bool) {
	n, why := bundlePath(rootDir, p)
	return n, why == ""
}

// bundlePath is the path a `workflow.components` entry names, joined to the
// root's folder, or why the engine refuses it ("" when it does not), in the
// engine's order (packages/cli/src/workflow-bundle.ts, canonicalPath): not
// empty, no NUL or backslash, not absolute, no scheme (`x:`), none of
// `*?[]{}`, not a folder; one leading `./` dropped, then no empty, `.` or
// `..` segment, no first segment starting `@`, and a .md file.
func bundlePath(rootDir, p string) (string, string) {
	switch {
	case p == "":
		return "", "is empty"
	case strings.Contains(p, "\x00"):
		return "", "contains a NUL"
	case strings.Contains(p, "\\"):
		return "", "is not POSIX: it contains a backslash"
	case strings.HasPrefix(p, "/"):
		return "", "is absolute, and a declaration is relative to the document beside it"
	case hasScheme(p):
		return "", "is a URL, and a declaration names a file in this repository"
	case strings.ContainsAny(p, "*?[]{}"):
		return "", "contains glob syntax, and a declaration names exactly one file"
	case strings.HasSuffix(p, "/"):
		return "", "names a directory, and a declaration names one Markdown file"
	}
	rel := strings.TrimPrefix(p, "./")
	segs := strings.Split(rel, "/")
	for _, seg := range segs {
		switch seg {
		case "":
			return "", "has an empty segment"
		case ".", "..":
			return "", `walks the tree with a "." or ".." segment, and a declaration does not`
		}
	}
	switch {
	case strings.HasPrefix(segs[0], "@"):
		return "", "is a package specifier, and a declaration names a file in this repository"
	case !strings.HasSuffix(rel, ".md"):
		return "", "is not a Markdown file, and a bundled component is Markdown"
	}
	if rootDir == "" || rootDir == "." {
		return rel, ""
	}
	return rootDir + "/" + rel, ""
}

func bundleOf(rootPath string, c *Component) *bundle {
	if len(c.Bundle) == 0 {
		return nil
	}
	b := &bundle{RootPath: rootPath, Entries: map[string]string{}}
	for _, e := range c.Bundle {
		if p, ok := NormalizeBundlePath(path.Dir(rootPath), e.Path); ok {
			b.Entries[e.Name] = p
		}
	}
	return b
}

// findBundle: the document's own declaration makes it a workflow root.
// Otherwise the nearest folder, from the document's up to the FS root,
// holding a Markdown file whose `workflow.components` lists the document
// makes it a member of that workflow, resolved through the same bundle.
func (r *resolver) findBundle() *bundle {
	if len(r.self.Bundle) > 0 {
		p := r.docPath
		if p == "" {
			p = "root.md"
		}
		return bundleOf(p, r.self)
	}
	if r.fsys == nil || r.docPath == "" {
		return nil
	}
	for dir := r.docDir(); ; dir = path.Dir(dir) {
		{
			for _, p := range r.dirs.roots(r.fsys, dir) {
				if p == r.docPath {
					continue
				}
				c := r.read(p)
				if c == nil || len(c.Bundle) == 0 {
					continue
				}
				if b := bundleOf(p, c); b != nil && slices.Contains(mapValues(b.Entries), r.docPath) {
					return b
				}
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			return nil
		}
	}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// read parses the Markdown file at p, or returns nil.
func (r *resolver) read(p string) *Component {
	if p == r.docPath && p != "" {
		return r.self
	}
	if c, ok := r.parsed[p]; ok {
		return c
	}
	if r.missing[p] || r.fsys == nil {
		return nil
	}
	c, _ := r.load(p)
	if c == nil {
		r.setMissing(p)
	}
	return c
}

// load reads and parses the file at p, as a run's Dirs remembers it
// (Dirs.file), and notes it in the resolver: parsed, or missing when a
// file is there that was not parsed (too large, unreadable). file says
// whether a regular file is there, as far as the read told.
func (r *resolver) load(p string) (c *Component, file bool) {
	c, file = r.dirs.file(p, func() (*Component, bool, bool) { return readComponent(r.fsys, p) })
	switch {
	case c != nil:
		if r.parsed == nil {
			r.parsed = map[string]*Component{}
		}
		r.parsed[p] = c
	case file:
		r.setMissing(p)
	}
	return c, file
}

// readComponent reads and parses the file at p. file says whether a
// regular file is there: true for one too large to parse, false for one
// absent; an error that says neither (a folder, an unreadable file) asks
// its kind. small is whether the component is one parseShared keeps.
func readComponent(fsys fs.FS, p string) (c *Component, file, small bool) {
	data, err := readRegular(fsys, p)
	switch {
	case err == nil && len(data) <= maxRead:
		return parseShared(p, data), true, len(data) <= sharedMaxFile
	case err == nil, errors.Is(err, errTooLarge):
		return nil, true, true // too large to parse: it is there, its props are not checked
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, true
	}
	st, serr := fs.Stat(fsys, p)
	return nil, serr == nil && st.Mode().IsRegular(), true
}

// errTooLarge is readRegular's answer for a file over maxRead.
var errTooLarge = errors.New("larger than baton reads")

// readRegular reads p when it is a regular file of at most maxRead bytes,
// asking its size and kind first: a component file of a gigabyte is not
// read at every analysis to be refused, and a named pipe would block the
// read for ever (internal/safefile). A file that is not regular reads as a
// folder would (it is no component); one too large as errTooLarge.
func readRegular(fsys fs.FS, p string) ([]byte, error) {
	data, err := safefile.ReadFileFS(fsys, p, maxRead)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, errTooLarge
	}
	return data, err
}

// maxRead is the largest file read parses.
const maxRead = 4 << 20

func (r *resolver) setMissing(p string) {
	if r.missing == nil {
		r.missing = map[string]bool{}
	}
	r.missing[p] = true
}

// readIfFile is isFile(p), and read(p) when it is a file. It reads the
// file outright: reading it tells whether it is one, where a Stat and then
// a read walked the workspace twice for every component a document
// invokes. Only a read that fails other than for absence (a folder, an
// unreadable file) falls back to isFile's Stat.
func (r *resolver) readIfFile(p string) (*Component, bool) {
	switch {
	case r.fsys == nil:
		return nil, false
	case p == r.docPath && p != "":
		return r.self, true
	}
	if c, ok := r.parsed[p]; ok {
		return c, true
	}
	if r.missing[p] {
		return nil, r.isFile(p)
	}
	return r.load(p)
}

// shared holds the components parsed from files, by path, with the content
// each was parsed from: every workflow that invokes UserCheckpoint reads
// the same file, and a language server re-analyses on every edit. Keyed by
// the path alone, a lookup compares the content in place rather than
// building a key that copies the whole file for every document. A
// Component is never modified once parsed, so analyses share it. Bounded:
// cleared when full; large files are not kept.
var shared struct {
	sync.Mutex
	m map[string]sharedFile
}

type sharedFile struct {
	data string
	c    *Component
}

const (
	sharedMax     = 512
	sharedMaxFile = 64 << 10
)

func parseShared(p string, data []byte) *Component {
	if len(data) > sharedMaxFile {
		c := Parse(string(data))
		c.Path = p
		return c
	}
	shared.Lock()
	f, ok := shared.m[p]
	shared.Unlock()
	if ok && f.data == string(data) {
		return f.c
	}
	text := string(data)
	c := Parse(text)
	c.Path = p
	shared.Lock()
	if _, ok := shared.m[p]; shared.m == nil || (!ok && len(shared.m) >= sharedMax) {
		shared.m = map[string]sharedFile{}
	}
	shared.m[p] = sharedFile{data: text, c: c}
	shared.Unlock()
	return c
}

func (r *resolver) isFile(p string) bool {
	if r.fsys == nil {
		return false
	}
	if _, ok := r.parsed[p]; ok || (p == r.docPath && p != "") {
		return true
	}
	st, err := fs.Stat(r.fsys, p)
	return err == nil && st.Mode().IsRegular()
}

// candidates are the files that may answer name in the folder dir, in the
// engine's order (packages/core/src/components/select.ts, candidates):
// N.md, N.ts, N/index.md, N/index.ts, a dot in the name being a folder.
func candidates(dir, name string) [4]string {
	n := strings.ReplaceAll(name, ".", "/")
	if !cleanName(n) {
		return [4]string{
			path.Join(dir, n+".md"),
			path.Join(dir, n+".ts"),
			path.Join(dir, n, "index.md"),
			path.Join(dir, n, "index.ts"),
		}
	}
	// dir is clean and n a slash-separated tag name whose segments are
	// identifiers: path.Join would only add the separators. One string
	// holds all four, sliced.
	c := n
	switch dir {
	case ".":
	case "/":
		c = "/" + n
	default:
		c = dir + "/" + n
	}
	all := c + ".md" + c + ".ts" + c + "/index.md" + c + "/index.ts"
	l := len(c)
	return [4]string{all[:l+3], all[l+3 : 2*l+6], all[2*l+6 : 3*l+15], all[3*l+15:]}
}

// cleanName reports a name path.Join leaves as it is: segments that are
// not empty, "." or "..".
func cleanName(n string) bool {
	for seg := range strings.SplitSeq(n, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// resolve answers name: structural; registered (by the engine's packages
// or, as the configuration says, by a host); the bundle; a file in the
// search folders (SearchDirs); else unresolved. Without a workspace, what is not structural or
// registered is unknown. The answer is shared by every tag of the name and
// never modified: the walk keeps a pointer per tag, not a copy.
func (r *resolver) resolve(name string) *Resolution {
	// Every name is cached, structural and registered ones too: a document
	// invokes a few names many times, and one lookup here is cheaper than
	// trying the structural and registered sets before it each time.
	if res, ok := r.recent.get(name); ok {
		return res
	}
	if res, ok := r.cache[name]; ok {
		r.recent.put(name, res)
		return res
	}
	var res *Resolution
	_, bundled := r.bundleEntry(name)
	if Structural[name] {
		res = &resStructural
	} else if bundled {
		// The bundle answers before any registered default (select.ts):
		// it may not claim core's own names (see coreDefaults).
		res = new(Resolution)
		*res = r.resolveUncached(name)
	} else if _, host := isRegistered(name); registeredIn(name, r.mode) {
		// The workflow host's components exist only in a workflow run, the
		// test agent's only under xmd test; unless the configuration says
		// how the document runs, they are taken as registered.
		res = &resRegistered
		if host {
			res = &resHost
		}
		// A registered default is only that: a repository file of the
		// name is chosen ahead of it (packages/core/src/components/select.ts:
		// a repository-local file, then a registered default), except in a
		// workflow run, which searches no files.
		if r.fsys != nil && r.bundle == nil && r.mode != ModeWorkflow {
			if f := r.resolveUncached(name); f.Kind == ResolveFile {
				res = &f
			}
		}
	} else if registeredByHost(r.registered, name) {
		res = &resConfigured
	} else {
		res = new(Resolution)
		*res = r.resolveUncached(name)
	}
	if r.cache == nil {
		r.cache = make(map[string]*Resolution, 8)
	}
	r.cache[name] = res
	r.recent.put(name, res)
	return res
}

// The answers for structural and registered names, the same everywhere.
var (
	resStructural = Resolution{Kind: ResolveStructural}
	resRegistered = Resolution{Kind: ResolveRegistered}
	resHost       = Resolution{Kind: ResolveRegistered, Host: true}
	resConfigured = Resolution{Kind: ResolveRegistered, Configured: true}
)

// bundleEntry is the path the bundle declares for name, if any.
func (r *resolver) bundleEntry(name string) (string, bool) {
	if r.bundle == nil {
		return "", false
	}
	p, ok := r.bundle.Entries[name]
	return p, ok
}

// resolveUncached answers a name that is not structural: from the bundle,
// else (when it is not registered, which resolve answered) from the files.
func (r *resolver) resolveUncached(name string) Resolution {
	if r.bundle != nil {
		if p, ok := r.bundle.Entries[name]; ok {
			if r.fsys == nil {
				return Resolution{Kind: ResolveBundle, Path: p}
			}
			comp, ok := r.readIfFile(p) // a bundle path ends in .md
			if !ok {
				return Resolution{Kind: ResolveUnresolved, Path: p, Looked: []string{p}}
			}
			return Resolution{Kind: ResolveBundle, Path: p, Component: comp}
		}
	}
	if r.fsys == nil {
		return Resolution{Kind: ResolveUnknown}
	}
	for _, dir := range r.search {
		if r.dirs.static() && !r.dirs.mayHold(r.fsys, []string{dir}, name) {
			continue // the run's listing of the folder holds no candidate
		}
		for _, c := range candidates(dir, name) {
			if strings.HasSuffix(c, ".md") {
				if comp, ok := r.readIfFile(c); ok {
					return Resolution{Kind: ResolveFile, Path: c, OutsideBundle: r.bundle != nil, Component: comp}
				}
				continue
			}
			if r.isFile(c) {
				return Resolution{Kind: ResolveFile, Path: c, OutsideBundle: r.bundle != nil}
			}
		}
	}
	// The candidates tried, listed only now: most names resolve.
	looked := make([]string, 0, 4*len(r.search))
	for _, dir := range r.search {
		cs := candidates(dir, name)
		looked = append(looked, cs[:]...)
	}
	return Resolution{Kind: ResolveUnresolved, Looked: looked, Searched: r.search}
}

// mayDeclareBundle reports whether the file at p may be a workflow root
// with `workflow.components`: its front matter names "workflow" and
// "components" (or has an escape, which could spell them). Finding the
// bundle reads every Markdown file of the document's folder and those
// above it, for every document analysed; a folder of hundreds of
// workflows made that hundreds of full reads and parses per document.
// Only the start of each file is read.
func mayDeclareBundle(fsys fs.FS, p string) bool {
	f, _, err := safefile.OpenFS(fsys, p) // a named pipe beside a workflow must not block its analysis
	if err != nil {
		return false
	}
	defer f.Close()
	buf := headPool.Get().(*[]byte)
	head := (*buf)[:0]
	defer func() {
		if cap(head) <= 64<<10 {
			*buf = head
			headPool.Put(buf)
		}
	}()
	for len(head) < 1<<20 {
		if len(head) == cap(head) {
			head = slices.Grow(head, cap(head))
		}
		n, err := f.Read(head[len(head):cap(head)])
		head = head[:len(head)+n]
		if len(head) >= 3 && string(head[:3]) != "---" {
			return false // no front matter: never a root
		}
		// Read in place: nothing of it outlives the call, and the buffer
		// is not written while it is read.
		text := unsafe.String(unsafe.SliceData(head), len(head))
		if err == nil { // judge complete lines only: a "---" cut short is not a closing line
			text = text[:strings.LastIndexAny(text, "\r\n")+1]
		}
		if fm, body := detectFrontMatter(text); fm != nil {
			yaml := text[body.Start:body.End]
			// The declaration is a `workflow` mapping's `components` key
			// (under `meta` or not): both words are there as written,
			// unless an escape spells one. A page whose title says
			// "components" is no root.
			return strings.Contains(yaml, "components") && strings.Contains(yaml, "workflow") || strings.Contains(yaml, "\\")
		}
		if err != nil {
			return false // the end, and the front matter never closed: no front matter
		}
	}
	return true // too long to judge from its start: read it in full
}

// headPool holds mayDeclareBundle's buffers: it reads the start of every
// Markdown file of a folder of workflows, a buffer (and a copy of it) each.
var headPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Dirs remembers, per folder, the Markdown files that may declare a bundle
// (mayDeclareBundle). Safe for concurrent use; a nil *Dirs remembers
// nothing.
//
// One from NewDirs is for one run over files that do not change meanwhile
// (baton check): each folder is listed once. One from NewLiveDirs is for a
// workspace whose files change under it (the language server): see there.
type Dirs struct {
	mu   sync.Mutex
	live map[string]*liveDir // NewLiveDirs: what each folder held when last looked at
	now  func() time.Time
	// run is, for a NewDirs, what the run reads once.
	run *runDirs
}

// runDirs is what a NewDirs's run reads once (by the first resolver that
// asks; those asking meanwhile wait for its answer rather than read it
// too).
type runDirs struct {
	roots   memo.Map[string, []string]        // each folder's files that may declare a bundle
	entries memo.Map[string, map[string]bool] // each folder's names (mayHold)
	files   memo.Map[string, staticFile]      // the files the run's resolvers read (file)
}

// staticFile is a file a NewDirs's run read.
type staticFile struct {
	c    *Component // nil: not parsed, or too large to keep
	file bool       // a regular file is there
	big  bool       // too large to keep: read again by each resolver
}

// maxStaticFiles bounds the files a run's Dirs keeps; those past it are
// read by each resolver that asks, as a live Dirs's are.
const maxStaticFiles = sharedMax

// file is read(), once per run for a NewDirs: every workflow of a folder
// invokes the same components and is listed by the same bundle root, and
// each read walked the workspace to the file (os.Root's lookups) again.
// The files of a run do not change meanwhile. A component larger than
// parseShared keeps is not kept either. A live or nil Dirs reads each time.
func (d *Dirs) file(p string, read func() (c *Component, file, small bool)) (*Component, bool) {
	if !d.static() {
		c, file, _ := read()
		return c, file
	}
	var fresh *staticFile // what this call read, if it was the one
	f := d.run.files.Get(p, func() staticFile {
		c, file, small := read()
		fresh = &staticFile{c: c, file: file}
		if !small {
			return staticFile{file: file, big: true}
		}
		return *fresh
	})
	switch {
	case fresh != nil:
		return fresh.c, fresh.file
	case f.big:
		c, file, _ := read()
		return c, file
	}
	return f.c, f.file
}

// static reports a Dirs of one run (NewDirs), whose folders are listed once.
func (d *Dirs) static() bool { return d != nil && d.run != nil }

// NewDirs returns an empty Dirs, for one run over one file system root.
func NewDirs() *Dirs {
	return &Dirs{run: &runDirs{files: memo.Map[string, staticFile]{Max: maxStaticFiles}}}
}

// NewLiveDirs returns an empty Dirs for one file system root whose files
// may change between documents. A folder is listed again when its
// modification time changed, and a file is read again when its size or
// modification time changed: finding the bundle of a document is then a
// Stat per Markdown file of its folders instead of opening and reading each
// one, for every analysis. A file or folder modified less than racyWindow
// before it was read is not trusted (a later change within the file
// system's timestamp granularity would leave its time as it was): it is
// read again each time until it has been still that long. Files the FS
// serves from memory (an editor's open documents, see InMemory) are never
// remembered: their text changes without their time.
func NewLiveDirs() *Dirs {
	return &Dirs{live: map[string]*liveDir{}, now: time.Now}
}

// racyWindow is how long a file must have been unmodified, when read, for
// its size and modification time to stand for its content.
const racyWindow = 2 * time.Second

// An InMemoryFS serves some of its files from memory: InMemory reports
// whether name is one of them.
type InMemoryFS interface {
	fs.FS
	InMemory(name string) bool
}

type liveDir struct {
	mod   time.Time // the folder's modification time when listed
	read  time.Time // when it was listed
	names []string  // its Markdown files, as paths
	files map[string]liveFile
}

type liveFile struct {
	size      int64
	mod, read time.Time
	may       bool // mayDeclareBundle
}

func trusted(read, mod time.Time) bool { return read.Sub(mod) >= racyWindow }

// rootsPerRun is the fewest files of a folder roots reads on each CPU.
const rootsPerRun = 32

// roots lists the files of dir that may declare a bundle.
func (d *Dirs) roots(fsys fs.FS, dir string) []string {
	if d != nil && d.live != nil {
		return d.liveRoots(fsys, dir)
	}
	list := func() []string {
		// The folder is opened once and its files read from it: on disk,
		// a path is otherwise looked up a folder at a time, for each file.
		// A link is read by its path from the root: one leading out of the
		// folder may lead to a file of the workspace.
		sub, done, ok := safefile.Sub(fsys, dir)
		if ok {
			defer done()
		}
		entries, _ := fs.ReadDir(fsys, dir)
		entries = slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return e.IsDir() || !strings.HasSuffix(e.Name(), ".md") })
		may := make([]bool, len(entries))
		read := func(i int) {
			e := entries[i]
			in, name := fsys, path.Join(dir, e.Name())
			if ok && e.Type()&fs.ModeSymlink == 0 {
				in, name = sub, e.Name()
			}
			may[i] = mayDeclareBundle(in, name)
		}
		// A folder of hundreds of workflows is read on every CPU at once:
		// the documents of the folder analysed meanwhile wait for the list.
		var next atomic.Int64
		var wg sync.WaitGroup
		for range max(1, min(runtime.GOMAXPROCS(0), len(entries)/rootsPerRun)) {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(entries); i = int(next.Add(1) - 1) {
					read(i)
				}
			})
		}
		wg.Wait()
		var out []string
		for i, e := range entries {
			if may[i] {
				out = append(out, path.Join(dir, e.Name()))
			}
		}
		return out
	}
	if !d.static() {
		return list()
	}
	return d.run.roots.Get(dir, list)
}

// mayHold reports whether one of dirs holds an entry a component file of
// name would start with (N.md, N.ts or the folder N, N the name's first
// dotted part): most tags of a page that is no workflow resolve to
// nothing, and a listing answers that without a Stat per candidate. A
// NewDirs lists each folder once per run; a live or nil one lists it at
// each call.
func (d *Dirs) mayHold(fsys fs.FS, dirs []string, name string) bool {
	if fsys == nil {
		return false
	}
	first, _, dotted := strings.Cut(name, ".")
	for _, dir := range dirs {
		names := d.entries(fsys, dir)
		if names[first] || (!dotted && (names[first+".md"] || names[first+".ts"])) {
			return true
		}
	}
	return false
}

// entries are the names in dir, listed once by a NewDirs.
func (d *Dirs) entries(fsys fs.FS, dir string) map[string]bool {
	list := func() map[string]bool {
		es, _ := fs.ReadDir(fsys, dir)
		m := make(map[string]bool, len(es))
		for _, e := range es {
			m[e.Name()] = true
		}
		return m
	}
	if !d.static() {
		return list()
	}
	return d.run.entries.Get(dir, list)
}

// markdownFiles lists the paths of dir's .md files.
func markdownFiles(fsys fs.FS, dir string) []string {
	entries, _ := fs.ReadDir(fsys, dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			out = append(out, path.Join(dir, e.Name()))
		}
	}
	return out
}

func (d *Dirs) liveRoots(fsys fs.FS, dir string) []string {
	now := d.now() // before anything is read
	info, err := fs.Stat(fsys, dir)
	if err != nil || !info.IsDir() {
		d.mu.Lock()
		delete(d.live, dir)
		d.mu.Unlock()
		return nil
	}
	d.mu.Lock()
	old := d.live[dir]
	d.mu.Unlock()
	next := &liveDir{mod: info.ModTime(), read: now}
	if old != nil && old.mod.Equal(next.mod) && trusted(old.read, old.mod) {
		next.names, next.read = old.names, old.read
	} else {
		next.names = markdownFiles(fsys, dir)
	}
	mem, _ := fsys.(InMemoryFS)
	next.files = make(map[string]liveFile, len(next.names))
	var out []string
	for _, p := range next.names {
		if mem != nil && mem.InMemory(p) {
			if mayDeclareBundle(fsys, p) {
				out = append(out, p)
			}
			continue
		}
		fi, err := fs.Stat(fsys, p)
		if err != nil || fi.IsDir() {
			continue
		}
		f, ok := liveFile{}, false
		if old != nil {
			f, ok = old.files[p]
		}
		if !ok || f.size != fi.Size() || !f.mod.Equal(fi.ModTime()) || !trusted(f.read, f.mod) {
			f = liveFile{size: fi.Size(), mod: fi.ModTime(), read: now, may: mayDeclareBundle(fsys, p)}
		}
		next.files[p] = f
		if f.may {
			out = append(out, p)
		}
	}
	d.mu.Lock()
	d.live[dir] = next
	d.mu.Unlock()
	return out
}

// resolverIn is the resolver of the document at env's EnvPath (which it
// sets as self's Path), whose own component is self, in env's workspace,
// configured folders, registered names and mode. The checks and editor
// features (run, on the Model) and the kind check (Confirm) all build
// theirs here: one resolver, asked the same question, gives one answer.
func resolverIn(env analysis.Env, self *Component) *resolver {
	fsys, _ := env[EnvFS].(fs.FS)
	docPath, _ := env[EnvPath].(string)
	dirs, _ := env[EnvDirs].(*Dirs)
	componentDirs, _ := env[EnvComponentDirs].([]string)
	registered, _ := env[EnvRegistered].([]string)
	mode, _ := env[EnvMode].(string)
	docPath = path.Clean(strings.TrimPrefix(docPath, "/"))
	if docPath == "." {
		docPath = ""
	}
	self.Path = docPath
	return newResolver(fsys, dirs, docPath, self, componentDirs, registered, mode)
}

// Confirm recognises, from its workspace, a workflow whose text shows no
// sign only XMD gives (Detect): one of its component tags
// (doc.Components) resolves, through the resolver the workflow's rules use
// (resolverIn, SearchDirs), to a file of the search folders, an entry of
// the bundle that lists the document, or a name the configuration says a
// host registers. A tag it finds is never reported unresolved, and one it
// does not find leaves the page ordinary Markdown: an MDX page's <Callout>
// with the site's docs/components/Callout.ts, which the engine run from the
// workspace root does not find either. Without a workspace nothing
// resolves: a prompt's <CRITICAL> stays text.
func Confirm(doc *markdown.Document, env analysis.Env) (why string, at markdown.Span, ok bool) {
	if len(doc.Components) == 0 {
		return "", markdown.Span{}, false
	}
	first := doc.Components[0].Name
	more := ""
	if n := len(doc.Components) - 1; n == 1 {
		more = " and 1 other tag"
	} else if n > 1 {
		more = fmt.Sprintf(" and %d other tags", n)
	}
	r := resolverIn(env, &Component{})
	if r.fsys == nil && len(r.registered) == 0 {
		return "`<" + first + ">`" + more + " may be XMD components, but there is no workspace to resolve them in, and nothing else shows XMD", doc.Components[0].Span, false
	}
	for _, t := range doc.Components {
		if _, bundled := r.bundleEntry(t.Name); !bundled && !registeredByHost(r.registered, t.Name) &&
			!r.dirs.mayHold(r.fsys, r.search, t.Name) {
			continue // no file of that name in any search folder: nothing to read
		}
		switch res := r.resolve(t.Name); {
		case res.Kind == ResolveRegistered && res.Configured:
			return "`<" + t.Name + ">` is a component the configuration registers", t.Span, true
		case res.Kind == ResolveBundle && res.Path != "":
			return "`<" + t.Name + ">` is a component of the bundle of " + r.bundle.RootPath + " (" + res.Path + ")", t.Span, true
		case res.Kind == ResolveFile && !res.OutsideBundle:
			// A file outside the bundle that lists the document is what a
			// workflow run does not search: the rule reports it, so it
			// makes nothing a workflow.
			return "`<" + t.Name + ">` resolves to the component file " + res.Path, t.Span, true
		}
	}
	verb := " resolve"
	if more == "" {
		verb = " resolves"
	}
	return "`<" + first + ">`" + more + verb + " to no component (no file in " + strings.Join(r.search, ", ") + ", no bundle entry, no configured name), and nothing else shows XMD", doc.Components[0].Span, false
}
