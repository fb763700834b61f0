// Package hostsettings installs, removes and reports baton's stop hooks in
// the settings files of the agent hosts (and baton's MCP server in their
// MCP settings: mcp.go). Each host describes its settings as a Host (where
// it keeps its hooks, the shape of a hook entry there, how strongly a hook
// on that host can hold an agent to the stop contract) and an MCPHost, in
// its own package under agenthost/; this package is the mechanism they
// share. It edits a settings file as text,
// adding baton's entries and keeping every other byte (see jsontext.go),
// and writes it atomically.
package hostsettings

import (
	"os"
	"path/filepath"
	"strings"
)

// Posture is how strongly a host's hooks enforce the stop contract, in the
// terms of specrew's proposal 188 ("Host-Neutral Boundary Packet
// Enforcement", its capability matrix and AC4).
type Posture string

const (
	// Hard: the host hands the hook the final message and lets it block
	// the stop (proposal 188's final-message-block).
	Hard Posture = "hard"
	// Corrective: the hook runs after the final message and can only add
	// context or a follow-up, not block (final-message-context).
	Corrective Posture = "corrective"
	// Preventive: the host can only inject discipline before or at the
	// start of a turn (session-start-context, prompt-submit-context).
	Preventive Posture = "preventive"
	// Cooperative: no hook runs; the agent follows the contract if its
	// prompt and skills persuade it (no-runtime-hook).
	Cooperative Posture = "cooperative only"
)

// Hook is one hook baton installs on a host: the host's event and the
// baton command it runs.
type Hook struct {
	Event string // the host's event name, e.g. "Stop"
	Sub   string // baton's adapter: the command is "baton hook " + Sub
	// Entry is the entry as it goes in the event's list, running line.
	Entry func(line string) Obj
}

// Command is the command line of the hook, without flags.
func (h Hook) Command() string { return "baton hook " + h.Sub }

// Stop says whether this is the host's stop hook, the one that blocks.
func (h Hook) Stop() bool { return strings.HasSuffix(h.Sub, "-stop") }

// Line is the command line install writes for the hook with o: its
// program is o.Program when set.
func (h Hook) Line(o Options) string {
	cmd := h.Command()
	if o.Program != "" {
		cmd = o.Program + strings.TrimPrefix(cmd, "baton")
	}
	return strings.Join(append([]string{cmd}, o.Args(h.Stop())...), " ")
}

// Host is an agent host whose settings baton can edit.
type Host struct {
	Name  string // as on the command line: the host's ID
	Title string // as people call it
	// Posture is the enforcement baton's hooks give on this host, and Why
	// says what the host's hook can do to earn it.
	Posture Posture
	Why     string
	// Note is what to do after an install for the host to run the hooks.
	Note  string
	Hooks []Hook
	// Grouped: the event's list holds groups ({"matcher": …, "hooks":
	// [commands]}); otherwise it holds the commands themselves.
	Grouped bool
	// CmdKeys are the keys of a command entry that hold its command line.
	CmdKeys []string
	// Version: the file starts with "version": 1.
	Version bool
	// ProjectFile and UserFile are the settings file in a project and for
	// the user; ProjectDir and UserDir the folder whose presence says the
	// host is there.
	ProjectFile, UserFile func(Env) string
	ProjectDir, UserDir   func(Env) string
	// Off says why the file turns the host's hooks off, or "".
	Off func(text []byte, root *Value) string
	// Packaged says whether baton's plugin or extension is installed for
	// the scope, reading the settings files' roots (nil when there are
	// none), and names it, or "".
	Packaged func(e Env, s Scope, text []byte, root *Value) string
	// PackagedHooks is the path of the hooks file of baton's plugin or
	// extension installed for the scope (in the settings files' "hooks"
	// format), or "" when it cannot be found: status reads the stop
	// hook's command line, and so its flags, from it.
	PackagedHooks func(e Env, s Scope) string
	// FolderOfFiles: every *.json in the file's folder is a hooks file
	// (a hooks folder); baton writes its own, baton.json.
	FolderOfFiles bool
	// TrustReader reads the host's own records of what it trusts (never
	// writes them) and says whether it will run baton's hooks in scope;
	// nil for a host that asks for no trust.
	TrustReader func(h *Host, e Env, s Scope) *Trust
}

// Env is where the project and the user's files are.
type Env struct {
	Project string              // the project's root folder
	Home    string              // the user's home folder
	Getenv  func(string) string // the environment (a host's folder may move with it)
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// DefaultEnv is the environment of the process: the project is the Git
// work tree holding dir (the nearest folder above it holding .git), else
// dir; the home folder is $HOME (os.UserHomeDir).
func DefaultEnv(dir string) (Env, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Env{}, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, err
	}
	return Env{Project: gitRoot(abs), Home: home, Getenv: os.Getenv}, nil
}

func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Command is a command entry of a Grouped host's shape, in a
// matcher group of its own, with its timeout in seconds.
func Command(timeout int) func(string) Obj {
	return func(line string) Obj {
		return Group(Object("type", "command", "command", line, "timeout", timeout))
	}
}

// Group is a matcher group holding one command.
func Group(cmd Obj) Obj { return Object("hooks", []any{cmd}) }

// Value is a JSON value of a settings file, as Off and Packaged read it.
type Value = node

// Get is the value of key in an object, or nil.
func (n *node) Get(key string) *Value { return n.get(key) }

// True and False say whether the value is that literal.
func (n *node) True() bool  { return n != nil && n.kind == 't' }
func (n *node) False() bool { return n != nil && n.kind == 'f' }

// Members are an object's keys and values, in order; nil for any other
// value.
func (n *node) Members() []Member {
	if n == nil || n.kind != '{' {
		return nil
	}
	out := make([]Member, len(n.members))
	for i, m := range n.members {
		out[i] = Member{Key: m.key, Value: m.val}
	}
	return out
}

// Member is a key of an object and its value.
type Member struct {
	Key   string
	Value *Value
}

// Scope is where a settings file applies: one project, or every project
// of the user.
type Scope string

const (
	Project Scope = "project"
	User    Scope = "user"
)

// File is the settings file baton writes for the host in scope.
func (h *Host) File(e Env, s Scope) string {
	if s == User {
		return h.UserFile(e)
	}
	return h.ProjectFile(e)
}

// Dir is the folder whose presence says the host is set up in scope.
func (h *Host) Dir(e Env, s Scope) string {
	if s == User {
		return h.UserDir(e)
	}
	return h.ProjectDir(e)
}

// Files are the settings files of the host in scope that exist: the one
// baton writes, and for FolderOfFiles every *.json beside it.
func (h *Host) Files(e Env, s Scope) []string {
	f := h.File(e, s)
	if !h.FolderOfFiles {
		if _, err := os.Lstat(f); err == nil {
			return []string{f}
		}
		return nil
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(f), "*.json"))
	return matches
}
