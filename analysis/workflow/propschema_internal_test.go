package workflow

import (
	"os"
	"path/filepath"
	"testing"
)

// A $ref out of the declaration is never read, from disk or anywhere: the
// prop is not checked (the engine's Ajv refuses such a schema).
func TestPropSchemaReadsNoFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(p, []byte(`{"type": "string"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Parse("---\nprops:\n  path: { $ref: \"file://" + filepath.ToSlash(p) + "\" }\n---\n")
	if c.Props.schemas == nil {
		t.Fatal("no props declaration read")
	}
	if sch := c.Props.schemas.schema("path"); sch != nil {
		t.Errorf("the schema compiled through %s: it was read", p)
	}
}
