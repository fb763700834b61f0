package report

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/report/reporttest"
)

// analyzed is the file baton check would report for a document.
func analyzed(t *testing.T, reg *analysis.Registry, name, text string) *File {
	t.Helper()
	r := NewFile(name, reg.Analyze(markdown.Parse(name, text), nil))
	r.Doc.DropSyntax()
	return &r
}

var machineFormats = []string{FormatText, FormatJSON, FormatSARIF, FormatGitHub, FormatJUnit, FormatGitLab}

// TestFormattersKeepNoDocument checks that no formatter holds on to a
// file, or its document, once File has returned: each is collected
// before End is called, so peak memory does not grow with the run.
func TestFormattersKeepNoDocument(t *testing.T) {
	reg := engine.Registry()
	for _, format := range machineFormats {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			o := Options{Format: format, Color: ColorNever, counts: &tally{}}
			f := NewFormatter(&out, &out, reg, o)
			// Cleanups run one at a time: a send must never block them,
			// even one that comes after the test has stopped reading.
			collected := make(chan string, 6)
			done := func(name string) {
				select {
				case collected <- name:
				default:
				}
			}
			for i, text := range []string{reporttest.MissingSection, reporttest.MarkerAndHeading, reporttest.OutOfOrder} {
				r := analyzed(t, reg, fmt.Sprintf("f%d.md", i), text)
				runtime.AddCleanup(r.Doc, done, r.Name)
				runtime.AddCleanup(r, done, r.Name+" result")
				if err := f.File(r); err != nil {
					t.Fatal(err)
				}
			}
			seen := map[string]bool{}
			deadline := time.Now().Add(10 * time.Second)
			for len(seen) < 6 && time.Now().Before(deadline) {
				runtime.GC()
				select {
				case name := <-collected:
					seen[name] = true
				case <-time.After(10 * time.Millisecond):
				}
			}
			if len(seen) < 6 {
				t.Errorf("after File returned, %d of 6 results and documents were still held: collected %v", 6-len(seen), seen)
			}
			if err := f.End(); err != nil {
				t.Fatal(err)
			}
			if o.counts.Files != 3 {
				t.Errorf("the run's tally counted %d files, want 3", o.counts.Files)
			}
		})
	}
}

// TestFormattersWriteAsTheyGo checks that each format writes a file's
// findings when it is handed the file, not at the end.
func TestFormattersWriteAsTheyGo(t *testing.T) {
	reg := engine.Registry()
	for _, format := range machineFormats {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			f := NewFormatter(&out, &out, reg, Options{Format: format, Color: ColorNever})
			if err := f.File(analyzed(t, reg, "first.md", reporttest.MissingSection)); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "packet/missing-section") {
				t.Errorf("after the first file, the output is %q", out.String())
			}
			if err := f.End(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// jsonReportForTest is the whole JSON report as one value, to compare the
// streamed bytes with what encoding it at once gives.
type jsonReportForTest struct {
	Version int        `json:"version"`
	Files   []jsonFile `json:"files"`
	Summary tally      `json:"summary"`
}

// TestJSONStreamIsOneDocument checks that the JSON written a file at a time
// is, byte for byte, the report encoded whole.
func TestJSONStreamIsOneDocument(t *testing.T) {
	reg := engine.Registry()
	for _, texts := range [][]string{nil, {reporttest.Clean}, {reporttest.MissingSection, reporttest.Clean, reporttest.OutOfOrder, reporttest.NearMiss}} {
		var results []*File
		whole := jsonReportForTest{Version: jsonFormatVersion, Files: []jsonFile{}}
		for i, text := range texts {
			r := analyzed(t, reg, fmt.Sprintf("f%d.md", i), text)
			results = append(results, r)
			jf := jsonFile{Path: r.Name, Kind: r.Doc.Kind.ID(), Reason: r.Doc.KindWhy, Findings: []jsonFinding{}}
			for _, f := range r.Findings {
				jf.Findings = append(jf.Findings, jsonFindingOf(r.Doc, f))
			}
			whole.Files = append(whole.Files, jf)
			whole.Summary.add(r)
		}
		var want, got bytes.Buffer
		if err := encodeJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		if err := writeAll(NewFormatter(&got, &got, reg, Options{Format: FormatJSON}), results); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("%d files: streamed JSON differs from the whole report (-whole +streamed):\n%s", len(texts), diff)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	for _, tc := range []struct {
		t    tally
		want string
	}{
		{tally{}, "no files checked"},
		{tally{Files: 1}, "1 file, no problems"},
		{tally{Files: 14}, "14 files, no problems"},
		{tally{Files: 14, flagged: 2, Errors: 3, Warnings: 1}, "3 errors, 1 warning in 2 of 14 files"},
		{tally{Files: 2, flagged: 2, Infos: 2, Hints: 1}, "2 infos, 1 hint in 2 files"},
		{tally{Files: 1, flagged: 1, Warnings: 2}, "2 warnings in 1 file"},
	} {
		if got := tc.t.line(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.t, got, tc.want)
		}
	}
}

// TestLightChangesNoReport: a file with no findings reports the same in
// every format once Light has let go of its text; one with findings keeps
// its document.
func TestLightChangesNoReport(t *testing.T) {
	reg := engine.Registry()
	// A stop packet with no findings: its kind and why are reported.
	clean := "Task 3 of 7 is done, é; starting task 4, which the approved plan covers.\n\n<!-- SPECREW-STOP-INTENT: continue -->\n"
	packet := reporttest.MissingSection
	for _, format := range machineFormats {
		t.Run(format, func(t *testing.T) {
			var outs [2]bytes.Buffer
			for i := range outs {
				files := []*File{analyzed(t, reg, "a.md", clean), analyzed(t, reg, "b.md", packet)}
				if len(files[0].Findings) != 0 || files[0].Doc.KindWhy == "" || len(files[1].Findings) == 0 {
					t.Fatalf("want a clean file and one with findings, got %d and %d findings", len(files[0].Findings), len(files[1].Findings))
				}
				if i == 1 {
					keep := files[1].Doc
					for _, f := range files {
						f.Light()
					}
					if files[0].Doc.Text != "" || files[1].Doc != keep {
						t.Fatalf("Light kept %q of a clean file, or let go of one with findings", files[0].Doc.Text)
					}
				}
				o := Options{Format: format, Color: ColorNever, Version: "test"}
				if err := writeAll(NewFormatter(&outs[i], &outs[i], reg, o), files); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(outs[0].String(), outs[1].String()); diff != "" {
				t.Errorf("the report changed (-before +after Light):\n%s", diff)
			}
		})
	}
}
