package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/baton-md/baton/audit"
	"github.com/baton-md/baton/transcript"
)

const auditUsage = `usage: baton audit [--format text|json|html] [--since DURATION] [--host HOST] [--workspace DIR] PATH…
(baton help audit says what it reads, writes and exits with)
`

func runAudit(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("audit", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "text, json or html")
	host := fl.String("host", "", "read every file as this host's ("+strings.Join(transcript.Hosts, ", ")+"); default: tell each from its content")
	since := fl.Duration("since", 0, "only the stops of this last span of time, e.g. 168h for a week (default: all)")
	workspace := fl.String("workspace", "", "judge in this folder's .baton.yaml and workspace (default: each session's own folder if it exists, else the current one)")
	// Asked for, help is printed on standard output from the help table
	// (help.go); -h reaching here prints the flags on standard error.
	fl.Usage = func() {
		fmt.Fprint(stderr, auditUsage+"\nflags:\n")
		fl.PrintDefaults()
	}
	paths, err := parseInterspersed(fl, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if !slices.Contains([]string{"text", "json", "html"}, *format) {
		fmt.Fprintf(stderr, "baton audit: --format %q: want text, json or html\n", *format)
		return exitUsage
	}
	if *host != "" && !slices.Contains(transcript.Hosts, *host) {
		fmt.Fprintf(stderr, "baton audit: --host %q: want one of %s\n", *host, strings.Join(transcript.Hosts, ", "))
		return exitUsage
	}
	if len(paths) == 0 {
		fmt.Fprint(stderr, auditUsage)
		return exitUsage
	}
	if *since < 0 {
		fmt.Fprintf(stderr, "baton audit: --since %s: want a span of time before now\n", *since)
		return exitUsage
	}
	o := audit.Options{Host: *host, Workspace: *workspace}
	if *since > 0 {
		o.Since = time.Now().Add(-*since)
	}
	r, err := audit.Run(paths, o)
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	for _, p := range r.Problems {
		fmt.Fprintf(stderr, "baton audit: not read: %s\n", p)
	}
	switch *format {
	case "json":
		err = r.JSON(stdout)
	case "html":
		err = r.HTML(stdout)
	default:
		err = r.Text(stdout)
	}
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	return exitOK
}

// parseInterspersed parses flags before, between and after the paths
// (baton audit FILE --format json), and returns the paths; after "--"
// every argument is a path.
func parseInterspersed(fl *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		rest := fl.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(paths, rest...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}
