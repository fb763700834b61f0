package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readerSeeds are current.jsonl texts the fuzzers start from.
func readerSeeds(t testing.TB) []string {
	b := newBuilder(t, "/work/repo")
	b.user("u1", "")
	b.assistant("a1", "u1", block("name", "read", "arguments", map[string]any{"path": "src/parser.ts"}))
	b.read("c1", "a1", "src/parser.ts")
	b.fileEntry("f1", "c1", "src/a.ts", "read")
	b.decisions("d1", "u1", "int-7", "2026-08-21", decision("runner", "vitest", "Test runner", "active"))
	b.label("l1", "a1")
	b.compaction("s1", "", "a1")
	b.user("new1", "u1")
	b.call("c2", "new1", "toolName", "grep", "input", map[string]any{"pattern": "x"})
	b.raw(`{"kind":"message","turnId":"t\u0031","parentTurnId":"c2","role":"tool_call","payload":{"na\u006de":"edit","args":{"file_path":"a\\b\u00e9\ud83d\ude00"}}}`)
	b.raw(`not json`)
	b.raw(`{"kind":"message","payload":{"args":{"path":"x"},"args":null,"name":"read","name":7}}`)
	text := b.text()
	return []string{
		text,
		text[:len(text)-1],
		text[:len(text)/2],
		"",
		"\n\n",
		`{"type":"session","cwd":"/w"}`,
		"{\"a\":\"\xff\xfe\"}\n[1e999,-0.5E+3,true,false,null]\n{\"a\":\"\\u00\"}\n",
	}
}

func FuzzReader(f *testing.F) {
	for _, s := range readerSeeds(f) {
		f.Add([]byte(s), uint16(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		whole := &parser{}
		whole.feed(data)
		l := assemble(whole, meta{}, "/s", &normCache{})

		wantLines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			wantLines++
		}
		if l.Lines != wantLines {
			t.Fatalf("Lines = %d, want %d", l.Lines, wantLines)
		}
		for i, n := range l.InvalidLines {
			if n < 1 || n > l.Lines || i > 0 && n <= l.InvalidLines[i-1] {
				t.Fatalf("InvalidLines %v out of range or order (Lines %d)", l.InvalidLines, l.Lines)
			}
		}
		if l.TornLastLine && (len(data) == 0 || data[len(data)-1] == '\n') {
			t.Fatal("torn last line reported on a file ending with a newline")
		}

		// Fed in pieces, with a ledger built between them as a Store does,
		// the result is the same.
		pieces := &parser{}
		at, step := 0, 1+int(cut)%97
		if len(data) > 0 {
			at = int(cut) % (len(data) + 1)
		}
		pieces.feed(data[:at])
		_ = assemble(pieces, meta{}, "/s", &normCache{})
		for rest := data[at:]; len(rest) > 0; rest = rest[min(step, len(rest)):] {
			pieces.feed(rest[:min(step, len(rest))])
		}
		if diff := cmp.Diff(l, assemble(pieces, meta{}, "/s", &normCache{})); diff != "" {
			t.Fatalf("fed in pieces (-whole +pieces):\n%s", diff)
		}

		// Each line reads as encoding/json reads it.
		var raw rawEntry
		for i, line := range bytes.Split(data, []byte("\n")) {
			if blank(line) {
				continue
			}
			got := scanLine(line, &raw)
			want := json.Valid(line) && bytes.TrimLeft(line, " \t\r")[0] == '{'
			if got != want {
				t.Fatalf("line %d %q: scanned as an object %v, json.Valid says %v", i+1, line, got, want)
			}
			if !got {
				continue
			}
			if diff := cmp.Diff(referenceEntry(t, i+1, line), makeEntry(i+1, &raw), cmp.AllowUnexported(entry{}, touch{}, extra{})); diff != "" {
				t.Fatalf("line %d %q (-encoding/json +scanner):\n%s", i+1, line, diff)
			}
		}
	})
}

// referenceEntry reads a line with encoding/json, following clio's code
// (handoff.ts, active-path.ts) member by member.
func referenceEntry(t *testing.T, n int, line []byte) entry {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("reference decode: %v", err)
	}
	str := func(v any) string { s, _ := v.(string); return s }
	record := func(v any) map[string]any { r, _ := v.(map[string]any); return r }
	stringField := func(r map[string]any, keys ...string) string {
		for _, k := range keys {
			if s, ok := r[k].(string); ok && jsTrim(s) != "" {
				return jsTrim(s)
			}
		}
		return ""
	}
	coalesce := func(r map[string]any, keys ...string) any {
		for _, k := range keys {
			if v := r[k]; v != nil {
				return v
			}
		}
		return nil
	}
	pathFromCall := func(name string, args any) (touch, bool) {
		tool := ledgerTool(name)
		if tool == "" {
			return touch{}, false
		}
		raw := stringField(record(args), "path", "file_path", "filePath")
		if raw == "" && (tool == "grep" || tool == "find" || tool == "ls") {
			raw = "."
		}
		return touch{tool, raw}, raw != ""
	}

	e := entry{line: n, turnID: str(m["turnId"]), timestamp: str(m["timestamp"])}
	x := extra{firstKept: str(m["firstKeptTurnId"])}
	e.parent, e.hasParent = m["parentTurnId"].(string)
	switch v, ok := m["targetTurnId"]; {
	case !ok:
		e.target = absent
	case v == nil:
		e.target = isNull
	default:
		x.targetID, ok = v.(string)
		e.target = isOther
		if ok {
			e.target = isString
		}
	}
	switch str(m["kind"]) {
	case "message":
		e.kind = kindMessage
		payload := record(m["payload"])
		if payload == nil {
			break
		}
		switch m["role"] {
		case "tool_call":
			if tc, ok := pathFromCall(stringField(payload, "name", "toolName", "tool"), coalesce(payload, "args", "arguments", "input")); ok {
				e.touches = append(e.touches, tc)
			}
		case "assistant":
			blocks, _ := payload["content"].([]any)
			for _, b := range blocks {
				blk := record(b)
				if blk == nil || blk["type"] != "toolCall" {
					continue
				}
				if tc, ok := pathFromCall(stringField(blk, "name", "toolName"), coalesce(blk, "arguments", "args", "input")); ok {
					e.touches = append(e.touches, tc)
				}
			}
		}
	case "fileEntry":
		e.kind = kindFileEntry
		if p, ok := m["path"].(string); ok && jsTrim(p) != "" {
			e.touches = []touch{{"fileEntry", jsTrim(p)}}
		}
		x.operation = str(m["operation"])
	case "decisionLedger":
		e.kind = kindDecisionLedger
		x.interviewID, x.endedAt = str(m["interviewId"]), str(m["endedAt"])
		ds, _ := m["decisions"].([]any)
		for _, d := range ds {
			r := record(d)
			if r == nil || r["status"] != "active" {
				continue
			}
			x.decisions = append(x.decisions, Decision{
				Key: str(r["key"]), Value: str(r["value"]), Label: str(r["label"]), InterviewID: x.interviewID,
				DecidedAt: str(r["decidedAt"]), Line: n, SourceQuestion: str(r["source_question"]),
				Correction: str(r["correction"]), Rationale: str(r["rationale"]),
			})
		}
	case "label":
		e.kind = kindLabel
	case "compactionSummary":
		e.kind = kindCompaction
	case "sessionInfo":
		e.kind = kindSessionInfo
	}
	e.setExtra(x)
	return e
}

// FuzzActivePath builds small entry graphs from the input: each entry takes
// three bytes (kind, turnId, parent/target).
func FuzzActivePath(f *testing.F) {
	f.Add([]byte{0, 0, 5, 0, 1, 0, 0, 2, 1, 0, 3, 1, 1, 4, 2}, uint8(0))
	f.Add([]byte{0, 0, 5, 0, 1, 0, 0, 2, 0, 2, 7, 0x13, 3, 8, 5, 4, 9, 0x21}, uint8(8))
	f.Add([]byte{0, 1, 2, 0, 2, 1, 0, 3, 1}, uint8(3))
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	kinds := []kind{kindMessage, kindMessage, kindMessage, kindLabel, kindCompaction, kindSessionInfo, kindFileEntry, kindOther}
	f.Fuzz(func(t *testing.T, data []byte, pin uint8) {
		var es []entry
		for i := 0; i+3 <= len(data) && len(es) < 64; i += 3 {
			e := entry{line: len(es) + 2, kind: kinds[int(data[i])%len(kinds)], turnID: ids[int(data[i+1])%len(ids)]}
			var ex extra
			if p := int(data[i+2]) % 16; p < len(ids) {
				e.parent, e.hasParent = ids[p], true
			}
			switch x := int(data[i+2]) >> 4; x % 4 {
			case 0:
				e.target = absent
			case 1:
				e.target = isNull
			case 2:
				e.target, ex.targetID = isString, ids[x%len(ids)]
			case 3:
				e.target = isOther
			}
			if data[i]&0x80 != 0 {
				ex.firstKept = ids[int(data[i+1]>>4)%len(ids)]
			}
			e.setExtra(ex)
			es = append(es, e)
		}
		pinned := ""
		if int(pin) < len(ids) {
			pinned = ids[pin]
		}
		pr := activePath(es, pinned)
		for i := 1; i < len(pr.keep); i++ {
			if pr.keep[i] <= pr.keep[i-1] {
				t.Fatalf("path %v repeats or is out of order", pr.keep)
			}
		}
		if len(pr.keep) > 0 && (pr.keep[0] < 0 || pr.keep[len(pr.keep)-1] >= len(es)) {
			t.Fatalf("path %v out of range (%d entries)", pr.keep, len(es))
		}
		hasMessage := false
		for i := range es {
			hasMessage = hasMessage || es[i].kind == kindMessage
		}
		switch {
		case pr.leaf < 0 && hasMessage:
			t.Fatal("no leaf in a session with messages")
		case pr.leaf >= 0 && (es[pr.leaf].kind != kindMessage || !pr.on(pr.leaf)):
			t.Fatalf("leaf %d (%+v) is not a message on the path %v", pr.leaf, es[pr.leaf], pr.keep)
		}
		// The path is closed under parents: when a kept message is the one
		// its turnId names (the last message carrying it), the message its
		// parentTurnId names is kept too.
		lastOf := func(id string) int {
			last := -1
			for j := range es {
				if es[j].kind == kindMessage && es[j].turnID == id {
					last = j
				}
			}
			return last
		}
		if !pr.all {
			for _, i := range pr.keep {
				if es[i].kind != kindMessage || !es[i].hasParent || lastOf(es[i].turnID) != i {
					continue
				}
				if last := lastOf(es[i].parent); last >= 0 && !pr.on(last) {
					t.Fatalf("message %d is on the path but its parent %d is not: %v", i, last, pr.keep)
				}
			}
		}
		// The ledger fold never panics on it either.
		_, _ = fold(es, &pr, func(s string) string { return s })
	})
}

func FuzzNormalize(f *testing.F) {
	f.Add("/work/repo", "./src/a.ts")
	f.Add(`C:\work\repo`, `..\x\`)
	f.Add("", "../x")
	f.Fuzz(func(t *testing.T, cwd, p string) {
		n := Normalize(cwd, p)
		// Empty exactly when nothing is left once trimmed and stripped of
		// trailing separators, as clio's normalizeHandoffPath.
		if (n == "") != (strings.TrimRight(jsTrim(p), `/\`) == "") {
			t.Fatalf("Normalize(%q, %q) = %q", cwd, p, n)
		}
		if n == "" {
			return
		}
		// Normalizing twice changes nothing, except that a name that
		// starts or ends with white space (as in "./ x") loses it the second
		// time, being trimmed.
		// A root or a name ending in a separator ("/" from "/.", "C:/", `\`) is the other
		// exception: its separator is stripped the second time, as in clio.
		if again := Normalize(cwd, n); again != n && jsTrim(n) == n && strings.TrimRight(n, `/\`) == n {
			t.Fatalf("Normalize(%q, %q) = %q, but Normalize of that is %q", cwd, p, n, again)
		}
		// A Windows session's paths are written with '/'; on POSIX a '\'
		// is part of a name and stays.
		if isWindowsPath(jsTrim(cwd)) && strings.Contains(n, `\`) {
			t.Fatalf("Normalize(%q, %q) = %q keeps a backslash", cwd, p, n)
		}
	})
}
