package claude

import (
	"testing"

	"github.com/baton-md/baton/agenthost/internal/hosttest"
	"github.com/baton-md/baton/internal/hostsettings"
)

// Whether Claude Code will start the server a project registers, from its
// own records (each case as `claude mcp list` of Claude Code 2.1.332
// answered it): nothing approves it; the user's settings approve it at
// once; the project's settings only in a folder whose trust dialog was
// accepted; disabledMcpjsonServers wins.
func TestMCPApproval(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string // by path below the home (~/) or the project (./)
		runs  bool
		state string
	}{
		{"nothing", nil, false, "untrusted"},
		{"user enabled", map[string]string{"~/.claude/settings.json": `{"enabledMcpjsonServers": ["baton"]}`}, true, "trusted"},
		{"user enable all", map[string]string{"~/.claude/settings.json": `{"enableAllProjectMcpServers": true}`}, true, "trusted"},
		{"local enabled, folder not trusted", map[string]string{"./.claude/settings.local.json": `{"enabledMcpjsonServers": ["baton"]}`}, false, "untrusted"},
		{"local enabled, folder trusted", map[string]string{
			"./.claude/settings.local.json": `{"enabledMcpjsonServers": ["baton"]}`,
			"~/.claude.json":                `{"projects": {PROJECT: {"hasTrustDialogAccepted": true}}}`}, true, "trusted"},
		{"shared settings enabled, folder trusted", map[string]string{
			"./.claude/settings.json": `{"enabledMcpjsonServers": ["baton"]}`,
			"~/.claude.json":          `{"projects": {PROJECT: {"hasTrustDialogAccepted": true}}}`}, true, "trusted"},
		{"entry in ~/.claude.json, folder trusted", map[string]string{
			"~/.claude.json": `{"projects": {PROJECT: {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["baton"]}}}`}, true, "trusted"},
		{"disabled in the project beats the user's enable all", map[string]string{
			"~/.claude/settings.json":       `{"enableAllProjectMcpServers": true}`,
			"./.claude/settings.local.json": `{"disabledMcpjsonServers": ["baton"]}`,
			"~/.claude.json":                `{"projects": {PROJECT: {"hasTrustDialogAccepted": true}}}`}, false, "disabled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := hosttest.Env(t)
			hosttest.WriteFiles(t, e, tt.files)
			tr := mcp.Trust(e, hostsettings.Project)
			if tr.Runs != tt.runs || tr.State != tt.state {
				t.Errorf("%+v, want runs %v, %s", tr, tt.runs, tt.state)
			}
			if !tr.Runs && tr.Fix == "" {
				t.Errorf("no fix said: %+v", tr)
			}
		})
	}
	if tr := mcp.Trust(hosttest.Env(t), hostsettings.User); !tr.Runs || tr.State != "not required" {
		t.Errorf("the user's settings: %+v", tr)
	}
}

// Claude Code asks for no trust of a hook that baton can read.
func TestHooksAskNoTrust(t *testing.T) {
	env := hosttest.Env(t)
	hosttest.Install(t, settings, env, hostsettings.Project, hostsettings.Options{Lint: true})
	if r, _ := settings.Status(env, hostsettings.Project); r.Trust != nil || r.Installed != "installed" {
		t.Errorf("trust %+v, installed %q", r.Trust, r.Installed)
	}
}
