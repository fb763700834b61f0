// Package report owns the printed forms of `baton check`'s findings: text,
// JSON, SARIF, GitHub Actions commands, JUnit XML, GitLab Code Quality, and
// the summary line. cmd/baton only wires them to its flags and its files:
// what a run prints, in every format, is decided here.
package report

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

	"github.com/baton-md/baton/markdown"

	"golang.org/x/term"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/server"
)

// The output formats of `baton check --format`.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatSARIF  = "sarif"
	FormatGitHub = "github"
	FormatJUnit  = "junit"
	FormatGitLab = "gitlab"
)

var formats = []string{FormatText, FormatJSON, FormatSARIF, FormatGitHub, FormatJUnit, FormatGitLab}

// Formats are the values of --format, in the order the help lists them. It
// is a copy, so that no caller can change what Validate accepts.
func Formats() []string { return slices.Clone(formats) }

// The values of `baton check --color`.
const (
	ColorAuto   = "auto"
	ColorAlways = "always"
	ColorNever  = "never"
)

// Options are the flags that choose how findings are printed, and what
// the formats say of the baton that printed them.
type Options struct {
	Format string // one of Formats
	Color  string // ColorAuto, ColorAlways or ColorNever: whether the text format is coloured
	Quiet  bool   // the findings and errors only: no summary line

	// Version is baton's version, as `baton version` prints it, which the
	// SARIF log names its driver with: the command knows it (it is linked
	// in at build time); empty is a build without one.
	Version string

	// counts is what the formatters of the run saw, for the summary line;
	// shared by the copies of the options (Register makes it).
	counts *tally
}

// Register defines --format, --color and --quiet on fl, and starts the
// count of what the run prints for its summary line.
func (o *Options) Register(fl *flag.FlagSet) {
	fl.StringVar(&o.Format, "format", FormatText, "output format: text, json, sarif, github (GitHub Actions workflow commands), junit (JUnit XML) or gitlab (GitLab Code Quality)")
	fl.StringVar(&o.Color, "color", ColorAuto, "colour the text format: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
	fl.BoolVar(&o.Quiet, "quiet", false, "print the findings and errors only: no summary line")
	o.counts = &tally{}
}

// Validate reports a --format or --color that names no format or mode, in
// words a usage error can print.
func (o *Options) Validate() error {
	if !slices.Contains(formats, o.Format) {
		return fmt.Errorf("unknown --format %q (want %s)", o.Format, strings.Join(formats, ", "))
	}
	switch o.Color {
	case ColorAuto, ColorAlways, ColorNever:
		return nil
	}
	return fmt.Errorf("unknown --color %q (want auto, always or never)", o.Color)
}

// A File is what `baton check` found in one file (or standard input), as
// the formats print it: no more, so that a formatter cannot come to depend
// on how the command read or fixed the file.
type File struct {
	Name     string             // as printed; "<stdin>" for standard input
	Doc      *markdown.Document // the text the findings are about (fixed, with --fix or --diff)
	Findings []analysis.Finding // in output order (sortForOutput)
	// Length is the length of Doc's text in bytes, kept by Light.
	Length int
}

// NewFile is the report of a document's analysis under name: res's
// findings, put in output order in place.
func NewFile(name string, res *analysis.Result) File {
	sortForOutput(res.Doc, res.Findings)
	return File{Name: name, Doc: res.Doc, Findings: res.Findings, Length: len(res.Doc.Text)}
}

// Light lets go of the text of a file with no findings, which no format
// reads: what it keeps of the document is its kind and why (the JSON
// report's) and its length (SARIF's). A run that reports files in order
// holds many such results while a long file before them is analysed.
func (r *File) Light() {
	if len(r.Findings) > 0 || r.Doc == nil {
		return
	}
	r.Doc = &markdown.Document{URI: r.Doc.URI, Kind: r.Doc.Kind, KindWhy: r.Doc.KindWhy, KindSpan: r.Doc.KindSpan, Lines: markdown.NewLineIndex("")}
}

// sortForOutput orders a file's findings by line, column, rule ID and
// message, keeping the engine's order among equals. Files keep the order in
// which they were named (a folder's files sorted by path).
func sortForOutput(doc *markdown.Document, fs []analysis.Finding) {
	slices.SortStableFunc(fs, func(a, b analysis.Finding) int {
		pa := doc.Lines.Position(a.Span.Start, markdown.UTF8)
		pb := doc.Lines.Position(b.Span.Start, markdown.UTF8)
		return cmp.Or(
			cmp.Compare(pa.Line, pb.Line),
			cmp.Compare(pa.Character, pb.Character),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// A Formatter prints the findings of a run in one format, as the files
// come: File is called once a file, in order, and keeps neither the file
// nor its document after it returns (only counts, names and indexes); End
// closes what the format opened (a JSON array or object, the SARIF log).
type Formatter interface {
	File(r *File) error
	End() error
}

// NewFormatter returns the formatter of o.Format, writing to w, which may
// buffer term: term, the stream the bytes end up on, decides whether the
// text is coloured. reg describes the rules in the SARIF log.
func NewFormatter(w, term io.Writer, reg *analysis.Registry, o Options) Formatter {
	var f Formatter
	switch o.Format {
	case FormatJSON:
		f = &jsonFormatter{w: w}
	case FormatSARIF:
		f = newSARIFFormatter(w, reg, o.Version)
	case FormatGitHub:
		f = &githubFormatter{w: w}
	case FormatJUnit:
		f = &junitFormatter{w: w}
	case FormatGitLab:
		f = &gitlabFormatter{w: w}
	default:
		f = &textFormatter{w: w, color: useColor(o.Color, term, os.Getenv("NO_COLOR"))}
	}
	if o.counts != nil {
		f = counting{f, o.counts}
	}
	return f
}

// useColor decides whether the text format is coloured: always, never, or
// (auto) when w is a terminal and NO_COLOR is empty (https://no-color.org).
func useColor(mode string, w io.Writer, noColor string) bool {
	switch mode {
	case ColorAlways:
		return true
	case ColorNever:
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
	buf   []byte // a file's lines, reused from file to file
}

func (t *textFormatter) File(r *File) error {
	if len(r.Findings) == 0 {
		return nil
	}
	b := t.buf[:0]
	name := oneLineName(r.Name)
	for _, f := range r.Findings {
		b = appendTextLine(b, r, name, f, t.color)
		b = append(b, '\n')
	}
	_, err := t.w.Write(b)
	if cap(b) <= 1<<20 {
		t.buf = b
	}
	return err
}

// textLine is a finding as the text format prints it, without its line
// break.
func textLine(r *File, f analysis.Finding, color bool) string {
	return string(appendTextLine(nil, r, oneLineName(r.Name), f, color))
}

// appendTextLine appends textLine to b; name is r's name as the line
// prints it (oneLineName). A file of thousands of findings printed them
// through a format string and two concatenations each.
func appendTextLine(b []byte, r *File, name string, f analysis.Finding, color bool) []byte {
	p := r.Doc.Lines.Position(f.Span.Start, markdown.UTF8)
	b = append(b, name...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.Line+1), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.Character+1), 10)
	b = append(b, ": "...)
	if color {
		b = append(b, severityColors[f.Severity]...)
	}
	b = append(b, f.Severity.String()...)
	if color {
		b = append(b, ansiReset...)
	}
	b = append(b, ' ')
	if color {
		b = append(b, ansiRule...)
	}
	b = append(b, f.Rule...)
	if color {
		b = append(b, ansiReset...)
	}
	b = append(b, ": "...)
	return append(b, oneLine(f.Message)...)
}

func (t *textFormatter) End() error { return nil }

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

func (g *githubFormatter) File(r *File) error {
	var b strings.Builder
	for _, f := range r.Findings {
		s := r.Doc.Lines.Position(f.Span.Start, markdown.UTF8)
		e := r.Doc.Lines.Position(f.Span.End, markdown.UTF8)
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			ghCommand(f.Severity), ghProperty.Replace(r.Name), s.Line+1, s.Character+1, e.Line+1, e.Character+1,
			ghProperty.Replace(f.Rule), ghData.Replace(f.Message))
	}
	_, err := io.WriteString(g.w, b.String())
	return err
}

func (g *githubFormatter) End() error { return nil }
