package stopintent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// The specrew workspace files the classifier's workspace inputs come from,
// relative to the .specrew directory, slash-separated.
const (
	specrewDir       = ".specrew"
	pendingFile      = "runtime/pending-verdict-stop.md"
	startContextFile = "start-context.json"
	sessionsDir      = "runtime/conformance-sessions"
	guardFile        = "continue-guard.json"
	legacyGuardFile  = "runtime/conformance-continue-guard.json"
)

// LoopGuardLimit is the continue-guard count at which the loop guard has
// tripped.
const LoopGuardLimit = 3

// maxFileSize bounds what State reads of any one file.
const maxFileSize = 16 << 20

// Source is one workspace input and where it came from.
type Source struct {
	Value Tri
	// Path is the workspace file the value came from (the workspace root
	// joined with the file's path), also when its absence decided the
	// value; "" when the value is unknown.
	Path string
	// Note says briefly why the value is what it is.
	Note string
}

// State is what a workspace says about the classifier's inputs.
type State struct {
	// Specrew reports whether the root holds a .specrew directory. When it
	// does not, every value is unknown.
	Specrew bool
	// BoundaryPending is LifecycleBoundaryPending,
	// Authorized is AuthorizedWorkRemains and
	// LoopGuardTripped is ContinueLoopGuardTripped.
	BoundaryPending, Authorized, LoopGuardTripped Source
	// Crossing is the crossing whose verdict is due, when start-context.json
	// says one is pending (nil otherwise, also when only the rendered
	// pending-verdict file says so: it names no crossing).
	Crossing *Crossing
	// Evidence, when a crossing is pending, is what its stage owes and the
	// tree it is bound to lacks (nil: the evidence is there, or owed none).
	// The crossing stays pending, but no verdict is asked for.
	Evidence *Evidence
	// Integrity is specrew's IntegrityStatus of the pending-verdict reading
	// ("legacy-unscoped", "scoped-verified", "scoped-clean", …); "" when
	// start-context.json has no boundary_enforcement.
	Integrity string
	// Problems lists what could not be read or understood, e.g.
	// "malformed JSON in .specrew/start-context.json: …". A value affected
	// by a problem is unknown.
	Problems []string
}

func (s *State) problem(format string, args ...any) {
	s.Problems = append(s.Problems, fmt.Sprintf(format, args...))
}

// Workspace reads the classifier's inputs from a specrew project. It reads
// only below root/.specrew, never writes, and keeps the contents of the
// files it has read, reading one again only when its size or modification
// time changes. It is safe for concurrent use.
type Workspace struct {
	root string

	mu    sync.Mutex
	cache map[string]cachedFile // by path relative to .specrew
	// objects remembers what git said about a commit or tree named by its
	// full id: that never changes, and State runs on every analysis.
	objects map[string]gitAnswer
}

type gitAnswer struct {
	out []byte
	err error
}

type cachedFile struct {
	size int64
	mod  time.Time
	data []byte
}

// NewWorkspace returns a Workspace for the project at root.
func NewWorkspace(root string) *Workspace {
	return &Workspace{root: root, cache: map[string]cachedFile{}, objects: map[string]gitAnswer{}}
}

// State reads the workspace's inputs to the classifier (spec §4):
//
//   - BoundaryPending: specrew's Get-SpecrewPendingVerdictState over
//     .specrew/start-context.json (see readVerdict): the working boundary
//     session_state.boundary_type ahead of
//     boundary_enforcement.last_authorized_boundary, scoped by
//     boundary_enforcement.pending_crossing once that field exists (null:
//     nothing pending; a record must verify against its Git tree). Enforcement
//     disabled, an invalid or unverifiable state: not pending, as specrew
//     fails open. Only when the file has no boundary_enforcement (or cannot
//     be read) is the rendered .specrew/runtime/pending-verdict-stop.md the
//     signal: it exists, or not;
//   - Authorized: what the stop provider computes — a non-empty
//     session_state.boundary_type, a non-empty
//     boundary_enforcement.last_authorized_boundary or
//     boundary_enforcement.verdict_history, and no boundary pending; unknown
//     when the file is missing or malformed;
//   - LoopGuardTripped: the continue guard
//     .specrew/runtime/conformance-sessions/<session>/continue-guard.json
//     ({"key":…, "count":N, "epoch":…}) has a count of at least
//     LoopGuardLimit. With session "" the most recently modified of every
//     session's guard and the legacy
//     .specrew/runtime/conformance-continue-guard.json is used. No guard file
//     means the guard has not tripped.
//
// Verifying a scoped crossing runs git (rev-parse) in root; nothing else
// runs or is written.
//
// When root has no .specrew directory every value is unknown.
func (w *Workspace) State(session string) State {
	w.mu.Lock()
	defer w.mu.Unlock()

	var st State
	allUnknown := func(note string) State {
		st.BoundaryPending = Source{Note: note}
		st.Authorized = Source{Note: note}
		st.LoopGuardTripped = Source{Note: note}
		return st
	}
	dir := filepath.Join(w.root, specrewDir)
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		clear(w.cache)
		return allUnknown("not a specrew project (no .specrew directory)")
	case err != nil:
		st.problem("cannot read %s: %v", specrewDir, cause(err))
		return allUnknown("cannot read .specrew")
	case fi.Mode()&fs.ModeSymlink != 0:
		st.Specrew = true
		st.problem("%s is a symbolic link; not followed", specrewDir)
		return allUnknown(".specrew is a symbolic link")
	case !fi.IsDir():
		clear(w.cache)
		return allUnknown("not a specrew project (.specrew is not a directory)")
	}
	st.Specrew = true
	// An os.Root refuses any path, symbolic links included, that leads
	// outside .specrew.
	r, err := os.OpenRoot(dir)
	if err != nil {
		st.problem("cannot open %s: %v", specrewDir, cause(err))
		return allUnknown("cannot open .specrew")
	}
	defer r.Close()

	ctx, v := w.startContext(r, &st)
	st.BoundaryPending = w.pending(r, ctx, v, &st)
	if v != nil {
		st.Crossing, st.Integrity, st.Evidence = v.crossing, v.integrity, v.evidence
	}
	st.Authorized = authorized(ctx, st.BoundaryPending)
	st.LoopGuardTripped = w.loopGuard(r, session, &st)
	return st
}

// path is where rel (relative to .specrew) is, for Source.Path.
func (w *Workspace) path(rel string) string {
	return filepath.Join(w.root, specrewDir, filepath.FromSlash(rel))
}

// display is rel as Problems and Notes show it.
func display(rel string) string { return specrewDir + "/" + rel }

// cause strips the operation and path from a path error, which the message
// around it already names.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// read returns the contents of rel, from the cache when the file's size and
// modification time are what they were when it was last read.
func (w *Workspace) read(r *os.Root, rel string) ([]byte, error) {
	name := filepath.FromSlash(rel)
	fi, err := r.Stat(name)
	if err != nil {
		delete(w.cache, rel)
		return nil, err
	}
	if c, ok := w.cache[rel]; ok && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.data, nil
	}
	delete(w.cache, rel)
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	// Non-blocking: a file that became a named pipe since the Stat must not
	// block the open (the server reads this state on every analysis).
	f, err := r.OpenFile(name, os.O_RDONLY|safefile.NonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// What is recorded is the state of the file before reading it: if it
	// changes while being read, the next call reads it again.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	w.cache[rel] = cachedFile{size: fi.Size(), mod: fi.ModTime(), data: data}
	return data, nil
}

// startContext reads start-context.json: the Source of authorization
// before the pending state is known (value unknown when the file is missing
// or malformed), and the pending-verdict reading (nil then).
func (w *Workspace) startContext(r *os.Root, st *State) (Source, *verdictState) {
	data, err := w.read(r, startContextFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.problem("missing %s", display(startContextFile))
		return Source{Note: "no " + display(startContextFile)}, nil
	case err != nil:
		st.problem("cannot read %s: %v", display(startContextFile), cause(err))
		return Source{Note: "cannot read " + display(startContextFile)}, nil
	}
	var doc any
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\uFEFF")), &doc); err != nil {
		st.problem("malformed JSON in %s: %v", display(startContextFile), err)
		return Source{Path: w.path(startContextFile), Note: "malformed " + display(startContextFile)}, nil
	}
	top, ok := doc.(map[string]any)
	if !ok {
		st.problem("malformed JSON in %s: not a JSON object", display(startContextFile))
		return Source{Path: w.path(startContextFile), Note: "malformed " + display(startContextFile)}, nil
	}
	v := readVerdict(top, w.root, gitRepo{w.root, w.objects})
	if v.problem != "" {
		st.problem("%s: %s", display(startContextFile), v.problem)
	}
	src := Source{Value: False, Path: w.path(startContextFile)}
	bt, _ := field(top, "session_state", "boundary_type").(string)
	lab, _ := field(top, "boundary_enforcement", "last_authorized_boundary").(string)
	h, _ := field(top, "boundary_enforcement", "verdict_history").([]any)
	switch {
	case !v.activeBoundary:
		src.Note = "session_state.boundary_type is missing or empty"
	case lab != "":
		src.Value, src.Note = True, fmt.Sprintf("boundary %q, last authorized boundary %q", bt, lab)
	case len(h) > 0:
		src.Value, src.Note = True, fmt.Sprintf("boundary %q, boundary_enforcement.verdict_history has %d entries", bt, len(h))
	default:
		src.Note = fmt.Sprintf("boundary %q, but no last authorized boundary and no verdict history", bt)
	}
	return src, &v
}

// gitRepo is the workspace's repository, read with git. Its questions name
// objects by full id, so their answers are remembered (State holds the
// workspace's lock).
type gitRepo struct {
	root    string
	objects map[string]gitAnswer
}

func (g gitRepo) git(object string, args ...string) ([]byte, error) {
	if !hexID(object) {
		return nil, fmt.Errorf("%q is not a full object id", object)
	}
	key := strings.Join(args, "\x00")
	if a, ok := g.objects[key]; ok {
		return a.out, a.err
	}
	out, err := exec.Command("git", append([]string{"-C", g.root, "-c", "core.quotepath=false"}, args...)...).Output()
	if g.objects != nil {
		if len(g.objects) > 256 {
			clear(g.objects)
		}
		g.objects[key] = gitAnswer{out, err}
	}
	return out, err
}

func hexID(s string) bool {
	if len(s) < 40 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

func (g gitRepo) Tree(commit string) (string, error) {
	commit = strings.ToLower(commit)
	out, err := g.git(commit, "rev-parse", "--verify", "--quiet", commit+"^{tree}")
	if err != nil {
		return "", err
	}
	t := strings.ToLower(strings.TrimSpace(string(out)))
	if !hexID(t) {
		return "", fmt.Errorf("unexpected output %q", t)
	}
	return t, nil
}

func (g gitRepo) Files(tree string) ([]string, error) {
	out, err := g.git(tree, "ls-tree", "-r", "--name-only", tree)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n"), nil
}

func (g gitRepo) Show(tree, path string) ([]byte, error) {
	return g.git(tree, "show", tree+":"+path)
}

func (w *Workspace) pending(r *os.Root, ctx Source, v *verdictState, st *State) Source {
	if v != nil && v.decided {
		if v.pending {
			return Source{Value: True, Path: ctx.Path, Note: v.note}
		}
		note := v.note
		if note == "" {
			note = "no verdict is pending"
		}
		return Source{Value: False, Path: ctx.Path, Note: note}
	}
	// No authority: the rendered artifact is the only signal.
	_, err := r.Lstat(filepath.FromSlash(pendingFile))
	switch {
	case err == nil:
		return Source{Value: True, Path: w.path(pendingFile), Note: "a verdict stop is pending (" + display(pendingFile) + " exists; " + display(startContextFile) + " records no boundary_enforcement)"}
	case errors.Is(err, fs.ErrNotExist):
		return Source{Value: False, Path: w.path(pendingFile), Note: "no pending verdict stop (" + display(pendingFile) + " does not exist, and " + display(startContextFile) + " records no boundary_enforcement)"}
	}
	st.problem("cannot check %s: %v", display(pendingFile), cause(err))
	return Source{Note: "cannot check for a pending verdict stop"}
}

// authorized is the provider's AuthorizedWorkRemains: an authorized phase
// (ctx) and nothing pending.
func authorized(ctx Source, pending Source) Source {
	switch {
	case pending.Value == True:
		return Source{Value: False, Path: pending.Path, Note: "a verdict boundary is pending"}
	case ctx.Value != True:
		return ctx
	case pending.Value == Unknown:
		return Source{Path: ctx.Path, Note: ctx.Note + ", but whether a verdict boundary is pending is unknown"}
	}
	return ctx
}

// field follows keys through nested objects; nil when one is missing.
func field(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// validSession reports whether id is a single path element that names a
// session directory.
func validSession(id string) bool {
	return id != "" && id != "." && id != ".." && !strings.ContainsAny(id, `/\`+"\x00") && filepath.IsLocal(id)
}

func (w *Workspace) loopGuard(r *os.Root, session string, st *State) Source {
	var rel string
	if session != "" {
		if !validSession(session) {
			st.problem("invalid session id %q: it must be a single path element", session)
			return Source{Note: "invalid session id"}
		}
		rel = sessionsDir + "/" + session + "/" + guardFile
	} else {
		var err error
		var complete bool
		if rel, complete, err = w.newestGuard(r, st); err != nil {
			st.problem("cannot list %s: %v", display(sessionsDir), cause(err))
			return Source{Note: "cannot list the conformance sessions"}
		}
		if !complete {
			// A guard that could not be checked might be the newest one.
			return Source{Note: "cannot tell which continue guard file is the newest"}
		}
		if rel == "" {
			return Source{Value: False, Path: w.path(sessionsDir), Note: "no continue guard file"}
		}
	}
	data, err := w.read(r, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if session == "" {
			return Source{Value: False, Path: w.path(sessionsDir), Note: "no continue guard file"}
		}
		return Source{Value: False, Path: w.path(rel), Note: "no continue guard file for session " + session}
	case err != nil:
		st.problem("cannot read %s: %v", display(rel), cause(err))
		return Source{Note: "cannot read " + display(rel)}
	}
	count, err := parseGuard(data)
	if err != nil {
		st.problem("malformed JSON in %s: %v", display(rel), err)
		return Source{Path: w.path(rel), Note: "malformed " + display(rel)}
	}
	if count >= LoopGuardLimit {
		return Source{Value: True, Path: w.path(rel), Note: fmt.Sprintf("continue repeated %v times without progress (limit %d)", count, LoopGuardLimit)}
	}
	return Source{Value: False, Path: w.path(rel), Note: fmt.Sprintf("continue count %v, below the limit of %d", count, LoopGuardLimit)}
}

// newestGuard finds the most recently modified session guard file; "" when
// there is none. complete is false when some guard file could not be
// checked (each such one is a problem).
func (w *Workspace) newestGuard(r *os.Root, st *State) (best string, complete bool, err error) {
	complete = true
	var bestMod time.Time
	consider := func(rel string) {
		fi, err := r.Stat(filepath.FromSlash(rel))
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			st.problem("cannot check %s: %v", display(rel), cause(err))
			complete = false
			return
		}
		// Newest wins; a tie goes to the later name, so that the choice
		// does not depend on the order of the listing.
		if m := fi.ModTime(); best == "" || m.After(bestMod) || (m.Equal(bestMod) && rel > best) {
			best, bestMod = rel, m
		}
	}
	// The guard a provider run without a session id keeps.
	consider(legacyGuardFile)
	// Without waiting: a named pipe in the folder's place must not block.
	d, err := r.OpenFile(filepath.FromSlash(sessionsDir), os.O_RDONLY|safefile.NonBlock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return best, complete, nil
	}
	if err != nil {
		return "", false, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return "", false, err
	}
	for _, e := range entries {
		if e.IsDir() {
			consider(sessionsDir + "/" + e.Name() + "/" + guardFile)
		}
	}
	return best, complete, nil
}

// parseGuard reads the count of a continue-guard.json.
func parseGuard(data []byte) (float64, error) {
	var doc any
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\uFEFF")), &doc); err != nil {
		return 0, err
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return 0, errors.New("not a JSON object")
	}
	count, ok := top["count"].(float64)
	if !ok {
		return 0, errors.New(`"count" is missing or not a number`)
	}
	return count, nil
}
