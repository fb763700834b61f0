package governance

import (
	"cmp"
	"fmt"
	"io/fs"
	"iter"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/baton-md/baton/internal/ascii"
	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// boundaryPhrases is the validator's $boundaryPhraseMap: the words that
// name each boundary it knows (Test-MentionsBoundary).
var boundaryPhrases = map[string][]string{
	"planning":                               {"planning boundary", "authorize planning", "enter planning"},
	"hardening-gate-and-implementation-auth": {"hardening-gate-and-implementation-auth", "hardening gate and implementation authorization"},
	"hardening-gate-signoff":                 {"hardening-gate-signoff", "hardening gate sign-off", "hardening-gate sign-off"},
	"implementation":                         {"implementation boundary", "implementation authorization", "authorize implementation", "implementation"},
	"review-boundary":                        {"review boundary", "authorize review-boundary", "enter review-boundary", "review-boundary"},
	"review-verdict-signoff":                 {"review-verdict-signoff", "review verdict sign-off", "review-verdict signoff"},
	"retro-boundary":                         {"retro boundary", "retrospective boundary", "retro-boundary"},
	"iteration-closeout":                     {"iteration closeout", "iteration-closeout"},
	"feature-closeout":                       {"feature closeout", "feature-closeout"},
}

var (
	nonAlnum      = lazyre.New(`[^a-z0-9]+`)
	boundaryForms = []struct {
		re   *lazyre.Regexp
		name string
	}{
		{lazyre.New(`^planning$`), "planning"},
		{lazyre.New(`^hardening-gate(?:-and-implementation-auth)?$`), "hardening-gate-and-implementation-auth"},
		{lazyre.New(`^hardening-gate-sign-?off$`), "hardening-gate-signoff"},
		{lazyre.New(`^implementation(?:-authorization)?$`), "implementation"},
		{lazyre.New(`^review(?:-boundary)?$`), "review-boundary"},
		{lazyre.New(`^review-verdict-signoff$`), "review-verdict-signoff"},
		{lazyre.New(`^retro(?:spective)?(?:-boundary)?$`), "retro-boundary"},
		{lazyre.New(`^iteration-closeout$`), "iteration-closeout"},
		{lazyre.New(`^feature-closeout$`), "feature-closeout"},
	}
)

// NormalizeBoundary is Normalize-InteractionModelBoundaryName: lower-case,
// hyphenated, and the validator's own names for the boundaries it knows.
func NormalizeBoundary(b string) string {
	n := nonAlnum.ReplaceAllString(strings.ToLower(strings.TrimSpace(b)), "-")
	for _, f := range boundaryForms {
		if f.re.MatchString(n) {
			return f.name
		}
	}
	return strings.Trim(n, "-")
}

// mentions is Test-MentionsBoundary.
func mentions(text, boundary string) bool {
	nb := NormalizeBoundary(boundary)
	if strings.TrimSpace(text) == "" || nb == "" {
		return false
	}
	phrases, ok := boundaryPhrases[nb]
	if !ok {
		return strings.Contains(strings.ToLower(text), nb)
	}
	// (?i)\b<phrase>\b, each phrase a word or words joined by spaces and
	// hyphens: read as phraseIndex reads one, not compiled for every call.
	for _, p := range phrases {
		if phraseIndex(text, p) >= 0 {
			return true
		}
	}
	return false
}

// boundaryChecks are the validator's checks of a boundary handoff in the
// stop format: a thin What I just did, a stop reason that does not name
// the boundary, a request the user cannot act on.
func boundaryChecks(m *message, need, why string) {
	pass := m.pass
	name := NormalizeBoundary(m.name)
	did, _ := m.body(packet.JustDid)
	// Counted as far as the thresholds decide, in full for the message.
	ids := identifiers(did, 3)
	words := 0
	if ids >= 3 {
		words = wordCountUpTo(did, 50)
	}
	enough := ids >= 3 && words >= 50
	if name == "iteration-closeout" || name == "feature-closeout" {
		enough = ids >= 3 || wordCountUpTo(did, 50) >= 50
	}
	if !enough {
		ids, words = identifiers(did, math.MaxInt), wordCountUpTo(did, math.MaxInt)
	}
	if !enough {
		pass.Report(RuleThinSummary, m.at(packet.JustDid),
			fmt.Sprintf("\"What I Just Did\" is thin for a boundary handoff (%d identifiers, %d words): describe the work in at least 50 words with at least three concrete identifiers (requirement and task ids, commits, file:/// links)", ids, words))
	}
	if name == "" {
		return // nothing says which boundary: baton does not guess it
	}
	if !mentions(why, name) {
		pass.Report(RuleUnnamedBoundary, m.at(packet.WhyStopped),
			fmt.Sprintf("\"Why I Stopped\" does not name the %s boundary (named by %s): say that the work stopped at it", name, m.nameFrom))
	}
	var missing []string
	if !mentions(need, name) {
		missing = append(missing, "the boundary's name ("+name+")")
	}
	if !ascii.ContainsFold(need, "file:///") {
		missing = append(missing, "a file:/// link to what to inspect")
	}
	if !verdictCue.MatchString(need) {
		missing = append(missing, "the verdict wanted (approve, reject, confirm, sign off …)")
	}
	if len(missing) > 0 {
		pass.Report(RuleUnactionableRequest, m.at(packet.NeedFromYou),
			"\"What I Need From You\" lacks "+strings.Join(missing, ", ")+": name the boundary, link what to inspect and ask for an explicit verdict")
	}
}

var (
	fileURIRe    = lazyre.New("(?i)file:///[^\\s)`\"'<>]+")
	markdownLink = lazyre.New(`(?i)\[[^\]\r\n]*\]\((file:///[^\s)]+)\)`)
	inlineCode   = lazyre.New("`[^`\r\n]+`")                       // blankInlineCode's pattern, for its test
	anyURL       = lazyre.New(`(?i)\b[a-z][a-z0-9+.-]*://[^\s)]+`) // blankURLs'
	exemptLines  = []*lazyre.Regexp{
		lazyre.New(`(?i)^(?:ps>|cmd>|info:|warn:|error:|trace:|\[[A-Z]+\])`),
		lazyre.New(`(?i)^\s*[\{\[].*[:=].*[\\/].*[\}\]]?\s*$`),
		lazyre.New(`(?i)^\s*[\w\.\-"]+\s*:\s*["']?.+[\\/].*$`),
		lazyre.New(`(?i)^\s*/.+/[a-z]*\s*$`),
		lazyre.New(`(?i)\b(?:git|pwsh|powershell|npm|node|python|go|dotnet|gh|curl|Get-ChildItem|Select-String|Resolve-Path)\b.+(?:[\\/]|[\*\?])`),
	}
	// The candidates of Get-BarePathMatches; (?<![\w./\\-]) is the
	// leading group, the path the last.
	barePathRes = []*lazyre.Regexp{
		lazyre.New(`(?i)()((?:[A-Za-z]:[\\/]|\.{1,2}[\\/])[A-Za-z0-9_.\\/-]+)`),
		lazyre.New(`(?i)(^|[^\pL\pN_./\\-])((?:specs|\.specrew|\.squad|\.specify|\.github|\.claude|\.codex|\.cursor|\.agents|tests|scripts|extensions|hosts|docs|templates|bin)[\\/][A-Za-z0-9_.\\/-]+)`),
		lazyre.New(`(?i)(^|[^\pL\pN_./\\-])((?:[A-Za-z0-9_.-]+[\\/])+[A-Za-z0-9_.-]+\.[A-Za-z0-9]+)`),
		lazyre.New(`(?i)(^|[^\pL\pN_./\\-])(README\.md)(?:$|[^\pL\pN_./\\-])`),
	}
)

// brokenURLs is Get-BrokenFileUriFindings: each file:/// reference must name
// a file or folder that exists. baton looks only inside the workspace:
// a reference elsewhere (another machine's drive, say) is not judged.
func brokenURLs(m *message) {
	fsys, _ := m.pass.Env[EnvFS].(fs.FS)
	root, _ := m.pass.Env[EnvRoot].(string)
	if fsys == nil || root == "" {
		return
	}
	if !m.has("file:///") {
		return
	}
	seen := map[string]bool{}
	for _, loc := range findFileURIs(m.text) {
		raw := strings.TrimRight(m.text[loc[0]:loc[1]], ",.;:")
		if seen[raw] {
			continue
		}
		seen[raw] = true
		rel, ok := inWorkspace(raw, root)
		if !ok {
			continue
		}
		if _, err := fs.Stat(fsys, rel); err == nil {
			continue
		}
		m.pass.Report(RuleBrokenURL, m.span(loc[0], loc[0]+len(raw)),
			fmt.Sprintf("%s names no file or folder in the workspace (%s): link the artifact where it is, or leave the reference out", raw, rel))
	}
}

// findFileURIs is fileURIRe.FindAllStringIndex(text, -1), without the
// regexp: a case-insensitive pattern has no literal prefix to skip ahead
// with, so the regexp stepped through every byte of every message. This
// finds each ":///" with strings.Index, then reads "file" before it and the
// URL after it as the pattern does.
func findFileURIs(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		k := strings.Index(text[i:], ":///")
		if k < 0 {
			break
		}
		k += i
		start, end := k-4, k+4
		if start < i || !strings.EqualFold(text[start:k], "file") {
			i = k + 1
			continue
		}
		for end < len(text) && !fileURIStop(text[end]) {
			end++
		}
		if end == k+4 {
			i = k + 1 // file:/// with nothing after it
			continue
		}
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

// fileURIStop is a byte fileURIRe's [^\s)`"'<>] does not take (\s is
// RE2's ASCII space class).
func fileURIStop(c byte) bool {
	switch c {
	case '\t', '\n', '\f', '\r', ' ', ')', '`', '"', '\'', '<', '>':
		return true
	}
	return false
}

// inWorkspace is the path, relative to root and slash-separated, that a
// file:/// URL names, when it lies inside root.
func inWorkspace(raw, root string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" {
		return "", false
	}
	p := u.Path
	if s, err := url.PathUnescape(p); err == nil { // specrew unescapes the local path again
		p = s
	}
	if len(p) > 2 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x is C:/x
	}
	rel, err := filepath.Rel(root, filepath.FromSlash(p))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// fileURL is the file:/// URL of a path relative to root.
func fileURL(root, rel string) string {
	p := filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel)))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// markdownLinks is Get-MarkdownFileLinkMatches: a file:/// URL behind a
// Markdown link text hides the target in a terminal.
func markdownLinks(m *message) {
	var sev analysis.Severity
	switch {
	case m.boundaryHandoff():
		sev = analysis.Error
	case m.narration():
		sev = analysis.Warning
	default:
		return
	}
	if !m.has("](file:") {
		return
	}
	b := []byte(m.text)
	for _, loc := range fences.FindAllIndex(b, -1) {
		blank(b, loc[0], loc[1])
	}
	for _, loc := range markdownLink.FindAllSubmatchIndex(b, -1) {
		target := m.text[loc[2]:loc[3]]
		pass := m.pass
		pass.Report(RuleMarkdownLink, m.span(loc[0], loc[1]),
			fmt.Sprintf("a file:/// URL behind link text: write the URL itself (%s), which a terminal shows and opens", target),
			analysis.WithSeverity(sev),
			analysis.WithFix(analysis.Fix{Title: "Write the URL bare", Safe: true, Edits: []analysis.Edit{{Span: m.span(loc[0], loc[1]), NewText: target}}}))
	}
}

// barePaths is Get-BarePathMatches: a repository path written as text,
// outside code, links and exempt lines, where specrew demands a file:///
// URL.
func barePaths(m *message) {
	var sev analysis.Severity
	switch {
	case m.boundaryHandoff():
		// specrew's boundary gates (sync-boundary-state, the handoff
		// evidence check) run the validator with -BarePathBoundaryHandoffSeverity
		// validation-fail: at a boundary a bare path fails the handoff.
		sev = analysis.Error
	case m.narration():
		sev = analysis.Warning
	default:
		return
	}
	if !strings.ContainsAny(m.text, `/\`) && !m.has("readme.md") {
		return // no line can hold a candidate
	}
	b := []byte(m.text)
	blankFences(b)
	if m.has("](file:") {
		for _, loc := range markdownLink.FindAllIndex(b, -1) {
			blank(b, loc[0], loc[1])
		}
	}
	blankInlineCode(b)
	blankURLs(b)
	text := unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again: a second copy of the message is not needed
	fsys, _ := m.pass.Env[EnvFS].(fs.FS)
	root, _ := m.pass.Env[EnvRoot].(string)
	// Every candidate pattern needs a slash or README.md: most lines have
	// neither, and only the lines that do are read (candidateLines).
	for start, line := range candidateLines(text) {
		t := strings.TrimSpace(line)
		if t == "" || exempt(t) {
			continue
		}
		// Every pattern's paths, the widest first where they start
		// together; a path inside one before it is that one (specrew lists
		// each path once, and its patterns overlap: a specs/ path is also a
		// path with an extension).
		var found [][2]int
		for _, re := range barePathRes {
			for _, loc := range re.FindAllStringSubmatchIndex(line, -1) {
				ps, pe := loc[4], loc[5]
				// specrew's pattern takes a sentence's full stop into the
				// path: the finding is the same, its span and fix the path's.
				for pe > ps+1 && line[pe-1] == '.' {
					pe--
				}
				found = append(found, [2]int{ps, pe})
			}
		}
		slices.SortFunc(found, func(a, b [2]int) int { return cmp.Or(a[0]-b[0], b[1]-a[1]) })
		reach := -1
		for _, f := range found {
			ps, pe := f[0], f[1]
			if pe <= reach {
				continue
			}
			reach = pe
			p := line[ps:pe]
			if anyMatch(p, m.settings.exemptions...) {
				continue // an exemption the project approved
			}
			var opts []func(*analysis.Finding)
			opts = append(opts, analysis.WithSeverity(sev))
			if rel, ok := existing(fsys, root, p); ok {
				u := fileURL(root, rel)
				opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Write it as " + u, Safe: true, Edits: []analysis.Edit{{Span: m.span(start+ps, start+pe), NewText: u}}}))
			}
			m.pass.Report(RuleBarePath, m.span(start+ps, start+pe),
				fmt.Sprintf("%s is a bare path: write it as a file:/// URL (or in code, if it is part of a command)", p), opts...)
		}
	}
}

// candidateLines yields each line of text (with its line break) that holds
// a slash, a backslash or "readme.md" in any case, and its offset, in
// order: the three are found with searches over the whole text, not a
// test of every line.
func candidateLines(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		// Where the next slash and backslash are, each searched for again
		// only once passed: every byte is read once by each search.
		at := [2]int{-2, -2}
		next := func(from int) int { // the next candidate byte at or after from, or -1
			k := -1
			for n, c := range [...]byte{'/', '\\'} {
				if at[n] != -1 && at[n] < from {
					at[n] = -1
					if i := strings.IndexByte(text[from:], c); i >= 0 {
						at[n] = from + i
					}
				}
				if at[n] >= 0 && (k < 0 || at[n] < k) {
					k = at[n]
				}
			}
			limit := len(text)
			if k >= 0 {
				limit = k
			}
			if i := indexFoldASCII(text[from:limit], "readme.md"); i >= 0 {
				k = from + i
			}
			return k
		}
		for from := 0; from < len(text); {
			k := next(from)
			if k < 0 {
				return
			}
			start := strings.LastIndexByte(text[:k], '\n') + 1
			end := len(text)
			if e := strings.IndexByte(text[k:], '\n'); e >= 0 {
				end = k + e + 1
			}
			if !yield(start, text[start:end]) {
				return
			}
			from = end
		}
	}
}

// exempt is Test-IsExemptPathLine: a command, console, JSON, key: value or
// regular-expression line. Each pattern is asked only of a line it could
// match.
func exempt(t string) bool {
	if exemptLines[0].MatchString(t) {
		return true
	}
	if (t[0] == '{' || t[0] == '[') && exemptLines[1].MatchString(t) {
		return true
	}
	if strings.IndexByte(t, ':') >= 0 && exemptLines[2].MatchString(t) {
		return true
	}
	if t[0] == '/' && exemptLines[3].MatchString(t) {
		return true
	}
	return exemptLines[4].MatchString(t)
}

// existing is the workspace-relative path of a bare path that names a file
// or folder in the workspace.
func existing(fsys fs.FS, root, p string) (string, bool) {
	if fsys == nil || root == "" || len(p) > 1 && p[1] == ':' {
		return "", false
	}
	rel := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if !fs.ValidPath(rel) {
		return "", false
	}
	if _, err := fs.Stat(fsys, rel); err != nil {
		return "", false
	}
	return rel, true
}

var (
	gateVerdictShape = lazyre.New(`(?i)approved for plan with option\b`)
	gateInlineCode   = lazyre.New("`[^`]*`")
	gateFileURL      = lazyre.New(`(?i)file:///\S+`)
	gateBarePath     = lazyre.New(`(^|[^\pL\pN_./])((?:specs|\.specrew|\.squad|tests)[\\/]\S)`) // case-sensitive
)

// designGate is Test-SpecrewDesignAnalysisGatePacket beyond its sections
// (packet/missing-section): the verdict shape, and no bare artifact path.
func designGate(pass *analysis.Pass, p *packet.Packet) {
	doc := pass.Doc
	if !gateVerdictShape.MatchString(doc.Text) {
		pass.Report(RuleGateVerdictShape, p.Sections[0].Heading.Span,
			"a design-analysis gate packet must name the verdict shape `approved for plan with Option <X>` (in `verdict_shape:` or the text): specrew refuses to save or use it without")
	}
	b := []byte(doc.Text)
	for _, re := range []*lazyre.Regexp{fences, gateInlineCode, gateFileURL} {
		for _, loc := range re.FindAllIndex(b, -1) {
			blank(b, loc[0], loc[1])
		}
	}
	if loc := gateBarePath.FindSubmatchIndex(b); loc != nil {
		end := loc[4]
		for end < len(b) && b[end] > ' ' {
			end++
		}
		for end > loc[4] && strings.IndexByte(",.;:)", b[end-1]) >= 0 {
			end--
		}
		pass.Report(RuleGateBarePath, markdown.Span{Start: loc[4], End: end},
			fmt.Sprintf("%s is a bare artifact path in a design-analysis gate packet: write it as a file:/// URL or in a code span", doc.Text[loc[4]:end]))
	}
}

// containsFold reports whether s holds lower (lower-case ASCII) with its
// letters in any case; other bytes match themselves.
func containsFold(s, lower string) bool { return indexFoldASCII(s, lower) >= 0 }
