package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/baton-md/baton/internal/hostsettings"
)

// Home is Codex's folder: $CODEX_HOME, else ~/.codex.
func Home(e hostsettings.Env) string {
	if h := e.Var("CODEX_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".codex")
}

// Trust reads whether Codex will run baton's hooks in scope. Codex
// (codex-rs/hooks/src/engine/discovery.rs and
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
func Trust(h *hostsettings.Host, e hostsettings.Env, s hostsettings.Scope) *hostsettings.Trust {
	cfgPath := filepath.Join(Home(e), "config.toml")
	cfgText, err := hostsettings.ReadRecord(cfgPath)
	if err != nil {
		return hostsettings.UnknownTrust(cfgPath, err)
	}
	cfg, err := readTOML(string(cfgText))
	if err != nil {
		return hostsettings.UnknownTrust(cfgPath, err)
	}
	t := &hostsettings.Trust{Runs: true, State: "trusted", File: cfgPath}
	trustHooks := "open /hooks in Codex and trust baton's hooks (codex exec --dangerously-bypass-hook-trust runs untrusted hooks, for automation that has vetted them)"
	if s == hostsettings.Project {
		switch level := cfg[tomlKey("projects", e.Project, "trust_level")]; level {
		case "trusted":
		default:
			t.Runs, t.State = false, "untrusted"
			what := "does not list " + e.Project + " as a trusted project"
			if level != "" {
				what = "marks " + e.Project + " trust_level = " + hostsettings.Quote(level)
			}
			t.Detail = "Codex loads a project's .codex/ (its hooks included) only in a trusted project, and " + cfgPath + " " + what
			t.Fix = fmt.Sprintf("trust the project when Codex asks (or add [projects.%s] trust_level = \"trusted\" to %s), then %s", hostsettings.Quote(e.Project), cfgPath, trustHooks)
			return t
		}
	}
	path := h.File(e, s)
	text, err := hostsettings.ReadRecord(path)
	if err != nil {
		return hostsettings.UnknownTrust(path, err)
	}
	entries, err := h.Entries(text)
	if err != nil {
		return hostsettings.UnknownTrust(path, err)
	}
	// Each hook Codex will not run, by why: never trusted, changed since it
	// was trusted, or turned off; an untrusted hook is not a modified one.
	notes := map[string][]string{}
	for _, en := range entries {
		event := snakeCase(en.Event)
		key := fmt.Sprintf("%s:%s:%d:%d", path, event, en.Group, en.Index)
		hash, err := hookHash(event, en.Text)
		if err != nil {
			return hostsettings.UnknownTrust(path, err)
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
		notes[state] = append(notes[state], en.Line)
		if strings.HasSuffix(en.Sub, "-stop") {
			t.Runs, t.State = false, state
		} else if t.State == "trusted" {
			t.State = state
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

// MCPTrust is whether Codex will start the server of a project's MCP
// settings: it reads a project's .codex/config.toml, its mcp_servers
// too, only in a trusted project.
func MCPTrust(e hostsettings.Env) *hostsettings.Trust {
	cfgPath := filepath.Join(Home(e), "config.toml")
	text, err := hostsettings.ReadRecord(cfgPath)
	if err != nil {
		return hostsettings.UnknownTrust(cfgPath, err)
	}
	cfg, err := readTOML(string(text))
	if err != nil {
		return hostsettings.UnknownTrust(cfgPath, err)
	}
	if cfg[tomlKey("projects", e.Project, "trust_level")] == "trusted" {
		return &hostsettings.Trust{Runs: true, State: "trusted", File: cfgPath, Detail: e.Project + " is a trusted project"}
	}
	return &hostsettings.Trust{State: "untrusted", File: cfgPath,
		Detail: "Codex reads a project's .codex/config.toml (its mcp_servers too) only in a trusted project, and " + cfgPath + " does not list " + e.Project + " as one",
		Fix:    fmt.Sprintf("trust the project when Codex asks (or add [projects.%s] trust_level = \"trusted\" to %s), or install with --user", hostsettings.Quote(e.Project), cfgPath)}
}

// hookHash is Codex's trust hash of a command entry of event.
func hookHash(event string, entry []byte) (string, error) {
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

// Codex keeps what the person trusts in config.toml: baton reads the few
// keys it needs from it (never writes it).

// tomlKey is the key of a value as readTOML returns it: the table path
// and the key, each part unquoted.
func tomlKey(parts ...string) string { return strings.Join(parts, "\x00") }

// readTOML reads the strings and booleans of a TOML text by their full
// key (tomlKey of the tables' and the dotted key's parts, inline tables
// included). Numbers, dates, arrays and arrays of tables ([[…]]) are left
// out; a boolean is "true" or "false". A text that is not TOML is an
// error, and nothing of it is read.
func readTOML(text string) (map[string]string, error) {
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(path []string, v any)
	walk = func(path []string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(append(path[:len(path):len(path)], k), x)
			}
		case string:
			out[tomlKey(path...)] = v
		case bool:
			if v {
				out[tomlKey(path...)] = "true"
			} else {
				out[tomlKey(path...)] = "false"
			}
		}
	}
	walk(nil, doc)
	return out, nil
}
