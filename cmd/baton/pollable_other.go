//go:build !unix

package main

import "io"

// pollable leaves standard input as it is where descriptors have no
// non-blocking mode to set.
func pollable(in io.Reader) (io.Reader, func()) { return in, func() {} }
