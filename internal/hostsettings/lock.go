package hostsettings

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gofrs/flock"
)

// lockWait bounds how long an edit waits for another baton editing the
// same file: each edit holds the lock for milliseconds, so a lock held
// longer is a hung process, and the edit is refused rather than waited on.
const lockWait = 10 * time.Second

// lockName is the lock file of the settings file at path: beside it,
// hidden, and not a *.json (a host may read every *.json of its hooks
// folder: Host.FolderOfFiles).
func lockName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".baton-lock")
}

// lockSettings takes the exclusive lock of the settings file at path, so
// that two batons editing it at once (hook install and mcp install may
// share a host's settings file) each read what the other wrote: an flock
// (LockFileEx on Windows) of a lock file beside it. The kernel lets go of
// the lock when its process ends, however it ends, so a lock is never
// stale; a lock file left behind is taken again and removed by the next
// edit. The lock file is removed on release, so that nothing of baton's
// stays in the folder: a waiter that opened it before that finds the file
// it holds gone from the folder, and takes the lock again on a new one.
// The folder must be there (an error wrapping fs.ErrNotExist if not).
func lockSettings(path string) (release func(), err error) {
	name := lockName(path)
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	for {
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			return nil, err
		}
		l := flock.New(name, flock.SetPermissions(0o600))
		ok, err := l.TryLockContext(ctx, 5*time.Millisecond)
		if errors.Is(err, fs.ErrNotExist) {
			// The folder went (an uninstall removed it) while we waited.
			return nil, err
		}
		if err != nil || !ok {
			return nil, fmt.Errorf("%s: another baton has been editing it for %v (its lock %s is held): try again", path, lockWait, name)
		}
		held, herr := l.Stat()
		now, nerr := os.Stat(name)
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			return func() {
				// Removed while held: no one can take the lock of a file
				// that is in the folder and find it removed afterwards.
				removed := os.Remove(name) == nil
				_ = l.Unlock()
				if !removed && runtime.GOOS == "windows" {
					// Windows removes no file that is open: remove it once
					// closed, unless another baton has it open already.
					_ = os.Remove(name)
				}
			}, nil
		}
		_ = l.Unlock()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: could not take its lock %s within %v: try again", path, name, lockWait)
		}
	}
}
