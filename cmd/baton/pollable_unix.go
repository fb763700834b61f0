//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
	"time"
)

// pollable returns standard input as a file Go reads through its network
// poller, when it is a pipe or a socket (an editor's connection): a read
// that waits for the next message then parks its goroutine, instead of
// holding a thread, and its P, in a blocking system call until the runtime
// takes the P back (up to about 10 ms). With one P (GOMAXPROCS=1, as in a
// container limited to one CPU), every analysis started that much late.
// restore puts the pipe or socket back in blocking mode for whoever shares
// it after the server, and closes the duplicate read. A terminal, a file or
// anything else is left as it is.
func pollable(in io.Reader) (r io.Reader, restore func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, func() {}
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return in, func() {}
	}
	if f.SetReadDeadline(time.Time{}) == nil {
		return in, func() {} // already read through the poller
	}
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return in, func() {}
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return in, func() {}
	}
	// NewFile sees the descriptor (a duplicate, sharing the open pipe or
	// socket and so its mode) non-blocking and registers it with the
	// poller. The caller's file stays as it was, open.
	p := os.NewFile(uintptr(fd), f.Name())
	return p, func() {
		_ = syscall.SetNonblock(fd, false)
		_ = p.Close()
	}
}
