package hostsettings_test

import (
	"encoding/json"
	"errors"
	. "github.com/baton-md/baton/internal/hostsettings"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// install then uninstall: the file registers baton's server in the host's
// shape, keeps every other byte, and comes back byte for byte (a file
// install made is removed).
func TestMCPInstallUninstallRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		host, name, before string
	}{
		{"claude", "no file", ""},
		{"claude", "other servers", "{\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"npx\",\n      \"args\": [\"x\"]\n    }\n  }\n}\n"},
		{"claude", "other keys, tabs", "{\n\t\"projects\": {},\n\t\"theme\": \"dark\"\n}\n"},
		{"claude", "minified", `{"numStartups":3,"mcpServers":{"x":{"command":"x"}}}`},
		{"claude", "CRLF", "{\r\n  \"a\": 1\r\n}\r\n"},
		{"gemini", "hooks kept", "{\n  \"hooks\": {\n    \"AfterAgent\": []\n  },\n  \"mcpServers\": {\n    \"github\": {\"httpUrl\": \"https://x\"}\n  }\n}\n"},
		{"copilot", "other servers", "{\n  \"mcpServers\": {\n    \"playwright\": {\n      \"type\": \"local\",\n      \"command\": \"npx\",\n      \"tools\": [\"*\"]\n    }\n  }\n}\n"},
		{"codex", "no file", ""},
		{"codex", "settings and servers", "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"docs-mcp\"]\n"},
		{"codex", "no final newline", "model = \"o3\"\n[projects.\"/w\"]\ntrust_level = \"trusted\""},
		{"codex", "CRLF", "model = \"o3\"\r\n"},
		{"codex", "comments", "# my config\nmodel = \"o3\" # the model\n"},
	} {
		t.Run(tt.host+"/"+tt.name, func(t *testing.T) {
			h := LookupMCP(tt.host)
			env := tenv(t)
			path := filepath.Join(t.TempDir(), "settings")
			if tt.name != "no file" {
				if err := os.WriteFile(path, []byte(tt.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := h.PlanInstall(env, path)
			if err != nil {
				t.Fatal(err)
			}
			if c.Was != Absent || !c.Changed() {
				t.Fatalf("install: was %s, changed %v", c.Was, c.Changed())
			}
			if err := c.Apply(); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(path)
			st, line, _, err := h.Status(path)
			if err != nil || st != Present || line != "baton mcp" {
				t.Fatalf("status after install: %s %q %v\n%s", st, line, err, after)
			}
			if !strings.HasPrefix(string(after), strings.TrimRight(tt.before, "}\n\r\t ")) && tt.host != "codex" {
				t.Errorf("install did not keep what came before baton's entry:\n%s", after)
			}
			if tt.host == "codex" && !strings.HasPrefix(string(after), tt.before) {
				t.Errorf("install did not keep the file and add after it:\n%s", after)
			}
			checkMCPShape(t, h, after)
			if again, err := h.PlanInstall(env, path); err != nil || again.Was != Present || again.Changed() {
				t.Errorf("a second install: %v, was %s, changed %v", err, again.Was, again.Changed())
			}
			u, err := h.PlanUninstall(env, path)
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Apply(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if tt.name == "no file" {
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the file install made is still there: %q", got)
				}
				return
			}
			if string(got) != tt.before {
				t.Errorf("uninstall gave back\n%q\nwant\n%q", got, tt.before)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600 kept", fi.Mode())
			}
		})
	}
}

// checkMCPShape decodes the installed file as the host reads it.
func checkMCPShape(t *testing.T, h *MCPHost, text []byte) {
	t.Helper()
	type server struct {
		Type    string   `json:"type" toml:"type"`
		Command string   `json:"command" toml:"command"`
		Args    []string `json:"args" toml:"args"`
		Tools   []string `json:"tools" toml:"tools"`
	}
	var v struct {
		MCPServers map[string]server `json:"mcpServers"`
		Codex      map[string]server `toml:"mcp_servers"`
	}
	var s server
	if h.Name == "codex" {
		if _, err := toml.Decode(string(text), &v); err != nil {
			t.Fatalf("not TOML: %v\n%s", err, text)
		}
		s = v.Codex["baton"]
	} else {
		if err := json.Unmarshal(text, &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, text)
		}
		s = v.MCPServers["baton"]
	}
	if s.Command != "baton" || len(s.Args) != 1 || s.Args[0] != "mcp" {
		t.Errorf("baton's server %+v\n%s", s, text)
	}
	switch h.Name {
	case "claude":
		if s.Type != "stdio" {
			t.Errorf("Claude Code's server type %q, want stdio", s.Type)
		}
	case "copilot":
		if s.Type != "local" || len(s.Tools) != 1 || s.Tools[0] != "*" {
			t.Errorf("Copilot CLI's server %+v, want type local and tools [*]", s)
		}
	}
}

// A server named baton that runs something else is the person's: install
// and uninstall leave it, and status calls it foreign. One that runs baton
// by another path is baton's.
func TestMCPForeignAndPathedEntries(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		host, text string
		want       ServerState
	}{
		{"claude", `{"mcpServers": {"baton": {"command": "node", "args": ["baton-server.js"]}}}`, Foreign},
		{"gemini", `{"mcpServers": {"baton": {"command": "/usr/local/bin/baton", "args": ["mcp", "--root", "/w"]}}}`, Present},
		{"codex", "[mcp_servers.baton]\ncommand = \"python\"\n", Foreign},
		{"codex", "[mcp_servers.\"baton\"]\ncommand = \"/opt/baton/baton\"\nargs = [\"mcp\"]\n", Present},
	} {
		path := filepath.Join(dir, tt.host+string(tt.want))
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		h := LookupMCP(tt.host)
		st, _, _, err := h.Status(path)
		if err != nil || st != tt.want {
			t.Errorf("%s %s: status %s %v, want %s", tt.host, tt.text, st, err, tt.want)
		}
		c, err := h.PlanInstall(tenv(t), path)
		if err != nil || c.Changed() || c.Was != tt.want {
			t.Errorf("%s: install %v, changed %v, was %s", tt.host, err, c.Changed(), c.Was)
		}
		u, err := h.PlanUninstall(tenv(t), path)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == Foreign && u.Changed() {
			t.Errorf("%s: uninstall takes out a server of another command:\n%s", tt.host, u.New)
		}
		if st, _, _, _ := h.Status(path); tt.want == Present && (!u.Changed() || st != Present || strings.Contains(string(u.New), "baton")) {
			t.Errorf("%s: uninstall leaves baton's server (pathed): %q", tt.host, u.New)
		}
	}
}

// What baton refuses to edit, writing nothing: not JSON or TOML, not the
// shape it edits, a symbolic link; and a TOML file where a table cannot
// be appended (servers in an inline table).
func TestMCPRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ host, text, want string }{
		{"claude", `{"mcpServers": [1]`, "not valid JSON"},
		{"claude", `[]`, "not a JSON object"},
		{"gemini", `{"mcpServers": []}`, "not an object of servers"},
		{"codex", "model = ", "not valid TOML"},
		{"codex", "mcp_servers = 3\n", "not a table of servers"},
		{"codex", "mcp_servers = { docs = { command = \"npx\" } }\n", "by hand"},
		{"codex", "mcp_servers.docs.command = \"npx\"\n", "by hand"},
	} {
		path := filepath.Join(dir, tt.host+"-bad")
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LookupMCP(tt.host).PlanInstall(tenv(t), path)
		var ne *NotEditable
		if !errors.As(err, &ne) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: %v, want a refusal saying %q", tt.host, tt.text, err, tt.want)
		}
	}
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("{}\n"), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := LookupMCP("claude").PlanInstall(tenv(t), link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link: %v", err)
	}
}

// An mcpServers left empty goes with baton's server, and a file left as
// the empty object install made it from is removed, when install's record
// says it added them. Without the record (an install of an earlier baton,
// another machine's), uninstall cannot tell them from the person's, and
// leaves them.
func TestMCPUninstallEmptied(t *testing.T) {
	h := LookupMCP("gemini")
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte("{\n  \"mcpServers\": {\n    \"baton\": {\"command\": \"baton\", \"args\": [\"mcp\"]}\n  },\n  \"theme\": \"dark\"\n}\n"), 0o644)
	u, err := h.PlanUninstall(tenv(t), path)
	if err != nil || string(u.New) != "{\n  \"mcpServers\": {},\n  \"theme\": \"dark\"\n}\n" || u.Delete {
		t.Errorf("without a record: %v %q", err, u.New)
	}
	for _, before := range []string{"", "{\n  \"theme\": \"dark\"\n}\n"} {
		env := tenv(t)
		os.Remove(path)
		if before != "" {
			os.WriteFile(path, []byte(before), 0o644)
		}
		c, err := h.PlanInstall(env, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Apply(); err != nil {
			t.Fatal(err)
		}
		u, err := h.PlanUninstall(env, path)
		if err != nil || (before != "" && string(u.New) != before) || u.Delete != (before == "") {
			t.Errorf("after install into %q: %v %q, delete %v", before, err, u.New, u.Delete)
		}
	}
}

// A server table with subtables ([mcp_servers.baton.env]) in the middle of
// the file goes whole, and nothing else.
func TestMCPTOMLUninstallSubtables(t *testing.T) {
	text := "model = \"o3\"\n\n[mcp_servers.baton]\ncommand = \"baton\"\nargs = [\"mcp\"]\n\n[mcp_servers.baton.env]\nX = \"1\"\n\n[mcp_servers.docs]\ncommand = \"npx\"\n"
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte(text), 0o644)
	u, err := LookupMCP("codex").PlanUninstall(tenv(t), path)
	if err != nil {
		t.Fatal(err)
	}
	want := "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"npx\"\n"
	if string(u.New) != want {
		t.Errorf("got\n%q\nwant\n%q", u.New, want)
	}
}

// The files: the project's and the user's, $CODEX_HOME and $COPILOT_HOME
// moving the user's.
func TestMCPFiles(t *testing.T) {
	e := Env{Project: "/p", Home: "/h", Getenv: func(k string) string {
		return map[string]string{"CODEX_HOME": "/ch", "COPILOT_HOME": ""}[k]
	}}
	for _, tt := range []struct {
		host           string
		project, users string
	}{
		{"claude", "/p/.mcp.json", "/h/.claude.json"},
		{"codex", "/p/.codex/config.toml", "/ch/config.toml"},
		{"gemini", "/p/.gemini/settings.json", "/h/.gemini/settings.json"},
		{"copilot", "/p/.github/mcp.json", "/h/.copilot/mcp-config.json"},
	} {
		h := LookupMCP(tt.host)
		if got := h.File(e, Project); got != filepath.FromSlash(tt.project) {
			t.Errorf("%s project: %s", tt.host, got)
		}
		if got := h.File(e, User); got != filepath.FromSlash(tt.users) {
			t.Errorf("%s user: %s", tt.host, got)
		}
	}
}
