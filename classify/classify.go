// Package classify is `baton classify`: the classification of a stop
// message as continue, intermediate or real, with specrew's precedence, the
// inputs it was decided on and where each came from (the text, the specrew
// workspace, the command line), printed as JSON; an outcome that turns on
// inputs nothing told is "undetermined", with every possible outcome and
// its condition. cmd/baton parses the flags and calls Run.
package classify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/baton-md/baton/markdown"
	"github.com/baton-md/baton/stoppolicy"
)

// Exit statuses.
const (
	ExitOK    = 0
	ExitUsage = 2 // usage or I/O error, or not a stop message
)

// Options are what classify is given besides the file.
type Options struct {
	Workspace string // --workspace: the specrew workspace root ("": the first folder above the file holding .specrew/)
	Session   string // --session: the conformance session whose continue guard is read ("": the most recent)
	// Overrides are the inputs set on the command line.
	Overrides map[string]stopintent.Tri
	// FlagNames are the command line's flags that set inputs, by input
	// name: the reasons name them.
	FlagNames map[string]string
}

// outcomeUndetermined is classify's outcome of a stop whose outcome turns
// on inputs nothing told (depends_on names them).
const outcomeUndetermined stopintent.Outcome = "undetermined"

// Classification is one stop's classification as `baton classify` prints it.
type Classification struct {
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

// Run classifies the stop message in the file at path ("-": stdin) and
// prints its classification (an array when it holds several packets) on
// stdout. It returns the exit status.
func Run(path string, o Options, stdin io.Reader, stdout, stderr io.Writer) int {
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
			return ExitUsage
		}
		dir, err = os.Getwd()
	} else {
		name = path
		text, err = safefile.ReadFile(path, markdown.MaxDocumentBytes)
		if err != nil {
			printErr(stderr, err)
			return ExitUsage
		}
		dir, err = filepath.Abs(filepath.Dir(path))
	}
	if err != nil {
		printErr(stderr, err)
		return ExitUsage
	}
	// Nothing to classify: no marker to call the assistant's own, no
	// words to read an input from. Most often a pipe that carried nothing.
	if len(bytes.TrimSpace(text)) == 0 {
		fmt.Fprintf(stderr, "baton: %s is empty: classify needs a stop message\n", name)
		return ExitUsage
	}

	root := ""
	if o.Workspace != "" {
		fi, err := os.Stat(o.Workspace)
		if err != nil {
			fmt.Fprintf(stderr, "baton: --workspace: %v\n", err)
			return ExitUsage
		}
		if !fi.IsDir() {
			fmt.Fprintf(stderr, "baton: --workspace: %s is not a directory\n", o.Workspace)
			return ExitUsage
		}
		if root, err = filepath.Abs(o.Workspace); err != nil {
			fmt.Fprintf(stderr, "baton: --workspace: %v\n", err)
			return ExitUsage
		}
	} else {
		root = engine.SpecrewRoot(dir)
	}
	// The configuration of the file, or of the working folder for standard
	// input, as baton check and the stop hook find it.
	cfgName := filepath.Join(dir, filepath.Base(name))
	env, err := stoppolicy.NewEnv(cfgName, root, o.Session)
	if err != nil {
		printErr(stderr, err)
		return ExitUsage
	}
	if root != "" {
		for _, p := range env.State.Problems {
			fmt.Fprintf(stderr, "baton: workspace %s: %s\n", root, p)
		}
	}
	if len(o.Overrides) > 0 {
		env.Env.Overrides = o.Overrides
	}

	// A plain message is a stop message too: the hook classifies it, and so
	// does classify. Only a handoff or a workflow is something else.
	doc, res := env.Analyze(name, string(text))
	if doc.Kind != markdown.KindPacket {
		fmt.Fprintf(stderr, "baton: %s is not a stop message (it reads as %s): classify needs a stop message\n", name, kindPhrase(doc.Kind))
		return ExitUsage
	}
	m, _ := res.Model(stopintent.Analyzer).(*stopintent.Model)
	if m == nil || len(m.Stops) == 0 {
		fmt.Fprintf(stderr, "baton: %s: no stop message found\n", name)
		return ExitUsage
	}
	specrew := filepath.Join(root, ".specrew")
	out := make([]Classification, len(m.Stops))
	for i, s := range m.Stops {
		out[i] = Of(doc, s, specrew, o.FlagNames)
	}
	var v any = out
	if len(out) == 1 {
		v = out[0]
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		printErr(stderr, err)
		return ExitUsage
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
		printErr(stderr, err)
		return ExitUsage
	}
	return ExitOK
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

// Of is one stop's classification. specrew is the workspace's .specrew
// directory, named as the source of a workspace input decided by the
// absence of a file; flagNames are the command line's flags that set
// inputs, by input name.
func Of(doc *markdown.Document, s *stopintent.Stop, specrew string, flagNames map[string]string) Classification {
	c := Classification{Outcome: s.Class.Outcome, Marker: string(s.Intent), Recorded: s.Recorded, Inputs: map[string]inputJSON{}}
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
		c.Outcome, c.Reason = outcomeUndetermined, undeterminedReason(s.Class.DependsOn, flagNames)
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
func undeterminedReason(dependsOn []string, flagNames map[string]string) string {
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

// printErr prints err on w, a "baton: " line for each of its lines.
func printErr(w io.Writer, err error) {
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(w, "baton: %s\n", line)
	}
}
