package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/audit"
)

const auditUsage = `usage: baton audit [--format text|json|html] [--since DURATION] [--host HOST] [--workspace DIR] PATH…
(baton help audit says what it reads, writes and exits with)
`

// auditFormats are the values of audit's --format.
var auditFormats = []string{"text", "json", "html"}

func runAudit(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("audit", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "text, json or html")
	host := fl.String("host", "", "read every file as this host's ("+strings.Join(hosts.Transcripts(), ", ")+"); default: tell each from its content")
	since := fl.Duration("since", 0, "only the stops of this last span of time, e.g. 168h for a week (default: all)")
	workspace := fl.String("workspace", "", "judge in this folder's .baton.yaml and workspace (default: each session's own folder if it exists, else the current one)")
	// Asked for, help is printed on standard output from the help table
	// (help.go); -h reaching here prints the flags on standard error.
	fl.Usage = func() {
		fmt.Fprint(stderr, auditUsage+"\nflags:\n")
		fl.PrintDefaults()
	}
	paths, code, ok := parseCommand("audit", fl, args, stderr)
	if !ok {
		return code
	}
	if !slices.Contains(auditFormats, *format) {
		usageError(stderr, "audit", fmt.Sprintf("--format %q: want text, json or html", *format))
		return exitUsage
	}
	if *host != "" && !slices.Contains(hosts.Transcripts(), *host) {
		usageError(stderr, "audit", fmt.Sprintf("--host %q: want one of %s", *host, strings.Join(hosts.Transcripts(), ", ")))
		return exitUsage
	}
	if len(paths) == 0 {
		usageError(stderr, "audit", "name the transcripts to audit (files or folders)")
		return exitUsage
	}
	if *since < 0 {
		usageError(stderr, "audit", fmt.Sprintf("--since %s: want a span of time before now", *since))
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
		fmt.Fprintf(stderr, "baton: not read: %s\n", p)
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
