package hostsettings

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/internal/safefile"
)

// Trust is whether a host will run baton's hooks (or start its MCP
// server), as the host's own records say. Each host reads its records in
// its own package under agenthost/ (its Host.TrustReader and
// MCPHost.Approval); baton reads those records and never writes them:
// trusting a hook is the person's decision, made in the host. This file
// holds only what those readers share: reading a small record, and the
// answer for one that cannot be read.
type Trust struct {
	// Runs: the records let the host run baton's stop hook.
	Runs bool `json:"runs"`
	// State: "trusted", "untrusted", "modified" (the hook changed since it
	// was trusted), "disabled", "not required" or "unknown".
	State  string `json:"state"`
	File   string `json:"file"`   // the record read
	Detail string `json:"detail"` // what the record says, and what that means
	Fix    string `json:"fix,omitempty"`
}

// ReadRecord reads one of a host's small records; a missing file is nil,
// no error.
func ReadRecord(path string) ([]byte, error) {
	b, err := safefile.ReadFile(path, maxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// UnknownTrust is the answer for a record that cannot be read: the hook
// is taken to run, and the reason is said.
func UnknownTrust(file string, err error) *Trust {
	return &Trust{Runs: true, State: "unknown", File: file, Detail: "cannot read it: " + err.Error()}
}

// RealPath is path with its symbolic links resolved, when it exists.
func RealPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// Within says whether path is dir or below it.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// StripJSONComments blanks // and /* */ comments outside strings, keeping
// every other byte where it was.
func StripJSONComments(text []byte) []byte {
	out := bytes.Clone(text)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	return out
}

// ParseJSON reads a settings text into its values, with their places
// in the text.
func ParseJSON(text []byte) (*Value, error) { return parseJSON(text) }

// Elements are an array's elements; none for any other value.
func (n *node) Elements() []*Value {
	if n == nil || n.kind != '[' {
		return nil
	}
	return n.elems
}

// Str is the value of a string, or "" for any other value.
func (n *node) Str(text []byte) string { return n.str(text) }

// Quote is a JSON string, as the settings files hold it.
func Quote(s string) string { return quote(s) }

// Var is the environment variable k ("" when unset or when Getenv is
// nil).
func (e Env) Var(k string) string { return e.getenv(k) }

// Entry is one of baton's command entries in a settings file of a host
// whose events hold matcher groups (Grouped).
type Entry struct {
	Event        string // the event's key
	Group, Index int    // the group's place in the event's list, and the entry's in the group
	Sub          string // baton's adapter it runs
	Line         string // its command line
	Text         []byte // the entry as the file holds it
}

// Entries are baton's command entries in a settings text (its hooks
// object's events, their groups, the groups' commands), in order; an
// error for a text that is not JSON.
func (h *Host) Entries(text []byte) ([]Entry, error) {
	root, err := parseJSON(text)
	if err != nil {
		return nil, err
	}
	var out []Entry
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != '{' {
		return nil, nil
	}
	for _, m := range hooks.members {
		for gi, g := range m.val.Elements() {
			cmds := []*node{g}
			if h.Grouped {
				cmds = g.get("hooks").Elements()
			}
			for hi, cmd := range cmds {
				sub, ok := h.cmdSub(text, cmd)
				if !ok {
					continue
				}
				out = append(out, Entry{Event: m.key, Group: gi, Index: hi, Sub: sub, Line: h.cmdLine(text, cmd), Text: text[cmd.start:cmd.end]})
			}
		}
	}
	return out, nil
}
