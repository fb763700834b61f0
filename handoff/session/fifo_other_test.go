//go:build !unix

package session

import "errors"

func mkfifo(string) error { return errors.New("no named pipes here") }
