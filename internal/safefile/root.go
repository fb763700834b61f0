package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// ErrOutside is wrapped by the error for a name that leads outside the
// root it was opened in: by "..", by an absolute name, or by a symbolic
// link (one already there, or one swapped in for a folder while the name
// was being opened).
var ErrOutside = errors.New("outside the root")

// OpenIn opens name, relative to root, when it is a regular file, as Open
// does: every component is resolved beneath root by the open itself, so a
// check made before cannot be raced. A symbolic link that leaves root,
// even one pointing back in by an absolute target, is refused with
// ErrOutside; a named pipe is refused without blocking.
func OpenIn(root *os.Root, name string) (*os.File, os.FileInfo, error) {
	shown := filepath.Join(root.Name(), name)
	f, err := root.OpenFile(name, os.O_RDONLY|NonBlock, 0)
	if err != nil {
		return nil, nil, rootError(root, shown, err)
	}
	_, fi, err := regularFile(f, shown)
	if err != nil {
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFileIn reads a regular file of at most limit bytes, named relative
// to root, as ReadFile does, opening it with OpenIn.
func ReadFileIn(root *os.Root, name string, limit int64) ([]byte, error) {
	f, fi, err := OpenIn(root, name)
	if err != nil {
		return nil, err
	}
	return readOpened(f, fi, filepath.Join(root.Name(), name), limit)
}

// rootError is err, from opening name in root, with an escape from root
// told as ErrOutside. os does not export the error it gives for one, so it
// is taken from a name that escapes before any file is looked at.
func rootError(root *os.Root, name string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	if esc := escapeError(root); esc != nil && errors.Is(pe.Err, esc) {
		return &fs.PathError{Op: "open", Path: name, Err: ErrOutside}
	}
	return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
}

var escape struct {
	once sync.Once
	err  error
}

// escapeError is the error os.Root gives for a name leading outside it:
// ".." is refused as it is read, without a system call.
func escapeError(root *os.Root) error {
	escape.once.Do(func() {
		f, err := root.Open("..")
		if err == nil {
			f.Close()
			return
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			escape.err = pe.Err
		}
	})
	return escape.err
}
