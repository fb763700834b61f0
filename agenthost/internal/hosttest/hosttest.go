// Package hosttest holds what the tests of the host packages under
// agenthost/ share: a home and a project of the test's own, baton's
// hooks installed in them, files written there.
package hosttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/internal/hostsettings"
)

// Env is a project and a home in temporary folders, with an empty
// environment.
func Env(t testing.TB) hostsettings.Env {
	t.Helper()
	return hostsettings.Env{Project: t.TempDir(), Home: t.TempDir(), Getenv: func(string) string { return "" }}
}

// Install installs h's hooks with o in scope, as baton hook install does.
func Install(t testing.TB, h *hostsettings.Host, env hostsettings.Env, s hostsettings.Scope, o hostsettings.Options) {
	t.Helper()
	c, err := h.PlanInstall(env, h.File(env, s), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
}

// WriteFile writes text to path, making its folders.
func WriteFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteFiles writes files named by their path below the home ("~/…") or
// the project ("./…"), each text's PROJECT replaced by the project's
// path as a JSON string.
func WriteFiles(t testing.TB, env hostsettings.Env, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(env.Project, name[2:])
		if strings.HasPrefix(name, "~/") {
			p = filepath.Join(env.Home, name[2:])
		}
		WriteFile(t, p, strings.ReplaceAll(text, "PROJECT", hostsettings.Quote(env.Project)))
	}
}
