package stoppolicy

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// What counts as material work at a stop, after specrew's turn-delta core
// (extensions/specrew-speckit/scripts/conformance-turn-delta.ps1 at
// alonf/specrew acbb4366): the live Git state (HEAD, and each changed path
// with its status and a fingerprint of its content) compared with a
// baseline taken at the start of the turn (a host's prompt hook) or at the
// last stop that owed nothing. With no baseline the delta is measured from
// HEAD with a clean tree, as specrew's degraded baseline does. Paths that
// agents' tools manage (.specrew/, an agent host's folder, .gitignore …)
// never count: `baton hook install` writes some of them.

// managed are the top-level folders whose files are never material work:
// specrew's pattern ($script:SpecrewTurnManagedPathPattern) names its own
// and those of the agents it installs into; the agent hosts add theirs
// (ManageFolders), which hook install writes, so that the list is the
// pattern's and every host's.
var managed = struct {
	sync.RWMutex
	folders map[string]bool
}{folders: map[string]bool{".agents": true, ".github": true, ".specify": true, ".squad": true, ".specrew": true}}

// managedFiles are the top-level files specrew's pattern names.
var managedFiles = map[string]bool{".gitattributes": true, ".gitignore": true, ".markdownlint.json": true}

// ManageFolders adds top-level folders (".host") whose files are never
// material work: an agent host's, for its settings and hooks.
func ManageFolders(names ...string) {
	managed.Lock()
	defer managed.Unlock()
	for _, n := range names {
		managed.folders[n] = true
	}
}

// IsManaged reports a path (slash-separated, from the work tree's root)
// that agents' tools manage.
func IsManaged(p string) bool {
	first, _, inFolder := strings.Cut(p, "/")
	if !inFolder {
		return managedFiles[p]
	}
	managed.RLock()
	defer managed.RUnlock()
	return managed.folders[first]
}

// turnEntry is one changed path of a snapshot.
type turnEntry struct {
	Path        string `json:"path"`
	Status      string `json:"status"`
	Fingerprint string `json:"fingerprint"`
}

// turnSnapshot is the Git state of a project.
type turnSnapshot struct {
	Head    string      `json:"head"`
	Key     string      `json:"key"`
	Entries []turnEntry `json:"entries"`
	Event   string      `json:"capture_event,omitempty"`
}

func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func gitOut(root string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-c", "core.quotepath=false", "-C", root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// takeSnapshot reads the Git state of root (Get-SpecrewTurnSnapshot).
func takeSnapshot(root string) (*turnSnapshot, error) {
	inside, err := gitOut(root, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(inside) != "true" {
		return nil, errors.New("not a Git work tree")
	}
	prefix, err := gitOut(root, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	prefix = strings.TrimSpace(prefix)
	head := "(unborn)"
	if h, err := gitOut(root, "rev-parse", "HEAD"); err == nil && strings.TrimSpace(h) != "" {
		head = strings.TrimSpace(h)
	}
	status, err := gitOut(root, "status", "--porcelain=v1", "--untracked-files=all", "--", ".")
	if err != nil {
		return nil, err
	}
	s := &turnSnapshot{Head: head, Entries: []turnEntry{}}
	sc := bufio.NewScanner(strings.NewReader(status))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 4 {
			continue
		}
		st, p := line[:2], strings.TrimSpace(line[3:])
		if i := strings.LastIndex(p, " -> "); i >= 0 {
			p = p[i+4:]
		}
		p = strings.ReplaceAll(strings.Trim(p, `"`), `\`, "/")
		if prefix != "" && len(p) >= len(prefix) && strings.EqualFold(p[:len(prefix)], prefix) {
			p = p[len(prefix):]
		}
		p = strings.TrimLeft(p, "/")
		if p == "" || IsManaged(p) {
			continue
		}
		s.Entries = append(s.Entries, turnEntry{Path: p, Status: st, Fingerprint: fingerprint(filepath.Join(root, filepath.FromSlash(p)))})
	}
	slices.SortFunc(s.Entries, func(a, b turnEntry) int { return strings.Compare(a.Path+"\x00"+a.Status, b.Path+"\x00"+b.Status) })
	canon := []string{"head=" + head}
	for _, e := range s.Entries {
		canon = append(canon, e.Path+"|"+e.Status+"|"+e.Fingerprint)
	}
	s.Key = hashText(strings.Join(canon, "\n"))
	return s, nil
}

func fingerprint(path string) string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "missing"
	}
	f, _, err := safefile.Open(path)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// degradedBaseline is specrew's New-SpecrewDegradedTurnBaseline: HEAD and a
// clean tree.
func degradedBaseline(cur *turnSnapshot) *turnSnapshot {
	return &turnSnapshot{Head: cur.Head, Key: hashText("head=" + cur.Head), Entries: []turnEntry{}, Event: "capability-absent"}
}

// turnDelta is what changed between a baseline and now
// (Compare-SpecrewTurnSnapshot).
type turnDelta struct {
	Material bool
	Key      string // names the changed surface; "" when nothing changed
	Paths    []string
	Commits  int
}

func compareSnapshots(root string, base, cur *turnSnapshot) turnDelta {
	was := map[string]string{}
	for _, e := range base.Entries {
		was[e.Path] = e.Status + "|" + e.Fingerprint
	}
	now := map[string]string{}
	for _, e := range cur.Entries {
		now[e.Path] = e.Status + "|" + e.Fingerprint
	}
	var d turnDelta
	for p, v := range now {
		if w, ok := was[p]; !ok || w != v {
			d.Paths = append(d.Paths, p)
		}
	}
	for p := range was {
		if _, ok := now[p]; !ok {
			d.Paths = append(d.Paths, p)
		}
	}
	slices.Sort(d.Paths)
	if base.Head != "" && base.Head != "(unborn)" && cur.Head != "(unborn)" && base.Head != cur.Head {
		d.Commits = 1
		if out, err := gitOut(root, "rev-list", "--count", base.Head+".."+cur.Head, "--", "."); err == nil {
			var n int
			if _, err := fmt.Sscanf(strings.TrimSpace(out), "%d", &n); err == nil && n > 0 {
				d.Commits = n
			}
		}
	}
	d.Material = len(d.Paths) > 0 || d.Commits > 0
	if d.Material {
		d.Key = "material|turn|" + hashText(base.Key+"|"+cur.Key)
	}
	return d
}

// turnState is what the hook keeps between a session's stops: the baseline
// the next delta is measured from, the surface a packet last discharged, and
// the continue loop guard.
type turnState struct {
	Baseline  *turnSnapshot `json:"baseline,omitempty"`
	Satisfied string        `json:"satisfied,omitempty"`
	Continue  struct {
		Key   string `json:"key,omitempty"`
		Count int    `json:"count,omitempty"`
	} `json:"continue"`
}

func (c Counter) turnPath(root string) string {
	p := c.Path()
	if p == "" {
		return ""
	}
	return p + "-" + hashText(root)[:12] + ".turn.json"
}

func (c Counter) loadTurn(root string) turnState {
	var t turnState
	if p := c.turnPath(root); p != "" {
		if b, err := readState(p); err == nil {
			_ = json.Unmarshal(b, &t)
		}
	}
	return t
}

func (c Counter) saveTurn(root string, t turnState) error {
	p := c.turnPath(root)
	if p == "" {
		return errors.New("no folder for the hook's state")
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// ownerMaxAge is how long a claim on a changed surface holds
// ($SpecrewMaterialHandoverMaxAgeSec).
const ownerMaxAge = 300 * time.Second

// ownerRecord says which session made the changes a surface key names
// (specrew's conformance-material-owner.json), one per project.
type ownerRecord struct {
	Key   string `json:"key"`
	Owner string `json:"owner"`
	Epoch int64  `json:"epoch"`
}

func (c Counter) ownerPath(root string) string {
	dir := c.folder()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "owner-"+hashText(root)[:12]+".json")
}

// claim records this session as the maker of the surface key.
func (c Counter) claim(root, key string) error {
	p := c.ownerPath(root)
	if p == "" {
		return errors.New("no folder for the hook's state")
	}
	b, err := json.Marshal(ownerRecord{Key: key, Owner: c.Session, Epoch: time.Now().Unix()})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".tmp-" + hashText(c.Session)[:8]
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// foreign reports whether another session claimed the surface key lately
// (Resolve-SpecrewTurnPacketDemand's foreign-owner suppression).
func (c Counter) foreign(root, key string) bool {
	p := c.ownerPath(root)
	if p == "" || c.Session == "" {
		return false
	}
	b, err := readState(p)
	if err != nil {
		return false
	}
	var r ownerRecord
	if json.Unmarshal(b, &r) != nil || r.Key != key || r.Owner == c.Session {
		return false
	}
	age := time.Now().Unix() - r.Epoch
	return age >= 0 && age <= int64(ownerMaxAge/time.Second)
}
