package governance

import (
	"math/bits"
	"runtime"
	"strings"
	"sync"

	"github.com/baton-md/baton/internal/ascii"
)

// What one pass over a message's words finds for the validator's
// whole-message tests (progress, a next step, a review cue, a blocker and
// what discloses it), and how many references it holds at most: each test
// alone was a pass of its own, and together they were most of a check.
type facts struct {
	progress, nextStep, review, discloses bool
	blocker                               [2]int // the first blocker word's span; -1, -1 for none
	refs                                  int    // references found at word starts, up to 3 (at least as many as the validator counts, up to 3)
}

const (
	fProgress = 1 << iota
	fNextStep
	fReview
	fBlocker
	fDiscloses
)

var factWords = func() map[string]uint8 {
	m := map[string]uint8{}
	add := func(bit uint8, words wordList) {
		for w := range words.words {
			m[w] |= bit
		}
	}
	add(fProgress, progressWords)
	add(fNextStep, nextStepWords)
	add(fReview, reviewCue)
	add(fBlocker, blockerWord)
	add(fDiscloses, disclosesWord)
	return m
}()

// factByFirst holds factWords by their first byte: a word of the text is
// compared, folded, with the few of its length there, where hashing it
// for the map was a sixth of the scan.
var factByFirst = func() (t [256][]factWord) {
	for w, bits := range factWords {
		t[w[0]] = append(t[w[0]], factWord{w, bits})
	}
	return t
}()

type factWord struct {
	w    string
	bits uint8
}

// factBits is factWords[w folded to lower case] (ASCII letters only).
func factBits(w string) uint8 {
	for _, fw := range factByFirst[lowerASCII(w[0])] {
		if len(fw.w) == len(w) && equalFoldASCII(w, fw.w) {
			return fw.bits
		}
	}
	return 0
}

// phraseShapes says, by a word's first byte (folded) and its length,
// whether a first word of factPhrases has that shape: phraseBits is asked
// only there.
var phraseShapes = func() (t [256]uint32) {
	for _, fp := range factPhrases {
		t[fp.first[0]] |= 1 << len(fp.first)
	}
	return t
}()

// wordByte is isWord as a table.
var wordByte = func() (w [256]bool) {
	for c := range 256 {
		w[c] = isWord(byte(c))
	}
	return w
}()

// mayBeRef reports whether a word of n bytes whose first eight bytes
// (zero past its end) are x may start a reference (mayStartRef): two
// bytes (FR-, TG-), T and a digit, "feature", "iteration", or 7 to 40
// bytes that start with hex digits. The test, on the eight bytes at once,
// spares most words the call, and is seldom true: a test by first byte
// and length alone was true of most words starting a to f.
func mayBeRef(x uint64, n int) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	switch c := byte(x) | 0x20; {
	case n == 2, n == 7 && c == 'f', n == 9 && c == 'i':
		return true
	case c == 't' && n >= 4 && byte(x>>8)-'0' < 10:
		return true
	case n < 7 || n > 40:
		return false
	}
	low := x &^ highs
	digit := (low + (0x80-'0')*ones) &^ (low + (0x7f-'9')*ones)
	folded := low | 0x20*ones
	af := (folded + (0x80-'a')*ones) &^ (folded + (0x7f-'f')*ones)
	hex := (digit | af) &^ x & highs
	want := uint64(highs)
	if n < 8 {
		want &= 1<<(8*n) - 1
	}
	return hex&want == want
}

// mayStartRef reports whether refAt can find a reference at the word w
// (all of it: refAt's references end at a word's end): two bytes that
// start FR- or TG-, T and digits, "feature" or "iteration" (a number
// follows), or 7 to 40 hex digits. Most words are none of these, and refAt
// is not asked.
func mayStartRef(w string) bool {
	n, c := len(w), w[0]|0x20
	switch {
	case n == 2:
		return c == 'f' && w[1]|0x20 == 'r' || c == 't' && w[1]|0x20 == 'g'
	case c == 't' && n >= 4 && w[1] >= '0' && w[1] <= '9':
		return true
	case n == 7 && c == 'f' && equalFoldASCII(w, "feature"), n == 9 && c == 'i' && equalFoldASCII(w, "iteration"):
		return true
	case n < 7 || n > 40:
		return false
	}
	for k := range n {
		if !isHex(w[k]) {
			return false
		}
	}
	return true
}

// scanFacts reads text's words once, and stops once every fact is known:
// the validator only asks whether there are three references or more, so
// they are counted up to three. A long text is read in parts at once, on
// as many CPUs as there are (splitFacts): an editor's 1 MB stop packet
// waited for this scan.
func scanFacts(text string) facts {
	if n := min(runtime.GOMAXPROCS(0), len(text)/splitFactsFrom); n > 1 {
		return splitFacts(text, n)
	}
	f, blocking := scanFactsIn(text, 0, len(text))
	if f.blocker[0] < 0 {
		f.blocker = blocking
	}
	return f
}

// splitFactsFrom is the length of text each part of a split scan has at
// least.
const splitFactsFrom = 128 << 10

// splitFacts is scanFacts in up to n parts read at once, each from a byte
// that is no word byte (so that no word is cut): the facts of the parts
// together are the whole text's (any part knows a fact, the references
// add up, the first part's blocker word is the text's first, and only
// without one anywhere does "blocking" stand for it).
func splitFacts(text string, n int) facts {
	cuts := []int{0}
	for k := 1; k < n; k++ {
		c := max(len(text)*k/n, cuts[len(cuts)-1])
		for c < len(text) && wordByte[text[c]] {
			c++
		}
		if c > cuts[len(cuts)-1] && c < len(text) {
			cuts = append(cuts, c)
		}
	}
	cuts = append(cuts, len(text))
	parts := make([]facts, len(cuts)-1)
	blockings := make([][2]int, len(cuts)-1)
	var wg sync.WaitGroup
	for k := 1; k < len(parts); k++ {
		wg.Go(func() { parts[k], blockings[k] = scanFactsIn(text, cuts[k], cuts[k+1]) })
	}
	parts[0], blockings[0] = scanFactsIn(text, cuts[0], cuts[1])
	wg.Wait()
	f := facts{blocker: [2]int{-1, -1}}
	blocking := [2]int{-1, -1}
	for k, p := range parts {
		f.progress = f.progress || p.progress
		f.nextStep = f.nextStep || p.nextStep
		f.review = f.review || p.review
		f.discloses = f.discloses || p.discloses
		f.refs = min(f.refs+p.refs, 3)
		if f.blocker[0] < 0 {
			f.blocker = p.blocker
		}
		if blocking[0] < 0 {
			blocking = blockings[k]
		}
	}
	if f.blocker[0] < 0 {
		f.blocker = blocking
	}
	return f
}

// scanFactsIn reads the words of text that start in [from, to) (from and
// to, unless at an end of text, are bytes that are no word bytes), and
// stops once every fact is known; it returns what it found and the first
// word that ends in "blocking" before any blocker word (-1, -1 for none).
//
// The words are found eight bytes at a time, where a word byte follows one
// that is not (a start) or the other way round (an end). A word is compared
// with the lists only when factTable says a word of its shape may stand
// for a fact not yet known: once the common ones are known, most words are
// passed over with one look at the table.
func scanFactsIn(text string, from, to int) (facts, [2]int) {
	f := facts{blocker: [2]int{-1, -1}}
	blocking := [2]int{-1, -1}
	need := uint8(fProgress | fNextStep | fReview | fBlocker | fDiscloses) // the facts not known yet
	// word reads the word text[i:j]; it reports whether every fact is known.
	word := func(i, j int) bool {
		n, x := j-i, ascii.Load8(text, i)
		if f.refs < 3 && mayBeRef(x, n) && mayStartRef(text[i:j]) && refAt(text, i) > i {
			f.refs++
		}
		if n < 32 && factTable[factHash(x, n)]&need != 0 {
			bits := factBits(text[i:j])
			if phraseShapes[lowerASCII(text[i])]&(1<<n) != 0 {
				bits |= phraseBits(text, i, text[i:j])
			}
			f.progress = f.progress || bits&fProgress != 0
			f.nextStep = f.nextStep || bits&fNextStep != 0
			f.review = f.review || bits&fReview != 0
			f.discloses = f.discloses || bits&fDiscloses != 0
			if bits&fBlocker != 0 && f.blocker[0] < 0 {
				f.blocker = [2]int{i, j}
			}
			need &^= bits // the first blocker word is the one kept
		}
		// (?<!non-)blocking\b, with no \b before: "blocking" ending a word
		// (only asked while no blocker word is found: one wins over it).
		if blocking[0] < 0 && f.blocker[0] < 0 && n >= 8 && text[j-1]|0x20 == 'g' && strings.EqualFold(text[j-8:j], "blocking") {
			s := j - 8
			if s < 4 || !strings.EqualFold(text[s-4:s], "non-") {
				blocking = [2]int{s, j}
			}
		}
		return f.refs >= 3 && need == 0
	}
	i0 := from &^ 7
	var prev uint64 // the word bytes of the eight before, as WordBytes has them
	if i0 >= 8 {
		prev = ascii.WordBytes(ascii.Load8(text, i0-8))
	}
	start := -1 // where the word being read starts; -1 before the first in range
	for i := i0; i < len(text) && i <= to; i += 8 {
		m := ascii.WordBytes(ascii.Load8(text, i))
		for ev := m ^ (m<<8 | prev>>56); ev != 0; ev &= ev - 1 {
			k := bits.TrailingZeros64(ev)
			at := i + k/8
			switch {
			case m&(1<<k) != 0: // a start
				if at >= to {
					return f, blocking
				}
				start = at
			case start >= from: // an end
				if word(start, at) {
					return f, blocking
				}
				start = -1
			}
		}
		prev = m
	}
	if start >= from && len(text)&7 == 0 && prev>>63 != 0 {
		word(start, len(text)) // the text ends in a word (past the end, zero bytes end it otherwise)
	}
	return f, blocking
}

// factTableBits sizes factTable: 4,096 entries, of which the lists fill a
// few percent.
const factTableBits = 12

// factTable holds, where each word of the lists and each first word of
// factPhrases lands (factHash), the facts it stands for. Every word of a
// list sets its bits, so a word whose entry lacks a fact cannot stand for
// it; a word whose entry has one is compared with the lists.
var factTable = func() (t [1 << factTableBits]uint8) {
	add := func(w string, bits uint8) {
		if len(w) < 32 && strings.IndexFunc(w, func(r rune) bool { return r > 0x7f || !isWord(byte(r)) }) < 0 {
			t[factHash(ascii.Load8(w, 0), len(w))] |= bits
		}
	}
	for w, bits := range factWords {
		add(w, bits)
	}
	for _, fp := range factPhrases {
		add(fp.first, fp.bit)
	}
	return t
}()

// factHash is where a word of n bytes whose first eight bytes (zero past
// its end) are x lands in factTable: from its first eight bytes, ASCII
// letters folded to lower case (and '_' to 0x7f, the same in the lists and
// the text), and its length.
func factHash(x uint64, n int) uint32 {
	mask := ^uint64(0)
	if n < 8 {
		mask = 1<<(8*n) - 1
	}
	x = (x | 0x2020202020202020) & mask
	return uint32((x ^ uint64(n)<<58) * 0x9e3779b97f4a7c15 >> (64 - factTableBits))
}

// factPhrases are the phrases of the facts ("no files changed", the next
// step's), each looked for where a word that starts one starts: in the
// same pass, where a search of its own over the whole message, for a
// message with no progress word, was a tenth of the scan.
var factPhrases = func() (out []factPhrase) {
	add := func(bit uint8, p string) {
		first, _, _ := strings.Cut(p, " ")
		out = append(out, factPhrase{first: first, phrase: p, bit: bit})
	}
	add(fProgress, "no files changed")
	for _, p := range nextStepWords.phrases {
		add(fNextStep, p)
	}
	return out
}()

type factPhrase struct {
	first, phrase string
	bit           uint8
}

// phraseBits are the bits of the fact phrases at the word start i (the
// word w): phraseIndex's answer there.
func phraseBits(text string, i int, w string) (bits uint8) {
	for _, fp := range factPhrases {
		if len(fp.first) == len(w) && equalFoldASCII(w, fp.first) && len(text)-i >= len(fp.phrase) && equalFoldASCII(text[i:i+len(fp.phrase)], fp.phrase) &&
			(i+len(fp.phrase) == len(text) || !isWord(text[i+len(fp.phrase)])) {
			bits |= fp.bit
		}
	}
	return bits
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c | 0x20
	}
	return c
}
