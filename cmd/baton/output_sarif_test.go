package main

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
)

// The objects of a SARIF 2.1.0 log that baton writes, as the SARIF 2.1.0
// JSON schema (OASIS, sarif-schema-2.1.0.json) defines them: a property
// the schema marks required is a pointer, checked present; every property
// is one the schema defines for its object, and the log is read with
// unknown fields refused, so a misspelt or invented property fails.
type (
	schemaLog struct {
		Schema  *string     `json:"$schema"`
		Version *string     `json:"version"` // required; const "2.1.0"
		Runs    []schemaRun `json:"runs"`    // required
	}
	schemaRun struct {
		Tool       *schemaTool      `json:"tool"` // required
		Results    []schemaResult   `json:"results"`
		Artifacts  []schemaArtifact `json:"artifacts"`
		ColumnKind *string          `json:"columnKind"` // enum utf8CodeUnits, utf16CodeUnits
	}
	schemaTool struct {
		Driver *schemaComponent `json:"driver"` // required
	}
	schemaComponent struct {
		Name            *string            `json:"name"` // required
		Version         *string            `json:"version"`
		SemanticVersion *string            `json:"semanticVersion"`
		InformationURI  *string            `json:"informationUri"` // format uri
		Rules           []schemaDescriptor `json:"rules"`
	}
	schemaDescriptor struct {
		ID                   *string            `json:"id"` // required
		ShortDescription     *schemaMultiformat `json:"shortDescription"`
		FullDescription      *schemaMultiformat `json:"fullDescription"`
		Help                 *schemaMultiformat `json:"help"`
		HelpURI              *string            `json:"helpUri"` // format uri
		DefaultConfiguration *struct {
			Level *string `json:"level"` // enum none, note, warning, error
		} `json:"defaultConfiguration"`
	}
	schemaMultiformat struct {
		Text     *string `json:"text"` // required
		Markdown *string `json:"markdown"`
	}
	schemaMessage struct {
		Text *string `json:"text"` // text or id is required
	}
	schemaArtifact struct {
		Location       *schemaArtifactLocation `json:"location"`
		Length         *int                    `json:"length"` // minimum -1
		SourceLanguage *string                 `json:"sourceLanguage"`
		Roles          []string                `json:"roles"` // enum, unique
	}
	schemaArtifactLocation struct {
		URI   *string `json:"uri"`   // format uri-reference
		Index *int    `json:"index"` // minimum -1
	}
	schemaResult struct {
		RuleID           *string          `json:"ruleId"`
		RuleIndex        *int             `json:"ruleIndex"` // minimum -1
		Level            *string          `json:"level"`
		Message          *schemaMessage   `json:"message"` // required
		Locations        []schemaLocation `json:"locations"`
		RelatedLocations []schemaLocation `json:"relatedLocations"`
		Fixes            []schemaFix      `json:"fixes"`
	}
	schemaLocation struct {
		ID               *int `json:"id"` // minimum -1
		PhysicalLocation *struct {
			ArtifactLocation *schemaArtifactLocation `json:"artifactLocation"` // it or address is required
			Region           *schemaRegion           `json:"region"`
		} `json:"physicalLocation"`
		Message *schemaMessage `json:"message"`
	}
	schemaRegion struct {
		StartLine   *int `json:"startLine"`   // minimum 1
		StartColumn *int `json:"startColumn"` // minimum 1
		EndLine     *int `json:"endLine"`     // minimum 1
		EndColumn   *int `json:"endColumn"`   // minimum 1
		ByteOffset  *int `json:"byteOffset"`  // minimum -1
		ByteLength  *int `json:"byteLength"`  // minimum 0
	}
	schemaFix struct {
		Description     *schemaMessage `json:"description"`
		ArtifactChanges []struct {
			ArtifactLocation *schemaArtifactLocation `json:"artifactLocation"` // required
			Replacements     []struct {
				DeletedRegion   *schemaRegion `json:"deletedRegion"` // required
				InsertedContent *struct {
					Text *string `json:"text"`
				} `json:"insertedContent"`
			} `json:"replacements"` // required, at least one
		} `json:"artifactChanges"` // required, at least one
		Properties map[string]any `json:"properties"` // a property bag
	}
)

// readSARIF reads a log as the schema's shape, refusing unknown properties.
func readSARIF(t *testing.T, out string) schemaLog {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var log schemaLog
	if err := dec.Decode(&log); err != nil {
		t.Fatalf("the output is not a SARIF 2.1.0 log of the schema's shape: %v\n%s", err, out)
	}
	return log
}

// checkSchema checks what the schema requires of a log beyond its shape:
// required properties present, enums, minimums, and the indexes pointing
// into the arrays they index (never the -1 placeholder).
func checkSchema(t *testing.T, log schemaLog) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
	}
	if log.Version == nil || *log.Version != "2.1.0" {
		fail("version %v, want 2.1.0", log.Version)
	}
	if log.Schema == nil || !isURI(*log.Schema) {
		fail("$schema %v", log.Schema)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == nil {
		t.Fatal("a run needs tool.driver.name")
	}
	d := run.Tool.Driver
	if d.InformationURI != nil && !isURI(*d.InformationURI) {
		fail("informationUri %q", *d.InformationURI)
	}
	levels := []string{"none", "note", "warning", "error"}
	multiformat := func(where string, m *schemaMultiformat) {
		if m != nil && m.Text == nil {
			fail("%s has no text", where)
		}
	}
	var ids []string
	for _, r := range d.Rules {
		if r.ID == nil {
			t.Fatal("a rule without id")
		}
		ids = append(ids, *r.ID)
		multiformat(*r.ID+" shortDescription", r.ShortDescription)
		multiformat(*r.ID+" fullDescription", r.FullDescription)
		multiformat(*r.ID+" help", r.Help)
		if r.HelpURI != nil && !isURI(*r.HelpURI) {
			fail("%s helpUri %q", *r.ID, *r.HelpURI)
		}
		if c := r.DefaultConfiguration; c != nil && (c.Level == nil || !slices.Contains(levels, *c.Level)) {
			fail("%s defaultConfiguration.level %v", *r.ID, c.Level)
		}
	}
	if run.ColumnKind != nil && !slices.Contains([]string{"utf8CodeUnits", "utf16CodeUnits"}, *run.ColumnKind) {
		fail("columnKind %q", *run.ColumnKind)
	}
	artifactLocation := func(where string, l *schemaArtifactLocation, indexed bool) {
		t.Helper()
		if l == nil || l.URI == nil {
			fail("%s: no artifactLocation.uri", where)
			return
		}
		if _, err := url.Parse(*l.URI); err != nil {
			fail("%s: uri %q is not a URI reference", where, *l.URI)
		}
		switch {
		case l.Index == nil && indexed:
			fail("%s: no artifact index", where)
		case l.Index != nil && !indexed:
			fail("%s: an artifact's own location has an index (%d)", where, *l.Index)
		case l.Index != nil && (*l.Index < 0 || *l.Index >= len(run.Artifacts) || *run.Artifacts[*l.Index].Location.URI != *l.URI):
			fail("%s: index %d does not name artifact %q", where, *l.Index, *l.URI)
		}
	}
	region := func(where string, r *schemaRegion) {
		t.Helper()
		if r == nil {
			fail("%s: no region", where)
			return
		}
		for _, v := range []*int{r.StartLine, r.StartColumn, r.EndLine, r.EndColumn} {
			if v == nil || *v < 1 {
				fail("%s: a line or column below 1: %s", where, mustJSON(t, r))
			}
		}
		if r.ByteOffset == nil || *r.ByteOffset < 0 || r.ByteLength == nil || *r.ByteLength < 0 {
			fail("%s: byte offset or length %s", where, mustJSON(t, r))
		}
	}
	for i, a := range run.Artifacts {
		artifactLocation("artifact", a.Location, false)
		if a.Length == nil || *a.Length < 0 {
			fail("artifact %d: length %v", i, a.Length)
		}
		if !slices.Equal(a.Roles, []string{"analysisTarget"}) {
			fail("artifact %d: roles %q", i, a.Roles)
		}
	}
	for _, res := range run.Results {
		if res.Message == nil || res.Message.Text == nil {
			t.Fatal("a result without message.text")
		}
		where := *res.Message.Text
		if res.RuleID == nil || res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(ids) || ids[*res.RuleIndex] != *res.RuleID {
			fail("%s: ruleId %v ruleIndex %v do not name a rule of %q", where, res.RuleID, res.RuleIndex, ids)
		}
		if res.Level == nil || !slices.Contains(levels, *res.Level) {
			fail("%s: level %v", where, res.Level)
		}
		if len(res.Locations) != 1 {
			fail("%s: %d locations", where, len(res.Locations))
		}
		for _, l := range append(slices.Clone(res.Locations), res.RelatedLocations...) {
			if l.PhysicalLocation == nil {
				fail("%s: a location without physicalLocation", where)
				continue
			}
			artifactLocation(where, l.PhysicalLocation.ArtifactLocation, true)
			region(where, l.PhysicalLocation.Region)
		}
		for j, l := range res.RelatedLocations {
			if l.ID == nil || *l.ID != j+1 || l.Message == nil || l.Message.Text == nil {
				fail("%s: related location %d: %s", where, j, mustJSON(t, l))
			}
		}
		for _, fix := range res.Fixes {
			if len(fix.ArtifactChanges) == 0 {
				fail("%s: a fix without artifactChanges", where)
			}
			for _, ch := range fix.ArtifactChanges {
				artifactLocation(where+" fix", ch.ArtifactLocation, true)
				if len(ch.Replacements) == 0 {
					fail("%s: a change without replacements", where)
				}
				for _, rep := range ch.Replacements {
					region(where+" fix", rep.DeletedRegion)
				}
			}
			if _, ok := fix.Properties["safe"].(bool); !ok {
				fail("%s: fix properties %v, want a boolean safe", where, fix.Properties)
			}
		}
	}
}

func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

// TestSARIFSchema checks the SARIF output against the SARIF 2.1.0 schema's
// shape (schemaLog) and its rules (checkSchema), for findings of every
// shape, none, and no files.
func TestSARIFSchema(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{"findings of every shape", []string{"marker.md", "missing.md", "order.md", "stop.md", "clean.md", "-"}, docMissingSection},
		{"no findings", []string{"clean.md"}, ""},
		{"no files", []string{"-"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := checkIn(t, everyShape, tc.stdin, append([]string{"--format", "sarif"}, tc.args...)...)
			checkSchema(t, readSARIF(t, out))
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
	log := readSARIF(t, out)
	run := log.Runs[0]
	d := run.Tool.Driver
	version, semantic := sarifVersions(versionString())
	if *d.Name != "baton" || *d.Version != version || *d.SemanticVersion != semantic || *d.InformationURI != informationURI {
		t.Errorf("driver %s", mustJSON(t, d))
	}
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
		para := firstParagraph(r.Doc)
		link := "https://github.com/baton-md/baton/blob/main/docs/rules.md#" + analysis.Anchor(r.ID)
		if *got.ShortDescription.Text != r.Summary || *got.FullDescription.Text != para ||
			*got.Help.Text != para+" "+link || *got.Help.Markdown != para+" [Read more]("+link+")." ||
			*got.HelpURI != link || *got.DefaultConfiguration.Level != wantLevel[r.Severity] {
			t.Errorf("rule %s: %s", r.ID, mustJSON(t, got))
		}
		if strings.Contains(para, "\n") || len(para) >= len(strings.TrimSpace(r.Doc)) && strings.Contains(strings.TrimSpace(r.Doc), "\n\n") {
			t.Errorf("rule %s: the full description is not the first paragraph alone: %q", r.ID, para)
		}
	}
	if want := []string{"packet/thin-what-i-just-did", "packet/verdict-marker-position", "packet/heading-level", "packet/unnamed-boundary", "packet/unactionable-request", "packet/missing-section", "packet/section-order"}; !slices.Equal(ids, want) {
		t.Errorf("rules %q, want those that fired, in the order they first did: %q", ids, want)
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
	regionOf := func(r *schemaRegion) region {
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
		t.Errorf("related locations of packet/section-order: %s", mustJSON(t, order.RelatedLocations))
	}

	// Fixes: the move is one change of two replacements, a deletion and an
	// insertion; the safe flag is a property.
	move := run.Results[1]
	if len(move.Fixes) != 1 {
		t.Fatalf("%d fixes for the marker position", len(move.Fixes))
	}
	fix := move.Fixes[0]
	if *fix.Description.Text != "Move the verdict marker to the end of the packet" || fix.Properties["safe"] != true {
		t.Errorf("fix %s", mustJSON(t, fix))
	}
	ch := fix.ArtifactChanges
	if len(ch) != 1 || *ch[0].ArtifactLocation.URI != "marker.md" || len(ch[0].Replacements) != 2 {
		t.Fatalf("artifact changes %s", mustJSON(t, ch))
	}
	del, ins := ch[0].Replacements[0], ch[0].Replacements[1]
	if regionOf(del.DeletedRegion) != (region{5, 1, 7, 1, 39, 50}) || del.InsertedContent != nil {
		t.Errorf("deletion %s", mustJSON(t, del))
	}
	if regionOf(ins.DeletedRegion) != (region{25, 48, 25, 48, 429, 0}) || *ins.InsertedContent.Text != "\n\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->" {
		t.Errorf("insertion %s", mustJSON(t, ins))
	}
	if unsafe := run.Results[5].Fixes; len(unsafe) != 1 || unsafe[0].Properties["safe"] != false {
		t.Errorf("the missing section's fix: %s", mustJSON(t, unsafe))
	}
}

// TestSARIFIsSmall checks that the log does not grow with the rules baton
// has: fifteen findings of one rule describe that rule once, briefly.
func TestSARIFIsSmall(t *testing.T) {
	files := map[string]string{}
	var args []string
	for i := range 15 {
		name := string(rune('a'+i)) + ".md"
		files[name] = docMissingSection
		args = append(args, name)
	}
	out, _ := checkIn(t, files, "", append([]string{"--format", "sarif"}, args...)...)
	log := readSARIF(t, out)
	if n := len(log.Runs[0].Tool.Driver.Rules); n != 2 {
		t.Errorf("%d rules, want the 2 that fired", n)
	}
	// About 2 KB a finding of this shape, indented, its fix included; every
	// rule's whole documentation made 200 KB of fifteen findings.
	if len(out) > 80_000 {
		t.Errorf("fifteen files of two findings make a %d-byte log", len(out))
	}
}

func TestSARIFVersions(t *testing.T) {
	for v, want := range map[string][2]string{
		"v0.1.0":                               {"0.1.0", "0.1.0"},
		"1.2.3":                                {"1.2.3", "1.2.3"},
		"v0.1.0-rc.1+build.5":                  {"0.1.0-rc.1+build.5", "0.1.0-rc.1+build.5"},
		"v0.0.0-20261201235311-5293292abcde":   {"0.0.0-20261201235311-5293292abcde", "0.0.0-20261201235311-5293292abcde"},
		"v0.1.1-0.20261201235311-5293292abcde": {"0.1.1-0.20261201235311-5293292abcde", "0.1.1-0.20261201235311-5293292abcde"},
		"v0.1.0+dirty":                         {"0.1.0+dirty", "0.1.0+dirty"},
		"0.1":                                  {"0.1", ""},      // numeric, but not semver
		"1.2.3-01":                             {"1.2.3-01", ""}, // a numeric pre-release with a leading zero
		"01.2.3":                               {"01.2.3", ""},
		"(devel)":                              {"0.0.0-devel", "0.0.0-devel"},
		"":                                     {"0.0.0-devel", "0.0.0-devel"},
	} {
		if v2, s := sarifVersions(v); v2 != want[0] || s != want[1] {
			t.Errorf("sarifVersions(%q) = %q, %q; want %q, %q", v, v2, s, want[0], want[1])
		}
	}
}

// TestSARIFRegionColumnsInUTF16 checks that SARIF columns count UTF-16 code
// units (the run's columnKind), while the byte offset counts bytes.
func TestSARIFRegionColumnsInUTF16(t *testing.T) {
	doc := analysis.Parse("x.md", "é🚀x\n")
	start := len("é🚀")
	r := sarifRegionOf(doc, analysis.Span{Start: start, End: start + 1})
	// é is one UTF-16 unit, 🚀 two: x is at column 4.
	if want := (sarifRegion{StartLine: 1, StartColumn: 4, EndLine: 1, EndColumn: 5, ByteOffset: 6, ByteLength: 1}); r != want {
		t.Errorf("region %+v, want %+v", r, want)
	}
}

func TestFirstParagraph(t *testing.T) {
	for doc, want := range map[string]string{
		"\nOne line.\n":                         "One line.",
		"First\nparagraph, wrapped.\n\nSecond.": "First paragraph, wrapped.",
		"Windows\r\nlines.\r\n\r\nMore.":        "Windows lines.",
		"":                                      "",
	} {
		if got := firstParagraph(doc); got != want {
			t.Errorf("firstParagraph(%q) = %q, want %q", doc, got, want)
		}
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
	out, _ := checkIn(t, everyShape, docMissingSection, "--format", "sarif", "marker.md", "missing.md", "order.md", "stop.md", "clean.md", "-")
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

// TestSARIFRuleWithoutDocs checks that a finding of a rule the registry
// does not know still names a rule of the driver, by ID alone.
func TestSARIFRuleWithoutDocs(t *testing.T) {
	doc := analysis.Parse("x.md", "text\n")
	r := &fileResult{name: "x.md", doc: doc, findings: []analysis.Finding{
		{Rule: "other/unknown", Severity: analysis.Warning, Span: analysis.Span{Start: 0, End: 4}, Message: "m"},
	}}
	var b bytes.Buffer
	if err := writeAll(newSARIFFormatter(&b, engine.Registry()), []*fileResult{r}); err != nil {
		t.Fatal(err)
	}
	log := readSARIF(t, b.String())
	checkSchema(t, log)
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != 1 || *rules[0].ID != "other/unknown" || rules[0].HelpURI != nil || *log.Runs[0].Results[0].RuleIndex != 0 {
		t.Errorf("rules %s", mustJSON(t, rules))
	}
}
