package hostsettings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/baton-md/baton/internal/safefile"
)

// Trust is whether a host will run baton's hooks, as the host's own
// records say. baton reads those records and never writes them: trusting
// a hook is the person's decision, made in the host.
type Trust struct {
	// Runs: the records let the host run baton's stop hook.
	Runs bool `json:"runs"`
	// State: "trusted", "untrusted", "modified" (Codex: the hook changed
	// since it was trusted), "disabled", "not required" or "unknown".
	State  string `json:"state"`
	File   string `json:"file"`   // the record read
	Detail string `json:"detail"` // what the record says, and what that means
	Fix    string `json:"fix,omitempty"`
}

// readRecord reads one of a host's small records; a missing file is nil,
// no error.
func readRecord(path string) ([]byte, error) {
	b, err := safefile.ReadFile(path, maxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func unknownTrust(file string, err error) *Trust {
	return &Trust{Runs: true, State: "unknown", File: file, Detail: "cannot read it: " + err.Error()}
}

// Codex (codex-rs/hooks/src/engine/discovery.rs and
// codex-rs/config/src/fingerprint.rs in openai/codex; checked against
// `codex app-server`'s hooks/list of Codex 0.169.0) runs a hook of a
// hooks.json only when $CODEX_HOME/config.toml holds, for its key
// "<hooks.json path>:<event in snake case>:<group index>:<handler index>",
//
//	[hooks.state."<key>"]
//	trusted_hash = "sha256:<hex>"
//
// equal to the hook's current hash, and not enabled = false. The hash is
// the SHA-256 of the compact JSON, keys sorted, of {"event_name": <event>,
// "hooks": [{"type": "command", "command", "timeout" (600 when unset),
// "async", "statusMessage" (when set)}]} (a matcher too, on the events
// that take one; baton's do not). A project's .codex/ is loaded at all
// only when config.toml says [projects."<project>"] trust_level =
// "trusted". `/hooks` in Codex writes the hashes; `codex exec
// --dangerously-bypass-hook-trust` runs untrusted hooks for one run.
func CodexTrust(h *Host, e Env, s Scope) *Trust {
	cfgPath := filepath.Join(CodexHome(e), "config.toml")
	cfgText, err := readRecord(cfgPath)
	if err != nil {
		return unknownTrust(cfgPath, err)
	}
	cfg, err := readTOML(string(cfgText))
	if err != nil {
		return unknownTrust(cfgPath, err)
	}
	t := &Trust{Runs: true, State: "trusted", File: cfgPath}
	trustHooks := "open /hooks in Codex and trust baton's hooks (codex exec --dangerously-bypass-hook-trust runs untrusted hooks, for automation that has vetted them)"
	if s == Project {
		switch level := cfg[tomlKey("projects", e.Project, "trust_level")]; level {
		case "trusted":
		default:
			t.Runs, t.State = false, "untrusted"
			what := "does not list " + e.Project + " as a trusted project"
			if level != "" {
				what = "marks " + e.Project + " trust_level = " + quote(level)
			}
			t.Detail = "Codex loads a project's .codex/ (its hooks included) only in a trusted project, and " + cfgPath + " " + what
			t.Fix = fmt.Sprintf("trust the project when Codex asks (or add [projects.%s] trust_level = \"trusted\" to %s), then %s", quote(e.Project), cfgPath, trustHooks)
			return t
		}
	}
	path := h.File(e, s)
	text, err := readRecord(path)
	if err != nil {
		return unknownTrust(path, err)
	}
	root, err := parseJSON(text)
	if err != nil {
		return unknownTrust(path, err)
	}
	// Each hook Codex will not run, by why: never trusted, changed since it
	// was trusted, or turned off; an untrusted hook is not a modified one.
	notes := map[string][]string{}
	for _, m := range root.get("hooks").membersOf() {
		for gi, g := range m.val.elements() {
			for hi, cmd := range g.get("hooks").elements() {
				sub, ok := h.cmdSub(text, cmd)
				if !ok {
					continue
				}
				key := fmt.Sprintf("%s:%s:%d:%d", path, snakeCase(m.key), gi, hi)
				hash, err := codexHookHash(snakeCase(m.key), text[cmd.start:cmd.end])
				if err != nil {
					return unknownTrust(path, err)
				}
				state := "trusted"
				switch trusted := cfg[tomlKey("hooks", "state", key, "trusted_hash")]; {
				case cfg[tomlKey("hooks", "state", key, "enabled")] == "false":
					state = "disabled"
				case trusted == "":
					state = "untrusted"
				case trusted != hash:
					state = "modified"
				}
				if state == "trusted" {
					continue
				}
				notes[state] = append(notes[state], h.cmdLine(text, cmd))
				if strings.HasSuffix(sub, "-stop") {
					t.Runs, t.State = false, state
				} else if t.State == "trusted" {
					t.State = state
				}
			}
		}
	}
	if len(notes) == 0 {
		t.Detail = "baton's hooks are trusted (" + cfgPath + ", hooks.state)"
		return t
	}
	var says []string
	for _, n := range []struct{ state, what string }{
		{"untrusted", "installed, not yet trusted by Codex: "},
		{"modified", "changed since Codex trusted it: "},
		{"disabled", "turned off in Codex: "},
	} {
		if lines := notes[n.state]; len(lines) > 0 {
			says = append(says, n.what+strings.Join(lines, ", "))
		}
	}
	t.Detail = strings.Join(says, "; ") + " (Codex runs a hook only while " + cfgPath + " holds its current hash)"
	if t.Runs {
		t.Detail += "; the stop hook runs, without the turn's baseline"
	}
	t.Fix = trustHooks
	if t.State == "disabled" {
		t.Fix = "turn baton's hooks back on in /hooks in Codex"
	}
	return t
}

// codexHookHash is Codex's trust hash of a command entry of event.
func codexHookHash(event string, entry []byte) (string, error) {
	var hd struct {
		Command       string   `json:"command"`
		Timeout       *float64 `json:"timeout"`
		TimeoutSec    *float64 `json:"timeoutSec"`
		Async         bool     `json:"async"`
		StatusMessage *string  `json:"statusMessage"`
	}
	if err := json.Unmarshal(entry, &hd); err != nil {
		return "", err
	}
	timeout := 600
	for _, t := range []*float64{hd.TimeoutSec, hd.Timeout} {
		if t != nil {
			timeout = max(int(*t), 1)
		}
	}
	handler := map[string]any{"type": "command", "command": hd.Command, "timeout": timeout, "async": hd.Async}
	if hd.StatusMessage != nil {
		handler["statusMessage"] = *hd.StatusMessage
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // serde_json escapes no HTML
	if err := enc.Encode(map[string]any{"event_name": event, "hooks": []any{handler}}); err != nil {
		return "", err
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// snakeCase is Codex's label of an event: UserPromptSubmit is
// user_prompt_submit.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Gemini CLI (packages/core/src/utils/trust.ts and
// packages/cli/src/config/trustedFolders.ts, in the bundle of
// @google/gemini-cli 0.61.0): with folder trust on (security.folderTrust
// .enabled in ~/.gemini/settings.json, true when unset) a folder is
// trusted when ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH;
// JSON, comments allowed) maps it, or a folder above it, to "TRUST_FOLDER"
// ("TRUST_PARENT": the folder above the one named); the longest path that
// matches decides, and "DO_NOT_TRUST" distrusts. In an untrusted folder
// Gemini CLI ignores the folder's .gemini/settings.json and blocks its
// project hooks ("Blocked execution of project hook in untrusted
// folder"), and `gemini -p` refuses to run; the user's hooks still run in
// an interactive session.
// GEMINI_CLI_TRUST_WORKSPACE=true in Gemini CLI's environment, or
// --skip-trust, trusts the folder for one run.
func GeminiTrust(_ *Host, e Env, s Scope) *Trust {
	settings := filepath.Join(e.Home, ".gemini", "settings.json")
	if text, err := readRecord(settings); err == nil && text != nil {
		if root, err := parseJSON(stripJSONComments(text)); err == nil {
			if v := root.get("security").get("folderTrust").get("enabled"); v != nil && v.kind == 'f' {
				return &Trust{Runs: true, State: "not required", File: settings, Detail: "folder trust is off (security.folderTrust.enabled is false)"}
			}
		}
	}
	path := e.getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if path == "" {
		path = filepath.Join(e.Home, ".gemini", "trustedFolders.json")
	}
	text, err := readRecord(path)
	if err != nil {
		return unknownTrust(path, err)
	}
	rules := map[string]string{}
	if text != nil {
		if err := json.Unmarshal(stripJSONComments(text), &rules); err != nil {
			return unknownTrust(path, err)
		}
	}
	folder := realPath(e.Project)
	best, level := -1, ""
	for rule, lv := range rules {
		eff := rule
		if lv == "TRUST_PARENT" {
			eff = filepath.Dir(rule)
		}
		if within(realPath(eff), folder) && len(rule) > best {
			best, level = len(rule), lv
		}
	}
	t := &Trust{File: path}
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		t.Runs, t.State, t.Detail = true, "trusted", e.Project+" is a trusted folder"
		return t
	case "DO_NOT_TRUST":
		t.Detail = e.Project + " is marked DO_NOT_TRUST"
	default:
		t.Detail = e.Project + " is not a trusted folder"
	}
	t.State = "untrusted"
	if s == User {
		// Gemini CLI runs the user's hooks in an untrusted folder; only
		// a headless run refuses to start there.
		t.Runs = true
		t.Detail += ": gemini -p refuses to run there (an interactive session runs the user's hooks)"
	} else {
		t.Detail += ": Gemini CLI does not run the folder's hooks (its .gemini/settings.json) until it is trusted, and gemini -p refuses to run there"
	}
	t.Fix = fmt.Sprintf("trust the folder when Gemini CLI asks (or map %s to \"TRUST_FOLDER\" in %s); for one headless run, GEMINI_CLI_TRUST_WORKSPACE=true or --skip-trust", quote(e.Project), path)
	return t
}

// GitHub Copilot CLI (the folder-trust checks of @github/copilot 1.0.102,
// its runtime's folderTrustIsTrusted, tried on files of this kind; and
// docs.github.com, "Configure GitHub Copilot CLI"): a folder is trusted
// when $COPILOT_HOME/config.json (~/.copilot/config.json; JSON with
// comments, which the CLI writes) lists it, or a folder above it, in
// "trustedFolders" ("trusted_folders" in older files). Until then the
// CLI does not run the repository's .github/hooks/, and says nothing.
func CopilotTrust(_ *Host, e Env, s Scope) *Trust {
	if s != Project {
		return nil
	}
	path := filepath.Join(CopilotHome(e), "config.json")
	text, err := readRecord(path)
	if err != nil {
		return unknownTrust(path, err)
	}
	var cfg struct {
		Trusted    []string `json:"trustedFolders"`
		OldTrusted []string `json:"trusted_folders"`
	}
	if text != nil {
		if err := json.Unmarshal(stripJSONComments(text), &cfg); err != nil {
			return unknownTrust(path, err)
		}
	}
	folder := realPath(e.Project)
	for _, f := range append(cfg.Trusted, cfg.OldTrusted...) {
		if within(realPath(f), folder) {
			return &Trust{Runs: true, State: "trusted", File: path, Detail: e.Project + " is a trusted folder"}
		}
	}
	return &Trust{State: "untrusted", File: path,
		Detail: e.Project + " is not a trusted folder: Copilot CLI skips the repository's hooks (.github/hooks/) until it is, and says nothing",
		Fix:    fmt.Sprintf("start copilot in the folder and trust it for future sessions (or add %s to \"trustedFolders\" in %s)", quote(e.Project), path)}
}

// realPath is path with its symbolic links resolved, when it exists.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// within says whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// stripJSONComments blanks // and /* */ comments outside strings, keeping
// every other byte where it was.
func stripJSONComments(text []byte) []byte {
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

// members are an object's members; none for any other node.
func (n *node) membersOf() []member {
	if n == nil || n.kind != '{' {
		return nil
	}
	return n.members
}

// elements are an array's elements; none for any other node.
func (n *node) elements() []*node {
	if n == nil || n.kind != '[' {
		return nil
	}
	return n.elems
}
