package report

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// informationURI is baton's home, named in SARIF output.
const informationURI = "https://github.com/baton-md/baton"

// sarifSchema is the "$schema" of a SARIF 2.1.0 log (§3.13.3): the
// schema's address in the JSON Schema Store, which editors resolve.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the part
// of it baton writes. An index that SARIF would have as -1 ("unset") is
// left out, as §3.4 allows, and so is every empty array.
type (
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name            string           `json:"name"`
		Version         string           `json:"version,omitempty"`
		SemanticVersion string           `json:"semanticVersion,omitempty"`
		InformationURI  string           `json:"informationUri"`
		Rules           []sarifReporting `json:"rules,omitempty"`
	}
	// sarifReporting is a reportingDescriptor: a rule.
	sarifReporting struct {
		ID                   string              `json:"id"`
		ShortDescription     *sarifMultiformat   `json:"shortDescription,omitempty"`
		FullDescription      *sarifMultiformat   `json:"fullDescription,omitempty"`
		HelpURI              string              `json:"helpUri,omitempty"`
		Help                 *sarifMultiformat   `json:"help,omitempty"` // GitHub code scanning requires it
		DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
	}
	sarifMultiformat struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifArtifact struct {
		Location       sarifArtifactLocation `json:"location"`
		Length         int                   `json:"length"`
		SourceLanguage string                `json:"sourceLanguage"`
		Roles          []string              `json:"roles"`
	}
	sarifArtifactLocation struct {
		URI   string `json:"uri"`
		Index *int   `json:"index,omitempty"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        *int            `json:"ruleIndex,omitempty"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               int                   `json:"id,omitempty"` // related locations count from 1
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
		Message          *sarifMessage         `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           sarifRegion           `json:"region"`
	}
	// sarifRegion has 1-based lines and columns, the columns in UTF-16
	// code units (the run's columnKind), and the byte offset and length.
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
		ByteOffset  int `json:"byteOffset"`
		ByteLength  int `json:"byteLength"`
	}
	sarifFix struct {
		Description     sarifMessage       `json:"description"`
		ArtifactChanges []sarifChange      `json:"artifactChanges"`
		Properties      sarifFixProperties `json:"properties"`
	}
	sarifFixProperties struct {
		Safe bool `json:"safe"` // baton check --fix applies it
	}
	sarifChange struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Replacements     []sarifReplacement    `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion           `json:"deletedRegion"`
		InsertedContent *sarifArtifactContent `json:"insertedContent,omitempty"`
	}
	sarifArtifactContent struct {
		Text string `json:"text"`
	}
)

// sarifLevel is the SARIF level of a severity.
func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.Error:
		return "error"
	case analysis.Warning:
		return "warning"
	}
	return "note"
}

// belowWD is an absolute path relative to the working directory when it
// lies below it; any other path as it is.
func belowWD(path string) string {
	if filepath.IsAbs(path) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(rel) {
				return rel
			}
		}
	}
	return path
}

// artifactURI is a file's SARIF artifact URI: its path relative to the
// working directory when it lies below it (percent-encoded as a URI
// reference), else an absolute file: URI.
func artifactURI(path string) string {
	path = belowWD(path)
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

func sarifRegionOf(doc *markdown.Document, span markdown.Span) sarifRegion {
	start := doc.Lines.Position(span.Start, markdown.UTF16)
	end := doc.Lines.Position(span.End, markdown.UTF16)
	return sarifRegion{
		StartLine: start.Line + 1, StartColumn: start.Character + 1,
		EndLine: end.Line + 1, EndColumn: end.Character + 1,
		ByteOffset: span.Start, ByteLength: span.Len(),
	}
}

// semverRE is a semantic version (https://semver.org, 2.0.0) without a
// leading "v"; numericLeadingZero is a pre-release identifier it lets
// through though semver forbids it.
var (
	semverRE           = lazyre.New(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)
	numericLeadingZero = lazyre.New(`^0[0-9]+$`)
)

// develVersion stands for the version of a build that has none
// ("(devel)"): as in Go's pseudo-versions, 0.0.0 is "before any release".
const develVersion = "0.0.0-devel"

// sarifVersions are the driver's version and semanticVersion for baton's
// version v: v without a leading "v" (the Multitool's SARIF2005 asks for
// a version that starts with a number), and the same as the semantic
// version when it is one.
func sarifVersions(v string) (version, semantic string) {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return develVersion, develVersion
	}
	m := semverRE.FindStringSubmatch(v)
	if m == nil {
		return v, ""
	}
	if m[5] != "" {
		for id := range strings.SplitSeq(m[5], ".") {
			if numericLeadingZero.MatchString(id) {
				return v, ""
			}
		}
	}
	return v, v
}

// firstParagraph is a rule's documentation up to its first blank line, on
// one line: the SARIF fullDescription, while helpUri leads to the rest.
func firstParagraph(doc string) string {
	doc = strings.TrimSpace(strings.ReplaceAll(doc, "\r\n", "\n"))
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	return strings.Join(strings.Fields(doc), " ")
}

// sarifFormatter writes a SARIF 2.1.0 log of one run a file at a time:
// the results as each file comes, then the artifacts (one per file) and
// the tool, whose rules are those that fired, in the order they first
// did. It keeps the artifacts and the rule indexes only.
type sarifFormatter struct {
	w         io.Writer
	reg       *analysis.Registry
	version   string // baton's, as Options.Version has it
	artifacts []sarifArtifact
	rules     []sarifReporting
	ruleIndex map[string]int
	results   int // written so far
}

func newSARIFFormatter(w io.Writer, reg *analysis.Registry, version string) *sarifFormatter {
	return &sarifFormatter{w: w, reg: reg, version: version, ruleIndex: map[string]int{}}
}

// The log around the results: they are the run's first member, so that
// they can be written as they come.
const (
	sarifOpening = "{\n  \"$schema\": \"" + sarifSchema + "\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"columnKind\": \"utf16CodeUnits\",\n      \"results\": ["
	sarifIndent  = "        " // a result's place in the log
)

// rule returns the index of a rule's descriptor, adding it when the rule
// first fires.
func (s *sarifFormatter) rule(id string) int {
	if i, ok := s.ruleIndex[id]; ok {
		return i
	}
	d := sarifReporting{ID: id}
	if r := s.reg.Rule(id); r != nil {
		d.ShortDescription = &sarifMultiformat{Text: r.Summary}
		d.HelpURI = helpURL(r.ID)
		if p := firstParagraph(r.Doc); p != "" {
			d.FullDescription = &sarifMultiformat{Text: p}
			d.Help = &sarifMultiformat{Text: p + " " + d.HelpURI, Markdown: p + " [Read more](" + d.HelpURI + ")."}
		}
		d.DefaultConfiguration = &sarifConfiguration{Level: sarifLevel(r.Severity)}
	}
	s.rules = append(s.rules, d)
	s.ruleIndex[id] = len(s.rules) - 1
	return len(s.rules) - 1
}

func (s *sarifFormatter) File(fr *File) error {
	index := len(s.artifacts)
	uri := artifactURI(fr.Name)
	s.artifacts = append(s.artifacts, sarifArtifact{
		Location:       sarifArtifactLocation{URI: uri},
		Length:         fr.Length,
		SourceLanguage: "markdown",
		Roles:          []string{"analysisTarget"},
	})
	at := sarifArtifactLocation{URI: uri, Index: &index}
	location := func(span markdown.Span) sarifLocation {
		return sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: at, Region: sarifRegionOf(fr.Doc, span)}}
	}
	var b strings.Builder
	for _, f := range fr.Findings {
		res := sarifResult{
			RuleID:    f.Rule,
			Level:     sarifLevel(f.Severity),
			Message:   sarifMessage{Text: f.Message},
			Locations: []sarifLocation{location(f.Span)},
		}
		res.RuleIndex = new(s.rule(f.Rule))
		for j, rel := range f.Related {
			l := location(rel.Span)
			l.ID = j + 1
			l.Message = &sarifMessage{Text: rel.Message}
			res.RelatedLocations = append(res.RelatedLocations, l)
		}
		for _, fix := range f.Fixes {
			change := sarifChange{ArtifactLocation: at}
			for _, e := range fix.Edits {
				rep := sarifReplacement{DeletedRegion: sarifRegionOf(fr.Doc, e.Span)}
				if e.NewText != "" {
					rep.InsertedContent = &sarifArtifactContent{Text: e.NewText}
				}
				change.Replacements = append(change.Replacements, rep)
			}
			res.Fixes = append(res.Fixes, sarifFix{
				Description:     sarifMessage{Text: fix.Title},
				ArtifactChanges: []sarifChange{change},
				Properties:      sarifFixProperties{Safe: fix.Safe},
			})
		}
		enc, err := encodeIndented(res, sarifIndent)
		if err != nil {
			return err
		}
		if s.results == 0 {
			b.WriteString(sarifOpening)
		} else {
			b.WriteString(",")
		}
		b.WriteString("\n" + sarifIndent)
		b.Write(enc)
		s.results++
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}

func (s *sarifFormatter) End() error {
	var b strings.Builder
	if s.results == 0 {
		b.WriteString(sarifOpening + "]")
	} else {
		b.WriteString("\n      ]")
	}
	if len(s.artifacts) > 0 {
		enc, err := encodeIndented(s.artifacts, "      ")
		if err != nil {
			return err
		}
		b.WriteString(",\n      \"artifacts\": ")
		b.Write(enc)
	}
	version, semantic := sarifVersions(s.version)
	tool := sarifTool{Driver: sarifDriver{Name: "baton", Version: version, SemanticVersion: semantic, InformationURI: informationURI, Rules: s.rules}}
	enc, err := encodeIndented(tool, "      ")
	if err != nil {
		return err
	}
	b.WriteString(",\n      \"tool\": ")
	b.Write(enc)
	b.WriteString("\n    }\n  ]\n}\n")
	_, err = io.WriteString(s.w, b.String())
	return err
}
