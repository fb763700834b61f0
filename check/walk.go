package check

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/internal/ignore"
	"github.com/baton-md/baton/internal/safefile"
)

// markdownFiles expands a path: a file is itself, a folder every Markdown
// file below it (markdownExt), sorted. A folder walk skips hidden folders,
// node_modules, what the .gitignore files it passes ignore (those of the
// folders above it too, up to the root of its Git repository), and what the
// ignore: list of the .baton.yaml that applies ignores. A file named on the
// command line is checked unless that ignore: list ignores it, which is said
// on standard error: a pre-commit hook names files one by one, and an
// ignored file must stay ignored there. A folder that cannot be read is
// reported and the walk goes on.
//
// One hidden folder is read: in a specrew project (a folder holding a
// .specrew folder), .specrew/handover/, where specrew keeps the packets
// agents write. Its rolling session handover,
// .specrew/handover/session-handover.md, ends with the agent's boundary
// packet captured verbatim at the stop ("Authored boundary packet (captured
// at stop)", scripts/internal/bootstrap/HandoverStore.ps1 of alonf/specrew;
// the file's contract is in its docs/data-contracts.md). Nothing else under
// .specrew/ is an agent's packet (runtime/pending-verdict-stop.md is
// specrew's instruction to render one), so the rest stays skipped. specrew
// init adds .specrew/handover/ to the project's .gitignore
// (scripts/internal/file-classification.ps1): it is per-session state, not
// to be committed, which is no reason not to lint it, so .gitignore does not
// hide that folder from the walk, also when the walk starts in it or at
// .specrew itself (a named folder is walked whole); the ignore: list of
// .baton.yaml still does.
//
// The files are given to found as the walk finds them, in the order their
// paths sort (walkSorted), so that they can be checked while it goes on,
// and what it cannot read to failed, in its place (a notice, for a file
// skipped).
func (c *checker) markdownFiles(path string, found func(file string), failed func(error)) {
	info, err := os.Stat(path)
	if err != nil {
		failed(err)
		return
	}
	if !info.IsDir() {
		if p := c.configIgnores(path, false); p != nil {
			failed(notice(fmt.Sprintf("%s: skipped: ignored by %s (%s)", path, p.Source, p.Text)))
			return
		}
		found(path)
		return
	}
	gi, root, gerrs := gitignoreAbove(path)
	for _, err := range gerrs {
		failed(err)
	}
	// specrew holds the .specrew folders entered below path; handover is the
	// .specrew/handover folder the walk is in ("" for none), which .gitignore
	// does not hide (nor, when path is in one, the folders above).
	specrew, handover := map[string]bool{}, ""
	if inHandover(path) {
		handover = path
	}
	base := relSlash(root, path)
	// A folder .gitignore ignores hides what is below it (git cannot take a
	// file back below an ignored folder). The walk skips each ignored folder
	// it meets, so below path only an entry itself is matched; the folders
	// from the repository's root to path are matched once, here. Matching
	// every folder above every entry again was most of a walk's time
	// (specrew's tree: 23 of 36 ms).
	aboveIgnored := handover == "" && base != "" && gi.Ignored(base, true) != nil
	_ = walkSorted(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			failed(err)
			return nil // the walk skips what it could not read
		}
		if handover != "" && !inside(handover, p) {
			handover = ""
		}
		rel := relBelow(base, path, p)
		gitignored := func(isDir bool) bool { return handover == "" && (aboveIgnored || gi.Match(rel, isDir) != nil) }
		if d.IsDir() {
			if p != path {
				name := d.Name()
				if handover == "" && name == specrewHandover && filepath.Base(filepath.Dir(p)) == specrewDir {
					handover = p
				}
				switch {
				case specrew[filepath.Dir(p)] && name != specrewHandover:
					return filepath.SkipDir
				case name == specrewDir:
					if c.configIgnores(p, true) != nil {
						return filepath.SkipDir
					}
					specrew[p] = true
				case strings.HasPrefix(name, ".") || name == "node_modules" || gitignored(true) || c.configIgnores(p, true) != nil:
					return filepath.SkipDir
				}
			}
			ps, gerrs := readGitignore(p, rel)
			gi.Add(ps...)
			for _, err := range gerrs {
				failed(err)
			}
			return nil
		}
		if specrew[filepath.Dir(p)] {
			return nil // .specrew's own files are specrew's, not agents' packets
		}
		if markdownExt(p) && !gitignored(false) && c.configIgnores(p, false) == nil {
			if d.Type()&fs.ModeSymlink != 0 {
				if c.linked == nil {
					c.linked = map[string]string{}
				}
				c.linked[p] = path
			}
			found(p)
		}
		return nil
	})
}

// walkSorted is filepath.WalkDir, each folder's entries taken in the order
// their paths sort as strings: a folder's name is compared as if a "/"
// followed it ("a-b.md" before "a/x.md", as "-" sorts before "/"), so that
// the walk gives every path in the order a sort of them all would.
func walkSorted(root string, fn fs.WalkDirFunc) error {
	info, err := os.Lstat(root)
	if err != nil {
		err = fn(root, nil, err)
	} else {
		err = walkSortedDir(root, fs.FileInfoToDirEntry(info), fn)
	}
	if err == filepath.SkipDir || err == filepath.SkipAll {
		return nil
	}
	return err
}

func walkSortedDir(path string, d fs.DirEntry, fn fs.WalkDirFunc) error {
	if err := fn(path, d, nil); err != nil || !d.IsDir() {
		if err == filepath.SkipDir && d.IsDir() {
			err = nil
		}
		return err
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		if err = fn(path, d, err); err != nil {
			if err == filepath.SkipDir && d.IsDir() {
				err = nil
			}
			return err
		}
	}
	slices.SortStableFunc(entries, func(a, b fs.DirEntry) int { return comparePathNames(a.Name(), a.IsDir(), b.Name(), b.IsDir()) })
	for _, e := range entries {
		if err := walkSortedDir(filepath.Join(path, e.Name()), e, fn); err != nil {
			if err == filepath.SkipDir {
				break
			}
			return err
		}
	}
	return nil
}

// comparePathNames compares two names of one folder as the paths below
// them compare: a folder's name with a "/" after it.
func comparePathNames(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	// One name starts the other: what follows the shorter one decides.
	next := func(s string, dir bool) int { // the byte after s[:n], -1 for none
		switch {
		case len(s) > n:
			return int(s[n])
		case dir:
			return '/'
		}
		return -1
	}
	return cmp.Compare(next(a, aDir), next(b, bDir))
}

// notice is what the walk says on standard error, in its place, that is no
// failure: a file named on the command line that the configuration's
// ignore: list ignores.
type notice string

func (n notice) Error() string { return string(n) }

// The folder that makes a specrew project, and the one in it where specrew
// keeps agents' packets (see markdownFiles).
const (
	specrewDir      = ".specrew"
	specrewHandover = "handover"
)

// markdownExt reports whether a folder walk reads the file p: *.md and
// *.markdown, in any case, the extensions markdownlint-cli2 lints (it reads
// "markdownlint-cli2 ." as the glob "*.{md,markdown}", dotOnlySubstitute in
// its markdownlint-cli2.mjs).
func markdownExt(p string) bool {
	ext := filepath.Ext(p)
	return strings.EqualFold(ext, ".md") || strings.EqualFold(ext, ".markdown")
}

// inHandover reports whether the folder dir is a .specrew/handover folder
// or below one.
func inHandover(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for d := abs; ; d = filepath.Dir(d) {
		if filepath.Base(d) == specrewHandover && filepath.Base(filepath.Dir(d)) == specrewDir {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// inside reports whether p is dir or below it.
func inside(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// configIgnores returns the ignore: pattern of the .baton.yaml applying to
// path that ignores it, or nil (also when that file is broken: the error is
// reported when the files are checked).
func (c *checker) configIgnores(path string, isDir bool) *ignore.Pattern {
	name := path
	if isDir {
		name = filepath.Join(path, config.FileName) // the configuration of the folder itself
	}
	f, err := c.configFor(name)
	if err != nil {
		return nil
	}
	return f.Ignored(path, isDir)
}

// gitignoreAbove returns a matcher holding the .gitignore files of the
// folders above dir up to the root of the Git repository holding it (the
// folder with .git), and that root; outside a repository, an empty matcher
// rooted at dir. The walk adds dir's own and those below it.
func gitignoreAbove(dir string) (m *ignore.Matcher, root string, errs []error) {
	m = &ignore.Matcher{}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return m, dir, nil
	}
	for root = abs; ; {
		if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return m, abs, nil // not in a repository
		}
		root = parent
	}
	// The folders from root down to dir's parent; dir's own is the walk's.
	d, rel := root, ""
	for _, name := range strings.Split(relSlash(root, abs), "/") {
		if name == "" {
			break
		}
		ps, gerrs := readGitignore(d, rel)
		m.Add(ps...)
		errs = append(errs, gerrs...)
		d, rel = filepath.Join(d, name), strings.TrimPrefix(rel+"/"+name, "/")
	}
	return m, root, errs
}

// readGitignore reads dir's .gitignore, written in the folder rel (a slash
// path from the matcher's root).
func readGitignore(dir, rel string) ([]ignore.Pattern, []error) {
	name := filepath.Join(dir, ".gitignore")
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return nil, nil // no .gitignore, or one git would not read either
	}
	data, err := safefile.ReadFile(name, 1<<20) // checked again as it is opened
	if err != nil {
		return nil, []error{err}
	}
	return ignore.ReadFile(rel, name, data), nil
}

// relBelow is relSlash(root, p) for p at or below dir, given base,
// relSlash(root, dir): worked out from the paths as written, where
// relSlash makes both absolute, which for a relative path asks the system
// for the working folder (os.Getwd: two stats a call, for every file and
// folder a walk of "." passed).
func relBelow(base, dir, p string) string {
	r, err := filepath.Rel(dir, p)
	switch {
	case err != nil, r == ".":
		return base
	case base == "":
		return filepath.ToSlash(r)
	}
	return base + "/" + filepath.ToSlash(r)
}

// relSlash is p relative to root with "/" between folders ("" for root
// itself); p and root may be relative or absolute.
func relSlash(root, p string) string {
	ap, err1 := filepath.Abs(p)
	ar, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(ar, ap)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}
