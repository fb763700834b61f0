package main

import (
	"fmt"
	"io"
	"strings"

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
		fmt.Fprintln(stderr, "usage: baton explain [RULE-ID | --markdown]")
		return exitUsage
	}
	r := reg.Rule(args[0])
	if r == nil {
		fmt.Fprintf(stderr, "baton: no rule %q; `baton explain` lists them\n", args[0])
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s (default severity: %s)\n\n%s\n\n%s\n", r.ID, r.Severity, r.Summary, strings.TrimSpace(r.Doc))
	return exitOK
}
