package handoff

import (
	"cmp"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/internal/safefile"

	"github.com/baton-md/baton/analysis"
)

// EnvPath is the Env key of the document's absolute path on disk (a
// string), and EnvFolder that of its folder (an fs.FS), where the
// task-memory rules read the file's name and the other handoffs beside it.
// Both are absent for standard input and an unsaved buffer, where those
// rules say nothing.
const (
	EnvPath   = "handoff.path"
	EnvFolder = "handoff.folder"
)

// seedRefusal is how every task-memory rule's doc names clio's answer.
const seedRefusal = "clio gives no message of its own for any check: `parseTaskMemoryHandoffSnapshot` returns `null`, " +
	"and the operator sees only `/memory seed` answer \"" + clioNotFound + "\" (src/interactive/slash-commands.ts), " +
	"while the offer clio makes after `/resume` is simply not made. The whole snapshot is refused, never part of it."

// snapshotForm is the section the skill writes, with the block clio's
// round-trip test renders (tests/contracts/task-memory-handoff.test.ts),
// in a longer fence so that the example is not itself a block.
const snapshotForm = "````markdown\n## Task memory snapshot\n\n```clio-task-memory\n" +
	`{"version":1,"knowledge":[{"id":"tm-k-2","content":"Use api_key=[redacted:assignment] when probing the fixture.","injectionCount":1}],"procedural":[{"id":"tm-p-3","content":"Run the targeted contract before the broad gate.","injectionCount":0}]}` +
	"\n```\n````"

var (
	RuleTaskMemoryFence = &analysis.Rule{
		ID:       "handoff/task-memory-fence",
		Summary:  "clio's reader does not find the clio-task-memory block as it is written.",
		Severity: analysis.Error,
		Doc: "clio-coder's `parseTaskMemoryHandoffSnapshot` (src/domains/memory/task-memory-handoff.ts) finds the " +
			"snapshot with one regular expression, not a Markdown parser: ```` ``` ```` and `clio-task-memory` at the very " +
			"start of a line (after a line feed, or first in the file), nothing else on that line, the JSON on the next line " +
			"and on that one line only, then ```` ``` ```` alone at the start of the following line, followed by a line feed " +
			"or the end of the file. Whatever else Markdown takes for the same block, clio does not: a fence indented or in a " +
			"list item or quote, tildes or four backticks, `clio-task-memory json`, JSON pretty-printed over several lines, " +
			"a missing closing fence, a file with Windows (CR LF) line endings, whose closing ```` ``` ```` is followed by " +
			"a carriage return (unless it is the file's last line), lone carriage returns, and a byte-order mark right " +
			"before a fence on the first line.\n\nclio reads the first block that matches and no other: " +
			"one written before it that does not match, and any after it, are never read: clio takes the document and says " +
			"nothing of them, so baton reports each as a hint.\n\n" +
			"Copy the block clio supplied under `[Task memory handoff source]` verbatim, as the context-handoff skill says " +
			"(skills/context/context-handoff/SKILL.md, step 8), and save the file with LF line endings:\n\n" + snapshotForm +
			"\n\n" + seedRefusal,
	}
	RuleTaskMemorySize = &analysis.Rule{
		ID:       "handoff/task-memory-size",
		Summary:  "The handoff is over the 1,000,000 bytes clio reads.",
		Severity: analysis.Error,
		Doc: "clio reads no task-memory handoff over `HANDOFF_MAX_BYTES`, 1,000,000: `readNewestTaskMemoryHandoff` refuses " +
			"a file whose size on disk is over it, and `parseTaskMemoryHandoffSnapshot` a text longer than that in UTF-16 code " +
			"units, which a file within the byte limit never is (src/domains/memory/task-memory-handoff.ts). The limit is on " +
			"the whole file, not the snapshot: a long brief refuses a small snapshot with it.\n\nKeep the brief short: the " +
			"skill says to reference plans, diffs and documents by path rather than paste them.\n\n" + seedRefusal,
	}
	RuleTaskMemoryShape = &analysis.Rule{
		ID:       "handoff/task-memory-shape",
		Summary:  "The snapshot is not JSON of the shape clio reads.",
		Severity: analysis.Error,
		Doc: "`parseTaskMemoryHandoffSnapshot` (src/domains/memory/task-memory-handoff.ts) parses the block's line with " +
			"`JSON.parse` and takes only an object with exactly the keys `version`, `knowledge` and `procedural` " +
			"(`hasExactKeys`: none missing, none more, such as the bank's private `status`, which never leaves a session), " +
			"`version` the number 1, and each list an array (`parseEntries`). Anything else refuses the whole snapshot.\n\n" +
			"Write `{\"version\":1,\"knowledge\":[…],\"procedural\":[…]}`, with `[]` for an empty list; better, copy the block " +
			"clio supplied verbatim.\n\n" + seedRefusal,
	}
	RuleTaskMemoryCap = &analysis.Rule{
		ID:       "handoff/task-memory-cap",
		Summary:  "A snapshot list holds more entries than clio takes.",
		Severity: analysis.Error,
		Doc: "`parseEntries` (src/domains/memory/task-memory-handoff.ts) refuses a `knowledge` list of more than 20 entries " +
			"and a `procedural` list of more than 30 (`TASK_MEMORY_DEFAULT_KNOWLEDGE_CAP` and " +
			"`TASK_MEMORY_DEFAULT_PROCEDURAL_CAP`, src/domains/memory/task-bank.ts), and with it the whole snapshot: it does " +
			"not keep the first 20. The bank clio exports from holds no more, so a longer list was written by hand or " +
			"merged from two snapshots.\n\nThe finding sits on the first entry past the cap: drop the entries the next session " +
			"needs least.\n\n" + seedRefusal,
	}
	RuleTaskMemoryEntry = &analysis.Rule{
		ID:       "handoff/task-memory-entry",
		Summary:  "A snapshot entry is not of the shape clio reads.",
		Severity: analysis.Error,
		Doc: "`parseEntries` (src/domains/memory/task-memory-handoff.ts) takes each entry only as an object with exactly " +
			"the keys `id`, `content` and `injectionCount`: `id` and `content` strings that are not blank once trimmed " +
			"(`nonEmptyString`, JavaScript's `trim`), `content` at most 1200 characters as JavaScript counts them (UTF-16 code " +
			"units, `TASK_MEMORY_CONTENT_MAX_CHARS` in src/domains/memory/task-bank.ts), and `injectionCount` a whole number, 0 " +
			"or more (`Number.isInteger`; `1.0` is one, `1.5` and `\"1\"` are not). One entry out of shape refuses the whole " +
			"snapshot.\n\nOne way clio writes such an entry itself: the bank cuts content to 1200 characters, and the export " +
			"then replaces a secret-looking value with `[redacted:assignment]` (`renderTaskMemoryHandoffSnapshot`, " +
			"`redactSecretsText`), which can make it longer. Shorten the content, or fix the field the message names.\n\n" +
			seedRefusal,
	}
	RuleTaskMemoryFileName = &analysis.Rule{
		ID:       "handoff/task-memory-file-name",
		Summary:  "clio never reads a task-memory snapshot from a file of this name or folder.",
		Severity: analysis.Error,
		Doc: "`readNewestTaskMemoryHandoff` (src/domains/memory/task-memory-handoff.ts) looks only in `.clio-coder/handoffs/` " +
			"of the folder clio runs in, and only at files whose names start with `handoff-` and end with `.md` (case " +
			"included). A snapshot anywhere else is never offered or seeded, however well formed.\n\nSave the handoff as " +
			"`.clio-coder/handoffs/handoff-YYYY-MM-DD.md` (or `handoff-YYYY-MM-DD-<slug>.md`); the context-handoff skill's " +
			"`scripts/new-handoff.sh` prints that path. Beware that the script writes under the Git repository's root (or " +
			"`$CLIO_CODER_HANDOFF_DIR`), while clio reads under its working folder: start clio in the repository's root. baton " +
			"knows neither, so it checks the file's name and its two folders only. The check needs the document's place on " +
			"disk: standard input and an unsaved buffer are not checked.\n\n" + seedRefusal,
	}
	RuleTaskMemoryNewest = &analysis.Rule{
		ID:       "handoff/task-memory-newest",
		Summary:  "A newer handoff without a snapshot clio accepts hides this one's.",
		Severity: analysis.Warning,
		Doc: "`readNewestTaskMemoryHandoff` (src/domains/memory/task-memory-handoff.ts) reads only the newest " +
			"`handoff-*.md` of `.clio-coder/handoffs/`, by modification time (then by name, the later first), and \"never " +
			"falls back to an older snapshot\" (tests/contracts/task-memory-handoff.test.ts): when that newest file has no " +
			"snapshot clio accepts, this one, however well formed, is not offered, and `/memory seed` finds nothing. Saving " +
			"an old handoff makes it the newest again.\n\nA warning, not an error: this document is not at fault, and an older " +
			"handoff whose newer one carries its own snapshot is superseded as designed, which baton does not report. Copy " +
			"this block into the newest handoff (or delete that file if it was written by mistake). clio also reads nothing " +
			"in the folder when a `handoff-*.md` there cannot be examined (a broken link); that is reported too.\n\n" +
			seedRefusal,
	}
)

// checkTaskMemory reports what clio's reader refuses of the snapshot.
func checkTaskMemory(pass *analysis.Pass, tm *taskMemory) {
	doc := pass.Doc
	if n := len(doc.Text); n > TaskMemoryMaxBytes {
		pass.Report(RuleTaskMemorySize, tm.anchor(),
			fmt.Sprintf("the handoff is %d bytes, and clio reads none over %d (it refuses the file before it looks for the snapshot): reference long material by path instead of pasting it", n, TaskMemoryMaxBytes))
	}
	line := func(s markdown.Span) int { return doc.Lines.LineOf(s.Start) + 1 }
	for _, f := range tm.fences {
		switch {
		case tm.read && f.open.Start == tm.open.Start:
		case tm.read && f.open.Start > tm.open.Start:
			pass.Report(RuleTaskMemoryFence, f.open,
				fmt.Sprintf("clio reads only the first snapshot, on line %d, and never this one: merge its entries into that block and remove this one", line(tm.open)),
				// clio takes the document and says nothing of the block it
				// never reads: a hint, never louder than clio.
				analysis.WithRelated(tm.open, "the snapshot clio reads"), analysis.WithSeverity(analysis.Hint))
		case tm.read:
			pass.Report(RuleTaskMemoryFence, f.open,
				fmt.Sprintf("clio skips this block (%s) and reads the one on line %d", fenceProblem(doc.Text, doc.Source, f), line(tm.open)),
				analysis.WithRelated(tm.open, "the snapshot clio reads"), analysis.WithSeverity(analysis.Hint))
		default:
			pass.Report(RuleTaskMemoryFence, f.open, "clio does not find this snapshot: "+fenceProblem(doc.Text, doc.Source, f))
		}
	}
	accepted := tm.read
	if tm.read {
		checkSnapshot(doc.Text, tm.payload, func(r *analysis.Rule, s markdown.Span, msg string) {
			accepted = false
			pass.Report(r, s, msg)
		})
	}
	checkPlace(pass, tm, accepted && len(doc.Text) <= TaskMemoryMaxBytes)
}

// AcceptsTaskMemory reports whether clio's parseTaskMemoryHandoffSnapshot
// takes a snapshot from text, a handoff file's content.
func AcceptsTaskMemory(text string) bool {
	if len(text) == 0 || len(text) > TaskMemoryMaxBytes {
		return false
	}
	_, payload, ok := findSnapshot(text)
	if !ok {
		return false
	}
	checkSnapshot(text, payload, func(*analysis.Rule, markdown.Span, string) { ok = false })
	return ok
}

// checkSnapshot checks the JSON line at payload as parseTaskMemoryHandoffSnapshot
// and parseEntries do, reporting each thing they refuse.
func checkSnapshot(text string, payload markdown.Span, report func(*analysis.Rule, markdown.Span, string)) {
	v, serr := parseJSON(text[payload.Start:payload.End], payload.Start)
	if serr != nil {
		at := min(payload.Start+max(int(serr.Offset)-1, 0), payload.End-1)
		report(RuleTaskMemoryShape, markdown.Span{Start: at, End: at + 1},
			fmt.Sprintf("the snapshot is not JSON (%s at column %d of the line): copy the block clio supplied verbatim", serr.Error(), at-payload.Start+1))
		return
	}
	if v.kind != jsonObject {
		report(RuleTaskMemoryShape, v.span,
			fmt.Sprintf(`the snapshot is %s, and clio reads only an object: write {"version":1,"knowledge":[…],"procedural":[…]}`, v.kind))
		return
	}
	exactKeys(v, []string{"version", "knowledge", "procedural"}, "the snapshot", map[string]string{
		"version": `"version":1`, "knowledge": `"knowledge":[] for none`, "procedural": `"procedural":[] for none`,
		"status": "the bank's private status never leaves a session",
	}, report)
	if ver := v.get("version"); ver != nil && (ver.kind != jsonNumber || ver.num != 1) {
		report(RuleTaskMemoryShape, ver.span,
			fmt.Sprintf(`version is %s, and clio takes only the number 1: write "version":1`, describe(text, ver)))
	}
	for _, list := range []struct {
		key string
		cap int
	}{{"knowledge", KnowledgeCap}, {"procedural", ProceduralCap}} {
		l := v.get(list.key)
		switch {
		case l == nil:
			continue
		case l.kind != jsonArray:
			report(RuleTaskMemoryShape, l.span,
				fmt.Sprintf(`%s is %s, and clio takes an array of entries: write "%s":[…] ([] for none)`, list.key, l.kind, list.key))
			continue
		case len(l.elems) > list.cap:
			report(RuleTaskMemoryCap, l.elems[list.cap].span,
				fmt.Sprintf("%s holds %d entries, and clio takes at most %d (over that it refuses the whole snapshot): drop %d", list.key, len(l.elems), list.cap, len(l.elems)-list.cap))
		}
		for i, e := range l.elems {
			checkEntry(text, fmt.Sprintf("%s entry %d", list.key, i+1), e, report)
		}
	}
}

func checkEntry(text, where string, e *jsonValue, report func(*analysis.Rule, markdown.Span, string)) {
	if e.kind != jsonObject {
		report(RuleTaskMemoryEntry, e.span,
			fmt.Sprintf(`%s is %s, and clio takes an object {"id":…,"content":…,"injectionCount":…}`, where, e.kind))
		return
	}
	exactKeys(e, []string{"id", "content", "injectionCount"}, where, map[string]string{
		"id": `an id such as "tm-k-1"`, "content": "the entry's text", "injectionCount": `"injectionCount":0`,
	}, report)
	for _, key := range []string{"id", "content"} {
		s := e.get(key)
		switch {
		case s == nil:
		case s.kind != jsonString:
			report(RuleTaskMemoryEntry, s.span, fmt.Sprintf("%s's %s is %s, and clio takes a string that is not blank", where, key, s.kind))
		case s.blank:
			report(RuleTaskMemoryEntry, s.span, fmt.Sprintf("%s's %s is blank, and clio takes a string with text in it", where, key))
		case key == "content" && s.units > ContentMaxChars:
			report(RuleTaskMemoryEntry, s.span,
				fmt.Sprintf("%s's content is %d characters long (UTF-16 code units, as JavaScript counts), and clio takes at most %d: shorten it by %d", where, s.units, ContentMaxChars, s.units-ContentMaxChars))
		}
	}
	if n := e.get("injectionCount"); n != nil && (n.kind != jsonNumber || !wholeNonNegative(n.num)) {
		report(RuleTaskMemoryEntry, n.span,
			fmt.Sprintf("%s's injectionCount is %s, and clio takes a whole number, 0 or more: write 0 when unsure", where, describe(text, n)))
	}
}

// wholeNonNegative is Number.isInteger(x) && !(x < 0): -0 passes.
func wholeNonNegative(x float64) bool {
	return !math.IsInf(x, 0) && !math.IsNaN(x) && x == math.Trunc(x) && !(x < 0)
}

// exactKeys reports what hasExactKeys refuses of object v: a key not in
// keys (once, where first written), and each of keys missing. hint says
// what to write for a key.
func exactKeys(v *jsonValue, keys []string, what string, hint map[string]string, report func(*analysis.Rule, markdown.Span, string)) {
	rule := RuleTaskMemoryShape
	if what != "the snapshot" {
		rule = RuleTaskMemoryEntry
	}
	want := strings.Join(keys[:len(keys)-1], ", ") + " and " + keys[len(keys)-1]
	seen := map[string]bool{}
	for _, m := range v.mems {
		if slices.Contains(keys, m.key) || seen[m.key] {
			continue
		}
		seen[m.key] = true
		msg := fmt.Sprintf("%s has the key %q, and clio takes exactly %s: remove it", what, m.key, want)
		if h, ok := hint[m.key]; ok {
			msg += " (" + h + ")"
		}
		report(rule, m.keySpan, msg)
	}
	open := markdown.Span{Start: v.span.Start, End: v.span.Start + 1}
	for _, k := range keys {
		if _, ok := v.keys[k]; !ok {
			report(rule, open, fmt.Sprintf("%s has no %q, and clio takes exactly %s: add %s", what, k, want, hint[k]))
		}
	}
}

// describe is a value as the message shows it: its JSON, cut short.
func describe(text string, v *jsonValue) string {
	s := text[v.span.Start:v.span.End]
	if len(s) > 40 {
		s = s[:37] + "…"
	}
	if v.kind == jsonNumber || v.kind == jsonNull || v.kind == jsonBool {
		return s
	}
	return s + " (" + v.kind.String() + ")"
}

// checkPlace checks the file's name and folder, and whether a newer
// handoff hides it. readable says clio takes this document's snapshot.
func checkPlace(pass *analysis.Pass, tm *taskMemory, readable bool) {
	path, _ := pass.Env[EnvPath].(string)
	if path == "" {
		return
	}
	name, dir := filepath.Base(path), filepath.Dir(path)
	if !sameName(filepath.Base(dir), "handoffs") || !sameName(filepath.Base(filepath.Dir(dir)), ".clio-coder") {
		pass.Report(RuleTaskMemoryFileName, tm.anchor(),
			fmt.Sprintf("clio reads a task-memory snapshot only from .clio-coder/handoffs/handoff-*.md in the folder it runs in, never from %s: save this handoff as .clio-coder/handoffs/handoff-YYYY-MM-DD.md", filepath.ToSlash(filepath.Join(filepath.Base(dir), name))))
		return
	}
	if !handoffName(name) {
		pass.Report(RuleTaskMemoryFileName, tm.anchor(),
			fmt.Sprintf("clio reads only the files of .clio-coder/handoffs named handoff-*.md (case included), never %q: rename it handoff-YYYY-MM-DD.md", name))
		return
	}
	if fsys, _ := pass.Env[EnvFolder].(fs.FS); fsys != nil && readable {
		checkNewest(pass, tm, fsys, name)
	}
}

// handoffName is readNewestTaskMemoryHandoff's filter of names.
func handoffName(name string) bool {
	return strings.HasPrefix(name, "handoff-") && strings.HasSuffix(name, ".md")
}

// sameName compares a folder's name with the one clio joins to its working
// folder: exactly, but for case on the file systems that ignore it.
func sameName(got, want string) bool {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return strings.EqualFold(got, want)
	}
	return got == want
}

// checkNewest reports a snapshot that readNewestTaskMemoryHandoff does not
// read because a newer handoff in its folder, named name, comes first and
// has no snapshot clio accepts.
func checkNewest(pass *analysis.Pass, tm *taskMemory, fsys fs.FS, name string) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return
	}
	type candidate struct {
		name string
		info fs.FileInfo
	}
	var cands []candidate
	for _, e := range entries {
		if !handoffName(e.Name()) {
			continue
		}
		info, err := fs.Stat(fsys, e.Name())
		if err != nil {
			pass.Report(RuleTaskMemoryNewest, tm.anchor(),
				fmt.Sprintf("clio reads no handoff in this folder: it cannot examine %s (%v), and one such file stops its whole read; remove or fix it", e.Name(), unwrapPath(err)))
			return
		}
		cands = append(cands, candidate{e.Name(), info})
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmp.Or(b.info.ModTime().Compare(a.info.ModTime()), strings.Compare(b.name, a.name))
	})
	if len(cands) == 0 || cands[0].name == name || !slices.ContainsFunc(cands, func(c candidate) bool { return c.name == name }) {
		return
	}
	newest := cands[0]
	var why string
	switch {
	case !newest.info.Mode().IsRegular():
		why = "is not a file"
	case newest.info.Size() > TaskMemoryMaxBytes:
		why = fmt.Sprintf("is over %d bytes", TaskMemoryMaxBytes)
	default:
		data, err := safefile.ReadFileFS(fsys, newest.name, TaskMemoryMaxBytes)
		switch {
		case err != nil:
			why = fmt.Sprintf("cannot be read (%v)", unwrapPath(err))
		case AcceptsTaskMemory(string(data)):
			return // superseded, as designed
		default:
			if _, _, found := findSnapshot(string(data)); found {
				why = "has a snapshot clio refuses"
			} else {
				why = "has no snapshot clio finds"
			}
		}
	}
	pass.Report(RuleTaskMemoryNewest, tm.anchor(),
		fmt.Sprintf("clio reads only the newest handoff here, %s, which %s: /memory seed will say %q and never falls back to this snapshot; copy this block into %s",
			newest.name, why, clioNotFound, newest.name))
}

// unwrapPath is an error without the path fs.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
