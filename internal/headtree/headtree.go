// Package headtree tells which files the commit checked out in a Git
// repository holds: what `xmd workflow start` reads a workflow's bundled
// components from (it reads each one as a blob of the `HEAD` commit, never
// the working tree).
//
// The commit is named by reading .git's files (HEAD, the ref it names,
// packed-refs), which is cheap enough to do for every analysis; the files
// that commit holds are listed by running `git ls-tree` once per commit
// and repository, with a short timeout. Where there is no repository, HEAD
// cannot be read from its files (an unborn branch, a reftable), or git is
// missing, fails or is slow, nothing is known and callers say nothing.
package headtree

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// Timeout bounds one run of git.
const Timeout = 5 * time.Second

// Cache keeps the file list of the last commit read in each repository,
// shared by the documents of an engine.
type Cache struct {
	mu    sync.Mutex
	trees map[string]*tree // by repository top folder
}

type tree struct {
	commit string
	once   sync.Once
	files  map[string]bool // nil: not known
}

// New returns an empty cache.
func New() *Cache { return &Cache{trees: map[string]*tree{}} }

// View is what one document's environment knows of its repository's
// commit. Finding the repository and the commit id is done when the view
// is first asked (most documents never are: only a bundle's check asks),
// the file list when Holds is first asked.
type View struct {
	c    *Cache
	dir  string // the document's folder
	root string // the workspace root paths are relative to

	once   sync.Once
	top    string // the repository's working tree, "" for none
	commit string // the commit HEAD names, "" when not known
}

// For is the view of the repository holding the folder dir, for paths
// relative to root (the workspace root). Nil when c is nil.
func (c *Cache) For(dir, root string) *View {
	if c == nil {
		return nil
	}
	return &View{c: c, dir: dir, root: root}
}

// head finds the repository and the commit its HEAD names, once.
func (v *View) head() {
	v.once.Do(func() {
		top, gitDir, ok := find(v.dir)
		if !ok {
			return
		}
		v.top = top
		v.commit = headCommit(gitDir)
	})
}

// Key names the commit the view reads ("" when none is known): it changes
// when HEAD or the ref it names does.
func (v *View) Key() string {
	if v == nil {
		return ""
	}
	if v.head(); v.commit == "" {
		return ""
	}
	return v.top + "@" + v.commit
}

// Holds reports whether the commit holds a file (a blob) at p, a slash
// path relative to the workspace root; known is false when that cannot be
// told.
func (v *View) Holds(p string) (held, known bool) {
	if v == nil {
		return false, false
	}
	if v.head(); v.commit == "" {
		return false, false
	}
	rel, err := filepath.Rel(v.top, filepath.Join(v.root, filepath.FromSlash(p)))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return false, false
	}
	files := v.c.files(v.top, v.commit)
	if files == nil {
		return false, false
	}
	return files[filepath.ToSlash(rel)], true
}

// files lists the blobs of commit in the repository at top, once per
// commit: a new commit replaces the repository's previous list.
func (c *Cache) files(top, commit string) map[string]bool {
	c.mu.Lock()
	t := c.trees[top]
	if t == nil || t.commit != commit {
		t = &tree{commit: commit}
		c.trees[top] = t
	}
	c.mu.Unlock()
	t.once.Do(func() { t.files = lsTree(top, commit) })
	return t.files
}

// runs counts the runs of git (the tests read it).
var runs atomic.Int64

// lsTree runs `git ls-tree -r` on commit; nil when it fails.
func lsTree(top, commit string) map[string]bool {
	runs.Add(1)
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", top, "ls-tree", "-r", "-z", "--full-tree", commit)
	cmd.Env = gitEnv()
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	files := map[string]bool{}
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		// <mode> SP <type> SP <object> TAB <path>
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		if f := bytes.Fields(meta); len(f) == 3 && string(f[1]) == "blob" {
			files[string(name)] = true
		}
	}
	return files
}

// gitEnv is the environment without Git's own variables, so that the
// repository is the one found from the document, as the engine finds it
// from the root document's folder, whatever the caller runs inside (a Git
// hook sets GIT_DIR and GIT_INDEX_FILE).
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// find walks up from dir to the folder holding .git (a folder, or a file
// naming one: a linked worktree, a submodule) and returns it and the Git
// folder.
// The bounds of what is read of a Git folder's files: a .git file, HEAD, a
// ref or commondir is a line; packed-refs lists every ref.
const (
	smallFile  = 64 << 10
	packedRefs = 64 << 20
)

func find(dir string) (top, gitDir string, ok bool) {
	for d := filepath.Clean(dir); ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				return d, dotgit, true
			}
			b, err := safefile.ReadFile(dotgit, smallFile)
			if err != nil {
				return "", "", false
			}
			rest, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !found {
				return "", "", false
			}
			g := strings.TrimSpace(rest)
			if !filepath.IsAbs(g) {
				g = filepath.Join(d, g)
			}
			return d, g, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", "", false
		}
		d = up
	}
}

// headCommit reads the commit id HEAD names from the Git folder's files:
// HEAD itself when detached, else the ref it names, loose (in the Git
// folder or the common one a linked worktree shares) or packed. "" when it
// cannot be read so: an unborn branch, a reftable repository, a symbolic
// ref that is not a branch.
func headCommit(gitDir string) string {
	b, err := safefile.ReadFile(filepath.Join(gitDir, "HEAD"), smallFile)
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(b))
	ref, symbolic := strings.CutPrefix(head, "ref:")
	if !symbolic {
		return objectID(head)
	}
	ref = strings.TrimSpace(ref)
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return ""
	}
	common := gitDir
	if b, err := safefile.ReadFile(filepath.Join(gitDir, "commondir"), smallFile); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	for _, d := range []string{gitDir, common} {
		if b, err := safefile.ReadFile(filepath.Join(d, filepath.FromSlash(ref)), smallFile); err == nil {
			return objectID(strings.TrimSpace(string(b)))
		}
	}
	b, err = safefile.ReadFile(filepath.Join(common, "packed-refs"), packedRefs)
	if err != nil {
		return ""
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if id, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok && name == ref {
			return objectID(id)
		}
	}
	return ""
}

// objectID is s when it is a full SHA-1 or SHA-256 object id, else "".
func objectID(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return ""
		}
	}
	return s
}
