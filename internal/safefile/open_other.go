//go:build !unix

package safefile

import "os"

// NonBlock is 0 where named pipes do not block an open.
const NonBlock = 0

func openNonBlocking(name string) (*os.File, error) { return os.Open(name) }
