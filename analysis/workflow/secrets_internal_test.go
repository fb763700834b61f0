package workflow

import (
	"encoding/json"
	"math/bits"
	"os"
	"slices"
	"strings"
	"testing"
)

// baton's reading of the engine's credential rule finds what the rule
// finds, in the same ranges, on the documents of testdata/credentials.json
// (recorded by running the rule under Node with the scanner the engine
// pins).
func TestCredentialsAreTheEngines(t *testing.T) {
	data, err := os.ReadFile("testdata/credentials.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Documents []struct {
			Document string
			Findings []struct{ ID, Text string }
		}
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, d := range rec.Documents {
		var want, got []string
		for _, f := range d.Findings {
			want = append(want, f.ID+" "+f.Text)
		}
		if c, _ := journaled(d.Document); func() bool { _, w := scanPreset(c); return w }() != mayHoldCredential(d.Document) {
			t.Errorf("%q: the one pass and mayHoldCredential disagree on the words", d.Document)
		}
		if mayHoldCredential(d.Document) && !strings.Contains(d.Document, "secretlint-disable") {
			content, _ := journaled(d.Document)
			for _, h := range scanJournaled(content) {
				got = append(got, h.id+" "+content[h.start:h.end])
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n baton finds %q\n the engine %q", d.Document, got, want)
		}
		found += len(want)
	}
	if found < 15 {
		t.Errorf("only %d findings recorded: the list has lost its credentials", found)
	}
}

// The document offsets a finding is reported at are the credential's own.
func TestCredentialSpans(t *testing.T) {
	doc := "# Keys\n\n```ts eval\nconst c = new OpenAI({ \"apiKey\": process.env.OPENAI_API_KEY });\n```\n"
	fs := scanCredentials(doc)
	if len(fs) != 1 {
		t.Fatalf("findings %+v, want one", fs)
	}
	if got := doc[fs[0].span.Start:fs[0].span.End]; got != "process.env.OPENAI_API_KEY" {
		t.Errorf("span %q, want the value", got)
	}
}

// The ported preset rules find what secretlint's preset finds, in the
// ranges it reports, on testdata/preset.json (recorded by running the
// preset under Node as the engine's journal gate runs it).
func TestPresetIsSecretlints(t *testing.T) {
	data, err := os.ReadFile("testdata/preset.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Documents []struct {
			Document string
			Findings []struct{ Rule, Text string }
		}
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, d := range rec.Documents {
		var want, got []string
		for _, f := range d.Findings {
			want = append(want, f.Rule+" "+f.Text)
		}
		content, _ := journaled(d.Document)
		hits, _ := scanPreset(content)
		for _, h := range hits {
			got = append(got, h.id+" "+content[h.start:h.end])
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n baton finds %q\n secretlint %q", d.Document, got, want)
		}
		found += len(want)
	}
	if found < 30 {
		t.Errorf("only %d findings recorded: the list has lost its tokens", found)
	}
}

// Any text: the scan ends, and every span it gives is inside the text.
func FuzzCredentials(f *testing.F) {
	f.Add("apiKey: process.env.OPENAI_API_KEY\n")
	f.Add("  password: \\'x1\n postgres://app:s3cret@db/app ghp_abcdefghijklmnopqrstuvwxyz0123456789 \"\x01\xff")
	f.Add("authorization: \"Bearer abcdefghijklmnop1234\" ops_eyJhIjoiYiJ9fQ==")
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range scanCredentials(text) {
			if c.span.Start < 0 || c.span.End > len(text) || c.span.Start >= c.span.End {
				t.Fatalf("span %v outside the text of %d bytes", c.span, len(text))
			}
		}
	})
}

// journaled writes a document as JSON.stringify writes the import event
// holding it (which Go's encoder, HTML escaping off, does too, but for
// U+2028 and U+2029 that JavaScript leaves alone), and maps each offset
// back to the text.
func TestJournaledIsJSON(t *testing.T) {
	for _, text := range []string{"", "plain", "a \"quoted\" \\ back\nslash\t\r\b\f\x01\x1f", "é 😀 ü\u00a0", "<tag> & </tag>"} {
		content, back := journaled(text)
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]string{"type": "import", "source": text}); err != nil {
			t.Fatal(err)
		}
		// Go's encoder sorts the keys: source before type.
		want := `{"type":"import","source":` + strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(b.String(), "\n"), `{"source":`), `,"type":"import"}`) + `}`
		if content != want {
			t.Errorf("journaled(%q) = %s, want %s", text, content, want)
		}
		if got := back(len(content) - 2); got != len(text) {
			t.Errorf("journaled(%q): the end maps back to %d, want %d", text, got, len(text))
		}
	}
}

// A text that is not UTF-8 is journaled as Node decodes it: each byte that
// is not part of a character becomes U+FFFD, written as it is.
func TestJournaledNotUTF8(t *testing.T) {
	text := "not UTF-8: \xff \"x\"\xc3\n é"
	content, back := journaled(text)
	if want := `{"type":"import","source":"not UTF-8: ` + "\uFFFD" + ` \"x\"` + "\uFFFD" + `\n é"}`; content != want {
		t.Errorf("journaled(%q) = %s, want %s", text, content, want)
	}
	if got := back(len(content) - 2); got != len(text) {
		t.Errorf("the end maps back to %d, want %d", got, len(text))
	}
}

// mayHoldCredential is what the scan's one pass decides of the engine's
// rule's words, written plainly, for the test to hold the pass to.
func mayHoldCredential(text string) bool {
	for i := range text {
		for _, w := range credentialWords {
			if hasFoldAt(text, i, w) {
				return true
			}
		}
	}
	return false
}

// TestThirdByteKeepsEveryEntry: the third-byte set of each list of the
// preset's pair table holds the third byte, lower-cased, of every literal
// and gate word in it (any byte for one of two bytes), so that no place
// where one of them starts is passed over; and it rules out most bytes.
func TestThirdByteKeepsEveryEntry(t *testing.T) {
	set := presetRules()
	if len(set.third) != len(set.lists) {
		t.Fatalf("%d third-byte sets for %d lists", len(set.third), len(set.lists))
	}
	for li, list := range set.lists {
		for _, l := range list {
			if len(l.text) < 3 {
				if set.third[li] != [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} {
					t.Errorf("%q has two bytes, and its list's third bytes are not all bytes", l.text)
				}
				continue
			}
			c := lowerASCII(l.text[2])
			if set.third[li][c>>6]&(1<<(c&63)) == 0 {
				t.Errorf("%q: its third byte %q is not in its list's set", l.text, c)
			}
		}
		kept := 0
		for _, w := range set.third[li] {
			kept += bits.OnesCount64(w)
		}
		if li > 0 && kept > 8 && kept < 256 {
			t.Errorf("list %d keeps %d third bytes", li, kept)
		}
	}
}
