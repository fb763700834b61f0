//go:build !unix

package safefile

import "os"

func openNonBlocking(name string) (*os.File, error) { return os.Open(name) }

func setBlocking(*os.File) error { return nil }
