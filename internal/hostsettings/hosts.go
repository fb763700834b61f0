// Package hostsettings installs, removes and reports baton's stop hooks in
// the settings files of the agent hosts: Claude Code, Codex, Gemini CLI,
// Cursor and GitHub Copilot (and baton's MCP server in their MCP settings:
// mcp.go). It knows where each host keeps its hooks, the
// shape of a hook entry there, and how strongly a hook on that host can
// hold an agent to the stop contract. It edits a settings file as text,
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
	// entry is the entry as it goes in the event's list, running line.
	entry func(line string) obj
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
	Name  string // as on the command line: claude, codex, gemini, cursor, copilot
	Title string // as people call it
	// Posture is the enforcement baton's hooks give on this host, and Why
	// says what the host's hook can do to earn it.
	Posture Posture
	Why     string
	// Note is what to do after an install for the host to run the hooks.
	Note  string
	Hooks []Hook
	// grouped: the event's list holds groups ({"matcher": …, "hooks":
	// [commands]}, Claude Code's shape, which Codex and Gemini CLI share);
	// otherwise it holds the commands themselves (Cursor, Copilot).
	grouped bool
	// cmdKeys are the keys of a command entry that hold its command line.
	cmdKeys []string
	// version: the file starts with "version": 1 (Cursor, Copilot).
	version bool
	// projectFile and userFile are the settings file in a project and for
	// the user; dir is the folder whose presence says the host is there.
	projectFile, userFile func(Env) string
	projectDir, userDir   func(Env) string
	// off says why the file turns the host's hooks off, or "".
	off func(text []byte, root *node) string
	// packaged says whether baton's plugin or extension is installed for
	// the scope, reading the settings files' roots, and names it, or "".
	packaged func(e Env, s Scope, text []byte, root *node) string
	// folderOfFiles: every *.json in the file's folder is a hooks file
	// (Copilot's .github/hooks/); baton writes its own, baton.json.
	folderOfFiles bool
	// trust reads the host's own records of what it trusts (never writes
	// them) and says whether it will run baton's hooks in scope; nil for
	// a host that asks for no trust.
	trust func(h *Host, e Env, s Scope) *Trust
}

// Env is where the project and the user's files are.
type Env struct {
	Project string              // the project's root folder
	Home    string              // the user's home folder
	Getenv  func(string) string // the environment (CODEX_HOME, COPILOT_HOME)
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

// command is a command entry as Claude Code and Codex take it, in a
// matcher group of its own.
func command(timeout int) func(string) obj {
	return func(line string) obj {
		return group(obj{{"type", "command"}, {"command", line}, {"timeout", timeout}})
	}
}

// group is a matcher group holding one command.
func group(cmd obj) obj { return obj{{"hooks", []any{cmd}}} }

// Hosts are the hosts baton installs into, in the order status lists them.
//
// Sources, as of December 2026:
//   - Claude Code: the hooks reference (code.claude.com/docs/en/hooks):
//     settings in ~/.claude/settings.json and .claude/settings.json, each
//     event a list of matcher groups of {"type": "command", "command",
//     "timeout" (seconds)}; Stop can block with {"decision": "block"}.
//   - Codex: developers.openai.com/codex/hooks: ~/.codex/hooks.json
//     ($CODEX_HOME) and <repo>/.codex/hooks.json, Claude Code's shape;
//     Stop can answer {"decision": "block", "reason"}, and Codex goes on
//     with the reason as a new prompt.
//   - Gemini CLI: docs/hooks/reference.md in google-gemini/gemini-cli:
//     ~/.gemini/settings.json and .gemini/settings.json, "hooks" by event,
//     groups of {"type": "command", "command", "name", "timeout"
//     (milliseconds)}; AfterAgent can deny the response, and the reason
//     goes to the agent as a new prompt to retry.
//   - Cursor: cursor.com/docs/agent/hooks: ~/.cursor/hooks.json and
//     .cursor/hooks.json, {"version": 1, "hooks": {"stop": [{"command",
//     "loop_limit"}]}}; stop runs once the agent has finished and can only
//     answer a followup_message, sent as the next user message.
//   - GitHub Copilot: docs.github.com/en/copilot/reference/hooks-reference:
//     the CLI loads .github/hooks/*.json and ~/.copilot/hooks/*.json
//     ($COPILOT_HOME/hooks), {"version": 1, "hooks": {"agentStop":
//     [{"type": "command", "bash", "powershell", "timeoutSec"}]}};
//     agentStop can answer {"decision": "block", "reason"}, and the reason
//     is enqueued as the next prompt. The cloud agent runs a subset of
//     the events in its own sandbox.
var Hosts = []*Host{
	{
		Name: "claude", Title: "Claude Code",
		Posture: Hard, Why: "its Stop hook reads the final message and can block the stop",
		Hooks: []Hook{
			{Event: "UserPromptSubmit", Sub: "claude-prompt", entry: command(20)},
			{Event: "PostToolUse", Sub: "claude-tool", entry: command(20)},
			{Event: "Stop", Sub: "claude-stop", entry: command(20)},
		},
		grouped: true, cmdKeys: []string{"command"},
		off: func(_ []byte, root *node) string {
			if v := root.get("disableAllHooks"); v != nil && v.kind == 't' {
				return "disableAllHooks is true"
			}
			return ""
		},
		// The settings' enabledPlugins holds "plugin@marketplace": true for
		// an installed plugin (Claude Code's settings reference).
		packaged: func(_ Env, _ Scope, text []byte, root *node) string {
			ep := root.get("enabledPlugins")
			if ep == nil || ep.kind != '{' {
				return ""
			}
			for _, m := range ep.members {
				if strings.HasPrefix(m.key, "baton@") && m.val.kind == 't' {
					return "the plugin " + m.key
				}
			}
			return ""
		},
		projectFile: func(e Env) string { return filepath.Join(e.Project, ".claude", "settings.json") },
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".claude", "settings.json") },
		projectDir:  func(e Env) string { return filepath.Join(e.Project, ".claude") },
		userDir:     func(e Env) string { return filepath.Join(e.Home, ".claude") },
	},
	{
		Name: "codex", Title: "Codex",
		Posture: Hard, Why: "its Stop hook reads the final message and can block, continuing with the reason",
		Hooks: []Hook{
			{Event: "UserPromptSubmit", Sub: "codex-prompt", entry: command(20)},
			{Event: "Stop", Sub: "codex-stop", entry: command(30)},
		},
		grouped: true, cmdKeys: []string{"command"},
		trust:       codexTrust,
		projectFile: func(e Env) string { return filepath.Join(e.Project, ".codex", "hooks.json") },
		userFile:    func(e Env) string { return filepath.Join(codexHome(e), "hooks.json") },
		projectDir:  func(e Env) string { return filepath.Join(e.Project, ".codex") },
		userDir:     codexHome,
	},
	{
		Name: "gemini", Title: "Gemini CLI",
		Posture: Hard, Why: "its AfterAgent hook reads the final response and can deny it, making the agent retry with the reason",
		Hooks: []Hook{
			{Event: "BeforeAgent", Sub: "gemini-prompt", entry: func(line string) obj {
				return group(obj{{"name", "baton-turn"}, {"type", "command"}, {"command", line}, {"timeout", 20000}})
			}},
			{Event: "AfterAgent", Sub: "gemini-stop", entry: func(line string) obj {
				return group(obj{{"name", "baton"}, {"type", "command"}, {"command", line}, {"timeout", 30000}})
			}},
		},
		grouped: true, cmdKeys: []string{"command"},
		// An installed extension is a folder of ~/.gemini/extensions named
		// as it is (the extension reference, "Extension format").
		packaged: func(e Env, s Scope, _ []byte, _ *node) string {
			if s != User {
				return ""
			}
			dir := filepath.Join(e.Home, ".gemini", "extensions", "baton")
			if _, err := os.Stat(filepath.Join(dir, "gemini-extension.json")); err == nil {
				return "the extension in " + dir
			}
			return ""
		},
		off: func(_ []byte, root *node) string {
			// hooksConfig.enabled, and hooks.enabled in releases before it.
			for _, k := range []string{"hooksConfig", "hooks"} {
				if v := root.get(k).get("enabled"); v != nil && v.kind == 'f' {
					return k + ".enabled is false"
				}
			}
			return ""
		},
		trust:       geminiTrust,
		projectFile: func(e Env) string { return filepath.Join(e.Project, ".gemini", "settings.json") },
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		projectDir:  func(e Env) string { return filepath.Join(e.Project, ".gemini") },
		userDir:     func(e Env) string { return filepath.Join(e.Home, ".gemini") },
	},
	{
		Name: "cursor", Title: "Cursor",
		Posture: Corrective, Why: "its stop hook runs after the agent has finished and cannot block; it can only send a follow-up message",
		Note: "Cursor reads hooks.json when it starts: restart it; loop_limit bounds the follow-ups baton sends",
		Hooks: []Hook{
			{Event: "beforeSubmitPrompt", Sub: "cursor-prompt", entry: func(line string) obj { return obj{{"command", line}} }},
			{Event: "stop", Sub: "cursor-stop", entry: func(line string) obj { return obj{{"command", line}, {"loop_limit", 3}} }},
		},
		cmdKeys: []string{"command"}, version: true,
		projectFile: func(e Env) string { return filepath.Join(e.Project, ".cursor", "hooks.json") },
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".cursor", "hooks.json") },
		projectDir:  func(e Env) string { return filepath.Join(e.Project, ".cursor") },
		userDir:     func(e Env) string { return filepath.Join(e.Home, ".cursor") },
	},
	{
		Name: "copilot", Title: "GitHub Copilot CLI",
		Posture: Hard, Why: "the CLI's agentStop hook can block the stop, the reason becoming the next prompt (the cloud agent is not covered)",
		Note: "Copilot CLI loads .github/hooks/*.json from the folder it runs in; commit the file for others to get it",
		Hooks: []Hook{
			{Event: "userPromptSubmitted", Sub: "copilot-prompt", entry: copilotCommand(20)},
			{Event: "agentStop", Sub: "copilot-stop", entry: copilotCommand(30)},
		},
		cmdKeys: []string{"bash", "powershell"}, version: true, folderOfFiles: true,
		trust:       copilotTrust,
		projectFile: func(e Env) string { return filepath.Join(e.Project, ".github", "hooks", "baton.json") },
		userFile:    func(e Env) string { return filepath.Join(copilotHome(e), "hooks", "baton.json") },
		projectDir:  func(e Env) string { return filepath.Join(e.Project, ".github", "hooks") },
		userDir:     copilotHome,
	},
}

func copilotCommand(timeout int) func(string) obj {
	return func(line string) obj {
		return obj{{"type", "command"}, {"bash", line}, {"powershell", line}, {"timeoutSec", timeout}}
	}
}

func codexHome(e Env) string {
	if h := e.getenv("CODEX_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".codex")
}

func copilotHome(e Env) string {
	if h := e.getenv("COPILOT_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".copilot")
}

// Lookup is the host of that name, or nil.
func Lookup(name string) *Host {
	for _, h := range Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Names are the hosts' names.
func Names() []string {
	var n []string
	for _, h := range Hosts {
		n = append(n, h.Name)
	}
	return n
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
		return h.userFile(e)
	}
	return h.projectFile(e)
}

// Dir is the folder whose presence says the host is set up in scope.
func (h *Host) Dir(e Env, s Scope) string {
	if s == User {
		return h.userDir(e)
	}
	return h.projectDir(e)
}

// Files are the settings files of the host in scope that exist: the one
// baton writes, and for Copilot every *.json beside it.
func (h *Host) Files(e Env, s Scope) []string {
	f := h.File(e, s)
	if !h.folderOfFiles {
		if _, err := os.Lstat(f); err == nil {
			return []string{f}
		}
		return nil
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(f), "*.json"))
	return matches
}

// BatonSub is the baton adapter a command line runs ("claude-stop" for
// "baton hook claude-stop --lint", also as /usr/local/bin/baton or
// baton.exe), and whether it is one.
func BatonSub(cmdline string) (string, bool) {
	f := strings.Fields(cmdline)
	if len(f) < 2 || f[1] != "hook" {
		return "", false
	}
	name := f[0][strings.LastIndexAny(f[0], `/\`)+1:]
	if name != "baton" && name != "baton.exe" {
		return "", false
	}
	if len(f) < 3 {
		return "", true
	}
	return f[2], true
}
