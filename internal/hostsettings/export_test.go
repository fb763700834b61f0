package hostsettings

// What the tests of package hostsettings_test, which take the hosts from
// agenthost/hosts, reach of this package's insides.

// AppendToStop appends entry to the hooks.Stop list of a settings text,
// the way a person's editor adds a hook of their own.
func AppendToStop(text []byte, entry Obj) []byte {
	root, _ := parseJSON(text)
	return appendItem(text, root.get("hooks").get("Stop"), item{value: entry}, detectStyle(text))
}
