//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// NonBlock is 0 where named pipes do not block an open.
const NonBlock = 0

func openNonBlocking(name string) (*os.File, error) { return os.Open(name) }

// readDirIn lists dir, the folder name opened in root.
func readDirIn(_ *os.Root, _ string, dir *os.File) ([]fs.DirEntry, error) {
	return dir.ReadDir(-1)
}
