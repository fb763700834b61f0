package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// jsonFormatVersion is the "version" of the JSON output: it changes only
// when a field changes meaning or goes away (docs/json-format.md).
const jsonFormatVersion = 1

// The JSON format, documented in docs/json-format.md.
type (
	jsonFile struct {
		Path     string        `json:"path"`
		Kind     string        `json:"kind"`
		Reason   string        `json:"kind_reason"`
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
)

func jsonPos(doc *markdown.Document, offset int) jsonPosition {
	p := doc.Lines.Position(offset, markdown.UTF8)
	return jsonPosition{Line: p.Line + 1, Column: p.Character + 1, Offset: offset}
}

func jsonFindingOf(doc *markdown.Document, f analysis.Finding) jsonFinding {
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

// encodeIndented is v indented, without HTML escaping (messages quote
// "<!-- … -->" markers), each line after the first starting with prefix
// (v's place in an enclosing document), and no final newline.
func encodeIndented(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonFormatter writes the JSON report a file at a time: the opening and
// each file as they come, the summary (a tally, the only thing it keeps)
// at the end. The bytes are those of the whole report encoded at once,
// indented as encodeIndented indents its parts, with a final newline.
type jsonFormatter struct {
	w       io.Writer
	started bool
	summary tally
}

func (j *jsonFormatter) File(r *File) error {
	jf := jsonFile{Path: r.Name, Kind: r.Doc.Kind.ID(), Reason: r.Doc.KindWhy, Findings: []jsonFinding{}}
	for _, f := range r.Findings {
		jf.Findings = append(jf.Findings, jsonFindingOf(r.Doc, f))
	}
	j.summary.add(r)
	b, err := encodeIndented(jf, "    ")
	if err != nil {
		return err
	}
	sep := ",\n    "
	if !j.started {
		sep = "{\n  \"version\": " + strconv.Itoa(jsonFormatVersion) + ",\n  \"files\": [\n    "
		j.started = true
	}
	_, err = io.WriteString(j.w, sep+string(b))
	return err
}

func (j *jsonFormatter) End() error {
	closing := "\n  ]"
	if !j.started {
		closing = "{\n  \"version\": " + strconv.Itoa(jsonFormatVersion) + ",\n  \"files\": []"
	}
	b, err := encodeIndented(j.summary, "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(j.w, closing+",\n  \"summary\": "+string(b)+"\n}\n")
	return err
}
