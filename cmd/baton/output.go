package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/term"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/server"
)

// The output formats of `baton check --format`.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	formatGitHub = "github"
	formatJUnit  = "junit"
	formatGitLab = "gitlab"
)

var formats = []string{formatText, formatJSON, formatSARIF, formatGitHub, formatJUnit, formatGitLab}

// The values of `baton check --color`.
const (
	colorAuto   = "auto"
	colorAlways = "always"
	colorNever  = "never"
)

// outputOptions are the flags that choose how findings are printed.
type outputOptions struct {
	format string
	color  string
	quiet  bool

	// counts is what the formatters of the run saw, for the summary line;
	// shared by the copies of the options (register makes it).
	counts *tally
}

func (o *outputOptions) register(fl *flag.FlagSet) {
	fl.StringVar(&o.format, "format", formatText, "output format: text, json, sarif, github (GitHub Actions workflow commands), junit (JUnit XML) or gitlab (GitLab Code Quality)")
	fl.StringVar(&o.color, "color", colorAuto, "colour the text format: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
	fl.BoolVar(&o.quiet, "quiet", false, "print the findings and errors only: no summary line")
	o.counts = &tally{}
}

func (o *outputOptions) validate() error {
	if !slices.Contains(formats, o.format) {
		return fmt.Errorf("unknown --format %q (want %s)", o.format, strings.Join(formats, ", "))
	}
	switch o.color {
	case colorAuto, colorAlways, colorNever:
		return nil
	}
	return fmt.Errorf("unknown --color %q (want auto, always or never)", o.color)
}

// fileResult is what `baton check` found in one file (or standard input).
type fileResult struct {
	name     string             // as printed; "<stdin>" for standard input
	path     string             // the file on disk; "" for standard input
	original string             // the text as read
	doc      *analysis.Document // the text the findings are about (fixed, with --fix or --diff)
	findings []analysis.Finding // in output order (sortForOutput)
	count    int                // the findings of doc, those past the cap of analysis.MaxFindings included
	fixing   analysis.Fixing    // what the safe fixes that made doc fixed and left (--fix, --diff)
}

// newResult holds the analysis of a file whose text was original.
func newResult(name, path, original string, res *analysis.Result) *fileResult {
	sortForOutput(res.Doc, res.Findings)
	return &fileResult{name: name, path: path, original: original, doc: res.Doc, findings: res.Findings, count: res.Count()}
}

// changed reports whether fixing changed the text.
func (r *fileResult) changed() bool { return r.doc.Text != r.original }

// sortForOutput orders a file's findings by line, column, rule ID and
// message, keeping the engine's order among equals. Files keep the order in
// which they were named (a folder's files sorted by path).
func sortForOutput(doc *analysis.Document, fs []analysis.Finding) {
	slices.SortStableFunc(fs, func(a, b analysis.Finding) int {
		pa := doc.Lines.Position(a.Span.Start, analysis.UTF8)
		pb := doc.Lines.Position(b.Span.Start, analysis.UTF8)
		return cmp.Or(
			cmp.Compare(pa.Line, pb.Line),
			cmp.Compare(pa.Character, pb.Character),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// A formatter prints the findings of a run in one format, as the files
// come: file is called once a file, in order, and keeps neither the result
// nor its document after it returns (only counts, names and indexes); end
// closes what the format opened (a JSON array or object, the SARIF log).
type formatter interface {
	file(r *fileResult) error
	end() error
}

// newFormatter returns the formatter of o.format, writing to w.
func newFormatter(w io.Writer, reg *analysis.Registry, o outputOptions) formatter {
	return newFormatterTo(w, w, reg, o)
}

// newFormatterTo is newFormatter for a w that buffers term: term, the
// stream the bytes end up on, decides whether the text is coloured.
func newFormatterTo(w, term io.Writer, reg *analysis.Registry, o outputOptions) formatter {
	var f formatter
	switch o.format {
	case formatJSON:
		f = &jsonFormatter{w: w}
	case formatSARIF:
		f = newSARIFFormatter(w, reg)
	case formatGitHub:
		f = &githubFormatter{w: w}
	case formatJUnit:
		f = &junitFormatter{w: w}
	case formatGitLab:
		f = &gitlabFormatter{w: w}
	default:
		f = &textFormatter{w: w, color: useColor(o.color, term, os.Getenv("NO_COLOR"))}
	}
	if o.counts != nil {
		f = counting{f, o.counts}
	}
	return f
}

// writeFindings prints results in the chosen format.
func writeFindings(w io.Writer, results []*fileResult, reg *analysis.Registry, o outputOptions) error {
	return writeAll(newFormatter(w, reg, o), results)
}

func writeAll(f formatter, results []*fileResult) error {
	for _, r := range results {
		if err := f.file(r); err != nil {
			return err
		}
	}
	return f.end()
}

// useColor decides whether the text format is coloured: always, never, or
// (auto) when w is a terminal and NO_COLOR is empty (https://no-color.org).
func useColor(mode string, w io.Writer, noColor string) bool {
	switch mode {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	return noColor == "" && isTerminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// helpURL is where a rule's documentation lives.
func helpURL(rule string) string { return server.DefaultDocsURL + "#" + analysis.Anchor(rule) }

// ANSI colours of the text format.
const (
	ansiReset = "\x1b[0m"
	ansiRule  = "\x1b[36m" // cyan
)

var severityColors = map[analysis.Severity]string{
	analysis.Error:   "\x1b[1;31m", // bold red
	analysis.Warning: "\x1b[1;33m", // bold yellow
	analysis.Info:    "\x1b[1;34m", // bold blue
	analysis.Hint:    "\x1b[1;35m", // bold magenta
}

// textFormatter prints path:line:column: severity rule-id: message, one
// finding a line (1-based; the column counts bytes).
type textFormatter struct {
	w     io.Writer
	color bool
}

func (t *textFormatter) file(r *fileResult) error {
	var b strings.Builder
	for _, f := range r.findings {
		b.WriteString(textLine(r, f, t.color) + "\n")
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// textLine is a finding as the text format prints it, without its line
// break.
func textLine(r *fileResult, f analysis.Finding, color bool) string {
	p := r.doc.Lines.Position(f.Span.Start, analysis.UTF8)
	sev, rule := f.Severity.String(), f.Rule
	if color {
		sev = severityColors[f.Severity] + sev + ansiReset
		rule = ansiRule + rule + ansiReset
	}
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", oneLineName(r.name), p.Line+1, p.Character+1, sev, rule, oneLine(f.Message))
}

func (t *textFormatter) end() error { return nil }

// oneLine keeps a text finding on one line: a message that quotes an
// error of several lines (a ledger looked for in several folders) has its
// line breaks made "; ", so no part of it reads as a line of its own.
func oneLine(msg string) string {
	if !strings.ContainsAny(msg, "\r\n") {
		return msg
	}
	parts := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "; ")
}

// oneLineName quotes a file name holding a line break or another control
// character, which would otherwise split or garble the finding's line.
func oneLineName(name string) string {
	if strings.IndexFunc(name, unicode.IsControl) < 0 {
		return name
	}
	return strconv.Quote(name)
}

// GitHub Actions workflow commands escape data (the message) and property
// values as the Actions toolkit does.
var (
	ghData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghCommand is the workflow command of a severity.
func ghCommand(s analysis.Severity) string {
	switch s {
	case analysis.Error:
		return "error"
	case analysis.Warning:
		return "warning"
	}
	return "notice"
}

// githubFormatter prints one workflow command a finding:
// ::error file=PATH,line=L,col=C,endLine=L2,endColumn=C2,title=RULE-ID::MESSAGE
// (1-based; columns in bytes; the end is the position just past the span).
type githubFormatter struct{ w io.Writer }

func (g *githubFormatter) file(r *fileResult) error {
	var b strings.Builder
	for _, f := range r.findings {
		s := r.doc.Lines.Position(f.Span.Start, analysis.UTF8)
		e := r.doc.Lines.Position(f.Span.End, analysis.UTF8)
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			ghCommand(f.Severity), ghProperty.Replace(r.name), s.Line+1, s.Character+1, e.Line+1, e.Character+1,
			ghProperty.Replace(f.Rule), ghData.Replace(f.Message))
	}
	_, err := io.WriteString(g.w, b.String())
	return err
}

func (g *githubFormatter) end() error { return nil }

func writeGitHub(w io.Writer, results []*fileResult) error {
	return writeAll(&githubFormatter{w: w}, results)
}
