package session

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// What `baton ledger` prints of a session: its ledger as text for a
// person (WriteLedger) or as JSON for a program (WriteLedgerJSON,
// docs/ledger-json.md).

// sortedPaths are the ledger's paths in order.
func (l *Ledger) sortedPaths() []string {
	paths := make([]string, 0, len(l.Paths))
	for p := range l.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// WriteLedger writes l for a person: the session, where it came from and
// went, the read ledger with each path's evidence, the decision board and
// what was skipped.
func WriteLedger(w io.Writer, l *Ledger) {
	paths := l.sortedPaths()
	fmt.Fprintf(w, "session %s (%s)\ncwd %s\n", l.SessionID, l.Dir, l.Cwd)
	// Where the work came from and where it went, as clio recorded it.
	if f := l.ForkedFrom; f != nil {
		from := f.Session
		if from == "" {
			from = f.File
		}
		fmt.Fprintf(w, "forked from session %s at turn %s\n", from, f.TurnID)
	}
	if s := l.SeededFrom; s != nil {
		fmt.Fprintf(w, "handed off from session %s (line %d, %s): %s\n", s.Session, s.Line, s.Timestamp, s.Goal)
	}
	for _, n := range l.HandedOffTo {
		fmt.Fprintf(w, "handed off to session %s (line %d, %s): %s\n", n.Session, n.Line, n.Timestamp, n.Goal)
	}
	fmt.Fprintf(w, "\nread ledger: %d paths\n", len(paths))
	for _, p := range paths {
		fmt.Fprintf(w, "  %s\n", p)
		for _, e := range l.Paths[p] {
			fmt.Fprintf(w, "      %s\n", describeEvidence(e))
		}
	}
	fmt.Fprintf(w, "\ndecision board: %d active\n", len(l.Board))
	for _, d := range l.Board {
		label := d.Label
		if label == "" {
			label = d.Key
		}
		fmt.Fprintf(w, "  %s: %s  (interview %s, line %d)\n", label, d.Value, d.InterviewID, d.Line)
	}
	if len(l.InvalidLines) > 0 || l.TornLastLine {
		fmt.Fprintf(w, "\nskipped: %d invalid lines %v, torn last line: %v\n", len(l.InvalidLines), l.InvalidLines, l.TornLastLine)
	}
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
func ledgerJSONOf(l *Ledger, paths []string) ledgerJSON {
	out := ledgerJSON{
		Version: ledgerJSONVersion, Session: l.SessionID, Dir: l.Dir, Cwd: l.Cwd,
		Paths: []ledgerPathJSON{}, Board: []ledgerDecisionJSON{},
		InvalidLines: append([]int{}, l.InvalidLines...), TornLastLine: l.TornLastLine,
		Warnings:    append([]string{}, l.Warnings...),
		HandedOffTo: []ledgerHandoffJSON{},
	}
	handoffJSON := func(h Handoff) ledgerHandoffJSON {
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

// WriteLedgerJSON writes l as `baton ledger --json` prints it, indented,
// without HTML escaping (goals and raw lines quote Markdown, "<!-- … -->"
// markers included), and a final newline, as baton check writes its JSON
// report.
func WriteLedgerJSON(w io.Writer, l *Ledger) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(ledgerJSONOf(l, l.sortedPaths()))
}

func describeEvidence(e Evidence) string {
	how := "by " + e.Tool
	if e.Tool == "fileEntry" {
		how = "file entry (" + e.Operation + ")"
	}
	return fmt.Sprintf("%s, turn %s, %s, line %d", how, e.TurnID, e.Timestamp, e.Line)
}
