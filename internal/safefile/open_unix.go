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

// setBlocking makes reads of a regular file ordinary again.
func setBlocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
