// Package hosts is the one list of the agent hosts baton serves. Adding a
// host is a package of its own under agenthost/ that builds its
// agenthost.Host, and one line here; hosts_test.go checks that every host
// listed is complete.
package hosts

import (
	"slices"
	"strings"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/codex"
	"github.com/baton-md/baton/agenthost/copilot"
	"github.com/baton-md/baton/agenthost/cursor"
	"github.com/baton-md/baton/agenthost/gemini"
	"github.com/baton-md/baton/internal/hostsettings"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// Each host's transcript format is registered, so that transcript reads
// and tells its files; and its folders are the stop policy's managed
// folders, whose files (its settings, which hook install writes) are no
// material work.
func init() {
	for _, h := range All {
		if h.Transcript.Host != "" {
			transcript.Register(h.Transcript)
		}
		stoppolicy.ManageFolders(topFolder(h.Help.ProjectFolder), topFolder(h.Help.UserFolder))
	}
}

// topFolder is the first folder of a help's folder (".github/hooks/",
// "~/.copilot/"): ".github", ".copilot".
func topFolder(f string) string {
	f, _, _ = strings.Cut(strings.TrimPrefix(f, "~/"), "/")
	return f
}

// All are the hosts, in the order baton names them.
var All = []*agenthost.Host{
	claude.Host,
	codex.Host,
	gemini.Host,
	cursor.Host,
	copilot.Host,
}

// Lookup is the host of that ID, or nil.
func Lookup(id string) *agenthost.Host {
	for _, h := range All {
		if h.ID == id {
			return h
		}
	}
	return nil
}

// IDs are the hosts' IDs, in order.
func IDs() []string {
	out := make([]string, len(All))
	for i, h := range All {
		out[i] = h.ID
	}
	return out
}

// Settings are the hosts' settings for hook install and status, in order.
func Settings() []*hostsettings.Host {
	var out []*hostsettings.Host
	for _, h := range All {
		if h.Settings != nil {
			out = append(out, h.Settings)
		}
	}
	return out
}

// SettingsOf is the settings of the host of that ID, or nil.
func SettingsOf(id string) *hostsettings.Host {
	if h := Lookup(id); h != nil {
		return h.Settings
	}
	return nil
}

// SettingsIDs are the IDs of the hosts hook install writes to.
func SettingsIDs() []string {
	var out []string
	for _, s := range Settings() {
		out = append(out, s.Name)
	}
	return out
}

// MCP are the hosts' MCP settings, in order: the hosts baton's MCP
// server is registered in.
func MCP() []*hostsettings.MCPHost {
	var out []*hostsettings.MCPHost
	for _, h := range All {
		if h.MCP != nil {
			out = append(out, h.MCP)
		}
	}
	return out
}

// MCPOf is the MCP settings of the host of that ID, or nil.
func MCPOf(id string) *hostsettings.MCPHost {
	if h := Lookup(id); h != nil {
		return h.MCP
	}
	return nil
}

// MCPIDs are the IDs of the hosts with MCP settings.
func MCPIDs() []string {
	var out []string
	for _, m := range MCP() {
		out = append(out, m.Name)
	}
	return out
}

// Transcripts are the transcript formats of the hosts, in order: what
// audit --host takes.
func Transcripts() []string {
	var out []string
	for _, h := range All {
		if f := h.Transcript.Host; f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// What the commands' help says of every host: each host's own phrase
// (agenthost.HostHelp), joined in the hosts' order.

// Phrases joins a phrase of each host's help that has one: "a, b and c".
func Phrases(phrase func(agenthost.HostHelp) string) string {
	var ps []string
	for _, h := range All {
		if p := phrase(h.Help); p != "" {
			ps = append(ps, p)
		}
	}
	return joinAnd(ps)
}

// Sentences are the sentences of each host's help that has one, each
// followed by a space.
func Sentences(sentence func(agenthost.HostHelp) string) string {
	var b strings.Builder
	for _, h := range All {
		if s := sentence(h.Help); s != "" {
			b.WriteString(s + " ")
		}
	}
	return b.String()
}

// Env are the environment variables the hosts' files and records are
// found by, each once and followed by ", ".
func Env() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, h := range All {
		for _, e := range append([]string{h.Help.HomeEnv}, h.Help.Env...) {
			if e != "" && !seen[e] {
				seen[e] = true
				b.WriteString(e + ", ")
			}
		}
	}
	return b.String()
}

// Names are the hosts' names as their settings title them: "A, B and C".
func Names() string {
	var ns []string
	for _, h := range All {
		ns = append(ns, h.Settings.Title)
	}
	return joinAnd(ns)
}

func joinAnd(ps []string) string {
	if len(ps) < 2 {
		return strings.Join(ps, "")
	}
	return strings.Join(ps[:len(ps)-1], ", ") + " and " + ps[len(ps)-1]
}
