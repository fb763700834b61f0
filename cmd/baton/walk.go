package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/internal/ignore"
)

// markdownFiles expands a path: a file is itself, a folder every Markdown
// file below it (markdownExt), sorted. A folder walk skips hidden folders, node_modules, what
// the .gitignore files it passes ignore (those of the folders above it
// too, up to the root of its Git repository), and what the ignore: list of
// the .baton.yaml that applies ignores. A file named on the command line
// is checked unless that ignore: list ignores it, which is said on
// standard error: a pre-commit hook names files one by one, and an ignored
// file must stay ignored there. A folder that cannot be read is reported
// and the walk goes on.
func (c *checker) markdownFiles(path string, stderr io.Writer) (files []string, errs []error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, []error{err}
	}
	if !info.IsDir() {
		if p := c.configIgnores(path, false); p != nil {
			fmt.Fprintf(stderr, "baton: %s: skipped: ignored by %s (%s)\n", path, p.Source, p.Text)
			return nil, nil
		}
		return []string{path}, nil
	}
	gi, root, gerrs := gitignoreAbove(path)
	errs = append(errs, gerrs...)
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil // WalkDir skips what it could not read
		}
		rel := relSlash(root, p)
		if d.IsDir() {
			if p != path {
				if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" ||
					gi.Ignored(rel, true) != nil || c.configIgnores(p, true) != nil {
					return filepath.SkipDir
				}
			}
			ps, gerrs := readGitignore(p, rel)
			gi.Add(ps...)
			errs = append(errs, gerrs...)
			return nil
		}
		if markdownExt(p) && gi.Ignored(rel, false) == nil && c.configIgnores(p, false) == nil {
			files = append(files, p)
			if d.Type()&fs.ModeSymlink != 0 {
				if c.linked == nil {
					c.linked = map[string]string{}
				}
				c.linked[p] = path
			}
		}
		return nil
	})
	slices.Sort(files)
	return files, errs
}

// markdownExt reports whether a folder walk reads the file p: *.md and
// *.markdown, in any case, the extensions markdownlint-cli2 lints (it reads
// "markdownlint-cli2 ." as the glob "*.{md,markdown}", dotOnlySubstitute in
// its markdownlint-cli2.mjs).
func markdownExt(p string) bool {
	ext := filepath.Ext(p)
	return strings.EqualFold(ext, ".md") || strings.EqualFold(ext, ".markdown")
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
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, []error{err}
	}
	return ignore.ReadFile(rel, name, data)
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
