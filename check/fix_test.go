package check

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/report/reporttest"
)

// testRegistry builds a registry of one analyzer over ordinary Markdown,
// whose run reports through report.
func testRegistry(t *testing.T, rules []*analysis.Rule, report func(p *analysis.Pass)) *analysis.Registry {
	t.Helper()
	reg, err := analysis.NewRegistry(&analysis.Analyzer{
		Name:  "test",
		Kind:  markdown.KindOther,
		Rules: rules,
		Run:   func(p *analysis.Pass) any { report(p); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func testRule(id string) *analysis.Rule {
	return &analysis.Rule{ID: id, Summary: id, Doc: "How to fix " + id + ".", Severity: analysis.Warning}
}

func fixWith(reg *analysis.Registry, text string) *analysis.Result {
	return analysis.FixAll(func(t string) *analysis.Result { return reg.Analyze(markdown.Parse("x.md", t), nil) }, text)
}

func safe(span markdown.Span, text string) func(*analysis.Finding) {
	return analysis.WithFix(analysis.Fix{Title: "fix", Safe: true, Edits: []analysis.Edit{{Span: span, NewText: text}}})
}

// TestFixRoundsConverge checks that the fixes a round makes possible, and
// the ones skipped because they overlapped a fix taken in the same round,
// are applied in the next rounds.
func TestFixRoundsConverge(t *testing.T) {
	upper, wrap, chain := testRule("test/upper"), testRule("test/wrap"), testRule("test/chain")
	word := regexp.MustCompile(`\[?[a-zA-Z]+\]?`)
	reg := testRegistry(t, []*analysis.Rule{upper, wrap, chain}, func(p *analysis.Pass) {
		for _, m := range word.FindAllStringIndex(p.Doc.Text, -1) {
			w := p.Doc.Text[m[0]:m[1]]
			span := markdown.Span{Start: m[0], End: m[1]}
			if w != strings.ToUpper(w) {
				p.Report(upper, span, "lower case", safe(span, strings.ToUpper(w)))
			}
			if !strings.HasPrefix(w, "[") {
				// Overlaps test/upper's fix, which comes first: it waits a round.
				p.Report(wrap, span, "not wrapped", safe(span, "["+w+"]"))
			}
		}
		// x becomes y becomes z: each fix makes the next one possible.
		if i := strings.IndexAny(p.Doc.Text, "xy"); i >= 0 {
			next := map[byte]string{'x': "y", 'y': "z"}[p.Doc.Text[i]]
			span := markdown.Span{Start: i, End: i + 1}
			p.Report(chain, span, "chain", safe(span, next))
		}
	})
	res := fixWith(reg, "ab cd\n")
	if want := "[AB] [CD]\n"; res.Doc.Text != want {
		t.Errorf("fixed text %q, want %q", res.Doc.Text, want)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings remain: %v", res.Findings)
	}
	if res := fixWith(reg, "1 x 2\n"); res.Doc.Text != "1 [Z] 2\n" {
		t.Errorf("fixed text %q, want %q", res.Doc.Text, "1 [Z] 2\n")
	}
}

// TestFixRoundsBounded checks that a fix that never settles is applied at
// most analysis.MaxFixRounds times, and that its finding then remains.
func TestFixRoundsBounded(t *testing.T) {
	grow := testRule("test/grow")
	reg := testRegistry(t, []*analysis.Rule{grow}, func(p *analysis.Pass) {
		end := markdown.Span{Start: len(p.Doc.Text), End: len(p.Doc.Text)}
		p.Report(grow, end, "never enough", safe(end, "!"))
	})
	res := fixWith(reg, "a")
	if want := "a" + strings.Repeat("!", analysis.MaxFixRounds); res.Doc.Text != want {
		t.Errorf("fixed text %q, want %q", res.Doc.Text, want)
	}
	if len(res.Findings) != 1 {
		t.Errorf("%d findings remain, want 1", len(res.Findings))
	}
}

func TestSafeFixEdits(t *testing.T) {
	sp := func(s, e int) markdown.Span { return markdown.Span{Start: s, End: e} }
	edit := func(s, e int, text string) analysis.Edit { return analysis.Edit{Span: sp(s, e), NewText: text} }
	fix := func(safe bool, edits ...analysis.Edit) analysis.Fix {
		return analysis.Fix{Title: "f", Safe: safe, Edits: edits}
	}
	finding := func(fixes ...analysis.Fix) analysis.Finding { return analysis.Finding{Rule: "a/b", Fixes: fixes} }
	text := "0123456789"
	got := analysis.SafeFixEdits(text, []analysis.Finding{
		finding(fix(false, edit(0, 1, "unsafe")), fix(true, edit(0, 2, "A"))), // the first safe fix, after an unsafe one
		finding(fix(true, edit(1, 3, "overlaps")), fix(true, edit(8, 9, "second safe fix: not taken"))),
		finding(fix(true, edit(2, 2, "I"), edit(9, 10, "J"))), // adjacent to 0-2: taken, both edits
		finding(fix(true, edit(2, 2, "same insertion point"))),
		finding(fix(true, edit(5, 6, "x"), edit(5, 7, "overlapping itself"))),
		finding(fix(true, edit(6, 20, "outside the text"))),
		finding(),
		finding(fix(true, edit(3, 4, "B"))),
	})
	want := []analysis.Edit{edit(0, 2, "A"), edit(2, 2, "I"), edit(9, 10, "J"), edit(3, 4, "B")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("edits (-want +got):\n%s", diff)
	}
}

// A packet with a level-3 heading, CRLF line breaks, trailing spaces, a
// tab and no final line break: only the heading may change.
const crlfPacket = "## What I Just Did\r\n\r\nWork.  \r\n\r\n### Why I Stopped\r\n\r\nReasons\t.\r\n\r\n## What Needs Your Review\r\n\r\n- Approve?\r\n\r\n## What Happens Next\r\n\r\nOn approval, I will start.\r\n\r\n## What I Need From You\r\n\r\nReply \"approved\"."

func TestFixInPlace(t *testing.T) {
	dir := t.TempDir()
	fixme := filepath.Join(dir, "fixme.md")
	good := filepath.Join(dir, "good.md")
	unfixable := filepath.Join(dir, "order.md")
	write := func(path, text string, perm os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, perm); err != nil { // whatever the umask
			t.Fatal(err)
		}
		// An old modification time, so that a rewrite would show.
		old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write(fixme, crlfPacket, 0o640)
	write(good, reporttest.Clean, 0o600)
	write(unfixable, reporttest.OutOfOrder, 0o644)
	stat := func(path string) os.FileInfo {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	untouched := func(path string, before os.FileInfo) {
		t.Helper()
		after := stat(path)
		if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) || after.Mode() != before.Mode() {
			t.Errorf("%s was touched: %v %v → %v %v", filepath.Base(path), before.ModTime(), before.Mode(), after.ModTime(), after.Mode())
		}
	}
	goodBefore, unfixableBefore := stat(good), stat(unfixable)

	// stderr holds the fix summary alone: what was fixed, what remains.
	check := func(summary string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run([]string{"--fix", fixme, good, unfixable}, strings.NewReader(""), &out, &errOut); code != ExitOK {
			t.Errorf("exit status %d, want %d; stderr:\n%s", code, ExitOK, errOut.String())
		}
		if errOut.String() != summary {
			t.Errorf("stderr:\n%s\nwant:\n%s", errOut.String(), summary)
		}
		return out.String()
	}
	out := check("1 fixed in 1 file, 1 remaining\n")
	if !strings.Contains(out, "order.md:9:1: warning packet/section-order:") || strings.Contains(out, "fixme.md") {
		t.Errorf("findings printed after the fixes:\n%s", out)
	}
	got, err := os.ReadFile(fixme)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(crlfPacket, "### Why I Stopped", "## Why I Stopped", 1); string(got) != want {
		t.Errorf("fixed file:\n%q\nwant:\n%q", got, want)
	}
	fixed := stat(fixme)
	if fixed.Mode().Perm() != 0o640 {
		t.Errorf("the fixed file's permissions are %v, want 0640", fixed.Mode().Perm())
	}
	untouched(good, goodBefore)
	untouched(unfixable, unfixableBefore)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Errorf("%d entries in the folder, want the 3 files (a temporary file left behind?)", len(entries))
	}

	// Idempotent: a second run prints the same and touches nothing.
	if again := check("0 fixed, 1 remaining\n"); again != out {
		t.Errorf("the second run printed:\n%s\nthe first:\n%s", again, out)
	}
	untouched(fixme, fixed)
	untouched(good, goodBefore)
	untouched(unfixable, unfixableBefore)
}

// TestFixPastTheFindingsCap checks --fix on a document with more findings
// than a document reports (analysis.MaxFindings), the reported ones
// unfixable and the safe fixes past them: every safe fix is applied, and
// the summary counts every finding left, those past the cap included.
// (It fixed none, and said "0 fixed, 1001 remaining".)
func TestFixPastTheFindingsCap(t *testing.T) {
	// Each packet lacks two sections (no safe fix); those of the second
	// part have level-3 headings too (a safe fix each).
	const unfixable, fixable = 600, 400
	packet := "## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nThe slice is done.\n\n## What Happens Next\n\nI will run the checks.\n\n"
	text := strings.Repeat(packet, unfixable) + "# Part two\n\n" + strings.Repeat(strings.ReplaceAll(packet, "## ", "### "), fixable)
	path := filepath.Join(t.TempDir(), "many.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"--fix", path}, strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, ExitOK, errOut.String())
	}
	if want := fmt.Sprintf("%d fixed in 1 file, %d remaining\n", 3*fixable, 2*(unfixable+fixable)); errOut.String() != want {
		t.Errorf("summary %q, want %q", errOut.String(), want)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), "### "); n != 0 {
		t.Errorf("%d level-3 headings left unfixed", n)
	}
	if !strings.Contains(out.String(), "baton/too-many-findings: 1000 more findings") {
		t.Errorf("the findings past the cap are not counted in the output:\n%s", out.String()[max(0, out.Len()-500):])
	}
}

// The summary says when the rounds of fixes ran out with safe fixes left.
func TestFixCountLine(t *testing.T) {
	for _, c := range []struct {
		count fixCount
		diff  bool
		want  string
	}{
		{fixCount{fixed: 3, remaining: 1, files: 2}, false, "3 fixed in 2 files, 1 remaining"},
		{fixCount{fixed: 5, remaining: 1, files: 1, unapplied: 1}, false,
			"5 fixed in 1 file, 1 remaining; 1 more safe fix after the 5 rounds of fixes a run makes: run --fix again to apply them"},
		{fixCount{fixed: 5, remaining: 2, files: 1, unapplied: 2}, true,
			"5 fixable in 1 file, 2 remaining; 2 more safe fixes after the 5 rounds of fixes a run makes: run --fix again to apply them; --diff wrote nothing"},
	} {
		if got := c.count.line(c.diff); got != c.want {
			t.Errorf("line(%v) of %+v =\n%s\nwant\n%s", c.diff, c.count, got, c.want)
		}
	}
}

// TestWriteFixedFailure checks that a file whose fixes cannot be written is
// reported, with the findings of the file as it is.
func TestWriteFixedFailure(t *testing.T) {
	upper := testRule("test/upper")
	c := newChecker(testRegistry(t, []*analysis.Rule{upper}, func(p *analysis.Pass) {
		if i := strings.Index(p.Doc.Text, "a"); i >= 0 {
			span := markdown.Span{Start: i, End: i + 1}
			p.Report(upper, span, "lower case", safe(span, "A"))
		}
	}), FixOptions{fix: true}, "", nil)
	path := filepath.Join(t.TempDir(), "gone", "x.md")
	r := c.check(path, path, "a\n")
	if r.Doc.Text != "A\n" || !r.changed() {
		t.Fatalf("fixed text %q", r.Doc.Text)
	}
	var stderr bytes.Buffer
	if c.writeFixed(r, &stderr) {
		t.Fatal("writing into a missing folder succeeded")
	}
	if !strings.HasPrefix(stderr.String(), "baton: writing the fixes of "+path+": ") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if r.Doc.Text != "a\n" || r.changed() || len(r.Findings) != 1 {
		t.Errorf("after the failure: text %q, %d findings; want the text as read and its finding", r.Doc.Text, len(r.Findings))
	}
}

func TestUnifiedDiff(t *testing.T) {
	if d := unifiedDiff("x.md", "same\n", "same\n"); d != nil {
		t.Errorf("diff of equal texts: %q", d)
	}
	if d := unifiedDiff("x.md", bom+"# T\n", "# T\n"); d != nil {
		t.Errorf("a fix that took the byte-order mark with it shows as a change: %q", d)
	}
	got := string(unifiedDiff("dir/x.md", "a\nb\nc\n", "a\nB\nc"))
	want := "--- a/dir/x.md\n+++ b/dir/x.md\n@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+c\n\\ No newline at end of file\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

// --fix never overwrites what it did not read: a file saved meanwhile is
// refused, as is a read-only one; the file stays as it is.
func TestWriteFileAtomicRefuses(t *testing.T) {
	dir := t.TempDir()
	changed := filepath.Join(dir, "changed.md")
	if err := os.WriteFile(changed, []byte("the user's edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFileAtomic(changed, digestOf("as baton read it\n"), []byte("fixed\n"))
	if err == nil || !strings.Contains(err.Error(), "the file changed since baton read it") {
		t.Errorf("a file changed meanwhile: err = %v", err)
	}
	if b, _ := os.ReadFile(changed); string(b) != "the user's edit\n" {
		t.Errorf("the user's edit was lost: %q", b)
	}
	ro := filepath.Join(dir, "ro.md")
	if err := os.WriteFile(ro, []byte("x\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	err = writeFileAtomic(ro, digestOf("x\n"), []byte("fixed\n"))
	if err == nil || !strings.Contains(err.Error(), "read-only (mode 0444)") {
		t.Errorf("a read-only file: err = %v", err)
	}
	if b, _ := os.ReadFile(ro); string(b) != "x\n" {
		t.Errorf("the read-only file was replaced: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	ok := filepath.Join(dir, "ok.md")
	if err := os.WriteFile(ok, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(ok, digestOf("x\n"), []byte("fixed\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(ok); string(b) != "fixed\n" {
		t.Errorf("unchanged file not written: %q", b)
	}
}

// --fix is lossless on the file as stored: a byte-order mark the first
// line's fix replaced is kept (with the CRLF line ends and no final line
// break), a file with other hard links is fixed for
// every name of it (written in place, as gofmt -w and ruff do), and a
// symbolic link named on the command line stays a link to the fixed file.
func TestFixKeepsWhatTheFileIs(t *testing.T) {
	const want = "## What I Just Did\r\n\r\nWork.\r\n\r\n## Why I Stopped\r\n\r\nDone.\r\n\r\n## What Needs Your Review\r\n\r\n- Approve?\r\n\r\n" +
		"## What Happens Next\r\n\r\nOn approval, I will start.\r\n\r\n## What I Need From You\r\n\r\nReply \"approved\"."
	bad := "#" + want
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	for name, text := range map[string]string{"bom.md": bom + bad, "linked.md": bad, "target.md": bom + bad} {
		if err := os.WriteFile(path(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(path("linked.md"), path("other-name.md")); err != nil {
		t.Skipf("hard links: %v", err)
	}
	if err := os.Symlink("target.md", path("sym.md")); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path("linked.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"--fix", path("bom.md"), path("linked.md"), path("sym.md")}, strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for name, w := range map[string]string{"bom.md": bom + want, "linked.md": want, "other-name.md": want, "target.md": bom + want} {
		if got, _ := os.ReadFile(path(name)); string(got) != w {
			t.Errorf("%s: %q, want %q", name, got, w)
		}
	}
	after, err := os.Stat(path("linked.md"))
	if err != nil {
		t.Fatal(err)
	}
	if other, _ := os.Stat(path("other-name.md")); !os.SameFile(before, after) || !os.SameFile(after, other) {
		t.Error("the hard link was split: the names are no longer one file")
	}
	if fi, err := os.Lstat(path("sym.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("sym.md is no longer a symbolic link: %v, %v", fi, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 5 {
		t.Errorf("%d entries in the folder, want the 5 names (a backup or temporary file left behind?)", len(entries))
	}
	// Standard input fixed keeps its byte-order mark too.
	out.Reset()
	errOut.Reset()
	if code := run([]string{"--fix", "-"}, strings.NewReader(bom+bad), &out, &errOut); code != ExitOK {
		t.Fatalf("--fix -: exit %d; stderr:\n%s", code, errOut.String())
	}
	if got := out.String(); got != bom+want {
		t.Errorf("--fix -: %q, want %q", got, bom+want)
	}
}
