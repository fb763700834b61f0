package mcpserver

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDocsNameEveryArgument: docs/mcp.md has a section for every tool,
// and names in it, as `name`, every argument of the tool's input schema
// as tools/list gives it (explain_rule's rule was missing).
func TestDocsNameEveryArgument(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	cs, _ := connect(t, newServer(t, t.TempDir()))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0 // arguments looked for: none would mean the schemas changed shape
	for _, tool := range res.Tools {
		heading := "\n### `" + tool.Name + "`\n"
		i := strings.Index(doc, heading)
		if i < 0 {
			t.Errorf("docs/mcp.md has no section %q", strings.TrimSpace(heading))
			continue
		}
		section := doc[i+len(heading):]
		if j := strings.Index(section, "\n#"); j >= 0 {
			section = section[:j]
		}
		schema, _ := tool.InputSchema.(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			checked++
			if !strings.Contains(section, "`"+name+"`") {
				t.Errorf("docs/mcp.md's section on %s does not name its argument `%s`", tool.Name, name)
			}
		}
	}
	if checked == 0 {
		t.Error("no tool's input schema has properties")
	}
}
