//go:build unix

package safefile

import (
	"os"
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
