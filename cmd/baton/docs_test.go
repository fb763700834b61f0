package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-md/baton/engine"
	"github.com/google/go-cmp/cmp"
)

// TestRulesDocIsCurrent fails when docs/rules.md no longer matches the rule
// registry it is generated from.
func TestRulesDocIsCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "rules.md")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `make docs` to generate it", err)
	}
	want := engine.Registry().RulesMarkdown()
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("docs/rules.md is stale: run `make docs` to regenerate it.\n"+
			"Difference (-generated from the registry, +%s):\n%s", path, diff)
	}
}

// TestEveryRuleIsDocumented checks what a user reads when a rule fires: a
// one-line summary and a doc saying what the rule checks and how to fix it.
func TestEveryRuleIsDocumented(t *testing.T) {
	rules := engine.Registry().Rules()
	if len(rules) == 0 {
		t.Fatal("the registry holds no rules")
	}
	for _, r := range rules {
		t.Run(r.ID, func(t *testing.T) {
			if strings.TrimSpace(r.Summary) == "" {
				t.Error("empty Summary")
			}
			if strings.Contains(r.Summary, "\n") {
				t.Errorf("Summary is not one line: %q", r.Summary)
			}
			if strings.TrimSpace(r.Doc) == "" {
				t.Error("empty Doc")
			}
			if strings.TrimSpace(r.Doc) == strings.TrimSpace(r.Summary) {
				t.Error("Doc only repeats the Summary; it should say how to fix the finding")
			}
		})
	}
}

// TestExplainEveryRule runs `baton explain ID` for every registered rule.
func TestExplainEveryRule(t *testing.T) {
	for _, r := range engine.Registry().Rules() {
		t.Run(r.ID, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run([]string{"explain", r.ID}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
				t.Fatalf("baton explain %s: exit status %d, want %d; stderr:\n%s", r.ID, code, exitOK, stderr.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("baton explain %s wrote to stderr:\n%s", r.ID, stderr.String())
			}
			out := stdout.String()
			header := fmt.Sprintf("%s (default severity: %s)\n", r.ID, r.Severity)
			if !strings.HasPrefix(out, header) {
				t.Errorf("output does not start with %q:\n%s", header, out)
			}
			for _, part := range []string{r.Summary, strings.TrimSpace(r.Doc)} {
				if !strings.Contains(out, part) {
					t.Errorf("output lacks %q:\n%s", part, out)
				}
			}
		})
	}
}

// TestExplainListsEveryRule checks that `baton explain` lists every rule,
// one a line, with its default severity and summary, and nothing else.
func TestExplainListsEveryRule(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"explain"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("baton explain: exit status %d, want %d; stderr:\n%s", code, exitOK, stderr.String())
	}
	rules := engine.Registry().Rules()
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(rules) {
		t.Errorf("baton explain printed %d lines for %d rules:\n%s", len(lines), len(rules), stdout.String())
	}
	for _, r := range rules {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(r.ID) + ` +` + regexp.QuoteMeta(r.Severity.String()) + ` +` + regexp.QuoteMeta(r.Summary) + `$`)
		if !re.MatchString(stdout.String()) {
			t.Errorf("baton explain has no line for %s (severity %s):\n%s", r.ID, r.Severity, stdout.String())
		}
	}
}

// TestExplainMarkdown checks that `baton explain --markdown`, which
// `make docs` writes to docs/rules.md, prints the registry's Markdown.
func TestExplainMarkdown(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"explain", "--markdown"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("baton explain --markdown: exit status %d, want %d; stderr:\n%s", code, exitOK, stderr.String())
	}
	if diff := cmp.Diff(engine.Registry().RulesMarkdown(), stdout.String()); diff != "" {
		t.Errorf("baton explain --markdown differs from the registry's Markdown (-want +got):\n%s", diff)
	}
}

// TestArchitectureNamesEveryPackage: docs/architecture.md's table of
// packages names every folder of the project that holds Go code, and no
// package that is gone.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "\n## Packages\n")
	if !ok {
		t.Fatal("docs/architecture.md has no Packages section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	named := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		if cell, _, ok := strings.Cut(strings.TrimPrefix(line, "| "), " |"); ok && strings.HasPrefix(line, "| `") {
			for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell, -1) {
				named[m[1]] = true
			}
		}
	}
	have := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			have[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range have {
		if !named[p] {
			t.Errorf("package %s is not in docs/architecture.md's Packages table", p)
		}
	}
	for p := range named {
		if !have[p] {
			t.Errorf("docs/architecture.md's Packages table names %s, which holds no Go code", p)
		}
	}
}
