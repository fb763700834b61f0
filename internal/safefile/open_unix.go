//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"path"
	"syscall"
)

// NonBlock is the open flag that keeps an open of a named pipe from
// waiting for a writer; reads of a regular file are not changed by it.
const NonBlock = syscall.O_NONBLOCK

// openNonBlocking opens name without waiting for a writer when it is a
// named pipe; Open refuses the pipe once it sees what it is.
func openNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// readDirIn lists dir, the folder name opened in root, as os.File's
// ReadDir does, without the Lstat of every entry a folder opened in a Root
// makes (os.newUnixDirent: its entries' Info cannot be read lazily by
// path): the folder's descriptor is read as a plain file's, whose entries
// have their kind from the listing, and each entry's Info is asked of the
// Root when asked (rootEntry). A listing was an Lstat per entry for every
// folder a workflow's components were looked for in.
func readDirIn(root *os.Root, name string, dir *os.File) ([]fs.DirEntry, error) {
	fd, err := syscall.Dup(int(dir.Fd()))
	if err != nil {
		return dir.ReadDir(-1)
	}
	plain := os.NewFile(uintptr(fd), name)
	defer plain.Close()
	list, err := plain.ReadDir(-1)
	for i, e := range list {
		list[i] = rootEntry{DirEntry: e, root: root, path: path.Join(name, e.Name())}
	}
	return list, err
}
