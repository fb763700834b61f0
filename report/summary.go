package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/baton-md/baton/analysis"
)

// tally counts what a run reported: its files, those with findings, and
// the findings at each severity.
type tally struct {
	Files    int `json:"files"`
	flagged  int // files with at least one finding
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Hints    int `json:"hints"`
}

func (t *tally) add(r *File) {
	t.Files++
	if len(r.Findings) > 0 {
		t.flagged++
	}
	for _, f := range r.Findings {
		switch f.Severity {
		case analysis.Error:
			t.Errors++
		case analysis.Warning:
			t.Warnings++
		case analysis.Info:
			t.Infos++
		case analysis.Hint:
			t.Hints++
		}
	}
}

// counting is a formatter that also counts, into a tally the run's
// summary line reads.
type counting struct {
	Formatter
	t *tally
}

func (c counting) File(r *File) error {
	c.t.add(r)
	return c.Formatter.File(r)
}

// plural is "1 error", "2 errors".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// line is the summary of a run: "3 errors, 1 warning in 2 of 14 files",
// "14 files, no problems", "no files checked".
func (t *tally) line() string {
	if t.Files == 0 {
		return "no files checked"
	}
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{t.Errors, "error"}, {t.Warnings, "warning"}, {t.Infos, "info"}, {t.Hints, "hint"}} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.name))
		}
	}
	if len(parts) == 0 {
		return plural(t.Files, "file") + ", no problems"
	}
	where := plural(t.Files, "file")
	if t.flagged < t.Files {
		where = strconv.Itoa(t.flagged) + " of " + where
	}
	return strings.Join(parts, ", ") + " in " + where
}

// Summarize prints the run's summary line on stderr, for a person at a
// terminal: in the text format, without --quiet, and only when stderr is
// a terminal, so that no pipe, file or CI log ever gets it. It goes to
// stderr, the stream that does not carry the findings (markdownlint-cli2
// likewise keeps its "Summary:" line off the findings' stream), so what
// standard output carries is the findings alone, byte for byte.
func (o *Options) Summarize(stderr io.Writer) {
	if o.Format != FormatText || o.Quiet || o.counts == nil || !isTerminal(stderr) {
		return
	}
	fmt.Fprintln(stderr, o.counts.line())
}
