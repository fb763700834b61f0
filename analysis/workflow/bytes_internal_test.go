package workflow

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The scanner and the expression reader classify bytes with tables; these
// pin the tables to the definitions they replaced.

func TestByteClasses(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		start := b == '_' || b == '$' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
		part := start || (b >= '0' && b <= '9')
		space := b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'
		if isIdentStart(b) != start || isIdentPart(b) != part || isSpace(b) != space {
			t.Errorf("%q: identStart %v identPart %v space %v", b, isIdentStart(b), isIdentPart(b), isSpace(b))
		}
		if got, want := class[b]&clTagName != 0, part && b != '$'; got != want {
			t.Errorf("%q: tag name byte %v, want %v", b, got, want)
		}
		if got, want := class[b]&clAttrName != 0, (part && b != '$') || b == '-'; got != want {
			t.Errorf("%q: attribute name byte %v, want %v", b, got, want)
		}
		if got, want := class[b]&clExpr != 0, strings.IndexByte("{}\"'`/", b) >= 0; got != want {
			t.Errorf("%q: expression stop %v, want %v", b, got, want)
		}
		if got, want := plain[b] != 0, strings.IndexByte("\\`<{~", b) < 0; got != want {
			t.Errorf("%q: plain %v, want %v", b, got, want)
		}
	}
}

// TestPunctLen compares punctLen with trying each punctuator in turn, on
// every string of up to three bytes of punctuation.
func TestPunctLen(t *testing.T) {
	puncts := []string{"===", "!==", "...", "?.", "=>", "&&", "||", "??", "==", "!=", "<=", ">="}
	want := func(src string) int {
		for _, p := range puncts {
			if strings.HasPrefix(src, p) {
				return len(p)
			}
		}
		return 1
	}
	const alphabet = "=!.?&|<>-a"
	var strs []string
	for _, a := range alphabet {
		strs = append(strs, string(a))
		for _, b := range alphabet {
			strs = append(strs, string(a)+string(b))
			for _, c := range alphabet {
				strs = append(strs, string(a)+string(b)+string(c))
			}
		}
	}
	for _, s := range strs {
		if got := punctLen(s); got != want(s) {
			t.Errorf("punctLen(%q) = %d, want %d", s, got, want(s))
		}
	}
}

func TestSkipPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab \n\r\\`<{~}é"
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		text := string(b)
		for i := 0; i <= len(text); i++ {
			want := i
			for want < len(text) && strings.IndexByte("\\`<{~", text[want]) < 0 {
				want++
			}
			if got := skipPlain(text, i, len(text)); got != want {
				t.Fatalf("skipPlain(%q, %d) = %d, want %d", text, i, got, want)
			}
		}
	}
}

func TestRecent(t *testing.T) {
	var r recent[int]
	if _, ok := r.get("If"); ok {
		t.Fatal("empty: If remembered")
	}
	r.put("", 1)
	if _, ok := r.get(""); ok {
		t.Fatal("the empty string remembered")
	}
	names := []string{"If", "Prompt", "UserCheckpoint", "Else", "decision.proceed", "props.request"}
	for i, n := range names {
		r.put(n, i)
	}
	// Each name is remembered until one with the same slot displaces it.
	for i, n := range names {
		v, ok := r.get(n)
		displaced := false
		for _, m := range names[i+1:] {
			displaced = displaced || recentSlot(m) == recentSlot(n)
		}
		if ok != !displaced || ok && v != i {
			t.Errorf("get(%q) = %d, %v (displaced %v)", n, v, ok, displaced)
		}
	}
}
