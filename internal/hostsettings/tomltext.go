package hostsettings

import (
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex keeps what the person trusts in config.toml: baton reads the few
// keys it needs from it (never writes it).

// tomlKey is the key of a value as readTOML returns it: the table path
// and the key, each part unquoted.
func tomlKey(parts ...string) string { return strings.Join(parts, "\x00") }

// readTOML reads the strings and booleans of a TOML text by their full
// key (tomlKey of the tables' and the dotted key's parts, inline tables
// included). Numbers, dates, arrays and arrays of tables ([[…]]) are left
// out; a boolean is "true" or "false". A text that is not TOML is an
// error, and nothing of it is read.
func readTOML(text string) (map[string]string, error) {
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(path []string, v any)
	walk = func(path []string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(append(path[:len(path):len(path)], k), x)
			}
		case string:
			out[tomlKey(path...)] = v
		case bool:
			if v {
				out[tomlKey(path...)] = "true"
			} else {
				out[tomlKey(path...)] = "false"
			}
		}
	}
	walk(nil, doc)
	return out, nil
}
