package packet

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/baton-md/baton/internal/ascii"
	"github.com/baton-md/baton/markdown"
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
	ListNoReview      = "no-review"     // What Needs Your Review opens by saying nothing needs review
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
		"restart",
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
	// specrew's Rule 46A (scripts/internal/launch-contract.ps1): "If no
	// review is needed, say what the human should know before resuming."
	// A section that opens so asks for nothing; what follows is for the
	// reader's information.
	ListNoReview: {
		"no review is needed", "no review needed", "no review is required", "no review required",
		"nothing needs your review", "nothing needs review", "nothing to review", "nothing for you to review",
		"nothing requires your review", "nothing requires review", "no review", "none needed", "nothing needed",
		"no review is necessary", "nothing here needs your review", "there is nothing to review",
		"there is nothing for you to review", "nothing new to review", "no items need your review",
		"no items to review", "no decision is needed", "no decision needed", "no decisions needed",
	},
	ListRequest: {
		"approve", "reply", "respond", "confirm", "choose", "pick", "select", "decide", "answer", "provide",
		"authorize", "authorise", "sign off", "send back", "run", "test", "review", "tell me", "let me know",
		"check", "verify", "accept", "reject", "merge", "comment", "vote", "discuss", "give me", "share",
		"restart",
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
	key := "" // no extra list, the common case: not printed for every packet
	if len(extra) > 0 {
		key = fmt.Sprint(extra) // fmt prints maps sorted by key
	}
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
	// responseMask[c] has bit n set when a response phrase's first word
	// starts with c and is n bytes long (63: longer).
	responseMask [256]uint64
	// responsePairs has bit pairKey(w) set for each first word w of a
	// response phrase.
	responsePairs [64]uint64
	// byWord indexes every scanned list's phrases by their first word,
	// longest first, for one scan of a whole document (see scan).
	byWord map[string][]entry
	// words is byWord as an open-addressing table: scan looks up every
	// candidate word of a document, and a map access per word was most of
	// its time.
	words wordTable[[]entry]
	// responses is responseSeqs as a wordTable.
	responses wordTable[[][]string]
	// byPair[pairKey(w)] has bit l set when list l has a phrase whose first
	// word w starts with those bytes, and byLen[c][n] when such a word
	// starts with c and is n bytes long (63: longer). Most words are ruled
	// out by their first two bytes, before their end is looked for, and
	// the rest mostly by their length, without hashing them; each for the
	// lists scan is looking for there only.
	byPair [64 * 64]uint16
	byLen  [256][64]uint16
	// maxLen is each list's longest phrase, in bytes, by index in names.
	maxLen []int
	index  map[string]int // names' indices
	names  []string
	set    map[string]map[string]bool // for whole-text matches (placeholder)
}

func compilePhrases(extra map[string][]string) *phrases {
	p := &phrases{lists: map[string][]string{}, set: map[string]map[string]bool{}}
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
	}
	p.byWord = map[string][]entry{}
	p.index = map[string]int{}
	for li, name := range sortedNames(p.lists) {
		p.names = append(p.names, name)
		p.index[name] = li
		p.maxLen = append(p.maxLen, 0)
		if !scanned(name) {
			continue
		}
		for _, ph := range p.lists[name] {
			p.maxLen[li] = max(p.maxLen[li], len(ph))
			w := firstWord(ph, 0)
			p.byWord[w] = append(p.byWord[w], entry{ph, li})
			if w != "" {
				p.byLen[w[0]][min(len(w), 63)] |= 1 << li
				p.byPair[pairKey(w)] |= 1 << li
			}
		}
	}
	if len(p.names) > 16 {
		panic("packet: more phrase lists than scan's masks hold")
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
			k := pairKey(w)
			p.responsePairs[k>>6] |= 1 << (k & 63)
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

// fold lower-cases and straightens apostrophes.
func fold(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "’", "'"))
}

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

// scanned reports whether scan looks for a list's phrases. The response
// words are read word by word (responseAt) and the placeholders as a whole
// text (whole); matching them over a whole document was a third of the
// scan's work for nothing.
func scanned(list string) bool {
	return list != ListResponseWords && list != ListPlaceholder && list != ListNoReview
}

// opens reports whether text, folded and with its spaces collapsed, starts
// with a phrase of list that ends there or at a byte that is no letter.
func (p *phrases) opens(list, text string) bool {
	longest := 0
	for _, ph := range p.lists[list] {
		longest = max(longest, len(ph))
	}
	t := foldedPrefix(text, longest+1)
	for _, ph := range p.lists[list] {
		if strings.HasPrefix(t, ph) && (len(t) == len(ph) || !isLetter(t[len(ph)])) {
			return true
		}
	}
	return false
}

// foldedPrefix is the start of fold(strings.Join(strings.Fields(text), " "))
// that holds at least n bytes, or all of it: made word by word, so that a
// long text is not split and folded whole to look at its first words.
func foldedPrefix(text string, n int) string {
	var b strings.Builder
	for b.Len() < n {
		text = strings.TrimLeftFunc(text, unicode.IsSpace)
		if text == "" {
			break
		}
		end := strings.IndexFunc(text, unicode.IsSpace)
		if end < 0 {
			end = len(text)
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fold(text[:end]))
		text = text[end:]
	}
	return b.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 }

// wordIndex numbers the word bytes from 1; other bytes are 0.
var wordIndex = func() (t [256]uint8) {
	n := uint8(0)
	for c := range 256 {
		if wordByte[c] {
			n++
			t[c] = n
		}
	}
	return t
}()

// pairKey is a word's first two bytes as wordIndex numbers them (the
// second 0 for a one-byte word): byPair's index.
func pairKey(w string) int {
	k := int(wordIndex[w[0]]) << 6
	if len(w) > 1 {
		k |= int(wordIndex[w[1]])
	}
	return k
}

// scanBuf is scan's scratch: the matches of every list as they are found,
// list, start and end in turn. It is pooled: a large document finds tens of
// thousands, and growing a slice per list to hold them was as costly as
// finding them. Nothing outside scan sees it.
var scanBuf = sync.Pool{New: func() any { return new([]int) }}

// A toggle is where a list starts or stops being looked for, as one
// number: the offset, then a bit set for a start, then the list (below 16).
// Sorting them as numbers orders them by offset, which is all scan needs:
// it applies every toggle up to a word before looking at it, and a list's
// own stretches are disjoint, not touching. (A sort with a comparison
// function was a tenth of a small packet's analysis.)
func toggleAt(at, list int, on bool) uint64 {
	t := uint64(at)<<5 | uint64(list)
	if on {
		t |= 1 << 4
	}
	return t
}

// scan finds, in one pass over the flat lower-cased text, the phrases of the
// scanned lists standing as words; within a list the longest wins and
// matches do not overlap. Each list is looked for only around the spans
// asked[list] (by index in names) where it will be asked about: most lists
// are asked about in one section of a packet, and looking for every list
// everywhere was most of the scan's work. It returns each list's matches,
// start and end in turn, and where they are exactly those a scan of the
// whole text finds (sorted, disjoint): every span asked about lies in one.
func (p *phrases) scan(text string, asked [][]markdown.Span) ([][]int, [][]markdown.Span) {
	n := 1
	if len(text) >= parallelFrom {
		n = readers()
	}
	return p.scanIn(text, asked, n)
}

// scanIn is scan in n runs at once (n < 2: one). Run k looks at the words
// starting in the k-th n-th of the text, but starts looking earlier, where
// restart says a scan of each list agrees with one of the whole text: so its
// matches are exactly those of one scan, in the same order.
func (p *phrases) scanIn(text string, asked [][]markdown.Span, n int) ([][]int, [][]markdown.Span) {
	// Each list's stretches are carved from one array, merged in place.
	total := 0
	for _, spans := range asked {
		total += len(spans)
	}
	buf := make([]markdown.Span, 0, total)
	toggles := make([]uint64, 0, 2*total)
	exact := make([][]markdown.Span, len(p.names))
	for li, spans := range asked {
		if !scanned(p.names[li]) || len(spans) == 0 {
			continue
		}
		from := buf[len(buf):len(buf)]
		for _, s := range spans {
			if s.Start < s.End {
				from = append(from, markdown.Span{Start: p.restart(text, li, s.Start), End: s.End})
			}
		}
		buf = buf[:len(buf)+len(from)]
		slices.SortFunc(from, func(a, b markdown.Span) int { return a.Start - b.Start })
		merged := from[:0]
		for _, s := range from {
			if k := len(merged); k > 0 && s.Start <= merged[k-1].End {
				merged[k-1].End = max(merged[k-1].End, s.End)
				continue
			}
			merged = append(merged, s)
		}
		exact[li] = merged
		for _, s := range merged {
			toggles = append(toggles, toggleAt(s.Start, li, true), toggleAt(s.End, li, false))
		}
	}
	slices.Sort(toggles)
	bp := scanBuf.Get().(*[]int)
	found := (*bp)[:0]
	if n = min(n, len(text)/64); n < 2 {
		found = p.scanWords(text, toggles, 0, 0, len(text), found)
	} else {
		runs := make([][]int, n)
		var wg sync.WaitGroup
		for k := range n {
			keep, to := len(text)*k/n, len(text)*(k+1)/n
			from := keep
			for li, name := range p.names {
				if scanned(name) && k > 0 {
					from = min(from, p.restart(text, li, keep))
				}
			}
			wg.Go(func() { runs[k] = p.scanWords(text, toggles, from, keep, to, nil) })
		}
		wg.Wait()
		for _, r := range runs {
			found = append(found, r...)
		}
	}
	// Carve each list's matches from one array.
	var count [16]int
	for k := 0; k < len(found); k += 3 {
		count[found[k]]++
	}
	all := make([]int, 0, len(found)/3*2)
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
	*bp = found[:0]
	scanBuf.Put(bp)
	return at, exact
}

// scanWords looks at the words starting from from up to to, with no match
// before from, and appends the matches starting from keep on to found: list,
// start and end in turn.
func (p *phrases) scanWords(text string, toggles []uint64, from, keep, to int, found []int) []int {
	var lastEnd, taken [16]int // per list: the end and start of its last match
	for i := range taken {
		taken[i] = -1
	}
	var active uint16              // the lists looked for at the current word
	next, nextAt := 0, len(text)+1 // the next toggle, and where it is
	if len(toggles) > 0 {
		nextAt = int(toggles[0] >> 5)
	}
	// Eight bytes at a time, only where words start: most words are ruled
	// out by their first two bytes, and finding where each word ends (and
	// calling a function for each) cost more than looking most of them up.
	var prev uint64 // the word bytes of the previous eight, as wordBytes has them
	i0 := from &^ 7
	if i0 >= 8 {
		prev = ascii.WordBytes(ascii.Load8(text, i0-8))
	}
	for i := i0; i < to; i += 8 {
		m := ascii.WordBytes(ascii.Load8(text, i))
		before := m<<8 | prev>>56 // byte k's bit: byte k-1 is a word byte
		prev = m
		for ev := m &^ before; ev != 0; ev &= ev - 1 { // where a word starts
			at := i + bits.TrailingZeros64(ev)/8
			if at < from {
				continue
			}
			if at >= to {
				break
			}
			for at >= nextAt {
				if t := toggles[next]; t&(1<<4) != 0 {
					active |= 1 << (t & 15)
				} else {
					active &^= 1 << (t & 15)
				}
				if next++; next < len(toggles) {
					nextAt = int(toggles[next] >> 5)
				} else {
					nextAt = len(text) + 1
				}
			}
			second := byte(0) // not a word byte, as past the end
			if at+1 < len(text) {
				second = text[at+1]
			}
			lists := p.byPair[(int(wordIndex[text[at]])<<6|int(wordIndex[second]))&(64*64-1)] & active
			if lists == 0 {
				continue
			}
			end := at + 1
			for end < len(text) && wordByte[text[end]] {
				end++
			}
			w := text[at:end]
			if lists &= p.byLen[w[0]][min(len(w), 63)&63]; lists == 0 {
				continue
			}
			for _, e := range p.words.lookup(w) {
				if lists&(1<<e.list) == 0 || taken[e.list] == at || at < lastEnd[e.list] {
					continue
				}
				end := at + len(e.ph)
				if !strings.HasPrefix(text[at:], e.ph) || wordByte[e.ph[len(e.ph)-1]] && end < len(text) && wordByte[text[end]] {
					continue
				}
				if at >= keep {
					found = append(found, e.list, at, end)
				}
				taken[e.list], lastEnd[e.list] = at, end
			}
		}
	}
	return found
}

// restart is where a scan for list li must start for its matches from start
// on to be exactly those of a scan of the whole text. A scan's only state is
// where its last match ends, and a match can only be taken where none runs
// on: once no phrase of the list standing at an earlier word can run past a
// point, every scan that reaches the point agrees from there. So: start,
// unless such a phrase runs past it, then that phrase's word, and so on.
func (p *phrases) restart(text string, li, start int) int {
	for {
		moved := false
		for q := max(0, start-p.maxLen[li]+1); q < start; q++ {
			if !wordByte[text[q]] || q > 0 && wordByte[text[q-1]] {
				continue
			}
			if p.longestAt(text, li, q) > start {
				start, moved = q, true
				break
			}
		}
		if !moved {
			return start
		}
	}
}

// longestAt is the end of the longest phrase of list li standing as words
// at q (a word's start), as scan would take it, or -1.
func (p *phrases) longestAt(text string, li, q int) int {
	for _, e := range p.words.lookup(firstWord(text, q)) {
		end := q + len(e.ph)
		if e.list != li || !strings.HasPrefix(text[q:], e.ph) || wordByte[e.ph[len(e.ph)-1]] && end < len(text) && wordByte[text[end]] {
			continue
		}
		return end
	}
	return -1
}

// from returns the index of the first match of all starting at or after
// start.
func from(all []int, start int) int {
	return 2 * sort.Search(len(all)/2, func(i int) bool { return all[2*i] >= start })
}

// matchesIn returns the matches of all lying wholly in span, relative to its start.
func matchesIn(all []int, start, end int) [][]int {
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

// firstMatchIn is matchesIn's first match, or nil.
func firstMatchIn(all []int, start, end int) []int {
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
