package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/engine/enginetest"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/rogpeppe/go-internal/txtar"
)

// Every kind lints the same with and without a byte-order mark, with LF,
// CRLF or lone CR line endings, and with or without a final newline:
// PowerShell 5.1 and Notepad write a BOM and CRLF, and specrew is a
// PowerShell project. The rules' own fixtures are the documents, and the
// real documents of the shared corpus, each as a one-file archive.
func TestLineEndingsAndBOMDoNotChangeFindings(t *testing.T) {
	t.Run("fixtures", func(t *testing.T) {
		checkLineEndingsAndBOM(t, enginetest.RuleFixtures(t))
	})
	t.Run("shared corpus", func(t *testing.T) {
		files := corpus.Glob(t, "*/*.md")
		checkLineEndingsAndBOM(t, append(files, corpus.Glob(t, "xmd/*/*.md")...))
	})
}

// grayMatterLanguage is front matter opened by "---" and a language name.
var grayMatterLanguage = regexp.MustCompile(`^\x{feff}?---[ \t]*[A-Za-z]`)

// checkLineEndingsAndBOM lints each document of files (a txtar fixture, or
// a Markdown file) in each variant and compares the findings.
func checkLineEndingsAndBOM(t *testing.T, files []string) {
	reg := engine.Registry()
	variants := map[string]func(string) string{
		"BOM":              func(s string) string { return "\ufeff" + s },
		"CRLF":             func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
		"CR":               func(s string) string { return strings.ReplaceAll(s, "\n", "\r") },
		"no final newline": func(s string) string { return strings.TrimRight(s, "\n") },
		"BOM and CRLF":     func(s string) string { return "\ufeff" + strings.ReplaceAll(s, "\n", "\r\n") },
	}
	checked := 0
	for _, name := range files {
		var ar *txtar.Archive
		if strings.HasSuffix(name, ".md") {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			ar = &txtar.Archive{Files: []txtar.File{{Name: filepath.Base(name), Data: data}}}
		} else {
			var err error
			if ar, err = txtar.ParseFile(name); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".md") || strings.Contains(string(f.Data), "\r") {
				continue
			}
			text := string(f.Data)
			base := lint(reg, text)
			kind := markdown.Parse("x.md", text).Kind
			for vname, v := range variants {
				if vname == "no final newline" && !strings.HasSuffix(text, "\n") {
					continue
				}
				vt := v(text)
				if k := markdown.Parse("x.md", vt).Kind; k != kind {
					t.Errorf("%s %s with %s: kind %v, want %v", name, f.Name, vname, k, kind)
					continue
				}
				got := lint(reg, vt)
				if vname == "CR" && grayMatterLanguage.MatchString(text) {
					// gray-matter looks for the line break after "---lang" as
					// a "\n": with lone CRs it reads no front matter, and the
					// engine runs the document (recorded under Node with
					// gray-matter 4.0.3), so the language is not refused.
					got, base := dropRule(got, "workflow/syntax"), dropRule(base, "workflow/syntax")
					if !slices.Equal(got, base) {
						t.Errorf("%s %s with %s:\n got %q\nwant %q", name, f.Name, vname, got, base)
					}
					continue
				}
				if vname == "no final newline" {
					// A finding about the last line may say it has no break.
					got, base := dropRule(got, "packet/verdict-marker-position"), dropRule(base, "packet/verdict-marker-position")
					if !slices.Equal(got, base) {
						t.Errorf("%s %s with %s:\n got %q\nwant %q", name, f.Name, vname, got, base)
					}
					continue
				}
				if !slices.Equal(got, base) {
					t.Errorf("%s %s with %s:\n got %q\nwant %q", name, f.Name, vname, got, base)
				}
			}
			checked++
		}
	}
	t.Logf("%d documents, %d variants each", checked, len(variants))
}

// lint gives each finding as rule@line: columns shift on the first line
// with a BOM, and messages may quote the text.
//
// The parser and the rules read the text's own bytes (markdown.ParseIndexed):
// lint also checks that no rule wrote to them.
func lint(reg *analysis.Registry, text string) []string {
	want := strings.Clone(text)
	doc := markdown.Parse("x.md", text)
	res := reg.AnalyzeEnv(doc, nil, nil)
	if text != want {
		panic("the analysis wrote to the document's text")
	}
	var out []string
	for _, f := range res.Findings {
		p := doc.Lines.Position(f.Span.Start, markdown.UTF8)
		out = append(out, fmt.Sprintf("%s@%d", f.Rule, p.Line+1))
	}
	slices.Sort(out)
	return out
}

func dropRule(in []string, rule string) []string {
	return slices.DeleteFunc(slices.Clone(in), func(s string) bool { return strings.HasPrefix(s, rule+"@") })
}
