package governance

import "strings"

// What one pass over a message's words finds for the validator's
// whole-message tests (progress, a next step, a review cue, a blocker and
// what discloses it), and how many references it holds at most: each test
// alone was a pass of its own, and together they were most of a check.
type facts struct {
	progress, nextStep, review, discloses bool
	blocker                               [2]int // the first blocker word's span; -1, -1 for none
	refs                                  int    // references found at word starts (at least as many as the validator counts)
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

// factShapes says, by a word's first byte (folded) and its length, whether
// any of factWords has that shape: most words of a message have none, and
// are passed over without hashing them for the map.
var factShapes = func() (t [256]uint32) {
	for w := range factWords {
		if len(w) < 32 {
			t[w[0]] |= 1 << len(w)
		}
	}
	return t
}()

// wordByte is isWord as a table; refStart the bytes a reference can start
// with (refAt: feature, iteration, T…, FR-, TG- or a hex digit).
var wordByte, refStart = func() (w, r [256]bool) {
	for c := range 256 {
		w[c] = isWord(byte(c))
		r[c] = isHex(byte(c)) || strings.IndexByte("fFiItT", byte(c)) >= 0
	}
	return w, r
}()

func scanFacts(text string) facts {
	f := facts{blocker: [2]int{-1, -1}}
	blocking := [2]int{-1, -1}
	var buf [32]byte
	for i := 0; i < len(text); {
		if !wordByte[text[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && wordByte[text[j]] {
			j++
		}
		if refStart[text[i]] && refAt(text, i) > i {
			f.refs++
		}
		if j-i < len(buf) && factShapes[lowerASCII(text[i])]&(1<<(j-i)) != 0 {
			n := copy(buf[:], text[i:j])
			for k := range n {
				if c := buf[k]; c >= 'A' && c <= 'Z' {
					buf[k] = c | 0x20
				}
			}
			w := buf[:n]
			bits := factWords[string(w)]
			f.progress = f.progress || bits&fProgress != 0
			f.nextStep = f.nextStep || bits&fNextStep != 0
			f.review = f.review || bits&fReview != 0
			f.discloses = f.discloses || bits&fDiscloses != 0
			if bits&fBlocker != 0 && f.blocker[0] < 0 {
				f.blocker = [2]int{i, j}
			}
		}
		// (?<!non-)blocking\b, with no \b before: "blocking" ending a word.
		if blocking[0] < 0 && j-i >= 8 && strings.EqualFold(text[j-8:j], "blocking") {
			s := j - 8
			if s < 4 || !strings.EqualFold(text[s-4:s], "non-") {
				blocking = [2]int{s, j}
			}
		}
		i = j
	}
	if f.blocker[0] < 0 {
		f.blocker = blocking
	}
	// The phrases, where no word decided.
	if !f.progress {
		f.progress = phraseIndex(text, "no files changed") >= 0
	}
	if !f.nextStep {
		for _, p := range nextStepWords.phrases {
			if phraseIndex(text, p) >= 0 {
				f.nextStep = true
				break
			}
		}
	}
	return f
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c | 0x20
	}
	return c
}
