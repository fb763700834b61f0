package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// The repository is a Claude Code plugin (.claude-plugin/plugin.json and
// hooks/hooks.json), its own plugin marketplace (.claude-plugin/
// marketplace.json), and holds a Gemini CLI extension
// (extensions/gemini/baton/). These tests read those files into structs
// made from the hosts' documentation, refusing any field the documentation
// does not name, and check that the hooks they run are the adapters
// `baton hook install` writes. install adds the stop policy's flags
// (--lint by default); the plugin and the extension give their stop hooks
// --lint in their hooks files, and `hook status` reads the flags from there
// and says what that enforces.

// claudePlugin is .claude-plugin/plugin.json, from Claude Code's plugin
// manifest reference (code.claude.com/docs/en/plugins/manifest-reference):
// name is required, in kebab-case; the rest is metadata, or the paths of
// components kept outside the standard layout.
type claudePlugin struct {
	Name        string          `json:"name"`
	Version     string          `json:"version,omitempty"`
	Description string          `json:"description,omitempty"`
	Author      *claudeAuthor   `json:"author,omitempty"`
	Homepage    string          `json:"homepage,omitempty"`
	Repository  string          `json:"repository,omitempty"`
	License     string          `json:"license,omitempty"`
	Keywords    []string        `json:"keywords,omitempty"`
	Commands    json.RawMessage `json:"commands,omitempty"`
	Agents      json.RawMessage `json:"agents,omitempty"`
	Skills      json.RawMessage `json:"skills,omitempty"`
	Hooks       json.RawMessage `json:"hooks,omitempty"`
	MCPServers  json.RawMessage `json:"mcpServers,omitempty"`
	LSPServers  json.RawMessage `json:"lspServers,omitempty"`
}

type claudeAuthor struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	URL   string `json:"url,omitempty"`
}

// claudeHooks is a plugin's hooks/hooks.json: the settings files' "hooks"
// format, with an optional description (the hooks reference, "Plugin
// hooks").
type claudeHooks struct {
	Description string                       `json:"description,omitempty"`
	Hooks       map[string][]claudeHookGroup `json:"hooks"`
}

type claudeHookGroup struct {
	Matcher string              `json:"matcher,omitempty"`
	Hooks   []claudeHookCommand `json:"hooks"`
}

type claudeHookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"` // seconds
}

// claudeEvents are the hook events of the hooks reference that baton
// could use; an event outside the list would be a misspelling.
var claudeEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "SessionEnd", "Notification"}

// claudeMarketplace is .claude-plugin/marketplace.json, from the
// marketplace reference (code.claude.com/docs/en/plugins/marketplace-reference):
// name, owner (its name required) and plugins are required; each plugin
// entry has a name and a source, a relative source starting with "./".
type claudeMarketplace struct {
	Name  string `json:"name"`
	Owner struct {
		Name  string `json:"name"`
		Email string `json:"email,omitempty"`
	} `json:"owner"`
	Metadata *struct {
		Description string `json:"description,omitempty"`
		Version     string `json:"version,omitempty"`
		PluginRoot  string `json:"pluginRoot,omitempty"`
	} `json:"metadata,omitempty"`
	Plugins []struct {
		Name        string        `json:"name"`
		Source      string        `json:"source"`
		Description string        `json:"description,omitempty"`
		Version     string        `json:"version,omitempty"`
		Author      *claudeAuthor `json:"author,omitempty"`
		Homepage    string        `json:"homepage,omitempty"`
		Repository  string        `json:"repository,omitempty"`
		License     string        `json:"license,omitempty"`
		Keywords    []string      `json:"keywords,omitempty"`
		Category    string        `json:"category,omitempty"`
		Tags        []string      `json:"tags,omitempty"`
		Strict      *bool         `json:"strict,omitempty"`
	} `json:"plugins"`
}

// geminiExtension is gemini-extension.json, from Gemini CLI's extension
// reference (docs/extensions/reference.md in google-gemini/gemini-cli):
// name (lowercase, dashes, the extension folder's name) and version;
// hooks are not in it but in hooks/hooks.json beside it.
type geminiExtension struct {
	Name            string          `json:"name"`
	Version         string          `json:"version"`
	Description     string          `json:"description,omitempty"`
	MCPServers      json.RawMessage `json:"mcpServers,omitempty"`
	ContextFileName json.RawMessage `json:"contextFileName,omitempty"`
	ExcludeTools    []string        `json:"excludeTools,omitempty"`
	Settings        json.RawMessage `json:"settings,omitempty"`
}

// geminiHooks is an extension's hooks/hooks.json: the settings' "hooks",
// each group's commands with a name and a timeout in milliseconds (the
// hooks reference, "Configuration schema").
type geminiHooks struct {
	Hooks map[string][]struct {
		Matcher    string `json:"matcher,omitempty"`
		Sequential bool   `json:"sequential,omitempty"`
		Hooks      []struct {
			Type        string `json:"type"`
			Command     string `json:"command"`
			Name        string `json:"name,omitempty"`
			Timeout     int    `json:"timeout,omitempty"`
			Description string `json:"description,omitempty"`
		} `json:"hooks"`
	} `json:"hooks"`
}

func decodeStrict(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s does not have the documented shape: %v", path, err)
	}
	if dec.More() {
		t.Fatalf("%s holds more than one JSON value", path)
	}
}

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

type installedHook struct {
	event, command string
}

// hostHooks are the commands baton hook install writes by default (with
// --lint on the stop hook): the plugin and the extension run the same.
func hostHooks(name string) []installedHook {
	var hs []installedHook
	for _, hk := range hosts.SettingsOf(name).Hooks {
		hs = append(hs, installedHook{hk.Event, strings.Join(append([]string{hk.Command()}, hostsettings.Options{Lint: true}.Args(hk.Stop())...), " ")})
	}
	return hs
}

func TestClaudePluginManifest(t *testing.T) {
	var m claudePlugin
	decodeStrict(t, ".claude-plugin/plugin.json", &m)
	if !kebab.MatchString(m.Name) {
		t.Errorf("plugin name %q is not kebab-case", m.Name)
	}
	if m.Hooks != nil {
		t.Error("plugin.json names a hooks file: hooks/hooks.json is loaded by default, and naming it again is a duplicate")
	}

	var mk claudeMarketplace
	decodeStrict(t, ".claude-plugin/marketplace.json", &mk)
	if !kebab.MatchString(mk.Name) || mk.Owner.Name == "" || len(mk.Plugins) == 0 {
		t.Errorf("marketplace: name %q, owner %q, %d plugins; want a kebab-case name, an owner and a plugin", mk.Name, mk.Owner.Name, len(mk.Plugins))
	}
	for _, p := range mk.Plugins {
		if p.Name != m.Name {
			t.Errorf("the marketplace lists plugin %q, the manifest is %q", p.Name, m.Name)
		}
		if len(p.Source) < 2 || p.Source[:2] != "./" {
			t.Errorf("plugin source %q: a relative source starts with ./", p.Source)
		}
		if _, err := os.Stat(filepath.Join("..", "..", p.Source, ".claude-plugin", "plugin.json")); err != nil {
			t.Errorf("plugin source %q holds no plugin: %v", p.Source, err)
		}
	}

	var h claudeHooks
	decodeStrict(t, "hooks/hooks.json", &h)
	var got []installedHook
	for _, ev := range claudeEvents {
		for _, g := range h.Hooks[ev] {
			for _, c := range g.Hooks {
				if c.Type != "command" || c.Timeout <= 0 {
					t.Errorf("%s: type %q, timeout %d; want a command with a timeout", ev, c.Type, c.Timeout)
				}
				got = append(got, installedHook{ev, c.Command})
			}
		}
	}
	for ev := range h.Hooks {
		if !slices.Contains(claudeEvents, ev) {
			t.Errorf("hooks/hooks.json: %q is not a Claude Code hook event", ev)
		}
	}
	want := hostHooks("claude")
	slices.SortFunc(got, func(a, b installedHook) int { return strings.Compare(a.event, b.event) })
	slices.SortFunc(want, func(a, b installedHook) int { return strings.Compare(a.event, b.event) })
	if !slices.Equal(got, want) {
		t.Errorf("the plugin runs %v, baton hook install --host claude writes %v", got, want)
	}
	// Each command is an adapter this baton has.
	for _, hk := range got {
		var out, errb bytes.Buffer
		sub, _ := hostsettings.BatonSub(hk.command)
		if code := run([]string{"hook", sub, "--help"}, bytes.NewReader(nil), &out, &errb); code != 0 {
			t.Errorf("%s: baton hook %s --help exits %d: %s", hk.event, sub, code, errb.String())
		}
	}
}

func TestGeminiExtension(t *testing.T) {
	dir := "extensions/gemini/baton"
	var x geminiExtension
	decodeStrict(t, dir+"/gemini-extension.json", &x)
	if x.Name != filepath.Base(dir) || !kebab.MatchString(x.Name) || x.Version == "" {
		t.Errorf("extension name %q (want %q, its folder's), version %q", x.Name, filepath.Base(dir), x.Version)
	}
	var h geminiHooks
	decodeStrict(t, dir+"/hooks/hooks.json", &h)
	var got []installedHook
	for ev, groups := range h.Hooks {
		for _, g := range groups {
			for _, c := range g.Hooks {
				if c.Type != "command" || c.Timeout < 1000 {
					t.Errorf("%s: type %q, timeout %d ms; want a command with a timeout in milliseconds", ev, c.Type, c.Timeout)
				}
				got = append(got, installedHook{ev, c.Command})
			}
		}
	}
	// h.Hooks is a map: compare the hooks in one order.
	byEvent := func(a, b installedHook) int { return strings.Compare(a.event+a.command, b.event+b.command) }
	want := hostHooks("gemini")
	slices.SortFunc(got, byEvent)
	slices.SortFunc(want, byEvent)
	if !slices.Equal(got, want) {
		t.Errorf("the extension runs %v, baton hook install --host gemini writes %v", got, want)
	}
}
