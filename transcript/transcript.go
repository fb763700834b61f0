// Package transcript reads the session files agent hosts write (JSON
// lines, or one JSON document a file) into one form: the messages of a
// session, in order, each with its role and text. Each host's format, a
// Format, is made in the host's package (agenthost/<host>) and
// registered here by agenthost/hosts. Every
// reader is bounded (internal/safefile), skips a torn or unknown line and
// counts it, and never fails on content: only a file that cannot be read is
// an error.
package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// Format is one host's session files: how to read them, and how Detect
// tells them from the others'.
type Format struct {
	Host string
	// ReadLines reads a JSON-lines file, line by line; ReadWhole a file
	// that is one document, read whole (a host's chat files). A
	// format has one of the two.
	ReadLines func(lines [][]byte, s *Session)
	ReadWhole func(data []byte, s *Session)
	// Claims says whether one JSON line (its keys, and its "type" when it
	// is a string) is this host's; ClaimsFile, whether the head of a file
	// that is no JSON lines is. Detect tries every ClaimsFile, then each
	// of the first lines against every Claims, in Rank order (lowest
	// first): keys some hosts share are told apart by the order.
	Claims     func(keys map[string]json.RawMessage, typ string) bool
	ClaimsFile func(head []byte) bool
	Rank       int
}

var (
	formatsMu sync.RWMutex
	formats   []Format // in the order registered
)

// Register makes f a format Read, ReadTail and Detect know, in place of
// one registered under the same host.
func Register(f Format) {
	if f.Host == "" || (f.ReadLines == nil) == (f.ReadWhole == nil) {
		panic(fmt.Sprintf("transcript.Register: format %q needs a host and one reader", f.Host))
	}
	formatsMu.Lock()
	defer formatsMu.Unlock()
	if i := slices.IndexFunc(formats, func(g Format) bool { return g.Host == f.Host }); i >= 0 {
		formats[i] = f
		return
	}
	formats = append(formats, f)
}

// Hosts lists the hosts whose formats are registered, in the order
// registered (agenthost/hosts registers them in the order baton names
// them).
func Hosts() []string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.Host
	}
	return out
}

func formatOf(host string) (Format, bool) {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	for _, f := range formats {
		if f.Host == host {
			return f, true
		}
	}
	return Format{}, false
}

// Roles of an entry.
const (
	User      = "user"
	Assistant = "assistant"
	// Hook is the host's record of what its stop hook answered at the stop
	// before it: a block (the reason, sent back to the agent) or a stop let
	// through. Some hosts record it; it is no message of a
	// person's and does not end the turn.
	Hook = "hook"
)

// Entry is one message of a session.
type Entry struct {
	Role    string    // User, Assistant or Hook
	Text    string    // what was said ("" for a tool call or a tool's answer); a Hook's reason
	Person  bool      // a user entry a person wrote, not a tool's answer or injected text
	Blocked bool      // a Hook entry that blocked the stop
	Line    int       // the line of the file it came from (1-based); 0 for a whole-file format
	Time    time.Time // when, if the host recorded it
}

// Session is one session file, read.
type Session struct {
	Host    string
	Path    string
	ID      string // the host's session id, when the file names it
	Cwd     string // the session's working folder, when the file names it
	Entries []Entry
	Skipped int // lines that were torn, not JSON, or of no known shape
}

// Add appends e to the session's entries (for a host's reader).
func (s *Session) Add(e Entry) { s.Entries = append(s.Entries, e) }

// MaxFile is the largest session file Read reads.
const MaxFile = 256 << 20

// Read reads the session file at path, written by host (one of Hosts;
// "" to tell it from the content).
func Read(path, host string) (*Session, error) {
	data, err := safefile.ReadFile(path, MaxFile)
	if err != nil {
		return nil, err
	}
	if host == "" {
		host = Detect(data)
		if host == "" {
			return nil, fmt.Errorf("%s: not a session file of any host baton reads (%s)", path, strings.Join(Hosts(), ", "))
		}
	}
	return readAs(host, path, data)
}

// readAs reads data, the file at path, as host's format.
func readAs(host, path string, data []byte) (*Session, error) {
	f, ok := formatOf(host)
	if !ok {
		return nil, fmt.Errorf("unknown host %q (one of %s)", host, strings.Join(Hosts(), ", "))
	}
	s := &Session{Host: host, Path: path}
	if f.ReadWhole != nil {
		f.ReadWhole(data, s)
		return s, nil
	}
	f.ReadLines(SplitLines(data), s)
	return s, nil
}

// ReadData reads data as host's session file (path only names it).
func ReadData(host, path string, data []byte) (*Session, error) { return readAs(host, path, data) }

// ReadTail reads a session the way a hook must, within its timeout: of a
// JSON-lines format only the last MaxTail bytes (a line cut at the window's
// start is skipped), of a whole-file format (ReadWhole) all of it,
// bounded.
func ReadTail(path, host string) (*Session, error) {
	if f, ok := formatOf(host); !ok || f.ReadWhole != nil {
		return Read(path, host)
	}
	data, whole, err := safefile.ReadTail(path, tailWindow)
	if err != nil {
		return nil, err
	}
	if !whole {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	return readAs(host, path, data)
}

// tailWindow is how much of a JSON-lines file ReadTail reads.
var tailWindow int64 = MaxTail

// SplitLines splits JSON lines, keeping empty lines out (they are not
// torn, only blank).
func SplitLines(data []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, bytes.TrimRight(l, "\r"))
		} else {
			out = append(out, nil)
		}
	}
	for len(out) > 0 && out[len(out)-1] == nil {
		out = out[:len(out)-1]
	}
	return out
}

// Detect names the host that wrote a session file from its first lines
// ("" when none matches): each host's lines have keys of their own.
func Detect(data []byte) string {
	head := data
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	formatsMu.RLock()
	fs := slices.Clone(formats)
	formatsMu.RUnlock()
	slices.SortStableFunc(fs, func(a, b Format) int { return a.Rank - b.Rank })
	for _, f := range fs {
		if f.ClaimsFile != nil && f.ClaimsFile(head) {
			return f.Host
		}
	}
	for i, l := range bytes.Split(head, []byte("\n")) {
		if i > 50 {
			break
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimLeft(l, "\uFEFF"), &keys) != nil {
			continue
		}
		var typ string
		_ = json.Unmarshal(keys["type"], &typ)
		for _, f := range fs {
			if f.Claims != nil && f.Claims(keys, typ) {
				return f.Host
			}
		}
	}
	return ""
}

// Owns reports whether f claims the head of a file (Detect's test for
// this one format alone): its ClaimsFile, or one of the first lines.
func (f Format) Owns(head []byte) bool {
	if f.ClaimsFile != nil && f.ClaimsFile(head) {
		return true
	}
	for i, l := range bytes.Split(head, []byte("\n")) {
		if i > 50 || f.Claims == nil {
			break
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimLeft(l, "\uFEFF"), &keys) != nil {
			continue
		}
		var typ string
		_ = json.Unmarshal(keys["type"], &typ)
		if f.Claims(keys, typ) {
			return true
		}
	}
	return false
}

// FirstLine is b up to its first newline.
func FirstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// Stop is one stop of a session: the end of an assistant turn, and the
// message the agent stopped with.
type Stop struct {
	Index int    // the entry that holds the message
	Text  string // the message
	Line  int
	Time  time.Time
	Steps int // assistant entries since the turn began or the stop before it
	// Hooked: the host recorded its stop hook's answer to this stop;
	// Blocked, that the hook blocked it, and Reason why (the hook's text).
	Hooked  bool
	Blocked bool
	Reason  string
}

// Stops are the session's stops: for each turn (what follows a person's
// message, up to the next), the last assistant entry with text, as a Stop
// hook sees it when the agent ends the turn; and within a turn, each
// message a stop hook answered (a Hook entry), so a stop the hook blocked
// is a stop of its own, and the agent's next message after the block the
// next one. A turn with no assistant text has no stop.
func (s *Session) Stops() []Stop {
	var out []Stop
	cur := -1
	steps := 0
	hooked := -1 // the stop last ended by a Hook entry, while no step follows it
	flush := func() {
		if cur >= 0 {
			e := s.Entries[cur]
			out = append(out, Stop{Index: cur, Text: e.Text, Line: e.Line, Time: e.Time, Steps: steps})
		}
		cur, steps, hooked = -1, 0, -1
	}
	for i, e := range s.Entries {
		switch {
		case e.Role == User && e.Person:
			flush()
		case e.Role == Assistant:
			steps++
			hooked = -1
			if strings.TrimSpace(e.Text) != "" {
				cur = i
			}
		case e.Role == Hook:
			if cur >= 0 {
				flush()
				hooked = len(out) - 1
			}
			// A host may record one answer twice (a feedback line and its
			// summary; a prompt item and its event): both are the same
			// stop's.
			if hooked >= 0 {
				st := &out[hooked]
				st.Hooked = true
				if e.Blocked && !st.Blocked {
					st.Blocked, st.Reason = true, e.Text
				}
			}
		}
	}
	flush()
	return out
}

// LastMessage is the session's last assistant message with text; "" when
// there is none.
func (s *Session) LastMessage() string {
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if e := s.Entries[i]; e.Role == Assistant && strings.TrimSpace(e.Text) != "" {
			return e.Text
		}
	}
	return ""
}

// TurnReply is the last assistant text since the person's last message;
// "" when the turn has none.
func (s *Session) TurnReply() string {
	for i := len(s.Entries) - 1; i >= 0; i-- {
		e := s.Entries[i]
		switch {
		case e.Role == Assistant && strings.TrimSpace(e.Text) != "":
			return e.Text
		case e.Role == User && e.Person:
			return ""
		}
	}
	return ""
}

// StepsSincePerson counts the assistant entries since the last message a
// person wrote (at most the last 200 entries), and names that message.
func (s *Session) StepsSincePerson() (steps int, anchor string) {
	anchor = "saturated-no-human-line-in-window"
	for i, seen := len(s.Entries)-1, 0; i >= 0 && seen < 200; i, seen = i-1, seen+1 {
		e := s.Entries[i]
		if e.Role == Assistant {
			steps++
			continue
		}
		if e.Person {
			// Named by what it says and when, not by its place, so a
			// window over the file's end names it alike.
			sum := sha256.Sum256([]byte(e.Time.UTC().Format(time.RFC3339Nano) + "\x00" + e.Text))
			anchor = hex.EncodeToString(sum[:])
			break
		}
	}
	return steps, anchor
}

// LastMarked is the text of the last assistant entry (of the last 500)
// whose text marked accepts; "" when there is none.
func (s *Session) LastMarked(marked func(string) bool) string {
	from := max(0, len(s.Entries)-500)
	found := ""
	for _, e := range s.Entries[from:] {
		if e.Role == Assistant && marked(e.Text) {
			found = e.Text
		}
	}
	return found
}

// LastMessage reads the last assistant message of the session file at
// path, written by host, from its end (ReadTail).
func LastMessage(host, path string) (string, error) {
	s, err := ReadTail(path, host)
	if err != nil {
		return "", err
	}
	if s.LastMessage() == "" {
		return "", errors.New("the transcript has no assistant message")
	}
	return s.LastMessage(), nil
}

// ParseTime reads an RFC 3339 time; the zero time when s is none.
func ParseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	return time.Time{}
}

// JoinText joins the parts that hold text with a blank line.
func JoinText(parts ...string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}
