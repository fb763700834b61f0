package stoppolicy

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/baton-md/baton/internal/safefile"
)

// Counter counts the hook's consecutive blocks in a session, in a
// small file of the user's cache folder.
type Counter struct {
	Dir     string // "" for the user cache folder
	Session string
}

func (c Counter) Path() string {
	dir := c.folder()
	if dir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(c.Session))
	return filepath.Join(dir, hex.EncodeToString(sum[:8]))
}

// folder is where the hook keeps its state, for every session.
func (c Counter) folder() string {
	if c.Dir != "" {
		return c.Dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "baton", "stop-hook")
}

func (c Counter) get() int {
	n, _ := c.count()
	return n
}

// count reads the number of blocks in a row; no file is 0. A count that
// cannot be read, or is not a number from 0 to a thousand, is an error: a
// corrupt counter must not keep the hook blocking.
func (c Counter) count() (int, error) {
	p := c.Path()
	if p == "" {
		return 0, errors.New("no user cache folder")
	}
	b, err := safefile.ReadFile(p, 64)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n < 0 || n > 1000 {
		return 0, fmt.Errorf("%s holds %q, not a count", p, strings.TrimSpace(string(b)))
	}
	return n, nil
}

// add counts a block unless max are counted in a row already, and fails
// when the count cannot be kept: a block that is not counted could loop
// for ever, so the caller lets the stop through instead (as specrew's
// provider does, 145 HANG-2). At the bound it counts nothing, starts the
// count afresh and returns counted false with the count it found: the
// stop is let through.
//
// Read, the bound, add one and write are done under an exclusive lock of
// the count's lock file (flock, LockFileEx on Windows), and the new count
// replaces the old by a rename: twenty hooks of one session blocking at
// once count twenty, a reader without the lock sees the old count or the
// new, never a torn file, and stops judged at once never block more than
// max times in a row (the bound read before judging may be stale by then).
func (c Counter) add(max int) (n int, counted bool, err error) {
	p := c.Path()
	if p == "" {
		return 0, false, errors.New("no user cache folder")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return 0, false, err
	}
	unlock, err := c.lock()
	if err != nil {
		return 0, false, err
	}
	defer unlock()
	n, err = c.count()
	if err != nil {
		return 0, false, err
	}
	if n >= max {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, false, err
		}
		return n, false, nil
	}
	n++
	if err := writeReplace(p, []byte(fmt.Sprintf("%d\n", n))); err != nil {
		return 0, false, err
	}
	if back, err := c.count(); err != nil || back != n {
		return 0, false, errors.New("the count did not read back")
	}
	return n, true, nil
}

// lockWait bounds how long a hook waits for another of its session to
// finish counting: a lock held longer than this (a hung process) is an
// error, and the stop is let through rather than waited on.
const lockWait = 5 * time.Second

// lock takes the exclusive lock of the session's count, waiting at most
// lockWait, and returns its release.
func (c Counter) lock() (unlock func(), err error) {
	l := flock.New(c.Path()+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	ok, err := l.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil || !ok {
		return nil, fmt.Errorf("lock the block count: %v", cmp.Or(err, errors.New("held by another hook")))
	}
	return func() { _ = l.Unlock() }, nil
}

// writeReplace writes data to a new file beside path, then renames it
// over path.
func writeReplace(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := cmp.Or(werr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// remember records the stop the hook answers, for the duplicate check
// (dedupWindow). Any error only disables the check.
func (c Counter) remember(r fireRecord) {
	p := c.Path()
	if p == "" {
		return
	}
	if b, err := json.Marshal(r); err == nil {
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		_ = os.WriteFile(p+".fire", b, 0o600)
	}
}

// reset starts the count afresh, under the count's lock when it can be
// had (so that a count in progress is not lost half way).
func (c Counter) reset() {
	if p := c.Path(); p != "" {
		if unlock, err := c.lock(); err == nil {
			defer unlock()
		}
		_ = os.Remove(p)
	}
}

// markTurn records that a turn started in the session (the prompt hook
// ran): a mark of its own, so the duplicate check tells the turn's stops
// from the last turn's. Any error only weakens that check.
func (c Counter) markTurn() {
	p := c.Path()
	if p == "" {
		return
	}
	_ = os.MkdirAll(filepath.Dir(p), 0o700)
	_ = os.WriteFile(p+".prompt", []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o600)
}

// turnMark is the mark of the session's current turn; "" for none.
func (c Counter) turnMark() string {
	p := c.Path()
	if p == "" {
		return ""
	}
	b, _ := readState(p + ".prompt")
	return strings.TrimSpace(string(b))
}

// Appended keeps, per session, the text a host sent at its last stop (a
// length and a hash, not the text), and reports what text adds to it:
// when text is that text, a newline and more, added is the more and ok is
// true. It is for a host that sends the turn's responses so far, joined by
// a newline, in place of the last (a cumulative response after a retry,
// agenthost.Stop.Cumulative): the split is made only where the last stop's text is known to
// end, never guessed. Any error only means no split.
func (c Counter) Appended(text string) (added string, ok bool) {
	p := c.Path()
	if p == "" {
		return "", false
	}
	p += ".response"
	var last struct {
		Len int    `json:"len"`
		Sum string `json:"sha256"`
	}
	if b, err := readState(p); err == nil && json.Unmarshal(b, &last) == nil && last.Len > 0 && len(text) > last.Len+1 && text[last.Len] == '\n' {
		sum := sha256.Sum256([]byte(text[:last.Len]))
		if hex.EncodeToString(sum[:]) == last.Sum {
			added, ok = text[last.Len+1:], true
		}
	}
	sum := sha256.Sum256([]byte(text))
	if b, err := json.Marshal(map[string]any{"len": len(text), "sha256": hex.EncodeToString(sum[:])}); err == nil {
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		_ = os.WriteFile(p, b, 0o600)
	}
	return added, ok
}
