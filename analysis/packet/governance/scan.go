package governance

import (
	"strings"

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

// factShapes says, by a word's first byte (folded) and its length, whether
// any of factWords has that shape: most words of a message have none, and
// are passed over without hashing them for the map.
var factShapes = func() (t [256]uint32) {
	for w := range factWords {
		if len(w) < 32 {
			t[w[0]] |= 1 << len(w)
		}
	}
	for c, shapes := range phraseShapes {
		t[c] |= shapes
	}
	return t
}()

// phraseShapes is factShapes for the first words of factPhrases.
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

// refShapes[c] has bit n set when a word of n bytes (63: 63 or more)
// starting with c may start a reference (mayStartRef): two bytes from f or
// t (FR-, TG-), T and three or more digits, "iteration", 7 to 40 hex
// digits ("feature" among them). The test spares most words the call.
var refShapes = func() (t [256]uint64) {
	var hex, long uint64
	for n := 7; n <= 40; n++ {
		hex |= 1 << n
	}
	for n := 4; n <= 63; n++ {
		long |= 1 << n
	}
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] |= hex
	}
	t['f'] |= 1 << 2
	t['F'] |= 1 << 2
	t['t'] |= 1<<2 | long
	t['T'] |= 1<<2 | long
	t['i'] |= 1 << 9
	t['I'] |= 1 << 9
	return t
}()

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
// they are counted up to three.
func scanFacts(text string) facts {
	f := facts{blocker: [2]int{-1, -1}}
	blocking := [2]int{-1, -1}
	for i := 0; i < len(text); {
		if !wordByte[text[i]] {
			i++
			continue
		}
		j := ascii.WordEnd(text, i+1)
		if f.refs < 3 && refShapes[text[i]]&(1<<min(j-i, 63)) != 0 && mayStartRef(text[i:j]) && refAt(text, i) > i {
			f.refs++
		}
		if j-i < 32 && factShapes[lowerASCII(text[i])]&(1<<(j-i)) != 0 {
			bits := factBits(text[i:j])
			if phraseShapes[lowerASCII(text[i])]&(1<<(j-i)) != 0 {
				bits |= phraseBits(text, i, text[i:j])
			}
			f.progress = f.progress || bits&fProgress != 0
			f.nextStep = f.nextStep || bits&fNextStep != 0
			f.review = f.review || bits&fReview != 0
			f.discloses = f.discloses || bits&fDiscloses != 0
			if bits&fBlocker != 0 && f.blocker[0] < 0 {
				f.blocker = [2]int{i, j}
			}
		}
		// (?<!non-)blocking\b, with no \b before: "blocking" ending a word
		// (only asked while no blocker word is found: one wins over it).
		if blocking[0] < 0 && f.blocker[0] < 0 && j-i >= 8 && strings.EqualFold(text[j-8:j], "blocking") {
			s := j - 8
			if s < 4 || !strings.EqualFold(text[s-4:s], "non-") {
				blocking = [2]int{s, j}
			}
		}
		if f.refs >= 3 && f.progress && f.nextStep && f.review && f.discloses && f.blocker[0] >= 0 {
			break // every fact is known
		}
		i = j
	}
	if f.blocker[0] < 0 {
		f.blocker = blocking
	}
	return f
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
