package check

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/baton-md/baton/config"
)

// ExpandPaths expands the glob patterns among baton check's arguments, as
// markdownlint-cli2 expands its arguments (with the globby library; its
// README and markdownlint-cli2.mjs at DavidAnson/markdownlint-cli2):
//
//   - an argument that names an existing file or folder is taken as it is
//     (so a file named a[1].md is that file, not a pattern), and so is -;
//   - a leading : takes the rest literally (\: is a pattern starting with :);
//   - a leading ! or # negates: the pattern removes what it matches from
//     the files the patterns before it matched (#, because shells expand
//     !); a negation matching a folder removes everything below it;
//   - any other argument holding * ? [ or { is a pattern, in doublestar's
//     syntax (** spans folders, {md,markdown} alternatives), matched
//     against files only, dot files included, in sorted order.
//
// A pattern's matches that the ignore: section of their .baton.yaml ignores
// are dropped, as a folder walk drops them; .gitignore, hidden folders and
// node_modules do not hide them (markdownlint-cli2 passes globby dot: true
// and no gitignore by default; negate them: '#node_modules'). A pattern
// that matches no file, a malformed one, and a negation with no pattern
// before it to subtract from, or after a folder (whose walk it cannot
// reach: use ignore: in .baton.yaml), are errors. A file matched twice is
// checked once.
func ExpandPaths(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	folder := "" // a folder named before, whose walk a negation cannot reach
	var errs []error
	ign := configIgnores{}
	for _, arg := range args {
		if arg == "-" || exists(arg) {
			out = append(out, arg)
			seen[filepath.Clean(arg)] = true
			if folder == "" && isDir(arg) {
				folder = arg
			}
			continue
		}
		if lit, ok := strings.CutPrefix(arg, ":"); ok {
			out = append(out, lit)
			continue
		}
		pattern := strings.TrimPrefix(arg, `\`+":") // \: escapes a leading :
		if pattern != arg {
			pattern = ":" + pattern
		}
		if neg, ok := negation(arg); ok {
			switch {
			case !doublestar.ValidatePattern(neg):
				errs = append(errs, fmt.Errorf("%s: malformed pattern: check its [ ] classes, { } braces and \\ escapes", arg))
			case len(out) == 0:
				errs = append(errs, fmt.Errorf("%s: a negation removes files from the patterns before it, and there are none", arg))
			case folder != "":
				errs = append(errs, fmt.Errorf("%s: a negation cannot reach into the walk of the folder %s: name its files with a pattern ('%s/**/*.md' %s), or list what to skip in ignore: in .baton.yaml", arg, folder, filepath.ToSlash(filepath.Clean(folder)), shellWord(arg)))
			default:
				kept := out[:0]
				for _, p := range out {
					if p != "-" && negated(neg, p) {
						delete(seen, filepath.Clean(p))
					} else {
						kept = append(kept, p)
					}
				}
				out = kept
			}
			continue
		}
		if !strings.ContainsAny(pattern, "*?[{") {
			out = append(out, arg) // not a pattern: the walk reports it missing
			continue
		}
		if !doublestar.ValidatePattern(filepath.ToSlash(pattern)) {
			errs = append(errs, fmt.Errorf("%s: malformed pattern: check its [ ] classes, { } braces and \\ escapes", arg))
			continue
		}
		files, err := glob(pattern)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", arg, err))
			continue
		}
		if len(files) == 0 {
			errs = append(errs, fmt.Errorf("%s: no file matches this pattern", arg))
			continue
		}
		for _, f := range files {
			if !seen[f] && !ign.ignored(f) {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out, errors.Join(errs...)
}

// configIgnores tells which of a pattern's matches the ignore: section of
// their .baton.yaml ignores: those are dropped, as a folder walk skips them,
// rather than named one by one and skipped each with a line on standard
// error. The files are read once per folder; a file that cannot be read or
// parsed drops nothing (the check reports it).
type configIgnores map[string]*config.File

func (c configIgnores) ignored(file string) bool {
	dir := filepath.Dir(file)
	f, ok := c[dir]
	if !ok {
		if path, err := config.Discover(dir); err == nil && path != "" {
			f, _ = config.Load(path)
		}
		c[dir] = f
	}
	return f != nil && f.Ignored(file, false) != nil
}

// negation returns the pattern of a negated argument (!x or #x).
func negation(arg string) (string, bool) {
	if arg == "" || (arg[0] != '!' && arg[0] != '#') || len(arg) == 1 {
		return "", false
	}
	return filepath.ToSlash(cleanRel(arg[1:])), true
}

// negated reports whether a negation pattern removes file: the pattern
// matches it, or one of the folders holding it.
func negated(pattern, file string) bool {
	p := filepath.ToSlash(cleanRel(file))
	for p != "." && p != "/" && p != "" {
		if ok, _ := doublestar.Match(pattern, p); ok {
			return true
		}
		p = path.Dir(p)
	}
	return false
}

// cleanRel cleans a path or pattern, dropping a leading ./ (globby matches
// "./a.md" and "a.md" alike).
func cleanRel(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// glob returns the files matching pattern, below the pattern's fixed
// leading folders, in sorted order.
func glob(pattern string) ([]string, error) {
	base, rest := doublestar.SplitPattern(filepath.ToSlash(cleanRel(pattern)))
	if base == "" {
		base = "."
	}
	if !isDir(base) {
		return nil, nil
	}
	matches, err := doublestar.Glob(os.DirFS(base), rest, doublestar.WithFilesOnly())
	if err != nil {
		return nil, err
	}
	slices.Sort(matches)
	for i, m := range matches {
		if base != "." {
			m = path.Join(base, m)
		}
		matches[i] = filepath.FromSlash(m)
	}
	return matches, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// shellWord quotes an argument for a message.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
