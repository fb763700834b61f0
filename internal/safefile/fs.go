package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
)

// OpenFS opens name in fsys when it is a regular file, as Open does on
// disk. An fs.FS cannot be asked to open without blocking, so the kind of
// file is asked first (a Stat never blocks on a named pipe) and again of
// the file opened. Only a regular file swapped for a named pipe between
// the two, by someone racing baton on purpose, still blocks the open.
// An fsys that says its opens never block (NonBlockingFS: DirFS, and views
// over it) is opened outright, and the kind asked of the file opened: one
// lookup of the name, not two.
func OpenFS(fsys fs.FS, name string) (fs.File, fs.FileInfo, error) {
	if nb, ok := fsys.(NonBlockingFS); ok && nb.OpensWithoutBlocking() {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, nil, err
		}
		return regularFile(f, name)
	}
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(name, fi.Mode())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return regularFile(f, name)
}

// NonBlockingFS is an fs.FS that can say its Open never blocks, not even
// on a named pipe (a file opened O_NONBLOCK).
type NonBlockingFS interface {
	fs.FS
	OpensWithoutBlocking() bool
}

func regularFile(f fs.File, name string) (fs.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(name, fi.Mode())
	}
	return f, fi, nil
}

func notRegular(name string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: it is %s", ErrNotRegular, What(m))}
}

// ReadFileFS reads a regular file of fsys of at most limit bytes, as
// ReadFile does on disk.
func ReadFileFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, fi, err := OpenFS(fsys, name)
	if err != nil {
		return nil, err
	}
	return readOpened(f, fi, name, limit)
}

// readBounded reads r to its end into a buffer of the size a stat gave
// (one byte more, to see the file grew), never past limit.
func readBounded(r io.Reader, name string, size, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, limit)+1)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(1, min(len(buf), int(limit)+1-len(buf))))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, TooLarge(name, int64(len(buf)), limit)
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
	}
}
