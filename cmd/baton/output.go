package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
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
)

var formats = []string{formatText, formatJSON, formatSARIF, formatGitHub}

// The values of `baton check --color`.
const (
	colorAuto   = "auto"
	colorAlways = "always"
	colorNever  = "never"
)

// jsonFormatVersion is the "version" of the JSON output: it changes only
// when a field changes meaning or goes away (docs/json-format.md).
const jsonFormatVersion = 1

// informationURI is baton's home, named in SARIF output.
const informationURI = "https://github.com/baton-md/baton"

// outputOptions are the flags that choose how findings are printed.
type outputOptions struct {
	format string
	color  string
}

func (o *outputOptions) register(fl *flag.FlagSet) {
	fl.StringVar(&o.format, "format", formatText, "output format: text, json, sarif or github (GitHub Actions workflow commands)")
	fl.StringVar(&o.color, "color", colorAuto, "colour the text format: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
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
}

// newResult holds the analysis of a file whose text was original.
func newResult(name, path, original string, res *analysis.Result) *fileResult {
	sortForOutput(res.Doc, res.Findings)
	return &fileResult{name: name, path: path, original: original, doc: res.Doc, findings: res.Findings}
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

// writeFindings prints results in the chosen format.
func writeFindings(w io.Writer, results []*fileResult, reg *analysis.Registry, o outputOptions) error {
	switch o.format {
	case formatJSON:
		return writeJSON(w, results)
	case formatSARIF:
		return writeSARIF(w, results, reg)
	case formatGitHub:
		return writeGitHub(w, results)
	}
	return writeText(w, results, useColor(o.color, w, os.Getenv("NO_COLOR")))
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

// writeText prints path:line:column: severity rule-id: message, one finding
// a line (1-based; the column counts bytes).
func writeText(w io.Writer, results []*fileResult, color bool) error {
	var b strings.Builder
	for _, r := range results {
		for _, f := range r.findings {
			p := r.doc.Lines.Position(f.Span.Start, analysis.UTF8)
			sev, rule := f.Severity.String(), f.Rule
			if color {
				sev = severityColors[f.Severity] + sev + ansiReset
				rule = ansiRule + rule + ansiReset
			}
			fmt.Fprintf(&b, "%s:%d:%d: %s %s: %s\n", oneLineName(r.name), p.Line+1, p.Character+1, sev, rule, oneLine(f.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

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

// The JSON format, documented in docs/json-format.md.
type (
	jsonReport struct {
		Version int         `json:"version"`
		Files   []jsonFile  `json:"files"`
		Summary jsonSummary `json:"summary"`
	}
	jsonFile struct {
		Path     string        `json:"path"`
		Kind     string        `json:"kind"`
		Findings []jsonFinding `json:"findings"`
	}
	jsonFinding struct {
		Rule     string        `json:"rule"`
		Severity string        `json:"severity"`
		Message  string        `json:"message"`
		Start    jsonPosition  `json:"start"`
		End      jsonPosition  `json:"end"`
		Related  []jsonRelated `json:"related"`
		Fixes    []jsonFix     `json:"fixes"`
		Help     string        `json:"help"`
	}
	jsonPosition struct {
		Line   int `json:"line"`   // 1-based
		Column int `json:"column"` // 1-based, in bytes
		Offset int `json:"offset"` // 0-based, in bytes
	}
	jsonRelated struct {
		Message string       `json:"message"`
		Start   jsonPosition `json:"start"`
		End     jsonPosition `json:"end"`
	}
	jsonFix struct {
		Title string     `json:"title"`
		Safe  bool       `json:"safe"`
		Edits []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		Start   jsonPosition `json:"start"`
		End     jsonPosition `json:"end"`
		NewText string       `json:"new_text"`
	}
	jsonSummary struct {
		Files    int `json:"files"`
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Infos    int `json:"infos"`
		Hints    int `json:"hints"`
	}
)

// kindID names a document kind in the JSON format.
func kindID(k analysis.Kind) string {
	switch k {
	case analysis.KindPacket:
		return "packet"
	case analysis.KindHandoff:
		return "handoff"
	case analysis.KindWorkflow:
		return "workflow"
	}
	return "other"
}

func jsonPos(doc *analysis.Document, offset int) jsonPosition {
	p := doc.Lines.Position(offset, analysis.UTF8)
	return jsonPosition{Line: p.Line + 1, Column: p.Character + 1, Offset: offset}
}

func buildJSON(results []*fileResult) jsonReport {
	rep := jsonReport{Version: jsonFormatVersion, Files: []jsonFile{}}
	for _, r := range results {
		jf := jsonFile{Path: r.name, Kind: kindID(r.doc.Kind), Findings: []jsonFinding{}}
		for _, f := range r.findings {
			jf.Findings = append(jf.Findings, jsonFindingOf(r.doc, f))
			switch f.Severity {
			case analysis.Error:
				rep.Summary.Errors++
			case analysis.Warning:
				rep.Summary.Warnings++
			case analysis.Info:
				rep.Summary.Infos++
			case analysis.Hint:
				rep.Summary.Hints++
			}
		}
		rep.Files = append(rep.Files, jf)
	}
	rep.Summary.Files = len(rep.Files)
	return rep
}

func jsonFindingOf(doc *analysis.Document, f analysis.Finding) jsonFinding {
	jf := jsonFinding{
		Rule:     f.Rule,
		Severity: f.Severity.String(),
		Message:  f.Message,
		Start:    jsonPos(doc, f.Span.Start),
		End:      jsonPos(doc, f.Span.End),
		Related:  []jsonRelated{},
		Fixes:    []jsonFix{},
		Help:     helpURL(f.Rule),
	}
	for _, rel := range f.Related {
		jf.Related = append(jf.Related, jsonRelated{Message: rel.Message, Start: jsonPos(doc, rel.Span.Start), End: jsonPos(doc, rel.Span.End)})
	}
	for _, fix := range f.Fixes {
		jx := jsonFix{Title: fix.Title, Safe: fix.Safe, Edits: []jsonEdit{}}
		for _, e := range fix.Edits {
			jx.Edits = append(jx.Edits, jsonEdit{Start: jsonPos(doc, e.Span.Start), End: jsonPos(doc, e.Span.End), NewText: e.NewText})
		}
		jf.Fixes = append(jf.Fixes, jx)
	}
	return jf
}

// encodeJSON writes v indented, without HTML escaping (messages quote
// "<!-- … -->" markers), and a final newline.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeJSON(w io.Writer, results []*fileResult) error {
	return encodeJSON(w, buildJSON(results))
}

// sarifLevel is the SARIF level of a severity.
func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.Error:
		return sarif.LevelError
	case analysis.Warning:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// artifactURI is a file's SARIF artifact URI: its path relative to the
// working directory when it lies below it (percent-encoded as a URI
// reference), else an absolute file: URI.
func artifactURI(path string) string {
	if filepath.IsAbs(path) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(rel) {
				path = rel
			}
		}
	}
	if filepath.IsAbs(path) {
		p := filepath.ToSlash(path)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive letter
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	// url.URL adds "./" before a first segment holding a colon, which
	// would otherwise read as a scheme.
	return (&url.URL{Path: filepath.ToSlash(path)}).String()
}

// sarifRegion is a span as a SARIF region: 1-based lines and columns, the
// columns in UTF-16 code units (the run's columnKind), and the byte offset
// and length.
func sarifRegion(doc *analysis.Document, span analysis.Span) *sarif.Region {
	start := doc.Lines.Position(span.Start, analysis.UTF16)
	end := doc.Lines.Position(span.End, analysis.UTF16)
	r := sarif.NewRegion()
	r.StartLine, r.StartColumn = new(start.Line+1), new(start.Character+1)
	r.EndLine, r.EndColumn = new(end.Line+1), new(end.Character+1)
	r.ByteOffset, r.ByteLength = span.Start, new(span.Len())
	return r
}

func sarifArtifactLocation(uri string, index int) *sarif.ArtifactLocation {
	l := sarif.NewArtifactLocation()
	l.URI, l.Index = new(uri), index
	return l
}

func sarifMessage(text string) *sarif.Message {
	m := sarif.NewMessage()
	m.Text = new(text)
	return m
}

func sarifLocation(doc *analysis.Document, uri string, index int, span analysis.Span) *sarif.Location {
	l := sarif.NewLocation()
	l.PhysicalLocation = sarif.NewPhysicalLocation()
	l.PhysicalLocation.ArtifactLocation = sarifArtifactLocation(uri, index)
	l.PhysicalLocation.Region = sarifRegion(doc, span)
	return l
}

// buildSARIF makes a SARIF 2.1.0 log of one run: baton with every rule of
// the registry, one artifact per file checked, one result per finding.
func buildSARIF(results []*fileResult, reg *analysis.Registry) *sarif.Report {
	run := sarif.NewRunWithInformationURI("baton", informationURI)
	run.Tool.Driver.Version = new(versionString())
	run.ColumnKind = new("utf16CodeUnits")
	ruleIndex := map[string]int{}
	for i, r := range reg.Rules() {
		d := sarif.NewReportingDescriptor()
		doc := strings.TrimSpace(r.Doc)
		d.ID = new(r.ID)
		d.ShortDescription = &sarif.MultiformatMessageString{Text: new(r.Summary)}
		d.FullDescription = &sarif.MultiformatMessageString{Text: new(doc), Markdown: new(doc)}
		d.Help = &sarif.MultiformatMessageString{Text: new(doc), Markdown: new(doc)}
		d.HelpURI = new(helpURL(r.ID))
		d.DefaultConfiguration = sarif.NewReportingConfiguration()
		d.DefaultConfiguration.Level = sarifLevel(r.Severity)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, d)
		ruleIndex[r.ID] = i
	}
	for i, fr := range results {
		uri := artifactURI(fr.name)
		a := sarif.NewArtifact()
		a.Location = sarifArtifactLocation(uri, -1) // an artifact's own location has no index
		a.Length = len(fr.doc.Text)
		a.SourceLanguage = new("markdown")
		a.Roles = []string{"analysisTarget"}
		run.Artifacts = append(run.Artifacts, a)
		for _, f := range fr.findings {
			res := sarif.NewResult()
			res.RuleID = new(f.Rule)
			if idx, ok := ruleIndex[f.Rule]; ok {
				res.RuleIndex = idx
			}
			res.Level = sarifLevel(f.Severity)
			res.Message = sarifMessage(f.Message)
			res.Locations = []*sarif.Location{sarifLocation(fr.doc, uri, i, f.Span)}
			for j, rel := range f.Related {
				l := sarifLocation(fr.doc, uri, i, rel.Span)
				l.ID = j + 1
				l.Message = sarifMessage(rel.Message)
				res.RelatedLocations = append(res.RelatedLocations, l)
			}
			for _, fix := range f.Fixes {
				change := sarif.NewArtifactChange()
				change.ArtifactLocation = sarifArtifactLocation(uri, i)
				for _, e := range fix.Edits {
					rep := sarif.NewReplacement()
					rep.DeletedRegion = sarifRegion(fr.doc, e.Span)
					if e.NewText != "" {
						rep.InsertedContent = &sarif.ArtifactContent{Text: new(e.NewText)}
					}
					change.Replacements = append(change.Replacements, rep)
				}
				sf := sarif.NewFix()
				sf.Description = sarifMessage(fix.Title)
				sf.ArtifactChanges = []*sarif.ArtifactChange{change}
				sf.Properties = sarif.NewPropertyBag().Add("safe", fix.Safe)
				res.Fixes = append(res.Fixes, sf)
			}
			run.AddResult(res)
		}
	}
	return sarif.NewReport().AddRun(run)
}

func writeSARIF(w io.Writer, results []*fileResult, reg *analysis.Registry) error {
	return encodeJSON(w, buildSARIF(results, reg))
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

// writeGitHub prints one workflow command a finding:
// ::error file=PATH,line=L,col=C,endLine=L2,endColumn=C2,title=RULE-ID::MESSAGE
// (1-based; columns in bytes; the end is the position just past the span).
func writeGitHub(w io.Writer, results []*fileResult) error {
	var b strings.Builder
	for _, r := range results {
		for _, f := range r.findings {
			s := r.doc.Lines.Position(f.Span.Start, analysis.UTF8)
			e := r.doc.Lines.Position(f.Span.End, analysis.UTF8)
			fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
				ghCommand(f.Severity), ghProperty.Replace(r.name), s.Line+1, s.Character+1, e.Line+1, e.Character+1,
				ghProperty.Replace(f.Rule), ghData.Replace(f.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
