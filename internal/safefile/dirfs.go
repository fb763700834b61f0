package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// DirFS is os.DirFS(dir) with every name resolved beneath dir by the open
// itself (os.Root): a symbolic link leading out of dir, one there already
// or one swapped in for a folder while the name is being opened, is
// refused with ErrOutside, where os.DirFS follows it. Files are opened
// without blocking, so a named pipe cannot hang a read. dir is opened when
// the view is first read, if ever: the engine makes a view for every
// analysis, and most never read it.
func DirFS(dir string) fs.FS { return &dirFS{dir: dir} }

type dirFS struct {
	dir  string
	once sync.Once
	root *os.Root
	err  error
}

func (d *dirFS) open() (*os.Root, error) {
	d.once.Do(func() { d.root, d.err = os.OpenRoot(d.dir) })
	return d.root, d.err
}

// OpensWithoutBlocking says every Open is O_NONBLOCK (NonBlockingFS).
func (d *dirFS) OpensWithoutBlocking() bool { return true }

// check refuses the names fs.FS does not take (absolute, "..", empty
// elements), before os.Root, which would read some of them as paths.
func check(op, name string) error {
	if !fs.ValidPath(name) || strings.Contains(name, `\`) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return nil
}

func (d *dirFS) Open(name string) (fs.File, error) {
	if err := check("open", name); err != nil {
		return nil, err
	}
	r, err := d.open()
	if err != nil {
		return nil, err
	}
	f, err := r.OpenFile(name, os.O_RDONLY|NonBlock, 0)
	if err != nil {
		return nil, rootError(r, name, err)
	}
	return f, nil
}

func (d *dirFS) Stat(name string) (fs.FileInfo, error) {
	if err := check("stat", name); err != nil {
		return nil, err
	}
	r, err := d.open()
	if err != nil {
		return nil, err
	}
	fi, err := r.Stat(name)
	if err != nil {
		return nil, rootError(r, name, err)
	}
	return fi, nil
}

// ReadFile reads a regular file whole; anything else is refused, as
// ReadFileFS refuses it.
func (d *dirFS) ReadFile(name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(name, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return readOpened(f, fi, name, 1<<62)
}

func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dir, ok := f.(*os.File)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	r, _ := d.open()
	list, err := readDirIn(r, name, dir)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, err
}

// rootEntry is an entry of a folder listed in a Root, whose Info is asked
// of the Root (beneath it, as every name is), when asked.
type rootEntry struct {
	fs.DirEntry
	root *os.Root
	path string
}

func (e rootEntry) Info() (fs.FileInfo, error) {
	fi, err := e.root.Lstat(e.path)
	if err != nil {
		return nil, rootError(e.root, e.path, err)
	}
	return fi, nil
}

// Sub is the folder dir of fsys, a DirFS, as a DirFS of its own, opened
// beneath fsys's folder (os.Root.OpenRoot, so a link out of it is refused
// as any name is): a name in it is then one lookup, where a name of fsys
// is one lookup per folder of its path. For reading many files of one
// folder (a listing, then each file's start). ok is false for any other
// fs.FS; done closes the folder.
func Sub(fsys fs.FS, dir string) (sub fs.FS, done func(), ok bool) {
	d, isDir := fsys.(*dirFS)
	if !isDir {
		return nil, nil, false
	}
	if dir == "." {
		return d, func() {}, true
	}
	s := &dirFS{dir: filepath.Join(d.dir, filepath.FromSlash(dir))}
	s.once.Do(func() {
		if err := check("open", dir); err != nil {
			s.err = err
			return
		}
		r, err := d.open()
		if err != nil {
			s.err = err
			return
		}
		s.root, s.err = r.OpenRoot(dir)
		if s.err != nil {
			s.err = rootError(r, dir, s.err)
		}
	})
	return s, func() {
		if s.root != nil {
			s.root.Close()
		}
	}, true
}
