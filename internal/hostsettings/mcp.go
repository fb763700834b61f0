package hostsettings

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/BurntSushi/toml"
)

// baton's MCP server in the hosts' MCP settings. Each host keeps its
// servers under a name, each with the command that starts it over
// standard input and output; where, and in what shape, is the host's
// MCPHost, in its package under agenthost/ (with its sources).
//
// The JSON files are edited as the hooks' are (jsontext.go, edit.go); the
// TOML file gets one table appended, and loses exactly that table.

// ServerName is the name baton's server is registered under.
const ServerName = "baton"

// ServerCommand and ServerArgs start baton's MCP server.
var (
	ServerCommand = "baton"
	ServerArgs    = []string{"mcp"}
)

// MCPHost is an agent host whose MCP settings baton can register its
// server in; each host's is in its package under agenthost/.
type MCPHost struct {
	Name  string // as on the command line
	Title string
	// ProjectFile and UserFile are its MCP settings file in a project
	// and for the user.
	ProjectFile, UserFile func(Env) string
	// Entry is the server's entry in a JSON file; nil for a TOML file
	// ([mcp_servers.NAME] tables).
	Entry Obj
	// Approval reads from the host's own records whether it will start
	// the server of a project's MCP settings (nil: nothing to ask);
	// UserToo, that the user's own settings need the same (a host that
	// starts no MCP server at all in an untrusted folder).
	Approval func(Env) *Trust
	UserToo  bool
}

// Args are ServerArgs as an entry's JSON array.
func Args() []any {
	out := make([]any, len(ServerArgs))
	for i, a := range ServerArgs {
		out[i] = a
	}
	return out
}

// File is the host's MCP settings file in scope.
func (h *MCPHost) File(e Env, s Scope) string {
	if s == User {
		return h.UserFile(e)
	}
	return h.ProjectFile(e)
}

// Line is the command line the registered server runs.
func Line() string { return strings.Join(append([]string{ServerCommand}, ServerArgs...), " ") }

// ServerState is what a settings file holds under baton's name.
type ServerState string

const (
	Absent  ServerState = "absent"  // no server named baton
	Present ServerState = "present" // baton's server: it runs baton mcp
	Foreign ServerState = "foreign" // a server named baton that runs something else
)

// ServerChange is an install or uninstall of baton's MCP server: the
// change to the file, what the file held under baton's name, and the
// command line found there.
type ServerChange struct {
	*Change
	Was     ServerState
	Command string // the command line registered under baton's name, "" when absent
}

// runsBaton says whether a command and its arguments start baton's MCP
// server: the program named baton (by any path), then mcp.
func runsBaton(command string, args []string) bool {
	f := strings.Fields(command)
	if len(f) == 0 {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(filepath.ToSlash(f[0])), ".exe")
	rest := append(f[1:], args...)
	return base == "baton" && len(rest) > 0 && rest[0] == "mcp"
}

// PlanInstall is the change that registers baton's server in the file at
// path: added at the end of the servers (the servers' key or table added
// when missing). A server of baton's already there is kept; a server of
// another command under baton's name is left alone (Was says so). What
// the install adds, and an empty object it puts the server in, go into
// the change's record (record.go) for uninstall. The file is read, not
// written; e says where baton's record is.
func (h *MCPHost) PlanInstall(e Env, path string) (*ServerChange, error) {
	old, existed, mode, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &ServerChange{Change: &Change{Path: path, Existed: existed, Mode: mode, Old: old, New: old, env: e}}
	c.replan = func() (*Change, error) {
		now, err := h.PlanInstall(e, path)
		if err != nil {
			return nil, err
		}
		c.Was, c.Command = now.Was, now.Command
		return now.Change, nil
	}
	start, made := []byte{}, []container{}
	if h.Entry == nil {
		if err := h.planTOMLInstall(c); err != nil || !c.Changed() {
			return c, err
		}
	} else {
		start = []byte("{}\n")
		text := old
		if !existed {
			text = start
		}
		root, servers, err := jsonServers(path, text)
		if err != nil {
			return nil, err
		}
		if c.Was, c.Command = jsonState(text, servers); c.Was != Absent {
			return c, nil
		}
		st := detectStyle(text)
		if servers == nil {
			if f, ok := filled(text, root); ok {
				made = append(made, f)
			}
			made = append(made, added("mcpServers"))
			text = appendItem(text, root, item{key: "mcpServers", value: obj{{ServerName, h.Entry}}}, st)
		} else {
			if f, ok := filled(text, servers, "mcpServers"); ok {
				made = append(made, f)
			}
			text = appendItem(text, servers, item{key: ServerName, value: h.Entry}, st)
		}
		if _, _, err := jsonServers(path, text); err != nil {
			return nil, fmt.Errorf("internal error: the edited %s does not parse: %w", path, err)
		}
		c.New = text
	}
	rec, err := recordOf(e, path)
	if err != nil {
		return nil, err
	}
	c.record = installed(rec, existed, start, "mcp", true, made)
	return c, nil
}

// PlanUninstall is the change that takes baton's server, and nothing else,
// out of the file at path; then what install recorded (record.go) is put
// back where it is left empty: an "mcpServers" it added goes, an empty
// one that was there gets its white space back, and a file it made is
// removed when what is left is the text it made it from. After
// PlanInstall's change, the file comes back byte for byte. A server of
// another command under baton's name is left alone.
func (h *MCPHost) PlanUninstall(e Env, path string) (*ServerChange, error) {
	old, existed, mode, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &ServerChange{Change: &Change{Path: path, Existed: existed, Mode: mode, Old: old, New: old, env: e}, Was: Absent}
	c.replan = func() (*Change, error) {
		now, err := h.PlanUninstall(e, path)
		if err != nil {
			return nil, err
		}
		c.Was, c.Command = now.Was, now.Command
		return now.Change, nil
	}
	if !existed {
		return c, nil
	}
	var rec *fileRecord
	var kept []container
	if h.Entry == nil {
		if err := h.planTOMLUninstall(c); err != nil || !c.Changed() {
			return c, err
		}
		if rec, err = recordOf(e, path); err != nil {
			return nil, err
		}
	} else {
		text := old
		_, servers, err := jsonServers(path, text)
		if err != nil {
			return nil, err
		}
		if c.Was, c.Command = jsonState(text, servers); c.Was != Present {
			return c, nil
		}
		st := detectStyle(text)
		for i, m := range servers.members {
			if m.key == ServerName {
				text = removeItem(text, servers, i, st)
				break
			}
		}
		if rec, err = recordOf(e, path); err != nil {
			return nil, err
		}
		if rec != nil {
			text, kept = restore(text, rec.Containers, st)
		}
		if _, _, err = jsonServers(path, text); err != nil {
			return nil, fmt.Errorf("internal error: the edited %s does not parse: %w", path, err)
		}
		c.New = text
	}
	c.Delete = rec != nil && rec.Made && string(c.New) == rec.Start
	c.record = uninstalled(rec, "mcp", c.Delete, kept)
	return c, nil
}

// Status is what the file at path holds under baton's name.
func (h *MCPHost) Status(path string) (ServerState, string, bool, error) {
	text, existed, _, err := read(path)
	if err != nil || !existed {
		return Absent, "", existed, err
	}
	if h.Entry == nil {
		st, line, err := tomlState(path, text)
		return st, line, true, err
	}
	_, servers, err := jsonServers(path, text)
	if err != nil {
		return Absent, "", true, err
	}
	st, line := jsonState(text, servers)
	return st, line, true, nil
}

// jsonServers parses a JSON settings file and finds its "mcpServers"
// (nil when there is none), refusing a file not in the shape baton edits.
func jsonServers(path string, text []byte) (root, servers *node, err error) {
	root, err = parseJSON(text)
	if err != nil {
		return nil, nil, &NotEditable{Path: path, Reason: "it is not valid JSON (" + err.Error() + ")"}
	}
	if root.kind != '{' {
		return nil, nil, &NotEditable{Path: path, Reason: "it is not a JSON object"}
	}
	servers = root.get("mcpServers")
	if servers != nil && servers.kind != '{' {
		return nil, nil, &NotEditable{Path: path, Reason: `its "mcpServers" is not an object of servers`}
	}
	return root, servers, nil
}

// jsonState is what servers holds under baton's name, and its command
// line.
func jsonState(text []byte, servers *node) (ServerState, string) {
	e := servers.get(ServerName)
	if e == nil {
		return Absent, ""
	}
	cmd := e.get("command").str(text)
	var args []string
	if a := e.get("args"); a != nil && a.kind == '[' {
		for _, el := range a.elems {
			args = append(args, el.str(text))
		}
	}
	line := strings.TrimSpace(strings.Join(append([]string{cmd}, args...), " "))
	if runsBaton(cmd, args) {
		return Present, line
	}
	return Foreign, line
}

// tomlTable is the header of baton's table in config.toml, in any of the
// key's spellings, with its line.
var tomlTable = lazyre.New(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:baton|"baton"|'baton')[ \t]*\][ \t]*(?:#[^\r\n]*)?\r?$`)

// tomlHeader is any table header line.
var tomlHeader = lazyre.New(`(?m)^[ \t]*\[`)

// tomlServersKey is mcp_servers written as a key (an inline table, dotted
// keys): a [mcp_servers.baton] table cannot be added to what it defines.
var tomlServersKey = lazyre.New(`(?m)^[ \t]*(?:mcp_servers|"mcp_servers")[ \t]*[.=]`)

// tomlSubtable is the header of a table inside baton's ([mcp_servers.baton.env]).
var tomlSubtable = lazyre.New(`^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:baton|"baton"|'baton')[ \t]*\.`)

func decodeTOML(path string, text []byte) (map[string]any, error) {
	m := map[string]any{}
	if _, err := toml.Decode(string(text), &m); err != nil {
		return nil, &NotEditable{Path: path, Reason: "it is not valid TOML (" + strings.ReplaceAll(err.Error(), "\n", " ") + ")"}
	}
	return m, nil
}

// tomlServers is the decoded mcp_servers table, nil when there is none.
func tomlServers(path string, m map[string]any) (map[string]any, error) {
	v, ok := m["mcp_servers"]
	if !ok {
		return nil, nil
	}
	s, ok := v.(map[string]any)
	if !ok {
		return nil, &NotEditable{Path: path, Reason: "its mcp_servers is not a table of servers"}
	}
	return s, nil
}

func tomlState(path string, text []byte) (ServerState, string, error) {
	m, err := decodeTOML(path, text)
	if err != nil {
		return Absent, "", err
	}
	servers, err := tomlServers(path, m)
	if err != nil {
		return Absent, "", err
	}
	e, ok := servers[ServerName].(map[string]any)
	if !ok {
		if _, there := servers[ServerName]; there {
			return Foreign, "", nil
		}
		return Absent, "", nil
	}
	cmd, _ := e["command"].(string)
	var args []string
	if a, ok := e["args"].([]any); ok {
		for _, x := range a {
			s, _ := x.(string)
			args = append(args, s)
		}
	}
	line := strings.TrimSpace(strings.Join(append([]string{cmd}, args...), " "))
	if runsBaton(cmd, args) {
		return Present, line, nil
	}
	return Foreign, line, nil
}

// tomlBlock is the table install appends, with line ends nl.
func tomlBlock(nl string) string {
	var b strings.Builder
	b.WriteString("[mcp_servers." + ServerName + "]" + nl)
	b.WriteString("command = " + quote(ServerCommand) + nl)
	q := make([]string, len(ServerArgs))
	for i, a := range ServerArgs {
		q[i] = quote(a)
	}
	b.WriteString("args = [" + strings.Join(q, ", ") + "]" + nl)
	return b.String()
}

// planTOMLInstall appends baton's table to config.toml: after a blank
// line, and without a final line end when the file had none, so that
// uninstall can give the file back byte for byte. The result must decode
// to what the file held plus baton's server, or nothing is changed.
func (h *MCPHost) planTOMLInstall(c *ServerChange) error {
	old := c.Old
	m, err := decodeTOML(c.Path, old)
	if err != nil {
		return err
	}
	if _, err := tomlServers(c.Path, m); err != nil {
		return err
	}
	if c.Was, c.Command, err = tomlState(c.Path, old); err != nil || c.Was != Absent {
		return err
	}
	if tomlServersKey.Match(old) {
		return &NotEditable{Path: c.Path, Reason: "its mcp_servers is written as a key (an inline table or dotted keys), which a [mcp_servers.baton] table cannot extend: add baton's server (command \"baton\", args [\"mcp\"]) there by hand"}
	}
	nl := detectStyle(old).nl
	block := tomlBlock(nl)
	var text []byte
	switch {
	case len(old) == 0:
		text = []byte(block)
	case bytes.HasSuffix(old, []byte("\n")):
		text = append(append(bytes.Clone(old), nl...), block...)
	default:
		text = append(append(bytes.Clone(old), nl+nl...), strings.TrimSuffix(block, nl)...)
	}
	if err := sameBut(c.Path, old, text); err != nil {
		return err
	}
	c.New = text
	return nil
}

// planTOMLUninstall takes baton's table (and its subtables) out of
// config.toml, with the blank line install put before it.
func (h *MCPHost) planTOMLUninstall(c *ServerChange) error {
	text := c.Old
	var err error
	if c.Was, c.Command, err = tomlState(c.Path, text); err != nil || c.Was != Present {
		return err
	}
	loc := tomlTable.FindIndex(text)
	if loc == nil {
		return &NotEditable{Path: c.Path, Reason: "its baton server is not a [mcp_servers.baton] table (an inline or dotted key): take it out by hand"}
	}
	start, end := loc[0], len(text)
	for _, h := range tomlHeader.FindAllIndex(text[loc[1]:], -1) {
		at := loc[1] + h[0]
		lineEnd := bytes.IndexByte(text[at:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text) - at
		}
		if !tomlSubtable.Match(text[at : at+lineEnd]) {
			end = at
			break
		}
	}
	nl := detectStyle(text).nl
	if end == len(text) {
		// The table ends the file: the line ends before it were install's,
		// a blank line after a file ending with a line end, and two after
		// one that did not (the table then ends without one).
		prefix := text[:start]
		if !bytes.HasSuffix(text, []byte("\n")) {
			if bytes.HasSuffix(prefix, []byte(nl+nl)) {
				start -= 2 * len(nl)
			}
		} else if bytes.HasSuffix(prefix, []byte(nl)) && bytes.HasSuffix(prefix[:len(prefix)-len(nl)], []byte("\n")) {
			start -= len(nl)
		}
	}
	out := append(bytes.Clone(text[:start]), text[end:]...)
	if err := sameBut(c.Path, out, text); err != nil {
		return &NotEditable{Path: c.Path, Reason: "taking out [mcp_servers.baton] would change more than baton's server: take it out by hand"}
	}
	c.New = out
	return nil
}

// sameBut checks that with decodes to what without does, plus baton's
// server (and an mcp_servers table holding only it).
func sameBut(path string, without, with []byte) error {
	a, err := decodeTOML(path, without)
	if err != nil {
		return err
	}
	b, err := decodeTOML(path, with)
	if err != nil {
		return &NotEditable{Path: path, Reason: "adding [mcp_servers.baton] would not be valid TOML here (" + err.Error() + "): add it by hand"}
	}
	servers, _ := b["mcp_servers"].(map[string]any)
	if servers == nil {
		return &NotEditable{Path: path, Reason: "the edit would not register baton's server"}
	}
	servers = maps.Clone(servers)
	delete(servers, ServerName)
	b = maps.Clone(b)
	if len(servers) == 0 {
		if _, had := a["mcp_servers"]; !had {
			delete(b, "mcp_servers")
		} else {
			b["mcp_servers"] = servers
		}
	} else {
		b["mcp_servers"] = servers
	}
	if !reflect.DeepEqual(a, b) {
		return &NotEditable{Path: path, Reason: "the edit would change more than baton's server"}
	}
	return nil
}

// Trust is whether the host will start baton's server registered in
// scope, as its own records say (read, never written: approving a server
// is the person's decision, made in the host). A project's MCP settings
// count only once the person approves them, as the host's Approval reads
// it (each host's is in its package under agenthost/). The user's own
// settings need nothing more, but where UserToo says so.
func (h *MCPHost) Trust(e Env, s Scope) *Trust {
	if s == User && !h.UserToo {
		return &Trust{Runs: true, State: "not required", Detail: "the user's own settings need no approval"}
	}
	if h.Approval == nil {
		return nil
	}
	return h.Approval(e)
}
