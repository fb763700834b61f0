package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/report"
	"github.com/baton-md/baton/report/reporttest"
)

// TestSARIFSchema checks the SARIF output against the SARIF 2.1.0 schema's
// shape (reporttest.ReadSARIF) and its rules (reporttest.CheckSARIF), for
// findings of every shape, none, and no files.
func TestSARIFSchema(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{"findings of every shape", []string{"marker.md", "missing.md", "order.md", "stop.md", "clean.md", "-"}, reporttest.MissingSection},
		{"no findings", []string{"clean.md"}, ""},
		{"no files", []string{"-"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := checkIn(t, everyShape, tc.stdin, append([]string{"--format", "sarif"}, tc.args...)...)
			reporttest.CheckSARIF(t, reporttest.ReadSARIF(t, out))
			if strings.Contains(out, ": -1") {
				t.Errorf("the log holds a -1 (SARIF's unset placeholder):\n%s", out)
			}
		})
	}
}

// TestSARIFContent checks what the SARIF log says: the driver, the rules
// that fired and only those, and each result's rule, level, location,
// related locations and fixes.
func TestSARIFContent(t *testing.T) {
	out, code := checkIn(t, everyShape, "", "--format", "sarif", "marker.md", "missing.md", "order.md", "clean.md")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	log := reporttest.ReadSARIF(t, out)
	run := log.Runs[0]
	d := run.Tool.Driver
	// The rules that fired, in the order they first fired, each with its
	// summary, the first paragraph of its documentation, and its link.
	reg := engine.Registry()
	wantLevel := map[analysis.Severity]string{analysis.Error: "error", analysis.Warning: "warning", analysis.Info: "note", analysis.Hint: "note"}
	var ids []string
	for _, got := range d.Rules {
		ids = append(ids, *got.ID)
		r := reg.Rule(*got.ID)
		if r == nil {
			t.Fatalf("rule %s is not baton's", *got.ID)
		}
		para := *got.FullDescription.Text
		link := "https://github.com/baton-md/baton/blob/main/docs/rules.md#" + analysis.Anchor(r.ID)
		if *got.ShortDescription.Text != r.Summary ||
			*got.Help.Text != para+" "+link || *got.Help.Markdown != para+" [Read more]("+link+")." ||
			*got.HelpURI != link || *got.DefaultConfiguration.Level != wantLevel[r.Severity] {
			t.Errorf("rule %s: %s", r.ID, reporttest.MustJSON(t, got))
		}
		if strings.Contains(para, "\n") || len(para) >= len(strings.TrimSpace(r.Doc)) && strings.Contains(strings.TrimSpace(r.Doc), "\n\n") {
			t.Errorf("rule %s: the full description is not the first paragraph alone: %q", r.ID, para)
		}
	}
	if want := []string{"packet/thin-what-i-just-did", "packet/verdict-marker-position", "packet/heading-level", "packet/unnamed-boundary", "packet/unactionable-request", "packet/missing-section", "packet/section-order"}; !slices.Equal(ids, want) {
		t.Errorf("rules %q, want those that fired, in the order they first did: %q", ids, want)
	}
	// The driver is the one package report describes for this baton's
	// version and these rules: its tests hold that driver's version to
	// the version given, and each rule's full description to the first
	// paragraph of the rule's documentation.
	if diff := cmp.Diff(sarifDriver(t, reg, ids), d); diff != "" {
		t.Errorf("driver (-report's +check's):\n%s", diff)
	}
	if *run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q, want utf16CodeUnits", *run.ColumnKind)
	}
	var uris []string
	for _, a := range run.Artifacts {
		uris = append(uris, *a.Location.URI)
	}
	if want := []string{"marker.md", "missing.md", "order.md", "clean.md"}; !slices.Equal(uris, want) {
		t.Errorf("artifacts %q, want %q", uris, want)
	}

	type region struct{ StartLine, StartColumn, EndLine, EndColumn, ByteOffset, ByteLength int }
	regionOf := func(r *reporttest.SARIFRegion) region {
		return region{*r.StartLine, *r.StartColumn, *r.EndLine, *r.EndColumn, *r.ByteOffset, *r.ByteLength}
	}
	type result struct {
		Rule, Level, URI string
		Index            int
		Region           region
	}
	var got []result
	for _, r := range run.Results {
		pl := r.Locations[0].PhysicalLocation
		got = append(got, result{*r.RuleID, *r.Level, *pl.ArtifactLocation.URI, *pl.ArtifactLocation.Index, regionOf(pl.Region)})
	}
	want := []result{
		{"packet/thin-what-i-just-did", "warning", "marker.md", 0, region{1, 1, 1, 19, 0, 18}},
		{"packet/verdict-marker-position", "warning", "marker.md", 0, region{5, 1, 5, 49, 39, 48}},
		{"packet/heading-level", "note", "marker.md", 0, region{7, 1, 7, 18, 89, 17}},
		{"packet/unnamed-boundary", "warning", "marker.md", 0, region{7, 1, 7, 18, 89, 17}},
		{"packet/unactionable-request", "warning", "marker.md", 0, region{23, 1, 23, 24, 357, 23}},
		{"packet/missing-section", "error", "missing.md", 1, region{5, 1, 5, 26, 39, 25}},
		{"packet/heading-level", "note", "missing.md", 1, region{9, 1, 9, 22, 87, 21}},
		{"packet/section-order", "warning", "order.md", 2, region{9, 1, 9, 17, 99, 16}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("results (-want +got):\n%s", diff)
	}

	// Related locations.
	order := run.Results[7]
	if len(order.RelatedLocations) != 1 || *order.RelatedLocations[0].Message.Text != "belongs before this section" ||
		regionOf(order.RelatedLocations[0].PhysicalLocation.Region) != (region{5, 1, 5, 26, 56, 25}) {
		t.Errorf("related locations of packet/section-order: %s", reporttest.MustJSON(t, order.RelatedLocations))
	}

	// Fixes: the move is one change of two replacements, a deletion and an
	// insertion; the safe flag is a property.
	move := run.Results[1]
	if len(move.Fixes) != 1 {
		t.Fatalf("%d fixes for the marker position", len(move.Fixes))
	}
	fix := move.Fixes[0]
	if *fix.Description.Text != "Move the verdict marker to the end of the packet" || fix.Properties["safe"] != true {
		t.Errorf("fix %s", reporttest.MustJSON(t, fix))
	}
	ch := fix.ArtifactChanges
	if len(ch) != 1 || *ch[0].ArtifactLocation.URI != "marker.md" || len(ch[0].Replacements) != 2 {
		t.Fatalf("artifact changes %s", reporttest.MustJSON(t, ch))
	}
	del, ins := ch[0].Replacements[0], ch[0].Replacements[1]
	if regionOf(del.DeletedRegion) != (region{5, 1, 7, 1, 39, 50}) || del.InsertedContent != nil {
		t.Errorf("deletion %s", reporttest.MustJSON(t, del))
	}
	if regionOf(ins.DeletedRegion) != (region{25, 48, 25, 48, 429, 0}) || *ins.InsertedContent.Text != "\n\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->" {
		t.Errorf("insertion %s", reporttest.MustJSON(t, ins))
	}
	if unsafe := run.Results[5].Fixes; len(unsafe) != 1 || unsafe[0].Properties["safe"] != false {
		t.Errorf("the missing section's fix: %s", reporttest.MustJSON(t, unsafe))
	}
}

// sarifDriver is the driver of the SARIF log package report writes, for
// this baton's version, of findings of the rules ids in that order.
func sarifDriver(t *testing.T, reg *analysis.Registry, ids []string) *reporttest.SARIFComponent {
	t.Helper()
	f := &report.File{Name: "x.md", Doc: markdown.Parse("x.md", "text\n")}
	for _, id := range ids {
		f.Findings = append(f.Findings, analysis.Finding{Rule: id, Severity: analysis.Warning, Span: markdown.Span{Start: 0, End: 4}, Message: "m"})
	}
	var b bytes.Buffer
	w := report.NewFormatter(&b, &b, reg, report.Options{Format: report.FormatSARIF, Version: versionString()})
	if err := w.File(f); err != nil {
		t.Fatal(err)
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	return reporttest.ReadSARIF(t, b.String()).Runs[0].Tool.Driver
}

// TestSARIFIsSmall checks that the log does not grow with the rules baton
// has: fifteen findings of one rule describe that rule once, briefly.
func TestSARIFIsSmall(t *testing.T) {
	files := map[string]string{}
	var args []string
	for i := range 15 {
		name := string(rune('a'+i)) + ".md"
		files[name] = reporttest.MissingSection
		args = append(args, name)
	}
	out, _ := checkIn(t, files, "", append([]string{"--format", "sarif"}, args...)...)
	log := reporttest.ReadSARIF(t, out)
	if n := len(log.Runs[0].Tool.Driver.Rules); n != 2 {
		t.Errorf("%d rules, want the 2 that fired", n)
	}
	// About 2 KB a finding of this shape, indented, its fix included; every
	// rule's whole documentation made 200 KB of fifteen findings.
	if len(out) > 80_000 {
		t.Errorf("fifteen files of two findings make a %d-byte log", len(out))
	}
}

// multitool is Microsoft's SARIF Multitool: $BATON_SARIF_MULTITOOL, or
// sarif-multitool on PATH (npm install @microsoft/sarif-multitool).
func multitool(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("BATON_SARIF_MULTITOOL"); p != "" {
		return p
	}
	p, err := exec.LookPath("sarif-multitool")
	if err != nil {
		t.Skip("the SARIF Multitool is not installed: set BATON_SARIF_MULTITOOL or put sarif-multitool on PATH")
	}
	return p
}

// TestSARIFMultitool validates the SARIF output with the SARIF Multitool:
// its SARIF rules and its GitHub Advanced Security rules report no error
// and no warning.
func TestSARIFMultitool(t *testing.T) {
	tool := multitool(t)
	out, _ := checkIn(t, everyShape, reporttest.MissingSection, "--format", "sarif", "marker.md", "missing.md", "order.md", "stop.md", "clean.md", "-")
	path := filepath.Join(t.TempDir(), "baton.sarif")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "validate", path, "--level", "Error;Warning", "--rule-kind", "Sarif;Ghas")
	var report bytes.Buffer
	cmd.Stdout, cmd.Stderr = &report, &report
	err := cmd.Run()
	if err != nil || !strings.Contains(report.String(), "Analysis completed successfully") {
		t.Fatalf("the Multitool failed (%v):\n%s", err, report.String())
	}
	for line := range strings.Lines(report.String()) {
		if strings.Contains(line, ": error ") || strings.Contains(line, ": warning ") {
			t.Errorf("Multitool: %s", strings.TrimSpace(line))
		}
	}
}
