package session

import (
	"path"
	"strings"
	"unicode/utf8"
)

// Normalize puts p in the form the read ledger keys paths by, relative to
// the session's working directory cwd. It is lexical only: it never looks at
// the disk (no realpath, no symlinks, no process cwd). The rules, in order:
//
//  1. Trim white space (JavaScript's String.prototype.trim set, as clio).
//  2. Treat '\' as a separator: every '\' becomes '/' ("src\a.ts" is
//     "src/a.ts"), and results always use '/'.
//  3. Strip trailing separators, but keep a lone root ("/" or "C:/").
//  4. "" is ".".
//  5. Resolve against cwd: an absolute p ("/x", or "C:/x" with a drive
//     letter) is only cleaned; a relative one is joined to cwd and cleaned
//     ("." and ".." resolved lexically).
//  6. Make the result relative to cwd: cwd itself is ".", a path inside it
//     loses the cwd prefix, a path outside it stays absolute (cleaned).
//
// cwd gets rules 1, 2 and cleaning too, and counts only when it is absolute;
// with no usable cwd a path is kept as given, cleaned ("./src/a.ts" is
// "src/a.ts", "../x" stays "../x", "/x" stays "/x"). A drive letter is
// compared upper-cased; "C:x" (drive-relative) is treated as a plain
// relative name, and a relative result whose first name looks like a drive
// keeps its "./" ("./a:/x" stays "./a:/x", not the absolute-looking "a:/x").
func Normalize(cwd, p string) string {
	base, ok := cleanCwd(cwd)
	s := strings.ReplaceAll(jsTrim(p), `\`, "/")
	s = stripTrailingSlashes(s)
	if s == "" {
		return "."
	}
	var abs string
	switch vol, rest, isAbs := splitAbs(s); {
	case isAbs:
		abs = vol + path.Clean(rest)
	case !ok:
		return unambiguous(path.Clean(s))
	default:
		abs = joinClean(base, s)
	}
	if !ok {
		return abs
	}
	return relTo(base, abs)
}

// cleanCwd returns cwd in the form Normalize compares against and whether it
// is usable (absolute).
func cleanCwd(cwd string) (string, bool) {
	s := strings.ReplaceAll(jsTrim(cwd), `\`, "/")
	vol, rest, isAbs := splitAbs(s)
	if !isAbs {
		return "", false
	}
	return vol + path.Clean(rest), true
}

// splitAbs splits an absolute path into its drive ("C:", upper-cased, or
// "") and the rest, which starts with '/'. isAbs is false for anything else.
func splitAbs(s string) (vol, rest string, isAbs bool) {
	if strings.HasPrefix(s, "/") {
		return "", s, true
	}
	if len(s) >= 3 && s[1] == ':' && s[2] == '/' && isASCIILetter(s[0]) {
		return strings.ToUpper(s[:1]) + ":", s[2:], true
	}
	return "", s, false
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// joinClean joins the relative rel to the clean absolute base and cleans;
// ".." never climbs above the base's root or drive.
func joinClean(base, rel string) string {
	vol, rest, _ := splitAbs(base)
	return vol + path.Clean(rest+"/"+rel)
}

// relTo makes the clean absolute abs relative to the clean absolute base
// when it lies inside it; otherwise abs is returned.
func relTo(base, abs string) string {
	if abs == base {
		return "."
	}
	prefix := base
	if !strings.HasSuffix(prefix, "/") { // base is a root ("/", "C:/") when it ends with '/'
		prefix += "/"
	}
	if strings.HasPrefix(abs, prefix) {
		return unambiguous(abs[len(prefix):])
	}
	return abs
}

// unambiguous keeps a relative result relative: one whose first name looks
// like a drive ("a:/x", from "./a:/x") would read as the absolute "A:/x"
// when normalized again, so it keeps its "./".
func unambiguous(rel string) string {
	if _, _, isAbs := splitAbs(rel); isAbs && !strings.HasPrefix(rel, "/") {
		return "./" + rel
	}
	return rel
}

func stripTrailingSlashes(s string) string {
	t := strings.TrimRight(s, "/")
	switch {
	case t == "" && s != "":
		return "/"
	case len(t) == 2 && t[1] == ':' && isASCIILetter(t[0]) && len(s) > 2:
		return t + "/"
	}
	return t
}

// jsTrim trims what JavaScript's String.prototype.trim trims: the ECMAScript
// WhiteSpace and LineTerminator code points.
func jsTrim(s string) string {
	start := 0
	for start < len(s) {
		r, n := utf8.DecodeRuneInString(s[start:])
		if !isJSSpace(r) {
			break
		}
		start += n
	}
	end := len(s)
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s[start:end])
		if !isJSSpace(r) {
			break
		}
		end -= n
	}
	return s[start:end]
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
