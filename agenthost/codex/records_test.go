package codex

import (
	"strings"
	"testing"
)

// The hashes Codex 0.169.0 itself gave these hooks (`codex app-server`,
// hooks/list, currentHash), for hooks.json entries of this shape.
func TestCodexHookHashIsCodexs(t *testing.T) {
	for _, c := range []struct{ event, entry, want string }{
		{"stop", `{"type": "command", "command": "baton hook codex-stop --lint", "timeout": 30}`, "sha256:7de2a8b17dd9a0d6bc2853d38c29de9f797c18c0762b6e816ab29fddcd5449c2"},
		{"user_prompt_submit", `{"type": "command", "command": "baton hook codex-prompt", "timeout": 20}`, "sha256:f2c5fe904845d6c25f3093c0e812e04d0666d7c844fe4556813723492065d49b"},
		// A status message counts; a matcher on Stop does not (Stop takes none).
		{"stop", `{"type": "command", "command": "baton hook codex-stop", "timeout": 30, "statusMessage": "checking"}`, "sha256:cb9b696cb4bd941647d292ee7b9e16b5cda6c59acdbd35363caad4a74fa8bd9a"},
		// No timeout: Codex's default, 600 seconds.
		{"stop", `{"type": "command", "command": "baton hook codex-stop"}`, "sha256:90d07e60372405caea42511b17b124ae9eeed3d96f08b0db68df9781d12952ab"},
	} {
		got, err := hookHash(c.event, []byte(c.entry))
		if err != nil || got != c.want {
			t.Errorf("%s %s: hash %s, %v; want %s", c.event, c.entry, got, err, c.want)
		}
	}
	if got := snakeCase("UserPromptSubmit"); got != "user_prompt_submit" {
		t.Errorf("snakeCase = %q", got)
	}
}

func TestReadTOML(t *testing.T) {
	text := `# Codex's config
model = "gpt-5"
approvals = ["a", "b",
  "c"]   # an array across lines
notes = """
[not.a.table]
"""
[projects."/home/me/repo"]
trust_level = "trusted"

[projects.'C:\work']
trust_level = 'untrusted'

[hooks.state."/h/hooks.json:stop:0:0"]
trusted_hash = "sha256:ab\u0063"
enabled = false
count = 3

[[profiles.list]]
name = "not read"

[features]
hooks.enabled = true
inline = { a = "x", b = { c = true } }
`
	got, err := readTOML(text)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		tomlKey("model"): "gpt-5",
		tomlKey("projects", "/home/me/repo", "trust_level"):                 "trusted",
		tomlKey("projects", `C:\work`, "trust_level"):                       "untrusted",
		tomlKey("hooks", "state", "/h/hooks.json:stop:0:0", "trusted_hash"): "sha256:abc",
		tomlKey("hooks", "state", "/h/hooks.json:stop:0:0", "enabled"):      "false",
		tomlKey("features", "hooks", "enabled"):                             "true",
		tomlKey("features", "inline", "a"):                                  "x",
		tomlKey("features", "inline", "b", "c"):                             "true",
	} {
		if got[k] != want {
			t.Errorf("%q = %q, want %q", strings.ReplaceAll(k, "\x00", "."), got[k], want)
		}
	}
	for k := range got {
		if strings.HasPrefix(k, "not\x00") || strings.HasPrefix(k, "profiles") || strings.HasPrefix(k, "approvals") || strings.HasSuffix(k, "count") {
			t.Errorf("read %q", strings.ReplaceAll(k, "\x00", "."))
		}
	}
	if _, err := readTOML("[projects\n"); err == nil {
		t.Error("an unterminated header reads")
	}
}
