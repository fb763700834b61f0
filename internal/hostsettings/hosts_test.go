package hostsettings_test

import (
	"testing"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// The hosts, as each builds its settings in its package under agenthost/.
var Hosts = hosts.Settings()

// MCPHosts are the hosts whose MCP settings baton edits.
var MCPHosts = hosts.MCP()

func Lookup(name string) *hostsettings.Host { return hosts.SettingsOf(name) }

func LookupMCP(name string) *hostsettings.MCPHost { return hosts.MCPOf(name) }

// tenv is an environment of the test's own: a home, and so a record of
// what install made, in a temporary folder.
func tenv(t *testing.T) hostsettings.Env {
	return hostsettings.Env{Home: t.TempDir(), Getenv: func(string) string { return "" }}
}
