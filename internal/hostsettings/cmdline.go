package hostsettings

import (
	"strconv"
	"strings"
)

// A hook's command line is baton's only when it is exactly what install
// writes: the program baton (by any path), "hook", the host's adapter,
// and nothing after them but the hook's own flags. A person's command that
// runs baton and more ("baton hook ID-stop && notify-send done", "… ||
// true", "… | tee log") is theirs: install neither counts it as baton's
// hook nor rewrites it, and uninstall leaves it.

// word is one word of a command line: its value, quotes taken off, and its
// bytes in the line.
type word struct {
	val        string
	start, end int
}

// shellWords splits a command line into words as a POSIX shell does for
// the plain lines baton writes and recognises: words parted by spaces and
// tabs, '…' and "…" quoting. ok is false for anything a shell would do more
// with: an operator (; & | < > ( )), an expansion ($, `, a glob, a
// brace, !), a comment, a line break, a quote left open. A
// backslash outside quotes is kept as it is (a Windows path, which
// PowerShell and cmd.exe take literally); a word holding one is never a
// flag baton reads.
func shellWords(line string) (words []word, ok bool) {
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return words, true
		}
		w := word{start: i}
		var val strings.Builder
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			switch c := line[i]; {
			case c == '\'':
				end := strings.IndexByte(line[i+1:], '\'')
				if end < 0 {
					return nil, false
				}
				val.WriteString(line[i+1 : i+1+end])
				i += end + 2
				continue
			case c == '"':
				i++
				for {
					if i == len(line) {
						return nil, false
					}
					c := line[i]
					if c == '"' {
						i++
						break
					}
					if c == '$' || c == '`' || c == '\n' || c == '\r' {
						return nil, false
					}
					if c == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
						i++
						c = line[i]
					}
					val.WriteByte(c)
					i++
				}
				continue
			case strings.IndexByte(";&|<>()$`*?[]{}!\n\r", c) >= 0, c == '#' && i == w.start:
				return nil, false
			}
			val.WriteByte(line[i])
			i++
		}
		w.val, w.end = val.String(), i
		words = append(words, w)
	}
}

// hookFlags are the flags `baton hook ADAPTER` takes, and whether each
// takes a value (the others are booleans).
var hookFlags = map[string]bool{"lint": false, "require-packet": false, "max-blocks": true, "state-dir": true}

// batonLine reads a hook's command line as baton's: the adapter it runs
// and the line's words, or ok false when the line is not exactly baton's
// hook with its own flags.
func batonLine(line string) (sub string, words []word, ok bool) {
	words, ok = shellWords(line)
	if !ok || len(words) < 3 || words[1].val != "hook" {
		return "", nil, false
	}
	prog := words[0].val
	if name := prog[strings.LastIndexAny(prog, `/\`)+1:]; name != "baton" && name != "baton.exe" {
		return "", nil, false
	}
	sub = words[2].val
	if sub == "" || strings.Trim(sub, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || sub[0] == '-' {
		return "", nil, false
	}
	for i := 3; i < len(words); i++ {
		name, val, hasVal, isFlag := flagWord(words[i].val)
		takesValue, known := hookFlags[name]
		if !isFlag || !known {
			return "", nil, false
		}
		if takesValue && !hasVal {
			if i+1 == len(words) {
				return "", nil, false
			}
			i++
			val = words[i].val
		}
		switch {
		case name == "max-blocks":
			if _, err := strconv.Atoi(val); err != nil {
				return "", nil, false
			}
		case !takesValue && hasVal:
			if _, err := strconv.ParseBool(val); err != nil {
				return "", nil, false
			}
		}
	}
	return sub, words, true
}

// flagWord reads a word as Go's flag package does: -name, --name,
// -name=value, --name=value.
func flagWord(w string) (name, val string, hasVal, ok bool) {
	if !strings.HasPrefix(w, "-") || w == "-" || w == "--" || strings.HasPrefix(w, "---") {
		return "", "", false, false
	}
	name, val, hasVal = strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
	return name, val, hasVal, name != ""
}

// BatonSub is the baton adapter a hook's command line runs ("ID-stop"
// for "baton hook ID-stop --lint", also as /usr/local/bin/baton or
// baton.exe), and whether the line is exactly baton's hook: nothing but
// the hook's own flags after it.
func BatonSub(cmdline string) (string, bool) {
	sub, _, ok := batonLine(cmdline)
	return sub, ok
}

// relined is an installed command line of baton's with o's flags: the
// policy flags install writes (--lint, --require-packet, --max-blocks)
// replaced, every other byte of the line kept (the program as it was
// named, /usr/local/bin/baton; the flags install does not write,
// --state-dir, with their quoting and spacing).
func relined(was string, hk Hook, o Options) string {
	_, words, ok := batonLine(was)
	if !ok {
		return was
	}
	var b strings.Builder
	b.WriteString(was[:words[2].end])
	for _, a := range o.Args(hk.Stop()) {
		b.WriteString(" " + a)
	}
	at := words[2].end
	for i := 3; i < len(words); i++ {
		name, _, hasVal, _ := flagWord(words[i].val)
		switch name {
		case "lint", "require-packet", "max-blocks":
			// Dropped with the white space before it.
			if name == "max-blocks" && !hasVal {
				i++
			}
			at = words[i].end
		case "state-dir":
			if !hasVal {
				i++
			}
			b.WriteString(was[at:words[i].end])
			at = words[i].end
		}
	}
	b.WriteString(was[at:])
	return b.String()
}
