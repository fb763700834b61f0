// Package transcript reads the session files agent hosts write (Claude
// Code's JSONL, Codex's rollout JSONL, Gemini CLI's chat files, Cursor's
// agent transcripts, Copilot CLI's session events) into one form: the
// messages of a session, in order, each with its role and text. Every
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
	"strings"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// The hosts whose session files baton reads.
const (
	Claude  = "claude"
	Codex   = "codex"
	Gemini  = "gemini"
	Cursor  = "cursor"
	Copilot = "copilot"
)

// Hosts lists them, in the order baton names them.
var Hosts = []string{Claude, Codex, Gemini, Cursor, Copilot}

// Roles of an entry.
const (
	User      = "user"
	Assistant = "assistant"
	// Hook is the host's record of what its stop hook answered at the stop
	// before it: a block (the reason, sent back to the agent) or a stop let
	// through. Claude Code and Codex record it; it is no message of a
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

func (s *Session) add(e Entry) { s.Entries = append(s.Entries, e) }

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
			return nil, fmt.Errorf("%s: not a session file of any host baton reads (%s)", path, strings.Join(Hosts, ", "))
		}
	}
	return readAs(host, path, data)
}

// lineReaders reads each JSON-lines format; Gemini CLI's is one document.
var lineReaders = map[string]func(lines [][]byte, s *Session){
	Claude: readClaude, Codex: readCodex, Cursor: readCursor, Copilot: readCopilot,
}

// readAs reads data, the file at path, as host's format.
func readAs(host, path string, data []byte) (*Session, error) {
	s := &Session{Host: host, Path: path}
	if host == Gemini {
		readGemini(data, s)
		return s, nil
	}
	read, ok := lineReaders[host]
	if !ok {
		return nil, fmt.Errorf("unknown host %q (one of %s)", host, strings.Join(Hosts, ", "))
	}
	read(splitLines(data), s)
	return s, nil
}

// ReadTail reads a session the way a hook must, within its timeout: of a
// JSON-lines format only the last MaxTail bytes (a line cut at the window's
// start is skipped), of Gemini CLI's whole-file format all of it, bounded.
func ReadTail(path, host string) (*Session, error) {
	if host == Gemini || host == "" {
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

// splitLines splits JSON lines, keeping empty lines out (they are not
// torn, only blank).
func splitLines(data []byte) [][]byte {
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
	t := bytes.TrimLeft(head, " \t\r\n\uFEFF")
	if first := firstLine(t); bytes.HasPrefix(t, []byte("{")) && !json.Valid(first) && bytes.Contains(t, []byte(`"messages"`)) {
		return Gemini // one JSON object over many lines
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
		_, payload := keys["payload"]
		_, data := keys["data"]
		_, role := keys["role"]
		_, message := keys["message"]
		_, session := keys["sessionId"]
		_, parent := keys["parentUuid"]
		_, project := keys["projectHash"]
		_, messages := keys["messages"]
		switch {
		case payload && (typ == "session_meta" || typ == "response_item" || typ == "event_msg" || typ == "turn_context"):
			return Codex
		case data && strings.Contains(typ, "."):
			return Copilot
		case parent || (typ == "user" || typ == "assistant") && message || session && typ == "summary":
			return Claude
		case project || messages || typ == "gemini":
			return Gemini
		case role && message:
			return Cursor
		}
	}
	return ""
}

func firstLine(b []byte) []byte {
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
			// A host may record one answer twice (Claude Code's feedback
			// line and its summary; Codex's prompt item and its event):
			// both are the same stop's.
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
// path, written by host: Claude Code's from the file's end (ClaudeLastMessage),
// the others from the whole file, bounded.
func LastMessage(host, path string) (string, error) {
	if host == Claude {
		return ClaudeLastMessage(path)
	}
	s, err := ReadTail(path, host)
	if err != nil {
		return "", err
	}
	if s.LastMessage() == "" {
		return "", errors.New("the transcript has no assistant message")
	}
	return s.LastMessage(), nil
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	return time.Time{}
}

func joinText(parts ...string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}
