//go:build unix

package main

import (
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blockingPipe is a pipe whose read end is in blocking mode, as an editor
// hands one to the server as its standard input (os.Pipe's are already
// non-blocking).
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "w")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// A blocking pipe is read through the poller (only then does a read
// deadline apply), still reads what is written, and is blocking again after
// restore; anything else is left as it is.
func TestPollableStandardInput(t *testing.T) {
	r, w := blockingPipe(t)
	if err := r.SetReadDeadline(time.Now().Add(time.Hour)); err == nil {
		t.Fatal("the test's pipe is already pollable: it proves nothing")
	}
	in, restore := pollable(r)
	p, ok := in.(*os.File)
	if !ok || p == r {
		t.Fatalf("pollable(blocking pipe) = %T %v, want a new *os.File", in, in)
	}
	if err := p.SetReadDeadline(time.Now().Add(time.Hour)); err != nil {
		t.Errorf("the pipe is not read through the poller: %v", err)
	}
	go w.Write([]byte("Content-Length: 2\r\n\r\n{}"))
	buf := make([]byte, 23)
	if _, err := io.ReadFull(p, buf); err != nil || string(buf) != "Content-Length: 2\r\n\r\n{}" {
		t.Errorf("read %q, %v", buf, err)
	}
	restore()
	dup, err := syscall.Dup(int(r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	again := os.NewFile(uintptr(dup), "again") // NewFile sees the pipe's mode
	defer again.Close()
	if err := again.SetReadDeadline(time.Now().Add(time.Hour)); err == nil {
		t.Error("after restore the pipe is still non-blocking")
	}
	// The caller's file is still open, and reads in its blocking way.
	go w.Write([]byte("z"))
	if n, err := r.Read(buf[:1]); n != 1 || err != nil || buf[0] != 'z' {
		t.Errorf("after restore the caller's file reads %q, %v", buf[:n], err)
	}

	// A pipe Go already polls is left as it is.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if in, _ := pollable(pr); in != io.Reader(pr) {
		t.Errorf("a pollable pipe was replaced: %v", in)
	}

	file, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if in, _ := pollable(file); in != io.Reader(file) {
		t.Errorf("a regular file was replaced: %v", in)
	}
	sr := strings.NewReader("x")
	if in, _ := pollable(sr); in != io.Reader(sr) {
		t.Errorf("a reader that is not a file was replaced: %v", in)
	}
}
