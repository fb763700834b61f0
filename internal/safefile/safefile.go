// Package safefile opens and reads only regular files, within a bound.
//
// baton reads files a cloned repository or a session store can carry: a
// named pipe would block a read forever, and /dev/zero or /dev/urandom
// (or a symlink to them) never end. Open refuses anything but a regular
// file after following symlinks, without blocking on a pipe, and
// ReadFile refuses a file larger than its bound before reading it. Each
// error names the file and says what it is.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error for a file that is not a regular
// file (a folder, a named pipe, a device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for a file over the bound.
var ErrTooLarge = errors.New("too large")

// Open opens a regular file for reading.
func Open(name string) (*os.File, os.FileInfo, error) {
	f, err := openNonBlocking(name)
	if err != nil {
		return nil, nil, err
	}
	// A regular file opened non-blocking reads as any other: O_NONBLOCK
	// has no effect on regular files, so it is not cleared (two system
	// calls a file).
	_, fi, err := regularFile(f, name)
	if err != nil {
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads a regular file of at most limit bytes.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, fi, err := Open(name)
	if err != nil {
		return nil, err
	}
	return readOpened(f, fi, name, limit)
}

// readOpened reads an opened regular file of at most limit bytes, and
// closes it. The size may change between the stat and the read: never
// read past the bound whatever the file does.
func readOpened(f io.ReadCloser, fi fs.FileInfo, name string, limit int64) ([]byte, error) {
	defer f.Close()
	if fi.Size() > limit {
		return nil, TooLarge(name, fi.Size(), limit)
	}
	return readBounded(f, name, fi.Size(), limit)
}

// TooLarge is the error for a file of size bytes over limit.
func TooLarge(name string, size, limit int64) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: %s, over the %s baton reads", ErrTooLarge, Size(size), Size(limit))}
}

// What names the kind of file a mode describes.
func What(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// Size writes a byte count as people read it.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadTail reads at most the last n bytes of a regular file, starting at a
// line (the bytes before the first line break of the window are dropped
// unless the window is the whole file). It is for logs read from the end,
// such as an agent's transcript: the last entries are what is wanted, and
// a file of a gigabyte must not be read whole. whole reports whether the
// window is the whole file.
func ReadTail(name string, n int64) (data []byte, whole bool, err error) {
	f, fi, err := Open(name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	size := fi.Size()
	off := max(size-n, 0)
	buf := make([]byte, size-off)
	k, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	buf = buf[:k]
	if off > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, false, nil
		}
		buf = buf[i+1:]
	}
	return buf, off == 0, nil
}
