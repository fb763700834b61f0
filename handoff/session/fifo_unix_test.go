//go:build unix

package session

import "syscall"

func mkfifo(name string) error { return syscall.Mkfifo(name, 0o644) }
