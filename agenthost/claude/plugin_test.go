package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/hook"
	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// The repository is a Claude Code plugin (.claude-plugin/plugin.json and
// hooks/hooks.json) and its own plugin marketplace (.claude-plugin/
// marketplace.json). This test reads those files into structs made from
// Claude Code's documentation, refusing any field the documentation does
// not name, and checks that the hooks they run are the adapters `baton
// hook install` writes (with --lint on the stop hook, which `hook status`
// reads from there).

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

// kebab is a name in kebab-case.
var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestPluginManifest(t *testing.T) {
	var m claudePlugin
	hosttest.DecodeStrict(t, ".claude-plugin/plugin.json", &m)
	if !kebab.MatchString(m.Name) {
		t.Errorf("plugin name %q is not kebab-case", m.Name)
	}
	if m.Hooks != nil {
		t.Error("plugin.json names a hooks file: hooks/hooks.json is loaded by default, and naming it again is a duplicate")
	}

	var mk claudeMarketplace
	hosttest.DecodeStrict(t, ".claude-plugin/marketplace.json", &mk)
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
	hosttest.DecodeStrict(t, "hooks/hooks.json", &h)
	var got []hosttest.Hook
	for _, ev := range claudeEvents {
		for _, g := range h.Hooks[ev] {
			for _, c := range g.Hooks {
				if c.Type != "command" || c.Timeout <= 0 {
					t.Errorf("%s: type %q, timeout %d; want a command with a timeout", ev, c.Type, c.Timeout)
				}
				got = append(got, hosttest.Hook{Event: ev, Command: c.Command})
			}
		}
	}
	for ev := range h.Hooks {
		if !slices.Contains(claudeEvents, ev) {
			t.Errorf("hooks/hooks.json: %q is not a Claude Code hook event", ev)
		}
	}
	want := hosttest.DefaultHooks(claude.Host.Settings)
	slices.SortFunc(got, func(a, b hosttest.Hook) int { return strings.Compare(a.Event, b.Event) })
	slices.SortFunc(want, func(a, b hosttest.Hook) int { return strings.Compare(a.Event, b.Event) })
	if !slices.Equal(got, want) {
		t.Errorf("the plugin runs %v, baton hook install --host claude writes %v", got, want)
	}
	// Each command is an adapter this baton has.
	for _, hk := range got {
		if sub, _ := hostsettings.BatonSub(hk.Command); !hook.Known(sub) {
			t.Errorf("%s: baton hook %s is no hook of baton's", hk.Event, sub)
		}
	}
}

// Installed as the plugin, Claude Code's stop hook carries the flags the
// plugin's hooks file gives it (--lint), read from where Claude Code
// installed it.
func TestStatusOfThePlugin(t *testing.T) {
	env := hosttest.Env(t)
	install := filepath.Join(env.Home, ".claude", "plugins", "cache", "baton", "baton", "0.1.0")
	hooks, err := os.ReadFile(filepath.Join("..", "..", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	hosttest.WriteFile(t, filepath.Join(install, "hooks", "hooks.json"), string(hooks))
	hosttest.WriteFile(t, filepath.Join(env.Home, ".claude", "plugins", "installed_plugins.json"), `{"version": 2, "plugins": {"baton@baton": [{"scope": "user", "installPath": `+hostsettings.Quote(install)+`, "version": "0.1.0"}]}}`)
	hosttest.WriteFile(t, filepath.Join(env.Home, ".claude", "settings.json"), `{"enabledPlugins": {"baton@baton": true}}`)
	r, _ := claude.Host.Settings.Status(env, hostsettings.User)
	if r.Installed != "installed as the plugin baton@baton" || r.Enforcement == nil || !r.Enforcement.Lint || r.Enforcement.Command != "baton hook claude-stop --lint" {
		t.Errorf("installed %q, enforcement %+v", r.Installed, r.Enforcement)
	}
}
