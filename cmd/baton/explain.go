package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
)

func runExplain(args []string, stdout, stderr io.Writer) int {
	reg := engine.Registry()
	switch {
	case len(args) == 0:
		for _, r := range reg.Rules() {
			fmt.Fprintf(stdout, "%-36s %-8s %s\n", r.ID, r.Severity, r.Summary)
		}
		return exitOK
	case len(args) == 1 && args[0] == "--markdown":
		fmt.Fprint(stdout, reg.RulesMarkdown())
		return exitOK
	case args[0] == "-h" || args[0] == "--help":
		fmt.Fprintln(stdout, "usage: baton explain [RULE-ID | --markdown]")
		return exitOK
	case len(args) > 1:
		usageError(stderr, "explain", fmt.Sprintf("one rule at a time (%d named)", len(args)))
		return exitUsage
	case strings.HasPrefix(args[0], "-"):
		usageError(stderr, "explain", fmt.Sprintf("flag provided but not defined: %s", args[0]))
		return exitUsage
	}
	r := reg.Rule(args[0])
	if r == nil {
		var ids []string
		for _, r := range reg.Rules() {
			ids = append(ids, r.ID)
		}
		if near := ruleSuggestions(args[0], ids); len(near) > 0 {
			fmt.Fprintf(stderr, "baton: no rule %q: did you mean %s?\n", args[0], orWords(near))
		} else {
			fmt.Fprintf(stderr, "baton: no rule %q; `baton explain` lists them\n", args[0])
		}
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s (default severity: %s)\n\n%s\n\n%s\n", r.ID, r.Severity, r.Summary, r.FullDoc())
	return exitOK
}

// ruleSuggestions are the rule IDs a mistyped one most likely meant: those
// it names without their prefix ("missing-section" for
// packet/missing-section), else the nearest by edit distance, with or
// without the prefix, when near enough to be a misspelling.
func ruleSuggestions(id string, ids []string) []string {
	id = strings.ToLower(strings.TrimSpace(id))
	var bare []string
	for _, r := range ids {
		if _, name, ok := strings.Cut(r, "/"); ok && name == id || r == id {
			bare = append(bare, r)
		}
	}
	if len(bare) > 0 {
		return bare
	}
	if near := config.Nearest(id, ids); near != "" {
		return []string{near}
	}
	names := make([]string, 0, len(ids))
	full := map[string][]string{}
	for _, r := range ids {
		_, name, _ := strings.Cut(r, "/")
		if full[name] == nil {
			names = append(names, name)
		}
		full[name] = append(full[name], r)
	}
	if near := config.Nearest(id, names); near != "" {
		return full[near]
	}
	return nil
}

// orWords joins words as "a", "a or b", "a, b or c".
func orWords(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
