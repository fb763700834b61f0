package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/baton-md/baton/internal/safefile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Store reads sessions and caches what it read, per session file. It is
// safe for concurrent use; calls for different sessions do not wait on each
// other.
//
// When current.jsonl grew since the last call and is still the same file
// (same device and inode, or their equivalent, with the first and last
// bytes read before unchanged), only the appended bytes are read, and the
// active path, read ledger and board are recomputed from the entries kept in
// memory. When it shrank, was replaced, changed size for size or had its
// start or previous end rewritten, it is read again from the start. A
// meta.json that changed (identity, size or modification time) is read
// again, and the ledger recomputed without reading current.jsonl.
type Store struct {
	mu       sync.Mutex
	sessions map[string]*sessionState
	read     atomic.Int64
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{sessions: make(map[string]*sessionState)}
}

// BytesRead is the total number of bytes of current.jsonl files parsed so
// far. The guard re-read that checks an append (the first and last 64 bytes
// read before) is not counted.
func (s *Store) BytesRead() int64 { return s.read.Load() }

// Ledger reads the session in folder dir (<dir>/current.jsonl and, when
// present, <dir>/meta.json for cwd and pinnedLeafTurnId) and returns its
// ledger. A missing or unreadable current.jsonl is an error; a missing or
// malformed header or meta.json is not (see [Ledger.Warnings]). The cwd is
// the header's when it is absolute, else meta.json's when that is, else "";
// with no cwd, paths are kept as the session wrote them, cleaned (see
// [Normalize]). Calls that find nothing changed return the same *Ledger.
func (s *Store) Ledger(dir string) (*Ledger, error) {
	key := filepath.Clean(dir)
	if abs, err := filepath.Abs(dir); err == nil {
		key = abs
	}
	s.mu.Lock()
	st := s.sessions[key]
	if st == nil {
		st = &sessionState{
			dir:      key,
			file:     filepath.Join(key, "current.jsonl"),
			metaFile: filepath.Join(key, "meta.json"),
		}
		s.sessions[key] = st
	}
	s.mu.Unlock()

	st.mu.Lock()
	defer st.mu.Unlock()
	l, err := st.refresh(&s.read)
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", filepath.Base(key), err)
	}
	return l, nil
}

// probeLen is how many of the first and of the last bytes read are kept to
// check that a grown file still starts with what was read. (A rewrite in
// place that grows the file and keeps both is taken for an append: the file
// is append-only, and re-reading it all to be sure would defeat the point.)
const probeLen = 64

// chunkSize is the read size; a longer line spans several reads.
const chunkSize = 1 << 20

// sessionState is what a Store keeps of one session.
type sessionState struct {
	mu                  sync.Mutex
	dir, file, metaFile string

	synced bool        // p holds the first size bytes of the file fi describes
	fi     os.FileInfo // at the last read
	size   int64
	head   []byte // the first bytes of those size bytes
	probe  []byte // and the last ones
	p      parser

	meta   meta
	ledger *Ledger
	norm   normCache
}

// maxMetaBytes bounds meta.json: clio-coder writes a few fields there.
const maxMetaBytes = 1 << 20

// meta is what meta.json says.
type meta struct {
	fi      os.FileInfo // nil when there is none
	cwd     string
	pinned  string
	problem string // why it could not be used, "" when fine or absent
	// parentSession and parentTurn are a /fork-ed session's
	// parentSessionId and parentTurnId.
	parentSession, parentTurn string
}

func (st *sessionState) refresh(counter *atomic.Int64) (*Ledger, error) {
	// A named pipe, a device or a folder (also through a symlink) is
	// refused without blocking on it.
	f, fi, err := safefile.Open(st.file)
	if err != nil {
		st.forget()
		return nil, err
	}
	defer f.Close()
	metaChanged := st.loadMeta()
	changed, err := st.sync(f, fi, counter)
	if err != nil {
		st.forget()
		return nil, err
	}
	if !st.p.readable() {
		// Kept as read (an append may make it a session), but no ledger.
		st.ledger = nil
		if v := st.p.headerVersion(); v != "" {
			return nil, fmt.Errorf("%s is a session of format version %s, which baton does not read (it reads versions %s), and holds no entry baton can read (%d lines)", st.file, v, knownVersion, st.p.totalLines())
		}
		return nil, fmt.Errorf("%s holds no session header and no readable entry (%d lines): it is not a clio-coder session file", st.file, st.p.totalLines())
	}
	if st.ledger == nil || changed || metaChanged {
		st.ledger = assemble(&st.p, st.meta, st.dir, &st.norm)
	}
	return st.ledger, nil
}

// forget drops what was read, so that the next call starts afresh.
func (st *sessionState) forget() {
	st.synced, st.fi, st.size, st.head, st.probe, st.p, st.ledger = false, nil, 0, nil, nil, parser{}, nil
}

// sync brings st.p up to date with the file and reports whether it changed.
func (st *sessionState) sync(f *os.File, fi os.FileInfo, counter *atomic.Int64) (bool, error) {
	same := st.synced && os.SameFile(st.fi, fi)
	switch {
	case same && fi.Size() == st.size && fi.ModTime().Equal(st.fi.ModTime()) && st.probeOK(f):
		return false, nil
	case same && fi.Size() > st.size && st.probeOK(f):
		// Appended to: read only what is new.
	default:
		st.synced, st.size, st.head, st.probe, st.p = false, 0, nil, nil, parser{}
	}
	n, err := st.readFrom(f, st.size, fi.Size(), counter)
	st.size += n
	st.fi, st.synced = fi, err == nil
	return true, err
}

// probeOK reports whether the file still holds the first and last bytes
// read where they were read.
func (st *sessionState) probeOK(f *os.File) bool {
	same := func(want []byte, off int64) bool {
		if len(want) == 0 {
			return true
		}
		buf := make([]byte, len(want))
		n, err := f.ReadAt(buf, off)
		if n != len(buf) && err != nil {
			return false
		}
		return bytes.Equal(buf, want)
	}
	return same(st.head, 0) && same(st.probe, st.size-int64(len(st.probe)))
}

// readFrom feeds the bytes [off, end) of f to the parser and returns how
// many were read.
func (st *sessionState) readFrom(f *os.File, off, end int64, counter *atomic.Int64) (int64, error) {
	if end <= off {
		return 0, nil
	}
	buf := make([]byte, min(end-off, chunkSize))
	var total int64
	for off+total < end {
		want := min(int64(len(buf)), end-off-total)
		n, err := f.ReadAt(buf[:want], off+total)
		if n > 0 {
			chunk := buf[:n]
			counter.Add(int64(n))
			st.p.feed(chunk)
			st.keepProbe(chunk)
			total += int64(n)
		}
		if errors.Is(err, io.EOF) {
			break // the file shrank while being read; the next call notices
		}
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

func (st *sessionState) keepProbe(chunk []byte) {
	if len(st.head) < probeLen {
		st.head = append(st.head, chunk[:min(len(chunk), probeLen-len(st.head))]...)
	}
	if len(chunk) >= probeLen {
		st.probe = append(st.probe[:0], chunk[len(chunk)-probeLen:]...)
		return
	}
	st.probe = append(st.probe, chunk...)
	if len(st.probe) > probeLen {
		st.probe = append(st.probe[:0], st.probe[len(st.probe)-probeLen:]...)
	}
}

// loadMeta reads meta.json again when it changed and reports whether what
// it says changed.
func (st *sessionState) loadMeta() bool {
	old := st.meta
	fi, err := os.Stat(st.metaFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.meta = meta{}
	case err != nil:
		st.meta = meta{problem: err.Error()}
	case old.fi != nil && os.SameFile(old.fi, fi) && fi.Size() == old.fi.Size() && fi.ModTime().Equal(old.fi.ModTime()):
		return false
	default:
		st.meta = readMeta(st.metaFile, fi)
	}
	return st.meta.cwd != old.cwd || st.meta.pinned != old.pinned || st.meta.problem != old.problem ||
		st.meta.parentSession != old.parentSession || st.meta.parentTurn != old.parentTurn
}

func readMeta(name string, fi os.FileInfo) meta {
	m := meta{fi: fi}
	data, err := safefile.ReadFile(name, maxMetaBytes)
	if err != nil {
		m.problem = err.Error()
		return m
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		m.problem = "meta.json is not a JSON object"
		return m
	}
	// A member of the wrong type is ignored; pinnedLeafTurnId may be null.
	_ = json.Unmarshal(fields["cwd"], &m.cwd)
	_ = json.Unmarshal(fields["pinnedLeafTurnId"], &m.pinned)
	_ = json.Unmarshal(fields["parentSessionId"], &m.parentSession)
	_ = json.Unmarshal(fields["parentTurnId"], &m.parentTurn)
	return m
}

// normCache remembers normalized paths for one cwd.
type normCache struct {
	cwd string
	m   map[string]string
}

func (c *normCache) get(cwd, raw string) string {
	if c.m == nil || c.cwd != cwd {
		c.cwd, c.m = cwd, make(map[string]string)
	}
	if n, ok := c.m[raw]; ok {
		return n
	}
	n := Normalize(cwd, raw)
	c.m[raw] = n
	return n
}

// assemble builds the Ledger of what p read (its unfinished last line
// included when it parses) with what meta.json says.
func assemble(p *parser, m meta, dir string, norm *normCache) *Ledger {
	hdr := p.header
	n := len(p.entries)
	tailEntry, tailHdr, torn := p.tail()
	if tailHdr != nil {
		hdr = *tailHdr
	}
	if tailEntry != nil {
		p.entries = append(p.entries, *tailEntry)
		defer func() { p.entries[n] = entry{}; p.entries = p.entries[:n] }()
	}

	l := &Ledger{
		SessionID:    hdr.id,
		Dir:          dir,
		File:         filepath.Join(dir, "current.jsonl"),
		InvalidLines: append([]int(nil), p.invalid...),
		TornLastLine: torn,
		Lines:        p.totalLines(),
	}
	if l.SessionID == "" {
		l.SessionID = filepath.Base(dir)
	}
	if !hdr.found {
		l.Warnings = append(l.Warnings, "current.jsonl has no session header on line 1")
	}
	if hdr.unknownVersion() {
		l.Warnings = append(l.Warnings, fmt.Sprintf("the session header says format version %s; baton reads versions %s, and read what it could", hdr.version, knownVersion))
	}
	for _, n := range p.long {
		l.Warnings = append(l.Warnings, fmt.Sprintf("line %d is longer than %d MiB: skipped", n, MaxLineBytes>>20))
	}
	if m.problem != "" {
		l.Warnings = append(l.Warnings, "meta.json ignored: "+m.problem)
	}
	for _, c := range []string{hdr.cwd, m.cwd} {
		if usableCwd(c) {
			l.Cwd = jsTrim(c)
			break
		}
	}

	pr := activePath(p.entries, m.pinned)
	if pr.leaf >= 0 {
		l.Leaf = p.entries[pr.leaf].turnID
		if m.pinned != "" && !pr.pinned {
			l.Warnings = append(l.Warnings, fmt.Sprintf("pinned leaf %q resolves to no message; the last message is the leaf", m.pinned))
		}
	}
	l.Paths, l.Board = fold(p.entries, &pr, func(raw string) string { return norm.get(l.Cwd, raw) })
	for i := range p.entries {
		e := &p.entries[i]
		x := e.ext()
		h := Handoff{Session: x.other, Goal: x.goal, TurnID: e.turnID, Timestamp: e.timestamp, Line: e.line}
		switch {
		case x.handoff == handoffSeed && l.SeededFrom == nil:
			l.SeededFrom = &h
		case x.handoff == handoffNote:
			l.HandedOffTo = append(l.HandedOffTo, h)
		}
	}
	if hdr.parentSession != "" || m.parentSession != "" {
		f := &Fork{Session: m.parentSession, File: hdr.parentSession, TurnID: hdr.parentTurnID}
		if f.TurnID == "" {
			f.TurnID = m.parentTurn
		}
		l.ForkedFrom = f
	}
	return l
}
