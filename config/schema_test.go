package config_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// compileSchema compiles config.Schema with a JSON Schema validator, which
// also checks that it is a valid draft-07 schema.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(config.Schema(engine.Registry())))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(config.SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(config.SchemaID)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// validateYAML validates a configuration's YAML text against sch, as an
// editor's YAML language server does: the YAML read as JSON values.
func validateYAML(sch *jsonschema.Schema, text []byte) error {
	var v any
	if err := yaml.Unmarshal(text, &v); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// TestSchemaDocIsCurrent fails when docs/baton.schema.json is not what
// `baton config schema` prints.
func TestSchemaDocIsCurrent(t *testing.T) {
	path := filepath.Join("..", "docs", "baton.schema.json")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `baton config schema > docs/baton.schema.json`", err)
	}
	if d := cmp.Diff(string(config.Schema(engine.Registry())), string(got)); d != "" {
		t.Errorf("%s is stale: run `go run ./cmd/baton config schema > docs/baton.schema.json`.\n(-generated +committed):\n%s", path, d)
	}
}

// TestSchemaAgreesWithTheRepository: every .baton.yaml in the repository
// (on disk, or in a txtar archive of the tests) that baton accepts, the
// schema accepts (an editor must not flag a good file), and every one the
// schema rejects, baton rejects.
func TestSchemaAgreesWithTheRepository(t *testing.T) {
	sch := compileSchema(t)
	reg := engine.Registry()
	type found struct{ where, text string }
	var files []found
	root := ".."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		switch {
		case d.Name() == config.FileName:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, found{p, string(data)})
		case strings.HasSuffix(p, ".txtar"):
			a, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				if filepath.Base(f.Name) == config.FileName {
					files = append(files, found{p + ":" + f.Name, string(f.Data)})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The README's example too.
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, rest, ok := strings.Cut(string(readme), "```yaml\n"); ok {
		ex, _, _ := strings.Cut(rest, "```")
		files = append(files, found{"config/README.md", ex})
	}
	// And the root README's, in its Configuration section.
	top, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, sec, ok := strings.Cut(string(top), "## Configuration\n"); ok {
		if _, rest, ok := strings.Cut(sec, "```yaml\n"); ok {
			ex, _, _ := strings.Cut(rest, "```")
			files = append(files, found{"README.md", ex})
		}
	}
	if len(files) < 5 {
		t.Fatalf("found %d configuration files; the walk is broken", len(files))
	}
	accepted := 0
	for _, f := range files {
		_, batonErr := config.ParseWith(config.FileName, []byte(f.text), reg)
		schemaErr := validateYAML(sch, []byte(f.text))
		switch {
		case batonErr == nil && schemaErr != nil:
			t.Errorf("%s: baton accepts it, the schema does not: %v", f.where, schemaErr)
		case batonErr != nil && schemaErr == nil:
			t.Logf("%s: baton rejects it, the schema cannot tell: %v", f.where, batonErr)
		case batonErr == nil:
			accepted++
		}
	}
	if accepted == 0 {
		t.Error("no configuration file was accepted: the test checks nothing")
	}
}

// TestSchemaRejects: broken configurations fail the schema, as they fail
// baton; and good ones pass.
func TestSchemaRejects(t *testing.T) {
	sch := compileSchema(t)
	reg := engine.Registry()
	for _, tt := range []struct {
		name, text string
		ok         bool
	}{
		{"empty", "", true},
		{"severities in any case", "rules:\n  packet/heading-level: Off\n  workflow/*: WARNING\n", true},
		{"braces in files", "overrides:\n  - files: [\"**/*.{md,markdown}\"]\n    rules: {packet/heading-level: hint}\n", true},
		{"one pattern, one phrase", "overrides:\n  - files: drafts/\nphrases:\n  held: on ice\nignore: specs/\n", true},
		{"null sections", "rules:\noverrides:\nphrases:\nworkflow:\n", true},
		{"unknown key", "handof:\n  state-dir: x\n", false},
		{"unknown rule", "rules:\n  packet/heading-levl: off\n", false},
		{"unknown severity", "rules:\n  packet/heading-level: fatal\n", false},
		{"unknown severity in a pattern", "rules:\n  workflow/*: loud\n", false},
		{"unknown phrase list", "phrases:\n  hold: [x]\n", false},
		{"override without files", "overrides:\n  - rules: {packet/heading-level: off}\n", false},
		{"empty files", "overrides:\n  - files: []\n", false},
		{"unknown override key", "overrides:\n  - files: x\n    severity: {}\n", false},
		{"overrides a mapping", "overrides:\n  files: x\n", false},
		{"state-dir empty", "handoff:\n  state-dir:\n", false},
		{"state-dir a list", "handoff:\n  state-dir: [a]\n", false},
		{"unknown workflow key", "workflow:\n  dirs: [a]\n", false},
		{"ignore a mapping", "ignore: {a: b}\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			schemaErr := validateYAML(sch, []byte(tt.text))
			if got := schemaErr == nil; got != tt.ok {
				t.Errorf("schema accepts = %v, want %v (%v)", got, tt.ok, schemaErr)
			}
			_, batonErr := config.ParseWith(config.FileName, []byte(tt.text), reg)
			if got := batonErr == nil; got != tt.ok {
				t.Errorf("baton accepts = %v, want %v (%v): the case is wrong", got, tt.ok, batonErr)
			}
		})
	}
}
