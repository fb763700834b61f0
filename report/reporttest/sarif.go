package reporttest

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// The objects of a SARIF 2.1.0 log that baton writes, as the SARIF 2.1.0
// JSON schema (OASIS, sarif-schema-2.1.0.json) defines them: a property
// the schema marks required is a pointer, checked present; every property
// is one the schema defines for its object, and the log is read with
// unknown fields refused, so a misspelt or invented property fails.
type (
	SARIFLog struct {
		Schema  *string    `json:"$schema"`
		Version *string    `json:"version"` // required; const "2.1.0"
		Runs    []SARIFRun `json:"runs"`    // required
	}
	SARIFRun struct {
		Tool       *SARIFTool      `json:"tool"` // required
		Results    []SARIFResult   `json:"results"`
		Artifacts  []SARIFArtifact `json:"artifacts"`
		ColumnKind *string         `json:"columnKind"` // enum utf8CodeUnits, utf16CodeUnits
	}
	SARIFTool struct {
		Driver *SARIFComponent `json:"driver"` // required
	}
	SARIFComponent struct {
		Name            *string           `json:"name"` // required
		Version         *string           `json:"version"`
		SemanticVersion *string           `json:"semanticVersion"`
		InformationURI  *string           `json:"informationUri"` // format uri
		Rules           []SARIFDescriptor `json:"rules"`
	}
	SARIFDescriptor struct {
		ID                   *string           `json:"id"` // required
		ShortDescription     *SARIFMultiformat `json:"shortDescription"`
		FullDescription      *SARIFMultiformat `json:"fullDescription"`
		Help                 *SARIFMultiformat `json:"help"`
		HelpURI              *string           `json:"helpUri"` // format uri
		DefaultConfiguration *struct {
			Level *string `json:"level"` // enum none, note, warning, error
		} `json:"defaultConfiguration"`
	}
	SARIFMultiformat struct {
		Text     *string `json:"text"` // required
		Markdown *string `json:"markdown"`
	}
	SARIFMessage struct {
		Text *string `json:"text"` // text or id is required
	}
	SARIFArtifact struct {
		Location       *SARIFArtifactLocation `json:"location"`
		Length         *int                   `json:"length"` // minimum -1
		SourceLanguage *string                `json:"sourceLanguage"`
		Roles          []string               `json:"roles"` // enum, unique
	}
	SARIFArtifactLocation struct {
		URI   *string `json:"uri"`   // format uri-reference
		Index *int    `json:"index"` // minimum -1
	}
	SARIFResult struct {
		RuleID           *string         `json:"ruleId"`
		RuleIndex        *int            `json:"ruleIndex"` // minimum -1
		Level            *string         `json:"level"`
		Message          *SARIFMessage   `json:"message"` // required
		Locations        []SARIFLocation `json:"locations"`
		RelatedLocations []SARIFLocation `json:"relatedLocations"`
		Fixes            []SARIFFix      `json:"fixes"`
	}
	SARIFLocation struct {
		ID               *int `json:"id"` // minimum -1
		PhysicalLocation *struct {
			ArtifactLocation *SARIFArtifactLocation `json:"artifactLocation"` // it or address is required
			Region           *SARIFRegion           `json:"region"`
		} `json:"physicalLocation"`
		Message *SARIFMessage `json:"message"`
	}
	SARIFRegion struct {
		StartLine   *int `json:"startLine"`   // minimum 1
		StartColumn *int `json:"startColumn"` // minimum 1
		EndLine     *int `json:"endLine"`     // minimum 1
		EndColumn   *int `json:"endColumn"`   // minimum 1
		ByteOffset  *int `json:"byteOffset"`  // minimum -1
		ByteLength  *int `json:"byteLength"`  // minimum 0
	}
	SARIFFix struct {
		Description     *SARIFMessage `json:"description"`
		ArtifactChanges []struct {
			ArtifactLocation *SARIFArtifactLocation `json:"artifactLocation"` // required
			Replacements     []struct {
				DeletedRegion   *SARIFRegion `json:"deletedRegion"` // required
				InsertedContent *struct {
					Text *string `json:"text"`
				} `json:"insertedContent"`
			} `json:"replacements"` // required, at least one
		} `json:"artifactChanges"` // required, at least one
		Properties map[string]any `json:"properties"` // a property bag
	}
)

// ReadSARIF reads a log as the schema's shape, refusing unknown properties.
func ReadSARIF(t testing.TB, out string) SARIFLog {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var log SARIFLog
	if err := dec.Decode(&log); err != nil {
		t.Fatalf("the output is not a SARIF 2.1.0 log of the schema's shape: %v\n%s", err, out)
	}
	return log
}

// CheckSARIF checks what the schema requires of a log beyond its shape:
// required properties present, enums, minimums, and the indexes pointing
// into the arrays they index (never the -1 placeholder).
func CheckSARIF(t testing.TB, log SARIFLog) {
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
	multiformat := func(where string, m *SARIFMultiformat) {
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
	artifactLocation := func(where string, l *SARIFArtifactLocation, indexed bool) {
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
	region := func(where string, r *SARIFRegion) {
		t.Helper()
		if r == nil {
			fail("%s: no region", where)
			return
		}
		for _, v := range []*int{r.StartLine, r.StartColumn, r.EndLine, r.EndColumn} {
			if v == nil || *v < 1 {
				fail("%s: a line or column below 1: %s", where, MustJSON(t, r))
			}
		}
		if r.ByteOffset == nil || *r.ByteOffset < 0 || r.ByteLength == nil || *r.ByteLength < 0 {
			fail("%s: byte offset or length %s", where, MustJSON(t, r))
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
				fail("%s: related location %d: %s", where, j, MustJSON(t, l))
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
