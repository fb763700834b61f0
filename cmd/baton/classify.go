package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/stoppolicy"
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

// outcomeUndetermined is classify's outcome of a stop whose outcome turns
// on inputs nothing told (depends_on names them).
const outcomeUndetermined stopintent.Outcome = "undetermined"

// classifyJSON is one stop's classification as `baton classify` prints it.
type classifyJSON struct {
	Outcome       stopintent.Outcome   `json:"outcome"` // continue, intermediate, real or undetermined
	Possible      []possibilityJSON    `json:"possible_outcomes"`
	DependsOn     []string             `json:"depends_on"` // the unknown inputs the outcome turns on; [] when it is determined
	EnforcePacket *bool                `json:"enforce_packet"`
	EmitProgress  *bool                `json:"emit_progress"`
	Reason        string               `json:"reason"`
	Marker        string               `json:"marker"`
	Recorded      bool                 `json:"recorded"`
	Inputs        map[string]inputJSON `json:"inputs"` // encoding/json sorts the keys
}

type possibilityJSON struct {
	Outcome       stopintent.Outcome `json:"outcome"`
	EnforcePacket bool               `json:"enforce_packet"`
	EmitProgress  bool               `json:"emit_progress"`
	Reason        string             `json:"reason"`
	When          string             `json:"when"`
}

type inputJSON struct {
	Value  string `json:"value"`
	Source string `json:"source"`
	Why    string `json:"why"`
	Line   *int   `json:"line,omitempty"` // 1-based; only when the text decided it
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

	var (
		name string
		text []byte
		err  error
		dir  string // where the search for the workspace starts
	)
	if path == "-" {
		name = "<stdin>"
		text, err = io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "baton: read standard input: %v\n", err)
			return exitUsage
		}
		dir, err = os.Getwd()
	} else {
		name = path
		text, err = safefile.ReadFile(path, markdown.MaxDocumentBytes)
		if err != nil {
			printErr(stderr, err)
			return exitUsage
		}
		dir, err = filepath.Abs(filepath.Dir(path))
	}
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	// Nothing to classify: no marker to call the assistant's own, no
	// words to read an input from. Most often a pipe that carried nothing.
	if len(bytes.TrimSpace(text)) == 0 {
		fmt.Fprintf(stderr, "baton: %s is empty: classify needs a stop message\n", name)
		return exitUsage
	}

	root := ""
	if *wsDir != "" {
		fi, err := os.Stat(*wsDir)
		if err != nil {
			fmt.Fprintf(stderr, "baton: --workspace: %v\n", err)
			return exitUsage
		}
		if !fi.IsDir() {
			fmt.Fprintf(stderr, "baton: --workspace: %s is not a directory\n", *wsDir)
			return exitUsage
		}
		if root, err = filepath.Abs(*wsDir); err != nil {
			fmt.Fprintf(stderr, "baton: --workspace: %v\n", err)
			return exitUsage
		}
	} else {
		root = engine.SpecrewRoot(dir)
	}
	// The configuration of the file, or of the working folder for standard
	// input, as baton check and the stop hook find it.
	cfgName := filepath.Join(dir, filepath.Base(name))
	env, err := stoppolicy.NewEnv(cfgName, root, *session)
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	if root != "" {
		for _, p := range env.State.Problems {
			fmt.Fprintf(stderr, "baton: workspace %s: %s\n", root, p)
		}
	}
	overrides := map[string]stopintent.Tri{}
	for _, f := range flags {
		if f.set {
			overrides[f.name] = f.value
		}
	}
	if len(overrides) > 0 {
		env.Env.Overrides = overrides
	}

	// A plain message is a stop message too: the hook classifies it, and so
	// does classify. Only a handoff or a workflow is something else.
	doc, res := env.Analyze(name, string(text))
	if doc.Kind != markdown.KindPacket {
		fmt.Fprintf(stderr, "baton: %s is not a stop message (it reads as %s): classify needs a stop message\n", name, kindPhrase(doc.Kind))
		return exitUsage
	}
	m, _ := res.Model(stopintent.Analyzer).(*stopintent.Model)
	if m == nil || len(m.Stops) == 0 {
		fmt.Fprintf(stderr, "baton: %s: no stop message found\n", name)
		return exitUsage
	}
	specrew := filepath.Join(root, ".specrew")
	out := make([]classifyJSON, len(m.Stops))
	for i, s := range m.Stops {
		out[i] = stopJSON(doc, s, specrew)
	}
	var v any = out
	if len(out) == 1 {
		v = out[0]
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	return exitOK
}

func kindPhrase(k markdown.Kind) string {
	switch k {
	case markdown.KindOther:
		return "ordinary Markdown"
	case markdown.KindHandoff:
		return "a handoff"
	}
	return "a " + k.String()
}

// stopJSON writes one stop's classification. specrew is the workspace's
// .specrew directory, named as the source of a workspace input decided by
// the absence of a file.
func stopJSON(doc *markdown.Document, s *stopintent.Stop, specrew string) classifyJSON {
	c := classifyJSON{Outcome: s.Class.Outcome, Marker: string(s.Intent), Recorded: s.Recorded, Inputs: map[string]inputJSON{}}
	if s.Ambiguous {
		c.Marker = "ambiguous"
	}
	for _, p := range s.Class.Possible {
		c.Possible = append(c.Possible, possibilityJSON{Outcome: p.Outcome, EnforcePacket: p.EnforcePacket, EmitProgress: p.EmitProgress, Reason: p.Reason, When: p.When})
	}
	c.DependsOn = append([]string{}, s.Class.DependsOn...)
	if c.Outcome != "" {
		// One outcome: its packet and progress flags are the same whatever
		// the unknown inputs are. Its reason may still depend on them (a
		// review request is real for the user, or for a pending boundary):
		// the reason given is the one that holds when no unknown input is
		// true; possible_outcomes gives each with its condition.
		r := settledResult(s)
		c.EnforcePacket, c.EmitProgress, c.Reason = &r.EnforcePacket, &r.EmitProgress, r.Reason
	} else {
		c.Outcome, c.Reason = outcomeUndetermined, undeterminedReason(s.Class.DependsOn)
	}
	for name, in := range s.Inputs.All() {
		j := inputJSON{Value: in.Value.String(), Source: in.Source, Why: in.Why}
		if in.Source == "flag" {
			j.Why = "set on the command line (--" + flagNames[name] + ")"
		}
		if in.Source == "text" && in.Span != (markdown.Span{}) {
			line := doc.Lines.Position(in.Span.Start, markdown.UTF8).Line + 1
			j.Line = &line
		}
		c.Inputs[name] = j
	}
	mi := inputJSON{Value: string(s.Intent), Source: "text"}
	switch {
	case s.Ambiguous:
		mi.Why = "both stop-intent markers are declared: the intent is ambiguous, so none applies"
	case s.Intent != stopintent.NoIntent:
		mi.Why = "the message declares " + string(s.Intent)
		for _, mk := range s.Markers {
			if mk.Exact && mk.Intent == s.Intent {
				line := doc.Lines.Position(mk.Span.Start, markdown.UTF8).Line + 1
				mi.Line = &line
				break
			}
		}
	default:
		mi.Why = "the message has no exact stop-intent marker of its own"
	}
	c.Inputs[stopintent.InMarkerIntent] = mi
	return c
}

// undeterminedReason says what the outcome of a stop turns on, and how to
// settle it.
func undeterminedReason(dependsOn []string) string {
	var whether, flags []string
	for _, name := range dependsOn {
		whether = append(whether, "whether "+stopintent.Describe(name))
		if f, ok := flagNames[name]; ok {
			flags = append(flags, "--"+f)
		}
	}
	r := "the outcome depends on inputs that are unknown: " + strings.Join(whether, ", ") +
		"; possible_outcomes gives each outcome and when it holds"
	if len(flags) > 0 {
		r += "; " + strings.Join(flags, ", ") + " set them"
	}
	return r
}

// settledResult is the stop's result with every unknown input taken as
// false.
func settledResult(s *stopintent.Stop) stopintent.Result {
	values := map[string]stopintent.Tri{}
	for _, name := range stopintent.InputNames {
		values[name] = stopintent.False
		if in, ok := s.Inputs.Lookup(name); ok && in.Value != stopintent.Unknown {
			values[name] = in.Value
		}
	}
	return stopintent.Classify(stopintent.Inputs{Values: values, MarkerIntent: s.Intent}).Possible[0].Result
}
