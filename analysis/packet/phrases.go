package packet

import (
	"fmt"
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
	// byFirst indexes each list's phrases by their first byte, longest first.
	byFirst map[string]*[256][]string
	// byWord indexes every list's phrases by their first word, longest
	// first, for one scan of a whole document (see scan).
	byWord map[string][]entry
	// wordMask[c] has bit n set when some first word starts with c and is n
	// bytes long: most words are ruled out without hashing them.
	wordMask [256]uint64
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
		for _, ph := range p.lists[name] {
			w := firstWord(ph, 0)
			p.byWord[w] = append(p.byWord[w], entry{ph, li})
			if w != "" {
				p.wordMask[w[0]] |= 1 << min(len(w), 63)
			}
		}
	}
	for w := range p.byWord {
		sort.SliceStable(p.byWord[w], func(i, j int) bool { return len(p.byWord[w][i].ph) > len(p.byWord[w][j].ph) })
	}
	p.responseSeqs = map[string][][]string{}
	for _, ph := range p.lists[ListResponseWords] {
		if w := words(ph); len(w) > 0 {
			p.responseSeqs[w[0]] = append(p.responseSeqs[w[0]], w)
		}
	}
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

// matches is every phrase of every list found in a document, by list, in
// order: one scan serves every rule's question about a span.
type matches map[string][][]int

// scan finds, in one pass over the flat lower-cased text, every phrase of
// every list standing as words; within a list the longest wins and matches
// do not overlap.
func (p *phrases) scan(text string) matches {
	// Matches are gathered by list index and carved from one backing array
	// (a map assignment and a small allocation per match were half the
	// scan's time).
	found := make([][][]int, len(p.names))
	buf := make([]int, 0, 64)
	lastEnd := make([]int, len(p.names))
	taken := make([]int, len(p.names)) // position of the last match start per list, to keep one a position
	for i := range taken {
		taken[i] = -1
	}
	for i := 0; i < len(text); i++ {
		if !wordByte[text[i]] || i > 0 && wordByte[text[i-1]] {
			continue // matches start at a word
		}
		w := firstWord(text, i)
		if p.wordMask[w[0]]&(1<<min(len(w), 63)) == 0 {
			i += len(w) - 1
			continue
		}
		for _, e := range p.byWord[w] {
			if taken[e.list] == i || i < lastEnd[e.list] {
				continue
			}
			end := i + len(e.ph)
			if !strings.HasPrefix(text[i:], e.ph) || wordByte[e.ph[len(e.ph)-1]] && end < len(text) && wordByte[text[end]] {
				continue
			}
			if len(buf)+2 > cap(buf) {
				buf = make([]int, 0, 2*cap(buf))
			}
			buf = append(buf, i, end)
			found[e.list] = append(found[e.list], buf[len(buf)-2:len(buf):len(buf)])
			taken[e.list], lastEnd[e.list] = i, end
		}
	}
	out := make(matches, len(p.names))
	for li, m := range found {
		if m != nil {
			out[p.names[li]] = m
		}
	}
	return out
}

// in returns the matches of a list lying wholly in span, relative to its start.
func (m matches) in(list string, start, end int) [][]int {
	all := m[list]
	k := sort.Search(len(all), func(i int) bool { return all[i][0] >= start })
	var out [][]int
	for ; k < len(all) && all[k][0] < end; k++ {
		if all[k][1] <= end {
			out = append(out, []int{all[k][0] - start, all[k][1] - start})
		}
	}
	return out
}

// firstWord is the run of word bytes at i.
func firstWord(s string, i int) string {
	j := i
	for j < len(s) && wordByte[s[j]] {
		j++
	}
	return s[i:j]
}
