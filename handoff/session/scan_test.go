package session

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestScanAgreesWithEncodingJSON checks the scanner's verdict on lines
// json.Valid has an opinion on; FuzzReader does the same on arbitrary input.
func TestScanAgreesWithEncodingJSON(t *testing.T) {
	nest := func(n int) string { return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }
	lines := []string{
		`{}`, ` { } `, "{}\r", `{"a":1}`, `{"a":-0}`, `{"a":01}`, `{"a":1.}`, `{"a":1.5e}`, `{"a":1.5e+7}`, `{"a":-}`,
		`{"a":1e999}`, `{"a":.5}`, `{"a":+1}`, `{"a":true,"b":false,"c":null}`, `{"a":tru}`, `{"a":nul}`, `{"a":NaN}`,
		`{"a":"\u00e9\n\t\"\\\/\b\f\r"}`, `{"a":"\u00g0"}`, `{"a":"\x"}`, "{\"a\":\"\x01\"}", "{\"a\":\"\x7f\"}",
		"{\"a\":\"\xff\"}", `{"a":"\ud800"}`, `{"a" : [ 1 , 2 ] }`, `{"a":[1,]}`, `{"a":[,1]}`, `{"a":1,}`, `{,}`,
		`{"a"}`, `{"a":}`, `{a:1}`, `{'a':1}`, `{"a":1}}`, `{"a":1} {}`, `{"a":1}x`, `[]`, `1`, `"s"`, `null`,
		"\ufeff{}", `{"kind":"message","payload":{"content":[{"type":"toolCall","arguments":{"path":1}}]}}`,
		`{"decisions":[{"key":"k"},1,"x",null,[]]}`, `{"a":"unterminated}`, `{"a":"\`, `{"a":"\u12`,
		nest(maxDepth - 1), nest(maxDepth), strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth),
		strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1),
	}
	var raw rawEntry
	for _, line := range lines {
		want := json.Valid([]byte(line)) && strings.HasPrefix(strings.TrimLeft(line, " \t\r"), "{")
		if got := scanLine([]byte(line), &raw); got != want {
			short := line
			if len(short) > 60 {
				short = short[:60] + "…"
			}
			t.Errorf("scanLine(%q) = %v, want %v", short, got, want)
		}
	}
}

func TestScanDecodesLikeEncodingJSON(t *testing.T) {
	var raw rawEntry
	line := `{"kind":"fileEntry","path":"a\u00e9\ud83d\ude00\"b\\c","pa\u0074h":"\u0078.ts","operation":"re` + "\xff" + `ad"}`
	if !scanLine([]byte(line), &raw) {
		t.Fatal("not scanned")
	}
	// The escaped key is the same key: the last one wins, as in encoding/json.
	if v, _ := raw.path.str(); v != "x.ts" {
		t.Errorf("path = %q", v)
	}
	if v, _ := raw.operation.str(); v != "re\uFFFDad" {
		t.Errorf("operation = %q", v)
	}
}

func TestSWARStop(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			b := []byte("aaaaaaaa")
			b[pos] = byte(c)
			x := uint64(0)
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(b[i])
			}
			if got, want := swarStop(x), stopByte[c]; got != want {
				t.Fatalf("swarStop with %#x at %d = %v, want %v", c, pos, got, want)
			}
		}
	}
}
