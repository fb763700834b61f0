package check

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/markdown"
)

// FixOptions are the flags that apply safe fixes.
type FixOptions struct {
	fix  bool // write the fixed files
	diff bool // print the fixes as a unified diff, write nothing
}

// Register defines --fix and --diff on fl.
func (o *FixOptions) Register(fl *flag.FlagSet) {
	fl.BoolVar(&o.fix, "fix", false, "apply the safe fixes, writing each changed file in place (with -, print the fixed text), then print the findings that remain")
	fl.BoolVar(&o.diff, "diff", false, "print the safe fixes as a unified diff and write nothing; exit status 1 when there is anything to fix")
}

// Validate refuses flags that cannot go together.
func (o *FixOptions) Validate() error {
	if o.fix && o.diff {
		return errors.New("--fix and --diff cannot be used together")
	}
	return nil
}

// fixing reports whether safe fixes are applied (to files or to a diff).
func (o *FixOptions) fixing() bool { return o.fix || o.diff }

// writeFixed writes a file that --fix changed, and reports whether that
// went well. When it did not, r is set back to the file as it is, with its
// findings, and the error is reported on stderr.
func (c *checker) writeFixed(r *fileResult, stderr io.Writer) bool {
	if !c.fix.fix || r.path == "" || !r.changed() {
		return true
	}
	if root, ok := c.linked[r.path]; ok {
		if err := insideWalk(r.path, root); err != nil {
			fmt.Fprintf(stderr, "baton: not writing the fixes of %s: %v\n", r.path, err)
			c.asItIs(r, stderr)
			return false
		}
	}
	// The fixed text is handed over as it is, not copied: writeFileAtomic
	// only reads it.
	if err := writeFileAtomic(r.path, r.was, readOnlyBytes(keepBOM(r.was.bom, r.Doc.Text))); err != nil {
		fmt.Fprintf(stderr, "baton: writing the fixes of %s: %v\n", r.path, err)
		c.asItIs(r, stderr)
		return false
	}
	return true
}

// asItIs sets r back to the file as it is on disk, with its findings, for
// a file whose fixes were not written; a file that cannot be read again
// keeps the findings of its fixed text, said on stderr.
func (c *checker) asItIs(r *fileResult, stderr io.Writer) {
	if r.original != "" || r.was.n == 0 {
		*r = *newResult(r.Name, r.path, r.original, c.analyze(r.Name, r.original))
		return
	}
	data, err := safefile.ReadFile(r.path, markdown.MaxDocumentBytes)
	if err != nil {
		fmt.Fprintf(stderr, "baton: reading %s again: %v\n", r.path, err)
		return
	}
	text := string(data)
	*r = *newResult(r.Name, r.path, text, c.analyze(r.Name, text))
}

// fixCount is what a --fix or --diff run fixed and left, for its summary.
type fixCount struct {
	fixed, remaining, files int
	unapplied               int // safe fixes left after analysis.MaxFixRounds rounds
}

func (f *fixCount) add(r *fileResult) {
	f.fixed += r.fixing.Fixed
	f.unapplied += r.fixing.Unapplied
	f.remaining += r.count
	if r.fixing.Fixed > 0 {
		f.files++
	}
}

// line is the summary a fixing run ends with on standard error, as ruff
// ends its: "3 fixed in 2 files, 1 remaining"; with --diff, what --fix
// would fix ("3 fixable in 2 files, 1 remaining; --diff wrote nothing").
// The findings remaining are every one left, at every severity, those
// past the analysis.MaxFindings a document reports included (the
// baton/too-many-findings finding counts them, and is not one). When the
// rounds of fixes ran out with safe fixes still to apply, it says how many
// and that another run applies them.
func (f fixCount) line(diff bool) string {
	verb := "fixed"
	if diff {
		verb = "fixable"
	}
	s := strconv.Itoa(f.fixed) + " " + verb
	if f.files > 0 {
		s += " in " + plural(f.files, "file")
	}
	s += ", " + strconv.Itoa(f.remaining) + " remaining"
	if f.unapplied > 0 {
		fixes := "fixes"
		if f.unapplied == 1 {
			fixes = "fix"
		}
		s += fmt.Sprintf("; %d more safe %s after the %d rounds of fixes a run makes: run --fix again to apply them",
			f.unapplied, fixes, analysis.MaxFixRounds)
	}
	if diff {
		s += "; --diff wrote nothing"
	}
	return s
}

// plural is "1 file", "2 files": the fix line counts as the summary line
// of package report does.
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// bom is the UTF-8 byte-order mark.
const bom = "\ufeff"

// readOnlyBytes is s's bytes, for a function that only reads them.
func readOnlyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// keepBOM gives fixed the byte-order mark original starts with. A fix
// whose span starts at offset 0 (a first-line heading's) takes the mark
// with the text it replaces; the file must keep it: some editors and
// tools read the file's encoding from it.
func keepBOM(hadBOM bool, fixed string) string {
	if hadBOM && !strings.HasPrefix(fixed, bom) {
		return bom + fixed
	}
	return fixed
}

// unifiedDiff is the fix of a file as a unified diff from a/NAME to b/NAME,
// or nil when nothing changed.
func unifiedDiff(name, old, new string) []byte {
	new = keepBOM(strings.HasPrefix(old, bom), new) // what --fix would write
	n := filepath.ToSlash(name)
	d := diff.Diff("a/"+n, []byte(old), "b/"+n, []byte(new))
	if d == nil {
		return nil
	}
	// Drop the "diff a/NAME b/NAME" line the package starts with: the
	// output starts with the ---/+++ header, as diff -u's does.
	if i := bytes.IndexByte(d, '\n'); i >= 0 && bytes.HasPrefix(d, []byte("diff ")) {
		d = d[i+1:]
	}
	return d
}

// insideWalk refuses a symbolic link found in a folder walk whose target
// lies outside the walked folder: `baton check --fix docs/` fixes what is
// in docs/, not a file elsewhere that a link in it points to. (A link named
// on the command line is followed: the user named it.)
func insideWalk(path, root string) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	if target, err = filepath.Abs(target); err != nil {
		return err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(absRoot); err == nil {
		absRoot = r
	}
	rel, err := filepath.Rel(absRoot, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("it is a symbolic link to %s, outside %s (name it on the command line to fix it)", target, root)
	}
	return nil
}

// writeFileAtomic replaces the file at path, read as original, with data:
// it writes a temporary file in the same folder, gives it the file's
// permission bits (and, where it can, its owner), syncs it to disk and
// renames it over the file, so that a reader sees the old content or the
// new, never a mix. A symbolic link is followed: its target is replaced,
// the link kept. A file with other hard links is written in place instead
// (writeInPlace), as gofmt -w and ruff do: a rename would give this name a
// new file and leave the other names on the old text. It refuses, as an editor does, a file no one may write
// (mode 0444: the rename would replace it anyway), and a file that no
// longer holds original: an edit saved meanwhile is never overwritten.
func writeFileAtomic(path string, original digest, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("not a regular file")}
	}
	if info.Mode().Perm()&0o222 == 0 {
		return &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("the file is read-only (mode %04o): not written", info.Mode().Perm())}
	}
	// unchanged checks that the file still holds what baton read, and
	// returns it.
	unchanged := func() ([]byte, error) {
		now, err := safefile.ReadFile(target, int64(original.n)+1)
		if err != nil && !errors.Is(err, safefile.ErrTooLarge) {
			return nil, err
		}
		if err != nil || !original.is(unsafe.String(unsafe.SliceData(now), len(now))) {
			return nil, &fs.PathError{Op: "write", Path: path, Err: errors.New("the file changed since baton read it: not written (run baton again)")}
		}
		return now, nil
	}
	was, err := unchanged()
	if err != nil {
		return err
	}
	if links(info) > 1 {
		return writeInPlace(target, was, data, func() error { _, err := unchanged(); return err })
	}

	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".baton-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	keepOwner(tmp, info) // before chmod: a change of owner may clear setuid bits
	if err = tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	// Once more, just before the rename: writing the temporary file took
	// time, and an editor may have saved meanwhile.
	if _, err = unchanged(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// writeInPlace writes data over the file at target, which holds original
// and has other hard links. The original is first kept beside it in a
// backup file, removed once the file is written: if the write fails
// midway, the error names the backup, as gofmt -w does.
func writeInPlace(target string, original, data []byte, unchanged func() error) (err error) {
	dir := filepath.Dir(target)
	backup, err := os.CreateTemp(dir, "."+filepath.Base(target)+".baton-backup-*")
	if err != nil {
		return err
	}
	_, err = backup.Write(original)
	if err == nil {
		err = backup.Sync()
	}
	if cerr := backup.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(backup.Name())
		return err
	}
	if err = unchanged(); err != nil {
		os.Remove(backup.Name())
		return err
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		os.Remove(backup.Name())
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w (the file as it was is kept in %s)", err, backup.Name())
	}
	os.Remove(backup.Name())
	return nil
}

// syncDir flushes a folder's entries (the rename) to disk, where the system
// allows it; a failure only costs durability, so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
