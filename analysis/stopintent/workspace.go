package stopintent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The specrew workspace files the classifier's workspace inputs come from,
// relative to the .specrew directory, slash-separated.
const (
	specrewDir       = ".specrew"
	pendingFile      = "runtime/pending-verdict-stop.md"
	startContextFile = "start-context.json"
	sessionsDir      = "runtime/conformance-sessions"
	guardFile        = "continue-guard.json"
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
}

type cachedFile struct {
	size int64
	mod  time.Time
	data []byte
}

// NewWorkspace returns a Workspace for the project at root.
func NewWorkspace(root string) *Workspace {
	return &Workspace{root: root, cache: map[string]cachedFile{}}
}

// State reads the workspace's inputs to the classifier (spec §4):
//
//   - BoundaryPending: .specrew/runtime/pending-verdict-stop.md exists;
//   - Authorized: .specrew/start-context.json has a non-empty
//     session_state.boundary_type and either a non-empty
//     boundary_enforcement.last_authorized_boundary or a non-empty
//     verdict_history (at the top level or under boundary_enforcement), and
//     no boundary is pending; unknown when the file is missing or malformed;
//   - LoopGuardTripped: the continue guard
//     .specrew/runtime/conformance-sessions/<session>/continue-guard.json
//     ({"key":…, "count":N, "epoch":…}) has a count of at least
//     LoopGuardLimit. With session "" the most recently modified guard file
//     of any session is used. No guard file means the guard has not tripped.
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

	st.BoundaryPending = w.pending(r, &st)
	st.Authorized = w.authorized(r, st.BoundaryPending, &st)
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
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// What is recorded is the state of the file before reading it: if it
	// changes while being read, the next call reads it again.
	if fi, err = f.Stat(); err != nil {
		return nil, err
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

func (w *Workspace) pending(r *os.Root, st *State) Source {
	_, err := r.Lstat(filepath.FromSlash(pendingFile))
	switch {
	case err == nil:
		return Source{Value: True, Path: w.path(pendingFile), Note: "a verdict stop is pending (" + display(pendingFile) + " exists)"}
	case errors.Is(err, fs.ErrNotExist):
		return Source{Value: False, Path: w.path(pendingFile), Note: "no pending verdict stop (" + display(pendingFile) + " does not exist)"}
	}
	st.problem("cannot check %s: %v", display(pendingFile), cause(err))
	return Source{Note: "cannot check for a pending verdict stop"}
}

func (w *Workspace) authorized(r *os.Root, pending Source, st *State) Source {
	ctx := Source{Path: w.path(startContextFile)}
	data, err := w.read(r, startContextFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.problem("missing %s", display(startContextFile))
		ctx = Source{Note: "no " + display(startContextFile)}
	case err != nil:
		st.problem("cannot read %s: %v", display(startContextFile), cause(err))
		ctx = Source{Note: "cannot read " + display(startContextFile)}
	default:
		var perr error
		ctx.Value, ctx.Note, perr = parseStartContext(data)
		if perr != nil {
			st.problem("malformed JSON in %s: %v", display(startContextFile), perr)
			ctx = Source{Path: ctx.Path, Note: "malformed " + display(startContextFile)}
		}
	}
	// Authorized = the start context allows it AND nothing is pending.
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

// parseStartContext decides authorization from start-context.json. Fields
// that are missing or of the wrong type count as empty; only a document that
// is not a JSON object is an error.
func parseStartContext(data []byte) (Tri, string, error) {
	var doc any
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\uFEFF")), &doc); err != nil {
		return Unknown, "", err
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return Unknown, "", errors.New("not a JSON object")
	}
	bt, _ := field(top, "session_state", "boundary_type").(string)
	if bt == "" {
		return False, "session_state.boundary_type is missing or empty", nil
	}
	if lab, _ := field(top, "boundary_enforcement", "last_authorized_boundary").(string); lab != "" {
		return True, fmt.Sprintf("boundary %q, last authorized boundary %q", bt, lab), nil
	}
	for _, path := range [][]string{{"verdict_history"}, {"boundary_enforcement", "verdict_history"}} {
		if h, _ := field(top, path...).([]any); len(h) > 0 {
			return True, fmt.Sprintf("boundary %q, %s has %d entries", bt, strings.Join(path, "."), len(h)), nil
		}
	}
	return False, fmt.Sprintf("boundary %q, but no last authorized boundary and no verdict history", bt), nil
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
	d, err := r.Open(filepath.FromSlash(sessionsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return "", true, nil
	}
	if err != nil {
		return "", false, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return "", false, err
	}
	complete = true
	var bestMod time.Time
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		rel := sessionsDir + "/" + e.Name() + "/" + guardFile
		fi, err := r.Stat(filepath.FromSlash(rel))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			st.problem("cannot check %s: %v", display(rel), cause(err))
			complete = false
			continue
		}
		// Newest wins; a tie goes to the later name, so that the choice
		// does not depend on the order of the listing.
		if m := fi.ModTime(); best == "" || m.After(bestMod) || (m.Equal(bestMod) && rel > best) {
			best, bestMod = rel, m
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
