package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/report/reporttest"
)

func TestArtifactURI(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"a.md":                          "a.md",
		"docs/a b.md":                   "docs/a%20b.md",
		"<stdin>":                       "%3Cstdin%3E",
		"x:y.md":                        "./x:y.md",
		filepath.Join(wd, "in", "a.md"): "in/a.md",
		"/elsewhere/a.md":               "file:///elsewhere/a.md",
	} {
		if got := artifactURI(path); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestSARIFDriverAndRules checks the driver a log names for the version it
// is given, and the descriptor of every rule baton ships: its summary, the
// first paragraph of its documentation, its link and its level.
func TestSARIFDriverAndRules(t *testing.T) {
	reg := engine.Registry()
	r := &File{Name: "x.md", Doc: markdown.Parse("x.md", "text\n")}
	for _, rule := range reg.Rules() {
		r.Findings = append(r.Findings, analysis.Finding{Rule: rule.ID, Severity: rule.Severity, Span: markdown.Span{Start: 0, End: 4}, Message: "m"})
	}
	var b bytes.Buffer
	if err := writeAll(newSARIFFormatter(&b, reg, "v1.2.3"), []*File{r}); err != nil {
		t.Fatal(err)
	}
	log := reporttest.ReadSARIF(t, b.String())
	reporttest.CheckSARIF(t, log)
	d := log.Runs[0].Tool.Driver
	if *d.Name != "baton" || *d.Version != "1.2.3" || *d.SemanticVersion != "1.2.3" || *d.InformationURI != informationURI {
		t.Errorf("driver %s", reporttest.MustJSON(t, d))
	}
	if len(d.Rules) != len(reg.Rules()) {
		t.Errorf("%d rules, want the %d that fired", len(d.Rules), len(reg.Rules()))
	}
	wantLevel := map[analysis.Severity]string{analysis.Error: "error", analysis.Warning: "warning", analysis.Info: "note", analysis.Hint: "note"}
	for _, got := range d.Rules {
		r := reg.Rule(*got.ID)
		if r == nil {
			t.Fatalf("rule %s is not baton's", *got.ID)
		}
		para := firstParagraph(r.Doc)
		link := "https://github.com/baton-md/baton/blob/main/docs/rules.md#" + analysis.Anchor(r.ID)
		if *got.ShortDescription.Text != r.Summary || *got.FullDescription.Text != para ||
			*got.Help.Text != para+" "+link || *got.Help.Markdown != para+" [Read more]("+link+")." ||
			*got.HelpURI != link || *got.DefaultConfiguration.Level != wantLevel[r.Severity] {
			t.Errorf("rule %s: %s", r.ID, reporttest.MustJSON(t, got))
		}
		if strings.Contains(para, "\n") || len(para) >= len(strings.TrimSpace(r.Doc)) && strings.Contains(strings.TrimSpace(r.Doc), "\n\n") {
			t.Errorf("rule %s: the full description is not the first paragraph alone: %q", r.ID, para)
		}
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
	doc := markdown.Parse("x.md", "é🚀x\n")
	start := len("é🚀")
	r := sarifRegionOf(doc, markdown.Span{Start: start, End: start + 1})
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

// TestSARIFRuleWithoutDocs checks that a finding of a rule the registry
// does not know still names a rule of the driver, by ID alone.
func TestSARIFRuleWithoutDocs(t *testing.T) {
	doc := markdown.Parse("x.md", "text\n")
	r := &File{Name: "x.md", Doc: doc, Findings: []analysis.Finding{
		{Rule: "other/unknown", Severity: analysis.Warning, Span: markdown.Span{Start: 0, End: 4}, Message: "m"},
	}}
	var b bytes.Buffer
	if err := writeAll(newSARIFFormatter(&b, engine.Registry(), ""), []*File{r}); err != nil {
		t.Fatal(err)
	}
	log := reporttest.ReadSARIF(t, b.String())
	reporttest.CheckSARIF(t, log)
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != 1 || *rules[0].ID != "other/unknown" || rules[0].HelpURI != nil || *log.Runs[0].Results[0].RuleIndex != 0 {
		t.Errorf("rules %s", reporttest.MustJSON(t, rules))
	}
}
