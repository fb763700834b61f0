package hostsettings_test

import (
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/internal/hostsettings"
)

// The hosts, as each builds its settings in its package under agenthost/.
var Hosts = hosts.Settings()

func Lookup(name string) *hostsettings.Host { return hosts.SettingsOf(name) }

func LookupMCP(name string) *hostsettings.MCPHost { return hosts.MCPOf(name) }
