package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// paths lists a ledger's paths, sorted.
func paths(l *Ledger) []string {
	var out []string
	for p := range l.Paths {
		out = append(out, p)
	}
	return sortStrings(out)
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func fileSize(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// ledgerOf reads dir with s and fails the test on an error.
func ledgerOf(t *testing.T, s *Store, dir string) *Ledger {
	t.Helper()
	l, err := s.Ledger(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestStoreAppendReadsOnlyNewBytes(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("c1", "u1", "src/a.ts")
	dir := b.writeTemp()
	file := filepath.Join(dir, "current.jsonl")
	s := NewStore()

	l1 := ledgerOf(t, s, dir)
	if got, want := s.BytesRead(), fileSize(t, file); got != want {
		t.Fatalf("first read: BytesRead = %d, want the file's %d bytes", got, want)
	}
	if diff := cmp.Diff([]string{"src/a.ts"}, paths(l1)); diff != "" {
		t.Fatalf("paths (-want +got):\n%s", diff)
	}

	// Nothing changed: the same ledger, nothing read.
	if l := ledgerOf(t, s, dir); l != l1 || s.BytesRead() != fileSize(t, file) {
		t.Errorf("unchanged file: got a new ledger or read bytes (%d)", s.BytesRead())
	}

	// Append about 1 KB, with a read of a new path.
	more := newBuilder(t, "-")
	parent := "c1"
	for i := 0; more.text() == "" || len(more.text()) < 1000; i++ {
		turn := fmt.Sprintf("m%d", i)
		more.user(turn, parent)
		parent = turn
	}
	more.read("c2", parent, "src/new.ts")
	appended := more.text()
	before := s.BytesRead()
	appendFile(t, file, appended)

	l2 := ledgerOf(t, s, dir)
	if got := s.BytesRead() - before; got != int64(len(appended)) {
		t.Errorf("append: BytesRead grew by %d, want exactly the %d appended bytes", got, len(appended))
	}
	if diff := cmp.Diff([]string{"src/a.ts", "src/new.ts"}, paths(l2)); diff != "" {
		t.Errorf("paths after the append (-want +got):\n%s", diff)
	}
	if ev, _ := l2.Lookup("src/new.ts"); len(ev) != 1 || ev[0].Line != 3+strings.Count(appended, "\n") {
		t.Errorf("evidence of the appended read: %+v", ev)
	}
	if l2.Lines != 3+strings.Count(appended, "\n") {
		t.Errorf("Lines = %d", l2.Lines)
	}
	// The same as a cold read.
	if diff := cmp.Diff(ledgerOf(t, NewStore(), dir), l2); diff != "" {
		t.Errorf("incremental ledger differs from a cold read (-cold +incremental):\n%s", diff)
	}
}

func TestStoreAppendedBranchMovesThePath(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("a1", "u1", "src/shared.ts")
	b.read("old1", "a1", "src/old.ts")
	dir := b.writeTemp()
	file := filepath.Join(dir, "current.jsonl")
	s := NewStore()
	if diff := cmp.Diff([]string{"src/old.ts", "src/shared.ts"}, paths(ledgerOf(t, s, dir))); diff != "" {
		t.Fatalf("before (-want +got):\n%s", diff)
	}
	// A /tree switch back to a1, then a new branch: src/old.ts leaves the path.
	more := newBuilder(t, "-")
	more.user("new1", "a1")
	more.read("new2", "new1", "src/new.ts")
	before := s.BytesRead()
	appendFile(t, file, more.text())
	l := ledgerOf(t, s, dir)
	if diff := cmp.Diff([]string{"src/new.ts", "src/shared.ts"}, paths(l)); diff != "" {
		t.Errorf("after the branch (-want +got):\n%s", diff)
	}
	if got := s.BytesRead() - before; got != int64(len(more.text())) {
		t.Errorf("BytesRead grew by %d, want %d", got, len(more.text()))
	}
}

func TestStoreRewriteShorterRebuilds(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("c1", "u1", "src/a.ts")
	b.read("c2", "c1", "src/b.ts")
	dir := b.writeTemp()
	file := filepath.Join(dir, "current.jsonl")
	s := NewStore()
	ledgerOf(t, s, dir)

	short := newBuilder(t, "/work/other")
	short.read("x1", "", "/work/other/z.ts")
	writeFile(t, file, short.text()) // same inode, truncated and rewritten
	before := s.BytesRead()
	l := ledgerOf(t, s, dir)
	if diff := cmp.Diff([]string{"z.ts"}, paths(l)); diff != "" {
		t.Errorf("paths after the rewrite (-want +got):\n%s", diff)
	}
	if l.Cwd != "/work/other" || l.Lines != 2 {
		t.Errorf("Cwd = %q, Lines = %d", l.Cwd, l.Lines)
	}
	if got := s.BytesRead() - before; got != int64(len(short.text())) {
		t.Errorf("rebuild read %d bytes, want the whole %d", got, len(short.text()))
	}
}

func TestStoreRewriteDetected(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("c1", "u1", "src/a.ts")
	dir := b.writeTemp()
	file := filepath.Join(dir, "current.jsonl")
	text := b.text()

	t.Run("same size, new content, replaced by rename", func(t *testing.T) {
		s := NewStore()
		ledgerOf(t, s, dir)
		tmp := filepath.Join(dir, "tmp")
		writeFile(t, tmp, strings.Replace(text, "src/a.ts", "src/b.ts", 1))
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"src/b.ts"}, paths(ledgerOf(t, s, dir))); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		writeFile(t, file, text)
	})
	for _, edit := range []struct{ name, old, new string }{
		{"longer, with the old end rewritten in place", `"turnId":"c1"}`, `"turnId":"c0"}`},
		{"longer, with the start rewritten in place", `"cwd":"/work/repo"`, `"cwd":"/work/rep2"`},
	} {
		t.Run(edit.name, func(t *testing.T) {
			s := NewStore()
			ledgerOf(t, s, dir)
			more := newBuilder(t, "-")
			more.read("c2", "c1", "src/c.ts")
			rewritten := strings.Replace(text, edit.old, edit.new, 1)
			if rewritten == text {
				t.Fatal("the edit changed nothing")
			}
			writeFile(t, file, rewritten+more.text())
			before := s.BytesRead()
			l := ledgerOf(t, s, dir)
			if got := s.BytesRead() - before; got != fileSize(t, file) {
				t.Errorf("read %d bytes, want a full rebuild (%d)", got, fileSize(t, file))
			}
			if diff := cmp.Diff(ledgerOf(t, NewStore(), dir), l); diff != "" {
				t.Errorf("differs from a cold read (-cold +got):\n%s", diff)
			}
			writeFile(t, file, text)
		})
	}
	t.Run("same size, same inode, new modification time", func(t *testing.T) {
		s := NewStore()
		ledgerOf(t, s, dir)
		writeFile(t, file, strings.Replace(text, "src/a.ts", "src/q.ts", 1))
		future := time.Now().Add(time.Hour)
		if err := os.Chtimes(file, future, future); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"src/q.ts"}, paths(ledgerOf(t, s, dir))); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		writeFile(t, file, text)
	})
}

func TestStoreTornLineCompletedByAppend(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("c1", "u1", "src/a.ts")
	b.read("c2", "c1", "src/b.ts")
	full := b.text()
	cut := strings.LastIndex(full, "src/b.ts") // tear the last line inside its path
	dir := b.writeTemp()
	file := filepath.Join(dir, "current.jsonl")
	writeFile(t, file, full[:cut])
	s := NewStore()

	l := ledgerOf(t, s, dir)
	if !l.TornLastLine || l.Lines != 4 || len(l.InvalidLines) != 0 {
		t.Errorf("torn: TornLastLine = %v, Lines = %d, InvalidLines = %v", l.TornLastLine, l.Lines, l.InvalidLines)
	}
	if diff := cmp.Diff([]string{"src/a.ts"}, paths(l)); diff != "" {
		t.Errorf("torn (-want +got):\n%s", diff)
	}

	// Complete the line, without its newline yet: it parses, so it counts.
	before := s.BytesRead()
	appendFile(t, file, full[cut:len(full)-1])
	l = ledgerOf(t, s, dir)
	if l.TornLastLine || l.Lines != 4 {
		t.Errorf("completed: TornLastLine = %v, Lines = %d", l.TornLastLine, l.Lines)
	}
	if diff := cmp.Diff([]string{"src/a.ts", "src/b.ts"}, paths(l)); diff != "" {
		t.Errorf("completed (-want +got):\n%s", diff)
	}
	// Its newline, and another torn line.
	appendFile(t, file, "\n{\"kind\":")
	l = ledgerOf(t, s, dir)
	if !l.TornLastLine || l.Lines != 5 || len(l.Paths) != 2 {
		t.Errorf("newline: TornLastLine = %v, Lines = %d, paths %v", l.TornLastLine, l.Lines, paths(l))
	}
	if got, want := s.BytesRead()-before, int64(len(full)-cut+len("{\"kind\":")); got != want {
		t.Errorf("BytesRead grew by %d, want the %d appended bytes", got, want)
	}
	if diff := cmp.Diff(ledgerOf(t, NewStore(), dir), l); diff != "" {
		t.Errorf("incremental ledger differs from a cold read (-cold +incremental):\n%s", diff)
	}
}

func TestStoreMetaChange(t *testing.T) {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.read("a1", "u1", "src/shared.ts")
	b.read("old1", "a1", "src/old.ts")
	b.user("new1", "a1")
	b.read("new2", "new1", "src/new.ts")
	dir := b.writeTemp()
	s := NewStore()
	l := ledgerOf(t, s, dir)
	if diff := cmp.Diff([]string{"src/new.ts", "src/shared.ts"}, paths(l)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	read := s.BytesRead()

	writeFile(t, filepath.Join(dir, "meta.json"), `{"cwd":"/work/repo","pinnedLeafTurnId":"old1","other":[1,2]}`)
	l = ledgerOf(t, s, dir)
	if diff := cmp.Diff([]string{"src/old.ts", "src/shared.ts"}, paths(l)); diff != "" {
		t.Errorf("pinned (-want +got):\n%s", diff)
	}
	if l.Leaf != "old1" || s.BytesRead() != read {
		t.Errorf("Leaf = %q; BytesRead %d, want %d (meta.json alone changed)", l.Leaf, s.BytesRead(), read)
	}

	writeFile(t, filepath.Join(dir, "meta.json"), `{not json`)
	l = ledgerOf(t, s, dir)
	if l.Leaf != "new2" || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "meta.json") {
		t.Errorf("broken meta.json: Leaf = %q, Warnings = %q", l.Leaf, l.Warnings)
	}

	if err := os.Remove(filepath.Join(dir, "meta.json")); err != nil {
		t.Fatal(err)
	}
	l = ledgerOf(t, s, dir)
	if l.Leaf != "new2" || len(l.Warnings) != 0 {
		t.Errorf("no meta.json: Leaf = %q, Warnings = %q", l.Leaf, l.Warnings)
	}
	if s.BytesRead() != read {
		t.Errorf("meta.json changes read current.jsonl again")
	}
}

func TestStoreErrors(t *testing.T) {
	s := NewStore()
	dir := filepath.Join(t.TempDir(), "sess-x")
	_, err := s.Ledger(dir)
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "read session sess-x: ") {
		t.Errorf("missing session: err = %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "current.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ledger(dir); err == nil {
		t.Error("current.jsonl is a folder: no error")
	}
	// Once readable, the same Store recovers.
	if err := os.Remove(filepath.Join(dir, "current.jsonl")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "current.jsonl"), "{\"type\":\"message\"}\n")
	l, err := s.Ledger(dir)
	if err != nil || l.Lines != 1 || len(l.Paths) != 0 || l.SessionID != "sess-x" || len(l.Warnings) != 1 {
		t.Errorf("a header-less session with one entry: %+v, %v", l, err)
	}
}

// A file that holds no session header and no readable entry is not a
// ledger: no path may be called invented against it. Nor is a special
// file, which is refused without blocking on it.
func TestStoreNotALedger(t *testing.T) {
	for name, text := range map[string]string{
		"empty":              "",
		"blank lines":        "\n\n  \n",
		"every line invalid": "not json\n{broken\n[1,2]\n",
		"a torn line only":   "{\"type\":\"sess",
	} {
		dir := filepath.Join(t.TempDir(), "sess-x")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "current.jsonl"), text)
		if l, err := NewStore().Ledger(dir); err == nil || !strings.Contains(err.Error(), "no session header and no readable entry") {
			t.Errorf("%s: ledger %+v, err %v; want an error saying it is not a session", name, l, err)
		}
	}
	dir := filepath.Join(t.TempDir(), "sess-x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "current.jsonl")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := NewStore().Ledger(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("current.jsonl -> /dev/zero: err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("current.jsonl -> /dev/zero: the read did not end")
	}
	fifoDir := filepath.Join(t.TempDir(), "sess-y")
	if err := os.MkdirAll(fifoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(fifoDir, "current.jsonl")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() { _, err := NewStore().Ledger(fifoDir); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe") {
			t.Errorf("current.jsonl a FIFO: err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("current.jsonl a FIFO: the read blocked")
	}
}

// A header of a format version baton does not know, with no entry of a
// kind baton knows, is not a ledger either: its entries may be written in
// a way baton cannot read. With one that baton reads, it is a ledger that
// says what version it was.
func TestStoreUnknownVersion(t *testing.T) {
	const v9 = `{"type":"session","version":9,"id":"sess-x","cwd":"/work/repo"}` + "\n"
	const known = `{"kind":"fileEntry","turnId":"f1","parentTurnId":null,"path":"src/a.ts","operation":"read"}` + "\n"
	for name, text := range map[string]string{
		"header only":               v9,
		"entries of other kinds":    v9 + `{"k":"m","t":"a1"}` + "\n" + `{"kind":"toolRead","path":"src/a.ts"}` + "\n",
		"invalid lines":             v9 + "not json\n",
		"a torn header and nothing": strings.TrimSuffix(v9, "\n"),
	} {
		dir := filepath.Join(t.TempDir(), "sess-x")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "current.jsonl"), text)
		if l, err := NewStore().Ledger(dir); err == nil || !strings.Contains(err.Error(), "format version 9, which baton does not read") {
			t.Errorf("%s: ledger %+v, err %v; want an error naming the version", name, l, err)
		}
	}
	dir := filepath.Join(t.TempDir(), "sess-x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "current.jsonl"), v9+known)
	l := ledgerOf(t, NewStore(), dir)
	if _, ok := l.Paths["src/a.ts"]; !ok || !strings.Contains(strings.Join(l.Warnings, "\n"), "format version 9") {
		t.Errorf("paths %v, warnings %q; want src/a.ts and a warning naming version 9", paths(l), l.Warnings)
	}
	for _, v := range []string{"3", "4"} {
		writeFile(t, filepath.Join(dir, "current.jsonl"), strings.Replace(v9, "9", v, 1))
		if l, err := NewStore().Ledger(dir); err != nil || len(l.Warnings) != 0 {
			t.Errorf("a version %s header alone: %+v, %v; want an empty ledger", v, l, err)
		}
	}
}

// A line over MaxLineBytes is skipped as invalid, whatever the chunks it
// arrives in, and the lines after it are read.
func TestStoreLongLineIsSkipped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sess-x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	long := "{\"x\":\"" + strings.Repeat("a", MaxLineBytes) + "\"}\n"
	writeFile(t, filepath.Join(dir, "current.jsonl"), "{\"type\":\"session\",\"id\":\"sess-x\",\"cwd\":\"/w\"}\n"+long+"{\"type\":\"message\"}\n")
	l, err := NewStore().Ledger(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l.Lines != 3 || len(l.InvalidLines) != 1 || l.InvalidLines[0] != 2 {
		t.Errorf("lines %d, invalid %v; want 3 lines, line 2 invalid", l.Lines, l.InvalidLines)
	}
	if !strings.Contains(strings.Join(l.Warnings, "; "), "line 2 is longer than 16 MiB: skipped") {
		t.Errorf("warnings %q do not name the long line", l.Warnings)
	}
}

func TestStoreConcurrent(t *testing.T) {
	var dirs []string
	for i := 0; i < 3; i++ {
		b := newBuilder(t, "/work/repo")
		b.user("u1", "")
		dirs = append(dirs, b.writeTemp())
	}
	s := NewStore()
	var wg sync.WaitGroup
	for _, dir := range dirs {
		wg.Add(1)
		go func() { // the writer
			defer wg.Done()
			parent := "u1"
			for i := 0; i < 50; i++ {
				more := newBuilder(t, "-")
				turn := fmt.Sprintf("c%d", i)
				more.read(turn, parent, fmt.Sprintf("src/%d.ts", i))
				parent = turn
				appendFile(t, filepath.Join(dir, "current.jsonl"), more.text())
			}
		}()
		for r := 0; r < 3; r++ {
			wg.Add(1)
			go func() { // readers
				defer wg.Done()
				for i := 0; i < 50; i++ {
					l, err := s.Ledger(dir)
					if err != nil {
						t.Error(err)
						return
					}
					_, _ = l.Lookup("src/1.ts")
				}
			}()
		}
	}
	wg.Wait()
	for _, dir := range dirs {
		l := ledgerOf(t, s, dir)
		if len(l.Paths) != 50 || l.TornLastLine || len(l.InvalidLines) != 0 {
			t.Errorf("%s: %d paths, torn %v, invalid %v", dir, len(l.Paths), l.TornLastLine, l.InvalidLines)
		}
		if diff := cmp.Diff(ledgerOf(t, NewStore(), dir), l); diff != "" {
			t.Errorf("differs from a cold read (-cold +incremental):\n%s", diff)
		}
	}
}
