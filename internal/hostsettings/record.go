package hostsettings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/baton-md/baton/internal/safefile"
	"github.com/gofrs/flock"
)

// What an install made, kept so that uninstall takes out that and
// nothing else. A settings file's text cannot say it: a file install
// made from "{}" and a "{}" the person kept read the same once baton's
// entries are in, and so do a "hooks" or an event list install added and
// an empty one that was there (with whatever white space was inside it),
// and a folder install made and an empty one that was there. So install
// writes down, in baton's state folder, beside the edit:
//
//   - the settings files it made, and the text it made each from;
//   - the objects and lists it added to a file (a key that was not
//     there), and those it put something into while they were empty,
//     with the white space that was inside them;
//   - the folders it made.
//
// Uninstall takes baton's entries out, then puts back each recorded
// object or list that is left empty: a key install added goes, an empty
// one that was there gets its white space back. It removes a file
// install made when what is left is the text it was made from, and a
// folder install made when it is left empty. What the person adds in
// between stays, and whatever holds it: an event list install added and
// the person added a hook to keeps both, a file holding a key of theirs
// stays. The record names objects and lists by their keys, so it holds
// whatever the person edits around them.
//
// Without a record (an install by an earlier baton, on another machine,
// or with the state folder cleared), uninstall takes out baton's entries
// only, and leaves the lists, objects, file and folders they were in:
// it cannot tell them from the person's.

// fileRecord is what installs made in one settings file.
type fileRecord struct {
	// Made: an install made the file, from the text Start.
	Made  bool   `json:"made,omitempty"`
	Start string `json:"start,omitempty"`
	// Parts are what of baton's is installed in the file: "hooks",
	// "mcp" (one host's settings file may hold both).
	Parts []string `json:"parts"`
	// Containers are the objects and lists installs added or filled and
	// that are not back as they were yet, whichever part put them there:
	// an object filled by one part may be emptied by the uninstall of
	// the other.
	Containers []container `json:"containers"`
}

// container is an object or list an install added, or put something in
// while it was empty: by the keys that lead to it from the file's root.
type container struct {
	Path []string `json:"path"`
	// Added: the key was not there. Otherwise it was there, empty, with
	// Inner between its brackets.
	Added bool   `json:"added,omitempty"`
	Inner string `json:"inner,omitempty"`
}

// records is the state file: every settings file's record, by its
// absolute path, and the folders installs made.
type records struct {
	About string                 `json:"about"`
	Files map[string]*fileRecord `json:"files"`
	Dirs  []string               `json:"dirs"`
}

const recordsAbout = "What baton hook install and baton mcp install made, for uninstall to take out that and nothing else (docs/hosts-setup.md)."

// maxRecords bounds the state file baton reads.
const maxRecords = 8 << 20

// RecordsFile is where baton keeps what its installs made:
// $XDG_STATE_HOME/baton/installed.json, else
// ~/.local/state/baton/installed.json.
func (e Env) RecordsFile() (string, error) {
	if d := e.getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "baton", "installed.json"), nil
	}
	if !filepath.IsAbs(e.Home) {
		return "", errors.New("no home folder to keep baton's record of what install made in ($HOME or $XDG_STATE_HOME)")
	}
	return filepath.Join(e.Home, ".local", "state", "baton", "installed.json"), nil
}

// canon is the absolute path that names a file or folder in the record:
// the folder holding it with its symbolic links resolved, as far up as
// it is there, so that a project reached by two paths has one record.
func canon(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for d := abs; ; {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		rest = filepath.Join(filepath.Base(d), rest)
		d = parent
	}
}

func readRecords(file string) (*records, error) {
	r := &records{}
	data, err := safefile.ReadFile(file, maxRecords)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err == nil {
		err = json.Unmarshal(data, r)
	}
	if err != nil {
		return nil, fmt.Errorf("baton's record of what install made, %s, cannot be read (%v): remove it, and uninstall then leaves the lists, objects, files and folders baton's entries were in", file, err)
	}
	return r, nil
}

// recordOf is the record of the settings file at path (nil when there is
// none), read without the lock: an edit reads it again under the lock of
// the settings file, which every change to its record holds.
func recordOf(e Env, path string) (*fileRecord, error) {
	file, err := e.RecordsFile()
	if err != nil {
		return nil, err
	}
	r, err := readRecords(file)
	if err != nil {
		return nil, err
	}
	return r.Files[canon(path)], nil
}

// updateRecords changes the record under its lock: read, change, written
// to a temporary file renamed over it.
func updateRecords(e Env, change func(r *records) error) error {
	file, err := e.RecordsFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("keep baton's record of what install made: %w", err)
	}
	l := flock.New(file+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	if ok, err := l.TryLockContext(ctx, 5*time.Millisecond); err != nil || !ok {
		return fmt.Errorf("%s: another baton has held its lock for %v: try again", file, lockWait)
	}
	defer l.Unlock() //nolint:errcheck // closing the file lets go of the lock
	r, err := readRecords(file)
	if err != nil {
		return err
	}
	old, _ := json.Marshal(r)
	if err := change(r); err != nil {
		return err
	}
	if now, _ := json.Marshal(r); bytes.Equal(old, now) {
		return nil
	}
	r.About = recordsAbout
	if r.Files == nil {
		r.Files = map[string]*fileRecord{}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(file, append(data, '\n'), 0o600)
}

// setRecord makes rec the record of the settings file at path (nil
// removes it).
func setRecord(e Env, path string, rec *fileRecord) error {
	key := canon(path)
	return updateRecords(e, func(r *records) error {
		if rec == nil {
			delete(r.Files, key)
			return nil
		}
		if r.Files == nil {
			r.Files = map[string]*fileRecord{}
		}
		r.Files[key] = rec
		return nil
	})
}

// makeDirs makes the folder dir and those above it that are not there,
// and records each it made.
func makeDirs(e Env, dir string) (made []string, err error) {
	err = updateRecords(e, func(r *records) error {
		var missing []string
		for d := canon(dir); ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				break
			}
			if filepath.Dir(d) == d {
				break
			}
			missing = append(missing, d)
		}
		for _, d := range slices.Backward(missing) {
			if err := os.Mkdir(d, 0o755); err != nil {
				if errors.Is(err, fs.ErrExist) {
					continue // made by someone else meanwhile: not baton's
				}
				return err
			}
			made = append(made, d)
			if !slices.Contains(r.Dirs, d) {
				r.Dirs = append(r.Dirs, d)
			}
		}
		return nil
	})
	return made, err
}

// removeDirs removes the folder holding the file at path, and those above
// it, while install made them and they are empty, and takes them out of
// the record. A folder left holding something stays in the record, for a
// later uninstall of the other file in it.
func removeDirs(e Env, path string) (removed []string, err error) {
	err = updateRecords(e, func(r *records) error {
		for d := canon(filepath.Dir(path)); slices.Contains(r.Dirs, d); d = filepath.Dir(d) {
			err := os.Remove(d)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				break // not empty: it stays
			}
			if err == nil {
				removed = append(removed, d)
			}
			r.Dirs = slices.DeleteFunc(r.Dirs, func(x string) bool { return x == d })
		}
		return nil
	})
	return removed, err
}

// writeAtomic writes data to a temporary file beside path, synced, with
// mode, and renames it over path.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return writeChecked(path, data, mode, nil)
}

// writeChecked is writeAtomic, calling check (when there is one) just
// before the rename: an error from it leaves path as it is.
func writeChecked(path string, data []byte, mode fs.FileMode, check func() error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".baton-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// clone is a deep copy of the record, or an empty one for nil.
func (f *fileRecord) clone() *fileRecord {
	if f == nil {
		return &fileRecord{}
	}
	return &fileRecord{Made: f.Made, Start: f.Start, Parts: slices.Clone(f.Parts), Containers: slices.Clone(f.Containers)}
}

// installed is the file's record after an install of part that made
// what is in made: a file that was not there is made whole; in a file
// that holds none of part's entries yet (fresh), or none this record
// knows of, part's record starts again, and the file counts as the
// person's once no other part of baton's is recorded in it; what this
// install made is added to what is recorded.
func installed(old *fileRecord, existed bool, start []byte, part string, fresh bool, made []container) *fileRecord {
	if !existed {
		return &fileRecord{Made: true, Start: string(start), Parts: []string{part}, Containers: made}
	}
	rec := old.clone()
	if fresh || !slices.Contains(rec.Parts, part) {
		rec.Parts = slices.DeleteFunc(rec.Parts, func(p string) bool { return p == part })
		if len(rec.Parts) == 0 {
			rec = &fileRecord{}
		}
		rec.Parts = append(rec.Parts, part)
	}
	for _, c := range made {
		if !slices.ContainsFunc(rec.Containers, func(x container) bool { return slices.Equal(x.Path, c.Path) }) {
			rec.Containers = append(rec.Containers, c)
		}
	}
	return rec
}

// uninstalled is the file's record after part is uninstalled, with kept
// the containers not back as they were yet: nil when nothing of baton's
// is recorded in the file any more.
func uninstalled(old *fileRecord, part string, deleted bool, kept []container) *fileRecord {
	if old == nil || deleted {
		return nil
	}
	rec := old.clone()
	rec.Parts = slices.DeleteFunc(rec.Parts, func(p string) bool { return p == part })
	if len(rec.Parts) == 0 {
		return nil
	}
	rec.Containers = kept
	return rec
}

// restore puts back, in text, each recorded container left empty: a key
// install added is taken out, an empty object or list that was there
// gets back the white space it held; the deepest first, so that a
// container emptied by taking out one inside it is put back too. kept
// are the containers not empty (or not there), whose record stays.
func restore(text []byte, made []container, st style) (_ []byte, kept []container) {
	made = slices.Clone(made)
	slices.SortStableFunc(made, func(a, b container) int { return len(b.Path) - len(a.Path) })
	for _, c := range made {
		root, err := parseJSON(text)
		if err != nil {
			return text, made
		}
		n, parent := root, (*node)(nil)
		for _, k := range c.Path {
			parent, n = n, n.get(k)
		}
		if n == nil || (n.kind != '{' && n.kind != '[') || n.items() > 0 {
			kept = append(kept, c)
			continue
		}
		if c.Added && parent != nil {
			key := c.Path[len(c.Path)-1]
			if i := slices.IndexFunc(parent.members, func(m member) bool { return m.key == key }); i >= 0 {
				text = removeItem(text, parent, i, st)
			}
			continue
		}
		if !c.Added {
			text = splice(text, n.start+1, n.end-1, c.Inner)
		}
	}
	return text, kept
}

// filled is the record of the container n at path when it is empty,
// which an install is about to put something in.
func filled(text []byte, n *node, path ...string) (container, bool) {
	if n.items() > 0 {
		return container{}, false
	}
	return container{Path: append([]string{}, path...), Inner: string(text[n.start+1 : n.end-1])}, true
}

// added is the record of a key an install adds, at path.
func added(path ...string) container { return container{Path: path, Added: true} }
