package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/classify"
)

const classifyUsage = `usage: baton classify [flags] [FILE|-]

Classifies the stop message in FILE (standard input with - or no FILE) as
continue, intermediate or real, with specrew's precedence and reasons, and
prints the classification as JSON: one object, or an array of objects when
the file holds several packets. A plain message without packet headings is
a stop message too, classified as the stop hook does. Inputs the text does
not decide come from the specrew workspace (the first directory above FILE
holding .specrew/), or from the flags. In a specrew project --in-flight and
--known-terminal are false, as specrew's stop provider passes them (it
tracks no async work). When the outcome turns on inputs still unknown
(outside a specrew project, whether the phase is authorized, for one),
"outcome" is "undetermined", "depends_on" names those inputs, "reason" says
so, and "possible_outcomes" lists every outcome with the condition under
which it holds; a flag for each settles it. The nearest .baton.yaml (above
FILE, or the working folder for standard input) applies as it does to baton
check: its phrases change what the text says.

Each input flag takes true, false or unknown.
Exit status: 0 classified, 2 usage or I/O error (a .baton.yaml that cannot
be read included), or not a stop message (a handoff, a workflow).

flags:`

// triFlag is a classifier input set on the command line.
type triFlag struct {
	name  string // the input's name, e.g. stopintent.InAuthorized
	value stopintent.Tri
	set   bool
}

func (f *triFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.value.String()
}

func (f *triFlag) Set(s string) error {
	v, err := stopintent.ParseTri(s)
	if err != nil {
		return err
	}
	f.value, f.set = v, true
	return nil
}

// flagNames are the flags that set inputs, by input name.
var flagNames = map[string]string{
	stopintent.InBoundaryPending:  "boundary-pending",
	stopintent.InAuthorized:       "authorized",
	stopintent.InInFlight:         "in-flight",
	stopintent.InKnownTerminal:    "known-terminal",
	stopintent.InLoopGuardTripped: "loop-guard-tripped",
}

func runClassify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("classify", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, classifyUsage)
		fl.PrintDefaults()
	}
	flags := []*triFlag{
		{name: stopintent.InBoundaryPending},
		{name: stopintent.InAuthorized},
		{name: stopintent.InInFlight},
		{name: stopintent.InKnownTerminal},
		{name: stopintent.InLoopGuardTripped},
	}
	for _, f := range flags {
		fl.Var(f, flagNames[f.name], stopintent.Describe(f.name)+" ("+f.name+")")
	}
	session := fl.String("session", "", "the conformance session whose continue guard is read (default: the most recent)")
	wsDir := fl.String("workspace", "", "the specrew workspace root (default: the first directory above FILE holding .specrew/)")

	// Flags may come before or after the file.
	paths, code, ok := parseCommand("classify", fl, args, stderr)
	if !ok {
		return code
	}
	if len(paths) > 1 {
		usageError(stderr, "classify", fmt.Sprintf("one FILE at most (%d named)", len(paths)))
		return exitUsage
	}
	path := "-"
	if len(paths) == 1 {
		path = paths[0]
	}

	overrides := map[string]stopintent.Tri{}
	for _, f := range flags {
		if f.set {
			overrides[f.name] = f.value
		}
	}
	return classify.Run(path, classify.Options{Workspace: *wsDir, Session: *session, Overrides: overrides, FlagNames: flagNames}, stdin, stdout, stderr)
}
