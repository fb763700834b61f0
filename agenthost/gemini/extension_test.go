package gemini_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/gemini"
	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// The repository holds a Gemini CLI extension (extensions/gemini/baton/).
// This test reads its files into structs made from Gemini CLI's
// documentation, refusing any field the documentation does not name, and
// checks that the hooks it runs are the adapters `baton hook install`
// writes (with --lint on the stop hook, which `hook status` reads from
// there).

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

// kebab is a name in kebab-case.
var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestExtension(t *testing.T) {
	dir := "extensions/gemini/baton"
	var x geminiExtension
	hosttest.DecodeStrict(t, dir+"/gemini-extension.json", &x)
	if x.Name != filepath.Base(dir) || !kebab.MatchString(x.Name) || x.Version == "" {
		t.Errorf("extension name %q (want %q, its folder's), version %q", x.Name, filepath.Base(dir), x.Version)
	}
	var h geminiHooks
	hosttest.DecodeStrict(t, dir+"/hooks/hooks.json", &h)
	var got []hosttest.Hook
	for ev, groups := range h.Hooks {
		for _, g := range groups {
			for _, c := range g.Hooks {
				if c.Type != "command" || c.Timeout < 1000 {
					t.Errorf("%s: type %q, timeout %d ms; want a command with a timeout in milliseconds", ev, c.Type, c.Timeout)
				}
				got = append(got, hosttest.Hook{Event: ev, Command: c.Command})
			}
		}
	}
	// h.Hooks is a map: compare the hooks in one order.
	byEvent := func(a, b hosttest.Hook) int { return strings.Compare(a.Event+a.Command, b.Event+b.Command) }
	want := hosttest.DefaultHooks(gemini.Host.Settings)
	slices.SortFunc(got, byEvent)
	slices.SortFunc(want, byEvent)
	if !slices.Equal(got, want) {
		t.Errorf("the extension runs %v, baton hook install --host gemini writes %v", got, want)
	}
}

// A linked extension (gemini extensions link DIR: the extension folder
// holds only the install record) is installed, and its stop hook carries
// the flags of the hooks file in the folder the link names; a link whose
// folder is gone is no install.
func TestStatusOfALinkedExtension(t *testing.T) {
	env := hosttest.Env(t)
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	src := filepath.Join(t.TempDir(), "baton")
	hosttest.WriteFile(t, filepath.Join(src, "gemini-extension.json"), read("extensions/gemini/baton/gemini-extension.json"))
	hosttest.WriteFile(t, filepath.Join(src, "hooks", "hooks.json"), read("extensions/gemini/baton/hooks/hooks.json"))
	hosttest.WriteFile(t, filepath.Join(env.Home, ".gemini", "extensions", "baton", ".gemini-extension-install.json"), `{"source": `+hostsettings.Quote(src)+`, "type": "link"}`)
	r, found := gemini.Host.Settings.Status(env, hostsettings.User)
	if !found || r.Installed != "installed as the extension linked from "+src || r.Posture != hostsettings.Hard {
		t.Errorf("found %v, installed %q, posture %q", found, r.Installed, r.Posture)
	}
	if r.Enforcement == nil || r.Enforcement.Command != "baton hook gemini-stop --lint" {
		t.Errorf("enforcement %+v", r.Enforcement)
	}
	if err := os.RemoveAll(src); err != nil {
		t.Fatal(err)
	}
	if r, _ := gemini.Host.Settings.Status(env, hostsettings.User); r.Installed != "not installed" {
		t.Errorf("the link's folder gone: installed %q", r.Installed)
	}
}
