package hostsettings_test

import (
	"path/filepath"
	"strings"
	"testing"

	. "github.com/baton-md/baton/internal/hostsettings"
)

// TestPersonsCommandsStartingWithBatons: a person's command that runs
// baton's hook and more is theirs. Install adds baton's own entry beside
// it rather than counting it as installed, a second install with other
// flags leaves it byte for byte, and uninstall takes out baton's entries
// only: the file comes back as it was.
func TestPersonsCommandsStartingWithBatons(t *testing.T) {
	mine := []string{
		`baton hook claude-stop && notify-send "Claude   done"`,
		"baton hook claude-stop || true",
		"baton hook claude-stop --lint | tee -a 'my  hook.log'",
		"/opt/baton/baton hook claude-prompt; echo   prompted",
	}
	var groups []string
	for _, c := range mine {
		groups = append(groups, `{ "hooks": [ { "type": "command", "command": `+Quote(c)+` } ] }`)
	}
	text := "{\n  \"hooks\": {\n    \"Stop\": [\n      " + strings.Join(groups[:3], ",\n      ") +
		"\n    ],\n    \"UserPromptSubmit\": [\n      " + groups[3] + "\n    ]\n  }\n}\n"
	env := tenv(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, text, 0o644)
	h := Lookup("claude")

	c, err := h.PlanInstall(env, path, Options{Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Added) != 3 || len(c.Already)+len(c.Updated) != 0 {
		t.Errorf("install: added %v, already %v, updated %v; want baton's three hooks added", c.Added, c.Already, c.Updated)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	installed := readFile(t, path)
	for _, m := range mine {
		if !strings.Contains(installed, Quote(m)) {
			t.Errorf("install changed %q:\n%s", m, installed)
		}
	}
	again, err := h.PlanInstall(env, path, Options{RequirePacket: true, MaxBlocks: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Apply(); err != nil {
		t.Fatal(err)
	}
	if len(again.Updated) != 3 {
		t.Errorf("a second install with other flags updated %v, want baton's three", again.Updated)
	}
	for _, u := range again.Updated {
		if !strings.HasPrefix(u.Old, "baton hook ") || slicesContains(mine, u.Old) {
			t.Errorf("a second install rewrote %q", u.Old)
		}
	}
	reinstalled := readFile(t, path)
	for _, m := range mine {
		if !strings.Contains(reinstalled, Quote(m)) {
			t.Errorf("a second install changed %q:\n%s", m, reinstalled)
		}
	}
	u, err := h.PlanUninstall(env, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Removed) != 3 {
		t.Errorf("uninstall removed %q, want baton's three entries", u.Removed)
	}
	if err := u.Apply(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != text {
		t.Errorf("install, install, uninstall gives\n%s\nwant\n%s", got, text)
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestReinstallKeepsTheLinesOtherBytes: a second install with other
// flags replaces only the policy's flags of baton's line; the program as
// named, --state-dir's quoting and the spaces inside it stay.
func TestReinstallKeepsTheLinesOtherBytes(t *testing.T) {
	for _, tt := range []struct{ was, want string }{
		{`baton hook claude-stop --lint --state-dir "/tmp/my   state"`, `baton hook claude-stop --require-packet --max-blocks 2 --state-dir "/tmp/my   state"`},
		{`/opt/baton/baton hook claude-stop --state-dir='/a  b' -lint`, `/opt/baton/baton hook claude-stop --require-packet --max-blocks 2 --state-dir='/a  b'`},
		{`baton  hook  claude-stop  --max-blocks 9  --state-dir  /s`, `baton  hook  claude-stop --require-packet --max-blocks 2  --state-dir  /s`},
	} {
		text := "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": " + Quote(tt.was) + "}]}]}}\n"
		path := filepath.Join(t.TempDir(), "settings.json")
		writeFile(t, path, text, 0o644)
		c, err := Lookup("claude").PlanInstall(tenv(t), path, Options{RequirePacket: true, MaxBlocks: 2})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(text, Quote(tt.was), Quote(tt.want), 1)
		if got := string(c.New); !strings.HasPrefix(got, strings.TrimSuffix(want, "}}\n")) {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.was, got, want)
		}
	}
}
