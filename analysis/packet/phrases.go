package packet

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"sync"
)

// The phrase lists packet text is read with. Each can be extended from
// configuration (Config.Phrases, by these names); matching ignores case,
// takes a line break for a space and a curly apostrophe for a straight
// one, and respects word boundaries.
const (
	ListHeld          = "held"          // What Happens Next says the work waits
	ListResponseWords = "response"      // what a conditional waits on: "On approval", "after your reply"
	ListAutoContinue  = "auto-continue" // "I'll proceed", "nothing blocking"
	ListPlaceholder   = "placeholder"   // a What I Need From You that asks for nothing
	ListRequest       = "request"       // verbs that state the response wanted
	ListInformational = "informational" // marks a review item as a note
	ListSubstantive   = "substantive"   // marks a review item as a decision or approval
	ListBlocked       = "blocked"       // Why I Stopped: blocked, failed, handing back
	ListComplete      = "complete"      // Why I Stopped: the requested work is done
)

// DefaultPhrases are the built-in lists.
var DefaultPhrases = map[string][]string{
	ListHeld: {
		"held", "on hold", "paused", "pausing", "parked", "waiting for your", "waiting on your", "wait for your",
		"waiting until you", "pending your", "awaiting your", "until you reply", "until you respond",
		"until you approve", "until you decide", "until you confirm", "until you answer", "until i hear back",
		"until i hear from you", "will not proceed until", "won't proceed until", "will not continue until",
		"won't continue until", "nothing proceeds until", "nothing happens until", "no further work until",
		"blocked on your", "do nothing until", "not start until",
	},
	ListResponseWords: {
		"approval", "approve", "approved", "verdict", "decision", "reply", "response", "answer",
		"confirmation", "confirm", "confirmed", "sign-off", "sign off", "signoff", "go-ahead", "go ahead",
		"review", "choice", "input", "feedback", "agreement", "ok", "okay", "instructions", "acceptance",
	},
	ListAutoContinue: {
		"nothing blocking", "nothing is blocking", "nothing required", "nothing is required",
		"no action needed", "no action required", "no action is needed", "no action is required",
		"i'll proceed", "i will proceed", "i'll continue", "i will continue", "i'll go ahead",
		"i will go ahead", "i'll keep going", "i will keep going", "flag this if", "flag it if",
		"unless you object", "if i don't hear back", "if i do not hear back", "automatically continue",
		"continue automatically", "proceed automatically", "proceeding automatically", "no reply needed",
		"no response needed",
	},
	ListPlaceholder: {
		"nothing", "nothing yet", "none", "none yet", "n/a", "na", "no action needed", "no action required",
		"nothing to do", "no further action needed", "no further action required", "nothing for now",
		"nothing at this time", "nothing right now", "-", "tbd",
	},
	ListRequest: {
		"approve", "reply", "respond", "confirm", "choose", "pick", "select", "decide", "answer", "provide",
		"authorize", "authorise", "sign off", "send back", "run", "test", "review", "tell me", "let me know",
		"check", "verify", "accept", "reject", "merge", "comment", "vote", "discuss", "give me", "share",
	},
	ListInformational: {
		"fyi", "note:", "for your information", "informational", "for information only", "no action needed",
		"no action required", "just so you know", "heads up", "heads-up", "for context", "for reference",
	},
	ListSubstantive: {
		"approve", "approval", "decide", "decision", "choose", "choice", "option", "options", "confirm",
		"confirmation", "sign off", "sign-off", "authorize", "authorise", "authorization", "verdict",
		"tradeoff", "trade-off", "should we", "should i", "do you want", "would you like", "which",
		"accept", "reject", "prefer", "pick", "select",
	},
	ListBlocked: {
		"blocked", "blocker", "cannot continue", "can't continue", "cannot proceed", "can't proceed",
		"unable to", "failed", "failing", "fails", "timed out", "handing back", "hand back", "handing control",
		"hand control", "handing over", "hand over", "stuck", "need your help", "needs your help",
		"cannot continue safely",
	},
	ListComplete: {
		"complete", "completed", "finished", "done", "all tasks", "final report", "ready to report",
		"work is complete", "nothing left",
	},
}

var compiled sync.Map // the extra lists, printed → *phrases

// phrasesFor returns the lists extended by configuration, prepared once.
func phrasesFor(extra map[string][]string) *phrases {
	key := fmt.Sprint(extra) // fmt prints maps sorted by key
	if p, ok := compiled.Load(key); ok {
		return p.(*phrases)
	}
	p, _ := compiled.LoadOrStore(key, compilePhrases(extra))
	return p.(*phrases)
}

// phrases holds every list, lower-cased, longest phrase first. Matching is
// plain substring search over lower-cased text (regular expressions with
// dozens of alternatives were far too slow on long packets).
type phrases struct {
	lists map[string][]string
	// responseSeqs are the response phrases as word sequences, by first word.
	responseSeqs map[string][][]string
	// responseMask is responseSeqs' first words as wordMask has them.
	responseMask [256]uint64
	// byFirst indexes each list's phrases by their first byte, longest first.
	byFirst map[string]*[256][]string
	// byWord indexes every list's phrases by their first word, longest
	// first, for one scan of a whole document (see scan).
	byWord map[string][]entry
	// words is byWord as an open-addressing table: scan looks up every
	// candidate word of a document, and a map access per word was most of
	// its time.
	words wordTable[[]entry]
	// responses is responseSeqs as a wordTable.
	responses wordTable[[][]string]
	// wordMask[c] has bit n set when some first word starts with c and is n
	// bytes long, and pairMask has bit pairKey(w) set for each first word w:
	// most words are ruled out without hashing them.
	wordMask [256]uint64
	pairMask [1 << 16 / 64]uint64
	names    []string
	set      map[string]map[string]bool // for whole-text matches (placeholder)
}

func compilePhrases(extra map[string][]string) *phrases {
	p := &phrases{lists: map[string][]string{}, set: map[string]map[string]bool{}, byFirst: map[string]*[256][]string{}}
	for name, list := range DefaultPhrases {
		p.set[name] = map[string]bool{}
		var all []string
		for _, ph := range append(append([]string(nil), list...), extra[name]...) {
			ph = strings.Join(strings.Fields(fold(ph)), " ")
			if ph == "" || p.set[name][ph] {
				continue
			}
			p.set[name][ph] = true
			all = append(all, ph)
			if strings.Contains(ph, "'") {
				all = append(all, strings.ReplaceAll(ph, "'", "’"))
			}
		}
		sort.SliceStable(all, func(i, j int) bool { return len(all[i]) > len(all[j]) })
		p.lists[name] = all
		p.byFirst[name] = new([256][]string)
		for _, ph := range all {
			p.byFirst[name][ph[0]] = append(p.byFirst[name][ph[0]], ph)
		}
	}
	p.byWord = map[string][]entry{}
	for li, name := range sortedNames(p.lists) {
		p.names = append(p.names, name)
		if !scanned(name) {
			continue
		}
		for _, ph := range p.lists[name] {
			w := firstWord(ph, 0)
			p.byWord[w] = append(p.byWord[w], entry{ph, li})
			if w != "" {
				p.wordMask[w[0]] |= 1 << min(len(w), 63)
				k := pairKey(w)
				p.pairMask[k/64] |= 1 << (k % 64)
			}
		}
	}
	for w := range p.byWord {
		sort.SliceStable(p.byWord[w], func(i, j int) bool { return len(p.byWord[w][i].ph) > len(p.byWord[w][j].ph) })
	}
	p.words = newWordTable(p.byWord)
	p.responseSeqs = map[string][][]string{}
	for _, ph := range p.lists[ListResponseWords] {
		if w := words(ph); len(w) > 0 {
			p.responseSeqs[w[0]] = append(p.responseSeqs[w[0]], w)
		}
	}
	for w := range p.responseSeqs {
		if w != "" {
			p.responseMask[w[0]] |= 1 << min(len(w), 63)
		}
	}
	p.responses = newWordTable(p.responseSeqs)
	return p
}

var wordByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

func isWord(c byte) bool { return wordByte[c] }

// fold lower-cases and straightens apostrophes.
func fold(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "’", "'"))
}

// flat makes line breaks and tabs spaces (the same length), so that a
// phrase wrapped across lines still matches.
func flat(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' || c == '\t' {
			b[i] = ' '
		}
	}
	return string(b)
}

// find returns the spans, in text (lower-cased), of the phrases of a list
// that stand as words, longest first where they overlap, in order. It looks
// only where a word starts, at the phrases starting with that byte.
func (p *phrases) find(list, text string) [][]int {
	byFirst := p.byFirst[list]
	var out [][]int
	lastEnd := 0
	for i := 0; i < len(text); i++ {
		cands := byFirst[text[i]]
		if cands == nil || i < lastEnd || i > 0 && wordByte[text[i-1]] {
			continue
		}
		for _, ph := range cands {
			e := i + len(ph)
			if !strings.HasPrefix(text[i:], ph) || isWord(ph[len(ph)-1]) && e < len(text) && isWord(text[e]) {
				continue
			}
			out = append(out, []int{i, e})
			lastEnd = e
			break // the longest phrase here
		}
	}
	return out
}

// first returns the earliest phrase of a list in text, or nil.
func (p *phrases) first(list, text string) []int {
	if f := p.find(list, text); len(f) > 0 {
		return f[0]
	}
	return nil
}

// has reports whether text holds a phrase of a list.
func (p *phrases) has(list, text string) bool { return p.first(list, text) != nil }

// whole reports whether text, trimmed of spaces and final punctuation, is
// exactly a phrase of a list.
func (p *phrases) whole(list, text string) bool {
	if len(text) > 200 { // no phrase is that long, padding included
		return false
	}
	t := fold(strings.Join(strings.Fields(text), " "))
	t = strings.TrimSpace(strings.TrimRight(t, ".!"))
	return p.set[list][t]
}

type entry struct {
	ph   string
	list int // index in phrases.names
}

func sortedNames(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// matches is every phrase of every scanned list found in a document, by
// list, in order, each as its start and end offsets in turn: one scan
// serves every rule's question about a span.
type matches map[string][]int

// scanned reports whether scan looks for a list's phrases. The response
// words are read word by word (responseAt) and the placeholders as a whole
// text (whole); matching them over a whole document was a third of the
// scan's work for nothing.
func scanned(list string) bool { return list != ListResponseWords && list != ListPlaceholder }

// pairKey is a word's first two bytes (the second 0 for a one-byte word).
func pairKey(w string) uint32 {
	k := uint32(w[0]) << 8
	if len(w) > 1 {
		k |= uint32(w[1])
	}
	return k
}

// scanBuf is scan's scratch: the matches of every list as they are found,
// list, start and end in turn. It is pooled: a large document finds tens of
// thousands, and growing a slice per list to hold them was as costly as
// finding them. Nothing outside scan sees it.
var scanBuf = sync.Pool{New: func() any { return new([]int) }}

// scan finds, in one pass over the flat lower-cased text, every phrase of
// every scanned list standing as words; within a list the longest wins and
// matches do not overlap.
func (p *phrases) scan(text string) matches {
	lastEnd := make([]int, len(p.names))
	taken := make([]int, len(p.names)) // position of the last match start per list, to keep one a position
	for i := range taken {
		taken[i] = -1
	}
	bp := scanBuf.Get().(*[]int)
	found := (*bp)[:0]
	eachWord(text, func(i, j int) {
		w := text[i:j]
		if k := pairKey(w); p.wordMask[w[0]]&(1<<min(len(w), 63)) == 0 || p.pairMask[k/64]&(1<<(k%64)) == 0 {
			return
		}
		for _, e := range p.words.lookup(w) {
			if taken[e.list] == i || i < lastEnd[e.list] {
				continue
			}
			end := i + len(e.ph)
			if !strings.HasPrefix(text[i:], e.ph) || wordByte[e.ph[len(e.ph)-1]] && end < len(text) && wordByte[text[end]] {
				continue
			}
			found = append(found, e.list, i, end)
			taken[e.list], lastEnd[e.list] = i, end
		}
	})
	// Carve each list's matches from one array.
	count := make([]int, len(p.names))
	for k := 0; k < len(found); k += 3 {
		count[found[k]]++
	}
	all := make([]int, 0, len(found)/3*2)
	out := make(matches, len(p.names))
	at := make([][]int, len(p.names))
	for li, name := range p.names {
		if scanned(name) {
			at[li] = all[len(all) : len(all) : len(all)+2*count[li]]
			all = all[:len(all)+2*count[li]]
		}
	}
	for k := 0; k < len(found); k += 3 {
		li := found[k]
		at[li] = append(at[li], found[k+1], found[k+2])
	}
	for li, name := range p.names {
		if scanned(name) {
			out[name] = at[li]
		}
	}
	*bp = found[:0]
	scanBuf.Put(bp)
	return out
}

// from returns the index of the first match of all starting at or after
// start.
func from(all []int, start int) int {
	return 2 * sort.Search(len(all)/2, func(i int) bool { return all[2*i] >= start })
}

// of returns a list's matches.
func (m matches) of(list string) []int {
	all, ok := m[list]
	if !ok {
		panic("packet: the phrases of list " + list + " are not scanned for")
	}
	return all
}

// in returns the matches of a list lying wholly in span, relative to its start.
func (m matches) in(list string, start, end int) [][]int {
	all := m.of(list)
	k := from(all, start)
	n := 0
	for i := k; i < len(all) && all[i] < end; i += 2 {
		if all[i+1] <= end {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out, locs := make([][]int, 0, n), make([]int, 2*n)
	for i := k; i < len(all) && all[i] < end; i += 2 {
		if all[i+1] <= end {
			loc := locs[:2:2]
			locs = locs[2:]
			loc[0], loc[1] = all[i]-start, all[i+1]-start
			out = append(out, loc)
		}
	}
	return out
}

// firstIn is in's first match, or nil.
func (m matches) firstIn(list string, start, end int) []int {
	all := m.of(list)
	for i := from(all, start); i < len(all) && all[i] < end; i += 2 {
		if all[i+1] <= end {
			return []int{all[i] - start, all[i+1] - start}
		}
	}
	return nil
}

// firstWord is the run of word bytes at i.
func firstWord(s string, i int) string {
	j := i
	for j < len(s) && wordByte[s[j]] {
		j++
	}
	return s[i:j]
}

// wordTable maps a word to a value by open addressing, with linear
// probing in a table kept at most a quarter full: scan and responseAt look
// words up by the thousand, and a map access each was most of their time.
type wordTable[V any] struct {
	slots []wordSlot[V]
	mask  uint32
}

type wordSlot[V any] struct {
	hash uint32
	used bool
	word string
	val  V
}

func newWordTable[V any](m map[string]V) wordTable[V] {
	size := 16
	for size < 4*len(m) {
		size *= 2
	}
	t := wordTable[V]{slots: make([]wordSlot[V], size), mask: uint32(size - 1)}
	for w, v := range m {
		h := hashWord(w)
		k := h & t.mask
		for t.slots[k].used {
			k = (k + 1) & t.mask
		}
		t.slots[k] = wordSlot[V]{hash: h, used: true, word: w, val: v}
	}
	return t
}

// lookup returns m[w].
func (t *wordTable[V]) lookup(w string) V {
	h := hashWord(w)
	for k := h & t.mask; ; k = (k + 1) & t.mask {
		s := &t.slots[k]
		if !s.used {
			var zero V
			return zero
		}
		if s.hash == h && s.word == w {
			return s.val
		}
	}
}

// hashWord is FNV-1a.
func hashWord(w string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint32(w[i])) * 16777619
	}
	return h
}

// eachWord calls f with the start and end of each run of word bytes of
// text (matches start at a word), in order. It classifies eight bytes at a
// time: a byte at a time, the branch at every word's end cost more than
// the rest of the scan.
func eachWord(text string, f func(start, end int)) {
	start := -1     // of the word being read
	var prev uint64 // the word bytes of the previous eight, as wordBytes has them
	for i := 0; i < len(text); i += 8 {
		var b [8]byte // past the end: zero bytes, which are not word bytes
		copy(b[:], text[i:])
		x := binary.LittleEndian.Uint64(b[:])
		m := wordBytes(x)
		before := m<<8 | prev>>56 // byte k's bit: byte k-1 is a word byte
		prev = m
		for ev := m ^ before; ev != 0; ev &= ev - 1 { // where a word starts or ends
			k := i + bits.TrailingZeros64(ev)/8
			if start < 0 {
				start = k
			} else {
				f(start, k)
				start = -1
			}
		}
	}
	if start >= 0 {
		f(start, len(text))
	}
}

// wordBytes has bit 7 of byte k set when byte k of x is a word byte
// (wordByte: a letter, a digit or '_').
func wordBytes(x uint64) uint64 {
	low := x &^ highs // each byte's low seven bits: no carry between bytes below
	in := func(lo, hi uint64) uint64 { return (low + (0x80-lo)*ones) &^ (low + (0x7f-hi)*ones) }
	y := low ^ '_'*ones
	underscore := ^((y + 0x7f*ones) | y) // bit 7 set where y's byte is 0
	return (in('0', '9') | in('A', 'Z') | in('a', 'z') | underscore) &^ x & highs
}
