package governance

import (
	"math"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/baton-md/baton/internal/ascii"
	"github.com/baton-md/baton/internal/lazyre"
)

// opaqueRefs finds what the validator's pattern finds, on the forms it
// names and on random text built of their pieces.
func TestOpaqueRefsMatchThePattern(t *testing.T) {
	texts := []string{
		"Completed 012, 001, T009, T010, FR-008, and 070dd06.",
		"feature 16, iteration 2 and Feature\t3x, TG-auth-flow_x and TG--, fr-12-3 T12 t1234 deadbeef defaced 0123456789abcdef0123456789abcdef012345678",
		"T0099x FR-1a iteration  42, feature\n7 cafe-babe1 TG-a",
	}
	pieces := []string{"feature", "iteration", "T", "t", "FR-", "TG-", "fr", "tg", "-", "_", " ", "\n", ",", "0", "12", "345", "abc", "def", "1234567", "x", "é", "a1b2c3d4", "."}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		want := opaqueRef.FindAllStringIndex(text, -1)
		if got := opaqueRefs(text); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%q: opaqueRefs %v, the pattern %v", text, got, want)
		}
	}
}

// wordList finds what a case-insensitive \b(…)\b alternation finds first.
func TestWordListMatchesTheAlternation(t *testing.T) {
	texts := []string{"Nothing here.", "The Next Step: review.", "Still running the tests", "in  progress", "a transitional state", "Tests", "Paused for now.", "no files changed", "sign-off", "sign off", "blocking", "reviewed", "REVIEW", "review_x", "x review.",
		"a release-blocking bug", "release-blocking_x", "If we change it", "otherwise.", "Recommended default", "xcontext", "scope?"}
	for _, text := range texts {
		for _, re := range []struct {
			words wordList
			pat   string
		}{
			{progressWords, `(?i)\b(completed|updated|implemented|changed|reviewed|verified|created|recorded|fixed|finished|added|no files changed|blocked|waiting|pending|stopped|open|remaining)\b`},
			{nextStepWords, `(?i)\b(next step|no further action needed|review|approve|confirm|run|provide|reply|authorize|sign off|continue|restart)\b`},
			{promptsContext, `(?i)\b(context|because|decision|assumption|risk|tradeoff|uncertain|triggered|scope|package|architecture|release-blocking)\b`},
			{promptsDefault, `(?i)\b(default|recommend|recommended|consequence|changing direction|if we change|if you change|otherwise)\b`},
			{userActionVerb, `(?i)\b(review|approve|confirm|run|provide|reply|authorize|sign off|restart|test)\b`},
			{transitionalWord, `(?i)\b(waiting|in progress|still running|background|transition|paused for now|slice is complete)\b`},
		} {
			got := re.words.match(text)
			want := regexpMatch(re.pat, text)
			if got != want {
				t.Errorf("%q: %v, want %v (%s)", text, got, want, re.pat)
			}
		}
	}
}

func regexpMatch(pat, text string) bool { return regexp.MustCompile(pat).MatchString(text) }

// TestTransitionalWordSpan: the span reported is the pattern's match.
func TestTransitionalWordSpan(t *testing.T) {
	re := regexp.MustCompile(`(?i)\b(waiting|in progress|still running|background|transition|paused for now|slice is complete)\b`)
	for _, text := range []string{"x", "Still running: the background job, waiting.", "a background transition", "in progress_ in progress", "PAUSED FOR NOW"} {
		s, e := transitionalWord.index(text)
		want := re.FindStringIndex(text)
		if want == nil && s >= 0 || want != nil && (s != want[0] || e != want[1]) {
			t.Errorf("%q: [%d %d], want %v", text, s, e, want)
		}
	}
}

// The hand-written scans blank and count what the validator's patterns
// find, on random text built of the pieces those patterns turn on.
func TestScansMatchThePatterns(t *testing.T) {
	pieces := []string{"```", "`", "a", "b c", "\n", "\r\n", "http", "://", "x)", "HTTPS", "_", "+", ".", "-", "1", " ", "é", "/", "word", "ünï"}
	r := rand.New(rand.NewPCG(3, 4))
	blanked := func(re *lazyre.Regexp, text string) string {
		b := []byte(text)
		for _, loc := range re.FindAllIndex(b, -1) {
			blank(b, loc[0], loc[1])
		}
		return string(b)
	}
	for range 5000 {
		var sb strings.Builder
		for range 1 + r.IntN(16) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := sb.String()
		for _, c := range []struct {
			name string
			scan func([]byte)
			re   *lazyre.Regexp
		}{{"fences", blankFences, fences}, {"inline code", blankInlineCode, inlineCode}, {"URLs", blankURLs, anyURL}} {
			b := []byte(text)
			c.scan(b)
			if want := blanked(c.re, text); string(b) != want {
				t.Fatalf("%s of %q: %q, the pattern %q", c.name, text, b, want)
			}
		}
		if got, want := wordCount(text), len(wordRe.FindAllStringIndex(text, -1)); got != want {
			t.Fatalf("wordCount(%q) = %d, the pattern %d", text, got, want)
		}
	}
}

// identifiers and governanceHits count what the validator's patterns
// count.
func TestCountsMatchThePatterns(t *testing.T) {
	pieces := []string{"FR-", "fr-", "T", "t", "TG-", "tg", "12", "3456", "abcdef0", "deadbeef", "decision-", "sign-off-", "x", "file:///", "a b", ")", " ", "\n", "-", "_", "gate", "Gate", "validator", "schema", "before-implement", "hardening-gate", "approval ref", ",", "é", "\r", "\x00", "before\rimplement", "approval\x00ref"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		var sb strings.Builder
		for range 1 + r.IntN(14) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := sb.String()
		want := 0
		for _, re := range identifierRes {
			want += len(re.FindAllStringIndex(text, -1))
		}
		if got := identifiers(text, math.MaxInt); got != want {
			t.Fatalf("identifiers(%q) = %d, the patterns %d", text, got, want)
		}
		want = 0
		for _, re := range governanceRes {
			want += len(re.FindAllStringIndex(text, -1))
		}
		if got := governanceHits(text); got != want {
			t.Fatalf("governanceHits(%q) = %d, the patterns %d", text, got, want)
		}
	}
}

// firstSentence is the validator's lead-sentence pattern.
func TestFirstSentenceMatchesThePattern(t *testing.T) {
	pieces := []string{"a", ".", "!", "?", " ", "\t", "b c", "..", "é"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		var sb strings.Builder
		for range 1 + r.IntN(8) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := sb.String()
		if got, want := firstSentence(line), leadSentence.FindString(line); got != want {
			t.Fatalf("firstSentence(%q) = %q, the pattern %q", line, got, want)
		}
	}
}

// scanFacts decides as the validator's patterns do, on random messages,
// read whole and in parts.
func TestScanFactsMatchesThePatterns(t *testing.T) {
	pieces := []string{"updated", "No files changed", "next step", "sign off", "no further action needed", "No", "no files", "Next", "sign", "changed", "step", "Review", "reviewed", "blocked", "nonblocking", "non-blocking", "blocking", "because", "pending", "T123", "FR-9", " ", ".", "\n", "x", "_", "-", "é"}
	r := rand.New(rand.NewPCG(9, 10))
	for k := range 5000 {
		var sb strings.Builder
		for range 1 + r.IntN(10) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := sb.String()
		f := scanFacts(text)
		if g := splitFacts(text, 1+k%4); g != f {
			t.Fatalf("%q in %d parts: facts %+v, the whole text's %+v", text, 1+k%4, g, f)
		}
		bs, be := blockerNamed(text)
		if f.progress != progressWords.match(text) || f.nextStep != nextStepWords.match(text) || f.review != reviewCue.match(text) ||
			f.discloses != disclosesWord.match(text) || f.blocker != [2]int{bs, be} || f.refs < min(len(opaqueRefs(text)), 3) {
			t.Fatalf("%q: facts %+v; the patterns: progress %v, next %v, review %v, discloses %v, blocker %d-%d, refs %d", text, f,
				progressWords.match(text), nextStepWords.match(text), reviewCue.match(text), disclosesWord.match(text), bs, be, len(opaqueRefs(text)))
		}
	}
}

// TestFactTableHoldsEveryWord: the filter of scanFacts passes every word
// of the lists (lower case, under 32 bytes), in any case, so none is
// passed over.
func TestFactTableHoldsEveryWord(t *testing.T) {
	for w := range factWords {
		if len(w) >= 32 || strings.ToLower(w) != w {
			t.Errorf("%q: scanFacts reads words of under 32 bytes, folded to lower case", w)
			continue
		}
		for _, v := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			if bits := factWords[w]; factTable[factHash(ascii.Load8(v, 0), len(v))]&bits != bits {
				t.Errorf("%q: factTable lacks its facts %b", v, bits)
			}
		}
		if factBits(strings.ToUpper(w)) != factWords[w] || factBits(w) != factWords[w] {
			t.Errorf("%q: factBits %d, want %d", w, factBits(w), factWords[w])
		}
		upper := strings.ToUpper(w[:1]) + w[1:]
		if f := scanFacts("x " + upper + " y"); w == "blocker" && f.blocker[0] != 2 {
			t.Errorf("%q in a sentence: %+v", upper, f)
		}
	}
}

// TestMayStartRefPassesEveryReference: the word filter of scanFacts lets
// through every word refAt finds a reference at, so the count is refAt's.
func TestMayStartRefPassesEveryReference(t *testing.T) {
	words := []string{"feature 12", "Feature\t3", "features 1", "iteration 4", "ITERATION  77", "T123", "t1234x", "T12",
		"FR-7", "fr-12a", "FR12", "TG-abc", "tg-", "tg-x_y", "deadbee", "DEADBEEF12", "abcdef0123456789abcdef0123456789abcdef01",
		"abcdef0123456789abcdef0123456789abcdef012", "cafe", "the", "a", "to", "T", "F", "1234567", "0x1234567", "f00dfeed"}
	var text strings.Builder
	for i := 0; i < 2000; i++ {
		text.WriteString(words[(i*7+i/3)%len(words)])
		text.WriteString([]string{" ", ", ", "(", ") ", "-", "_", "\n", "."}[i%8])
	}
	s := text.String()
	found := 0
	for i := 0; i < len(s); i++ {
		if !isWord(s[i]) || i > 0 && isWord(s[i-1]) {
			continue
		}
		j := i
		for j < len(s) && isWord(s[j]) {
			j++
		}
		if refAt(s, i) > i {
			found++
			if !mayStartRef(s[i:j]) {
				t.Errorf("a reference at %q is filtered out", s[i:min(j+4, len(s))])
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d references in the text: the test reads nothing", found)
	}
}

// TestFindWindowsPathIsThePattern: the pre-check passes every text the
// pattern matches in.
func TestFindWindowsPathIsThePattern(t *testing.T) {
	for _, text := range []string{"see C:\\x\\y", "c:/a", "https://x.y/z and file:///a", "(D:/tmp)", "xC:/no", "\u212a:\\x", "é:/x", "a: /x", "C:", "C:\\",
		"path_C:/x", "1:/x", "é C:/y"} {
		got, want := findWindowsPath(text), windowsPath.FindStringIndex(text)
		if !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// FuzzScans holds the hand-written scans to what they stand for on any
// text: scanFacts to the word lists and patterns, candidateLines to a
// test of every line, findWindowsPath to its pattern.
func FuzzScans(f *testing.F) {
	for _, s := range []string{"No files changed. Next step: review T123, FR-9 and deadbeef1.", "blocked because C:\\x\nreadme.md a/b\n", "https://x.y/z\nK:/x", "non-blocking\r\nsign off"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, limit := range []int{3, 50, math.MaxInt} {
			if got, want := wordCountUpTo(text, limit), wordCountByRunes(text, limit); got != want {
				t.Fatalf("%q: wordCountUpTo(%d) = %d, over its runes %d", text, limit, got, want)
			}
		}
		if text != "" && mayStartRef(text) && !mayBeRef(ascii.Load8(text, 0), len(text)) {
			t.Fatalf("%q may start a reference, and mayBeRef rules it out", text)
		}
		fc := scanFacts(text)
		bs, be := blockerNamed(text)
		if fc.progress != progressWords.match(text) || fc.nextStep != nextStepWords.match(text) || fc.review != reviewCue.match(text) ||
			fc.discloses != disclosesWord.match(text) || fc.blocker != [2]int{bs, be} || fc.refs < min(len(opaqueRefs(text)), 3) {
			t.Fatalf("%q: facts %+v", text, fc)
		}
		whole, blocking := scanFactsIn(text, 0, len(text))
		if whole.blocker[0] < 0 {
			whole.blocker = blocking
		}
		for n := 2; n <= 5; n++ {
			if got := splitFacts(text, n); got != whole {
				t.Fatalf("%q in %d parts: facts %+v, the whole text's %+v", text, n, got, whole)
			}
		}
		var want []int
		off := 0
		for _, line := range strings.SplitAfter(text, "\n") {
			if strings.ContainsAny(line, `/\`) || containsFold(line, "readme.md") {
				want = append(want, off)
			}
			off += len(line)
		}
		var got []int
		for start, line := range candidateLines(text) {
			if !strings.HasPrefix(text[start:], line) {
				t.Fatalf("%q: line %q is not at %d", text, line, start)
			}
			got = append(got, start)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: candidate lines at %v, want %v", text, got, want)
		}
		if g, w := findWindowsPath(text), windowsPath.FindStringIndex(text); !slices.Equal(g, w) {
			t.Fatalf("%q: findWindowsPath %v, the pattern %v", text, g, w)
		}
		want2 := 0
		for _, re := range identifierRes {
			want2 += len(re.FindAllStringIndex(text, -1))
		}
		if got := identifiers(text, math.MaxInt); got != want2 {
			t.Fatalf("%q: identifiers %d, the patterns %d", text, got, want2)
		}
		// The governance terms, but for "ſ": Go's (?i) folds it to "s",
		// the validator's .NET patterns do not, and neither does baton.
		if !strings.Contains(text, "ſ") {
			want3 := 0
			for _, re := range governanceRes {
				want3 += len(re.FindAllStringIndex(text, -1))
			}
			if got := governanceHits(text); got != want3 {
				t.Fatalf("%q: governanceHits %d, the patterns %d", text, got, want3)
			}
		}
	})
}

// TestMentionsIsThePattern: mentions reads each boundary phrase as the
// validator's (?i)\b<phrase>\b does.
func TestMentionsIsThePattern(t *testing.T) {
	texts := []string{"", "Enter planning now", "the planning-boundary", "xplanning boundary", "PLANNING BOUNDARY.", "review-boundary_x",
		"the review boundary", "hardening gate sign-off", "Hardening-Gate-Signoff!", "feature closeout", "feature-closeoutx", "implementation"}
	for nb, phrases := range boundaryPhrases {
		for _, text := range texts {
			want := false
			for _, p := range phrases {
				want = want || regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(p)+`\b`).MatchString(text)
			}
			if got := mentions(text, nb); got != want && strings.TrimSpace(text) != "" {
				t.Errorf("mentions(%q, %s) = %v, the pattern %v", text, nb, got, want)
			}
		}
	}
}

// leadOf finds the line the validator's Get-LeadSentence does: its lines
// split on "\n", the label and markup-only lines passed over by their
// patterns.
func TestLeadOfMatchesThePatterns(t *testing.T) {
	pieces := []string{"\n", " ", "**", "Owner", "owner", "Reference", "Current progress status", "#", ">", "-", "`", "\t", "\r", "a", "Done.", " b", "é", "ſ"}
	reference := func(body string) (string, int) {
		off := 0
		for _, line := range strings.SplitAfter(body, "\n") {
			start := off
			off += len(line)
			t := strings.TrimSpace(line)
			if t == "" || leadLabel.MatchString(t) || leadMarkupOnly.MatchString(t) {
				continue
			}
			c := strings.TrimRight(strings.TrimLeft(t, "*"), "*")
			start += strings.Index(line, c)
			return strings.TrimSpace(firstSentence(c)), start
		}
		return "", 0
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		body := sb.String()
		gotLead, gotAt := leadOf(body)
		wantLead, wantAt := reference(body)
		if gotLead != wantLead || gotAt != wantAt {
			t.Fatalf("leadOf(%q) = %q at %d, the patterns %q at %d", body, gotLead, gotAt, wantLead, wantAt)
		}
	}
}

// TestMayBeRefKeepsEveryRef: mayBeRef rules out no word mayStartRef
// accepts, of every first byte and length around the shapes it keeps.
func TestMayBeRefKeepsEveryRef(t *testing.T) {
	var words []string
	for c := range 256 {
		for _, rest := range []string{"", "r", "g", "-", "1", "12", "123", "1234", "eature", "teration", strings.Repeat("a", 5), strings.Repeat("0", 6),
			strings.Repeat("b", 39), strings.Repeat("1", 40), strings.Repeat("2", 70)} {
			words = append(words, string(byte(c))+rest)
		}
	}
	words = append(words, "feature", "FEATURE", "iteration", "Iteration", "FR", "fr", "TG", "tg", "T1234567890")
	kept := 0
	for _, w := range words {
		if !mayStartRef(w) {
			continue
		}
		kept++
		if !mayBeRef(ascii.Load8(w, 0), len(w)) {
			t.Errorf("%q may start a reference, and mayBeRef rules it out", w)
		}
	}
	if kept < 50 {
		t.Fatalf("only %d of the words may start a reference: the test reads too few", kept)
	}
}

// wordCountByRunes is wordCountUpTo over the text made runes first, as it
// was written before it read the text in place.
func wordCountByRunes(s string, limit int) int {
	n := 0
	runes := []rune(s)
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(runes) && n < limit; {
		if !alnum(runes[i]) {
			i++
			continue
		}
		j := i + 1
		last := i
		for j < len(runes) && (alnum(runes[j]) || runes[j] == '-' || runes[j] == '/') {
			if alnum(runes[j]) {
				last = j
			}
			j++
		}
		n++
		i = last + 1
	}
	return n
}

// TestWordCountReadsInPlace: the count read in place is the count over
// the runes, for text with letters of every width, hyphens, slashes and
// bytes that are not UTF-8.
func TestWordCountReadsInPlace(t *testing.T) {
	for _, s := range []string{"", "a", "a-b/c d", "-a- /b/ c--", "héllo wörld 名前 ünï-cödé/x", "a\xffb c\xc3", "x-", "- -", "1/2/3 4-5-"} {
		for _, limit := range []int{0, 1, 2, 50, math.MaxInt} {
			if got, want := wordCountUpTo(s, limit), wordCountByRunes(s, limit); got != want {
				t.Errorf("wordCountUpTo(%q, %d) = %d, over its runes %d", s, limit, got, want)
			}
		}
	}
}

// TestScanFactsSplitsLongTexts: a long text is read in parts, with the
// facts of a read of the whole, wherever its blocker words, references and
// phrases fall.
func TestScanFactsSplitsLongTexts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	pieces := []string{"plain words here ", "and more text. ", "T123 ", "deadbeef1 ", "blocking ", "non-blocking ", "no files changed ", "next step ", "review ", "pending ", "because ", "\n"}
	r := rand.New(rand.NewPCG(11, 12))
	for range 20 {
		var sb strings.Builder
		for sb.Len() < 5*splitFactsFrom {
			if r.IntN(200) == 0 {
				sb.WriteString(pieces[2+r.IntN(len(pieces)-2)])
			} else {
				sb.WriteString(pieces[r.IntN(2)])
			}
		}
		text := sb.String()
		whole, blocking := scanFactsIn(text, 0, len(text))
		if whole.blocker[0] < 0 {
			whole.blocker = blocking
		}
		if got := scanFacts(text); got != whole {
			t.Fatalf("a text of %d bytes: facts %+v, the whole text's %+v", len(text), got, whole)
		}
	}
}
