package packet

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"
)

// scanPhrases are the built-in lists with phrases that overlap and chain
// (a match that starts where another is still running, the same words in
// several lists), so that where a scan starts matters.
var scanPhrases = compilePhrases(map[string][]string{
	ListHeld:          {"a b", "b c", "c d e", "b"},
	ListAutoContinue:  {"a", "a b c", "i'll go"},
	ListRequest:       {"b c d", "c", "x_1"},
	ListBlocked:       {"d e a b", "e"},
	ListInformational: {"note", "a b"},
	ListSubstantive:   {"b c", "note: a"},
	ListComplete:      {"done a", "a"},
})

// referenceScan is a list's matches as a scan of the whole text finds them,
// a byte at a time: at each word's start not inside the last match, the
// longest phrase standing there as words.
func referenceScan(p *phrases, text string, li int) []int {
	var out []int
	lastEnd := 0
	for i := 0; i < len(text); i++ {
		if !wordByte[text[i]] || i > 0 && wordByte[text[i-1]] || i < lastEnd {
			continue
		}
		best := -1
		for _, e := range p.byWord[firstWord(text, i)] {
			end := i + len(e.ph)
			if e.list == li && strings.HasPrefix(text[i:], e.ph) && !(wordByte[e.ph[len(e.ph)-1]] && end < len(text) && wordByte[text[end]]) {
				best = max(best, end)
			}
		}
		if best >= 0 {
			out = append(out, i, best)
			lastEnd = best
		}
	}
	return out
}

// checkScan scans text asking about spans drawn from seed, and checks that
// each list's matches are the reference's wherever scan says they are
// exact, and that every span asked about lies where they are.
func checkScan(t *testing.T, p *phrases, text string, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	asked := make([][]markdown.Span, len(p.names))
	for li := range asked {
		for range r.IntN(4) {
			a, b := r.IntN(len(text)+1), r.IntN(len(text)+1)
			asked[li] = append(asked[li], markdown.Span{Start: min(a, b), End: max(a, b)})
		}
	}
	m, exact := p.scanIn(text, asked, 1)
	// In runs, as a large document is scanned: the same, in the same order.
	for _, n := range []int{2, 3, 2 + r.IntN(7)} {
		// Runs are for texts of 64 bytes a run or more: pad with spaces, so
		// that short texts are cut too, and cut the padding off again.
		pad := text + strings.Repeat(" ", max(0, 64*n-len(text)))
		mn, en := p.scanIn(pad, asked, n)
		if !slices.EqualFunc(mn, m, slices.Equal) || !slices.EqualFunc(en, exact, slices.Equal) {
			t.Fatalf("%q in %d runs:\n got %v (exact in %v)\nwant %v (exact in %v)", text, n, mn, en, m, exact)
		}
	}
	for li, name := range p.names {
		if !scanned(name) {
			continue
		}
		for _, s := range asked[li] {
			if s.Start < s.End && !slices.ContainsFunc(exact[li], func(e markdown.Span) bool { return e.Start <= s.Start && s.End <= e.End }) {
				t.Fatalf("%s: asked about %v, exact only in %v", name, s, exact[li])
			}
		}
		ref := referenceScan(p, text, li)
		var want []int
		for k := 0; k < len(ref); k += 2 {
			if slices.ContainsFunc(exact[li], func(e markdown.Span) bool { return e.Start <= ref[k] && ref[k] < e.End }) {
				want = append(want, ref[k], ref[k+1])
			}
		}
		if !slices.Equal(m[li], want) && len(m[li])+len(want) > 0 {
			t.Fatalf("%s in %q (exact in %v):\n got %v\nwant %v", name, text, exact[li], m[li], want)
		}
	}
}

// scanText is random text of the words scanPhrases has, and others, with
// the separators prose has.
func scanText(r *rand.Rand) string {
	vocab := []string{"a", "b", "c", "d", "e", "i'll", "go", "note", "note:", "done", "x_1", "ab", "held", "i", "will",
		"proceed", "nothing", "blocking", "fyi", "approve", "é", "’"}
	seps := []string{" ", " ", " ", "  ", ".", ", ", "-", "'", "\u00a0"}
	var b strings.Builder
	for range r.IntN(60) {
		b.WriteString(vocab[r.IntN(len(vocab))])
		b.WriteString(seps[r.IntN(len(seps))])
	}
	return b.String()
}

func TestScanAgreesWithWholeText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for k := range 3000 {
		p := scanPhrases
		if k%3 == 0 {
			p = phrasesFor(nil)
		}
		checkScan(t, p, scanText(r), uint64(k))
	}
}

// FuzzScan: however the spans asked about fall, scan finds each list's
// phrases there exactly as a scan of the whole text does.
func FuzzScan(f *testing.F) {
	r := rand.New(rand.NewPCG(4, 4))
	for range 20 {
		f.Add(scanText(r), r.Uint64())
	}
	f.Add("i'll proceed, nothing blocking. a b c d e a b c", uint64(1))
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		checkScan(t, scanPhrases, strings.ToLower(text), seed)
	})
}

// A list asked about where the scan was not told it would be is read over
// the whole text instead: the answer is the same.
func TestProseTextUnannouncedSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	p := scanPhrases
	held := p.index[ListHeld]
	for range 500 {
		text := scanText(r)
		pt := &proseText{b: []byte(text), flat: text, text: text}
		a, b := r.IntN(len(text)+1), r.IntN(len(text)+1)
		s := markdown.Span{Start: min(a, b), End: max(a, b)}
		asked := make([][]markdown.Span, len(p.names))
		if len(text) > 0 {
			n := r.IntN(len(text))
			asked[held] = []markdown.Span{{Start: n, End: n + 1}} // somewhere else, most likely
		}
		pt.scan(p, asked)
		var want [][]int
		ref := referenceScan(p, text, held)
		for k := 0; k < len(ref); k += 2 {
			if ref[k] >= s.Start && ref[k+1] <= s.End {
				want = append(want, []int{ref[k] - s.Start, ref[k+1] - s.Start})
			}
		}
		if got := pt.find(ListHeld, s); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("held in %v of %q: got %v, want %v", s, text, got, want)
		}
	}
}

// foldedPrefix is the start of the whole text folded and collapsed, as
// long as asked or all of it.
func TestFoldedPrefix(t *testing.T) {
	texts := []string{"", "  ", "Approve", "  APPROVE  it\n\tnow", "Don’t   Proceed Yet", "ÉTÉ été\u00a0x", strings.Repeat("word ", 2000)}
	for _, text := range texts {
		whole := fold(strings.Join(strings.Fields(text), " "))
		for _, n := range []int{0, 1, 5, 12, 100, 20000} {
			got := foldedPrefix(text, n)
			if !strings.HasPrefix(whole, got) || len(got) < min(n, len(whole)) {
				t.Errorf("foldedPrefix(%.20q, %d) = %.30q, not a prefix of %.30q at least that long", text, n, got, whole)
			}
		}
	}
}

// TestPhrasesForIsPreparedOnce: the lists are prepared once for each
// configuration's extra lists, none and empty being one.
func TestPhrasesForIsPreparedOnce(t *testing.T) {
	none := phrasesFor(nil)
	if phrasesFor(map[string][]string{}) != none || phrasesFor(nil) != none {
		t.Error("no extra lists: the lists were prepared again")
	}
	extra := map[string][]string{ListHeld: {"parked for now"}}
	p := phrasesFor(extra)
	if p == none {
		t.Error("extra lists: the lists without them were taken")
	}
	if phrasesFor(map[string][]string{ListHeld: {"parked for now"}}) != p {
		t.Error("the same extra lists: the lists were prepared again")
	}
}
