//go:build unix

package check

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f (a file replacing the one described by info) that
// file's owner and group when they differ from f's. It may not be allowed
// (only the superuser can give a file away): a file is then owned by whoever
// fixed it, as when an editor saves it.
func keepOwner(f *os.File, info fs.FileInfo) {
	want, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	fi, err := f.Stat()
	if err != nil {
		return
	}
	if got, ok := fi.Sys().(*syscall.Stat_t); ok && got.Uid == want.Uid && got.Gid == want.Gid {
		return
	}
	_ = f.Chown(int(want.Uid), int(want.Gid))
}
