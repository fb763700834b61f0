package main

import (
	"io"
	"os"

	"github.com/baton-md/baton/analysis"
)

// findingsStream writes the findings of one file at a time, in the chosen
// format. file must not keep r once it returns: the run's memory is then
// bounded by the files in flight. end closes the output.
type findingsStream interface {
	file(r *fileResult) error
	end() error
}

// newFindingsStream writes to w; term is the writer w buffers, which
// decides whether the text format is coloured.
func newFindingsStream(w io.Writer, term io.Writer, reg *analysis.Registry, o outputOptions) findingsStream {
	switch o.format {
	case formatText:
		color := useColor(o.color, term, os.Getenv("NO_COLOR"))
		return lineStream(func(r *fileResult) error { return writeText(w, []*fileResult{r}, color) })
	case formatGitHub:
		return lineStream(func(r *fileResult) error { return writeGitHub(w, []*fileResult{r}) })
	}
	return &documentStream{w: w, reg: reg, o: o}
}

// lineStream is a format of one line a finding: each file is written as it
// comes.
type lineStream func(r *fileResult) error

func (s lineStream) file(r *fileResult) error { return s(r) }
func (s lineStream) end() error               { return nil }

// documentStream is a format that is one document (JSON, SARIF): it holds
// every file's result until the end.
type documentStream struct {
	w       io.Writer
	reg     *analysis.Registry
	o       outputOptions
	results []*fileResult
}

func (s *documentStream) file(r *fileResult) error {
	s.results = append(s.results, r)
	return nil
}

func (s *documentStream) end() error { return writeFindings(s.w, s.results, s.reg, s.o) }
