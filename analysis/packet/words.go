package packet

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// words splits lower-cased text into words (letters and digits, with
// apostrophes and hyphens inside them) and the clause marks ",", ";", ":".
// The sentence tests below read words, not regular expressions: they run
// on every sentence of What Happens Next.
func words(s string) []string {
	return appendWords(make([]string, 0, len(s)/6+1), s) // about one word in six bytes of prose
}

// appendWords appends the words of s to out.
func appendWords(out []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		c, n := s[i], 1
		if alnum[c] { // most bytes: read the rest of the run at once
			if start < 0 {
				start = i
			}
			for i++; i < len(s) && alnum[s[i]]; i++ {
			}
			continue
		}
		var inWord bool
		if c < 0x80 {
			inWord = start >= 0 && (c == '\'' || c == '-')
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			inWord = unicode.IsLetter(r) || unicode.IsDigit(r) || start >= 0 && r == '’'
		}
		if inWord {
			if start < 0 {
				start = i
			}
		} else {
			if start >= 0 {
				out = append(out, trimWord(s[start:i]))
				start = -1
			}
			if c == ',' || c == ';' || c == ':' {
				out = append(out, s[i:i+1])
			}
		}
		i += n
	}
	if start >= 0 {
		out = append(out, trimWord(s[start:]))
	}
	return out
}

// alnum marks the ASCII letters and digits.
var alnum = func() (t [256]bool) {
	for c := range 128 {
		t[c] = wordByte[c] && c != '_'
	}
	return t
}()

// trimWord is strings.TrimRight(w, "'’-"), without its general cut-set
// machinery (this runs for every word of a section).
func trimWord(w string) string {
	if n := len(w); n == 0 || w[n-1] != '\'' && w[n-1] != '-' && w[n-1] != 0x99 { // 0x99 ends '’'
		return w // most words: nothing to trim
	}
	for {
		switch {
		case strings.HasSuffix(w, "'") || strings.HasSuffix(w, "-"):
			w = w[:len(w)-1]
		case strings.HasSuffix(w, "’"):
			w = w[:len(w)-len("’")]
		default:
			return w
		}
	}
}

func in(w string, set ...string) bool {
	for _, s := range set {
		if w == s {
			return true
		}
	}
	return false
}

// at returns w[i], or "" past either end.
func at(w []string, i int) string {
	if i < 0 || i >= len(w) {
		return ""
	}
	return w[i]
}

// mayRespond reports whether a response phrase can start with word x: most
// words are ruled out here, without a call to responseAt.
func (p *phrases) mayRespond(x string) bool {
	if x == "" || p.responseMask[x[0]]&(1<<min(len(x), 63)) == 0 {
		return false
	}
	// Many words pass on their first byte and length ("decided" as
	// "decision", "review" as "result"): their first two bytes rule most
	// of those out, before a table lookup.
	k := pairKey(x)
	return p.responsePairs[k>>6]&(1<<(k&63)) != 0
}

// responseAt reports whether a phrase of the response list starts at word i.
func (p *phrases) responseAt(w []string, i int) bool {
	x := at(w, i)
	if !p.mayRespond(x) {
		return false // no response phrase starts with such a word: no map access
	}
	return p.responseFrom(w, i, x)
}

// responseFrom is responseAt for x, w[i], known to pass mayRespond.
func (p *phrases) responseFrom(w []string, i int, x string) bool {
	for _, seq := range p.responses.lookup(x) {
		ok := true
		for k, x := range seq {
			if at(w, i+k) != x {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// userVerbs are what "once you …" waits on: the user's responses, and the
// actions specrew's validator counts as the user's (run, test, restart,
// provide, authorize: handoff-governance-validator.ps1,
// Test-HasEmptyUserActionSection).
var userVerbs = []string{"approve", "reply", "respond", "confirm", "agree", "decide", "answer", "sign", "say",
	"give", "choose", "pick", "accept", "tell", "okay", "ok", "review", "send", "let",
	"run", "test", "restart", "provide", "authorize", "authorise"}

// conditional reports whether a sentence waits for the user: "On approval,
// I will …", "… once you reply", "after your verdict", "I'll proceed only
// after …". An objection clause ("flag this if you disagree") is not one.
func conditional(ph *phrases, s string) bool { return conditionalWords(ph, words(s)) }

// conditionalWords is conditional on the sentence's words. (It and the
// tests below switch on words rather than call in: they run for every word
// of What Happens Next.)
func conditionalWords(ph *phrases, w []string) bool {
	for i, x := range w {
		switch x {
		case "until":
			switch at(w, i+1) {
			case "you", "i", "your":
				return true
			}
		case "only":
			switch at(w, i+1) {
			case "after", "once", "if", "when":
				return true
			}
		case "if", "once", "when", "after", "soon":
			if x == "soon" && (at(w, i-1) != "as" || at(w, i+1) != "as") {
				break
			}
			j := i + 1
			if x == "soon" {
				j = i + 2
			}
			n := at(w, j)
			switch {
			case n == "you" && (in(at(w, j+1), userVerbs...) || at(w, j+1) == "are" && in(at(w, j+2), "happy", "ok", "okay", "fine")):
				return true
			case in(n, "approved", "confirmed", "accepted", "agreed", "signed"):
				return true
			case in(n, "it", "this") && at(w, j+1) == "is" && in(at(w, j+2), "approved", "confirmed", "accepted"):
				return true
			}
		}
		// "follows on approval", "after your reply", "with the recorded decision"
		if ph.mayRespond(x) && ph.responseFrom(w, i, x) {
			prev := at(w, i-1)
			if in(prev, "your", "the", "a", "recorded", "explicit") {
				prev = at(w, i-2)
				if in(prev, "your", "the") {
					prev = at(w, i-3)
				}
			}
			if in(prev, "on", "upon", "after", "once", "following", "pending", "awaiting", "with") {
				return true
			}
			// "A human approval would authorize …", "your reply will start …":
			// the user's response is what sets the step going.
			if in(at(w, i+1), "would", "will", "authorizes", "authorises", "allows", "unlocks", "advances", "triggers", "starts") {
				return true
			}
		}
	}
	// A sentence that opens with a condition whose clause names the user or
	// a response: "If you agree, …", "When the verdict is in, …".
	if len(w) > 0 && (in(w[0], "on", "upon", "after", "once", "if", "when", "with", "following", "pending") || w[0] == "subject" && at(w, 1) == "to") {
		for i := 1; i < len(w) && !in(w[i], ",", ";", ":"); i++ {
			if w[i] == "you" || ph.responseAt(w, i) {
				return true
			}
		}
	}
	return false
}

// forward reports a step the agent will take: "I will …", "I'll …",
// "Planning follows", "Next: …".
func forward(w []string) bool {
	for i, x := range w {
		switch x {
		case "will", "shall", "proceeds", "follows", "advances", "begins", "starts", "continues", "resumes":
			return true
		case "going", "plan", "intend":
			if at(w, i+1) == "to" {
				return true
			}
		case "next":
			if at(w, i+1) == ":" {
				return true
			}
		}
		if strings.HasSuffix(x, "'ll") || strings.HasSuffix(x, "’ll") {
			return true
		}
	}
	return false
}

// negated reports a sentence that says what will not happen.
func negated(w []string) bool {
	for _, x := range w {
		switch x {
		case "not", "no", "never", "nothing", "won't", "won’t", "don't", "don’t", "cannot", "can't", "can’t":
			return true
		}
	}
	return false
}

// chained: "Then …", "After that …" continue the condition before them.
func chained(w []string) bool {
	a, b := at(w, 0), at(w, 1)
	return in(a, "then", "next", "afterwards", "finally", "thereafter", "subsequently") ||
		a == "after" && b == "that" || a == "and" && b == "then"
}

// broken: "Meanwhile …" starts a step the condition does not cover.
func broken(w []string) bool {
	a, b := at(w, 0), at(w, 1)
	return in(a, "meanwhile", "regardless") || a == "in" && b == "the" && at(w, 2) == "meantime" ||
		a == "while" && in(b, "you", "i", "waiting")
}
