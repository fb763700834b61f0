package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
)

// resolverWith reads the sessions handoff documents name, looking in dir
// first.
func resolverWith(store *session.Store, flagDir string) handoff.Resolver {
	return engine.Sessions(store, func() []string { return engine.StateDirs(flagDir) }, nil)
}

func runLedger(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("ledger", flag.ContinueOnError)
	fl.SetOutput(stderr)
	asJSON := fl.Bool("json", false, "print JSON")
	stateDir := fl.String("state-dir", "", "clio-coder's state folder, looked in first")
	// Asked for, help is printed on standard output from the help table
	// (help.go); -h reaching here prints the flags on standard error.
	fl.Usage = func() {
		writeUsageLine(stderr, "ledger")
		fmt.Fprintln(stderr, "\nflags:")
		fl.PrintDefaults()
	}
	rest, code, ok := parseCommand("ledger", fl, args, stderr)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		msg := "name one session: its ID, or its folder"
		if len(rest) > 1 {
			msg = fmt.Sprintf("one session at a time (%d named)", len(rest))
		}
		usageError(stderr, "ledger", msg)
		return exitUsage
	}
	arg := rest[0]
	dir := arg
	if fi, err := os.Stat(arg); err != nil || !fi.IsDir() {
		var looked []string
		dir, looked, err = session.Find(engine.StateDirs(*stateDir), arg)
		if errors.Is(err, session.ErrNotFound) {
			// Said once: which session, where it was looked for, then
			// any folder that could not be read while looking.
			lines := strings.Split(err.Error(), "\n")
			lines[0] = fmt.Sprintf("no session %s (looked in %s)", arg, strings.Join(looked, ", "))
			err = errors.New(strings.Join(lines, "\n"))
		}
		if err != nil {
			printErr(stderr, err)
			return exitUsage
		}
	}
	l, err := session.NewStore().Ledger(dir)
	if err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	paths := make([]string, 0, len(l.Paths))
	for p := range l.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if *asJSON {
		if err := encodeJSON(stdout, ledgerJSONOf(l, paths)); err != nil {
			printErr(stderr, err)
			return exitUsage
		}
		return exitOK
	}
	for _, w := range l.Warnings {
		fmt.Fprintf(stderr, "baton: session %s: warning: %s\n", l.SessionID, w)
	}
	fmt.Fprintf(stdout, "session %s (%s)\ncwd %s\n", l.SessionID, l.Dir, l.Cwd)
	// Where the work came from and where it went, as clio recorded it.
	if f := l.ForkedFrom; f != nil {
		from := f.Session
		if from == "" {
			from = f.File
		}
		fmt.Fprintf(stdout, "forked from session %s at turn %s\n", from, f.TurnID)
	}
	if s := l.SeededFrom; s != nil {
		fmt.Fprintf(stdout, "handed off from session %s (line %d, %s): %s\n", s.Session, s.Line, s.Timestamp, s.Goal)
	}
	for _, n := range l.HandedOffTo {
		fmt.Fprintf(stdout, "handed off to session %s (line %d, %s): %s\n", n.Session, n.Line, n.Timestamp, n.Goal)
	}
	fmt.Fprintf(stdout, "\nread ledger: %d paths\n", len(paths))
	for _, p := range paths {
		fmt.Fprintf(stdout, "  %s\n", p)
		for _, e := range l.Paths[p] {
			fmt.Fprintf(stdout, "      %s\n", describeEvidence(e))
		}
	}
	fmt.Fprintf(stdout, "\ndecision board: %d active\n", len(l.Board))
	for _, d := range l.Board {
		label := d.Label
		if label == "" {
			label = d.Key
		}
		fmt.Fprintf(stdout, "  %s: %s  (interview %s, line %d)\n", label, d.Value, d.InterviewID, d.Line)
	}
	if len(l.InvalidLines) > 0 || l.TornLastLine {
		fmt.Fprintf(stdout, "\nskipped: %d invalid lines %v, torn last line: %v\n", len(l.InvalidLines), l.InvalidLines, l.TornLastLine)
	}
	return exitOK
}

// ledgerJSONVersion is the "version" of `baton ledger --json`: it changes
// only when a field changes meaning or goes away (docs/ledger-json.md).
const ledgerJSONVersion = 1

// The JSON of `baton ledger --json`, documented in docs/ledger-json.md:
// snake_case names throughout, as in the check JSON; arrays never null.
type (
	ledgerJSON struct {
		Version      int                  `json:"version"`
		Session      string               `json:"session"`
		Dir          string               `json:"dir"`
		Cwd          string               `json:"cwd"`
		Paths        []ledgerPathJSON     `json:"paths"`
		Board        []ledgerDecisionJSON `json:"board"`
		InvalidLines []int                `json:"invalid_lines"`
		TornLastLine bool                 `json:"torn_last_line"`
		Warnings     []string             `json:"warnings"`
		SeededFrom   *ledgerHandoffJSON   `json:"seeded_from"`
		HandedOffTo  []ledgerHandoffJSON  `json:"handed_off_to"`
		ForkedFrom   *ledgerForkJSON      `json:"forked_from"`
	}
	ledgerHandoffJSON struct {
		Session   string `json:"session"`
		Goal      string `json:"goal"`
		TurnID    string `json:"turn_id"`
		Timestamp string `json:"timestamp"`
		Line      int    `json:"line"`
	}
	ledgerForkJSON struct {
		Session string `json:"session"`
		File    string `json:"file"`
		TurnID  string `json:"turn_id"`
	}
	ledgerPathJSON struct {
		Path     string               `json:"path"`
		Evidence []ledgerEvidenceJSON `json:"evidence"`
	}
	ledgerEvidenceJSON struct {
		Tool      string `json:"tool"`
		Operation string `json:"operation"`
		TurnID    string `json:"turn_id"`
		Timestamp string `json:"timestamp"`
		Line      int    `json:"line"`
		Raw       string `json:"raw"`
	}
	ledgerDecisionJSON struct {
		Key            string `json:"key"`
		Value          string `json:"value"`
		Label          string `json:"label"`
		InterviewID    string `json:"interview_id"`
		DecidedAt      string `json:"decided_at"`
		Line           int    `json:"line"`
		SourceQuestion string `json:"source_question"`
		Correction     string `json:"correction"`
		Rationale      string `json:"rationale"`
	}
)

// ledgerJSONOf is a ledger as `baton ledger --json` prints it, its paths
// in the order given (sorted).
func ledgerJSONOf(l *session.Ledger, paths []string) ledgerJSON {
	out := ledgerJSON{
		Version: ledgerJSONVersion, Session: l.SessionID, Dir: l.Dir, Cwd: l.Cwd,
		Paths: []ledgerPathJSON{}, Board: []ledgerDecisionJSON{},
		InvalidLines: append([]int{}, l.InvalidLines...), TornLastLine: l.TornLastLine,
		Warnings:    append([]string{}, l.Warnings...),
		HandedOffTo: []ledgerHandoffJSON{},
	}
	handoffJSON := func(h session.Handoff) ledgerHandoffJSON {
		return ledgerHandoffJSON{Session: h.Session, Goal: h.Goal, TurnID: h.TurnID, Timestamp: h.Timestamp, Line: h.Line}
	}
	if l.SeededFrom != nil {
		s := handoffJSON(*l.SeededFrom)
		out.SeededFrom = &s
	}
	for _, n := range l.HandedOffTo {
		out.HandedOffTo = append(out.HandedOffTo, handoffJSON(n))
	}
	if f := l.ForkedFrom; f != nil {
		out.ForkedFrom = &ledgerForkJSON{Session: f.Session, File: f.File, TurnID: f.TurnID}
	}
	for _, p := range paths {
		jp := ledgerPathJSON{Path: p, Evidence: []ledgerEvidenceJSON{}}
		for _, e := range l.Paths[p] {
			jp.Evidence = append(jp.Evidence, ledgerEvidenceJSON{Tool: e.Tool, Operation: e.Operation, TurnID: e.TurnID, Timestamp: e.Timestamp, Line: e.Line, Raw: e.Raw})
		}
		out.Paths = append(out.Paths, jp)
	}
	for _, d := range l.Board {
		out.Board = append(out.Board, ledgerDecisionJSON{
			Key: d.Key, Value: d.Value, Label: d.Label, InterviewID: d.InterviewID, DecidedAt: d.DecidedAt, Line: d.Line,
			SourceQuestion: d.SourceQuestion, Correction: d.Correction, Rationale: d.Rationale,
		})
	}
	return out
}

// encodeJSON writes v indented, without HTML escaping (goals and raw lines
// quote Markdown, "<!-- … -->" markers included), and a final newline, as
// baton check writes its JSON report.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func describeEvidence(e session.Evidence) string {
	how := "by " + e.Tool
	if e.Tool == "fileEntry" {
		how = "file entry (" + e.Operation + ")"
	}
	return fmt.Sprintf("%s, turn %s, %s, line %d", how, e.TurnID, e.Timestamp, e.Line)
}
