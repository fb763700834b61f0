package session

import (
	"path"
	"strings"
	"unicode/utf8"
)

// Normalize puts p in the form the read ledger keys paths by, relative to
// the session's working directory cwd, as clio-coder's
// normalizeHandoffPath (src/domains/session/handoff.ts) does with Node's
// path functions of the machine the session ran on. That machine is told
// by cwd: a Windows path (a drive letter, or `\\` for a share) means
// Windows, anything else POSIX, where clio-coder mostly runs. It is lexical
// only: it never looks at the disk (no realpath, no symlinks, no process
// cwd). The rules, in order:
//
//  1. Trim white space (JavaScript's String.prototype.trim set, as clio).
//  2. Strip every trailing '/' and '\' (clio's /[\\/]+$/), on both
//     systems. What is left empty gives "": the root "/", a lone "\" and
//     an empty or blank path never name a ledger path. clio adds nothing to
//     the ledger for them and keeps no "## Files" entry that names them.
//  3. Resolve against cwd: an absolute p is only cleaned; a relative one is
//     joined to cwd and cleaned ("." and ".." resolved lexically).
//  4. Make the result relative to cwd: cwd itself is ".", a path inside it
//     loses the cwd prefix, a path outside it stays absolute (cleaned). As
//     in clio, a relative result that starts with ".." (also a name such as
//     "..notes" inside cwd) stays absolute.
//
// On POSIX, '\' is a character of a name like any other (path.posix leaves
// it alone): `src\a.ts` is the one-name file "src\a.ts", not "src/a.ts",
// and "C:/x" is a relative name. On Windows, '\' and '/' both separate,
// "C:\x" and "\x" are absolute (the latter on cwd's drive), paths inside
// cwd compare ignoring case as path.win32.relative does, and baton writes
// the result with '/' (clio writes '\'; both sides of a lookup go through
// this same function, so only the spelling shown differs).
//
// cwd gets rules 1 and 3's cleaning too, and counts only when it is
// absolute; with no usable cwd a path is kept as given, cleaned
// ("./src/a.ts" is "src/a.ts", "../x" stays "../x", "/x" stays "/x").
func Normalize(cwd, p string) string {
	if isWindowsPath(jsTrim(cwd)) {
		return normalizeWindows(cwd, p)
	}
	return normalizePosix(cwd, p)
}

// isWindowsPath reports whether a session's cwd was written by Windows: a
// drive letter and a separator ("C:\work"), or a share ("\\host\share").
func isWindowsPath(s string) bool {
	if len(s) >= 3 && s[1] == ':' && (s[2] == '\\' || s[2] == '/') && isASCIILetter(s[0]) {
		return true
	}
	return strings.HasPrefix(s, `\\`)
}

// normalizePosix is normalizeHandoffPath with path.posix.
func normalizePosix(cwd, p string) string {
	s := strings.TrimRight(jsTrim(p), `/\`)
	if s == "" {
		return ""
	}
	c := jsTrim(cwd)
	if !strings.HasPrefix(c, "/") {
		return path.Clean(s) // no usable cwd: path.normalize
	}
	base := path.Clean(c)
	abs := s
	if !strings.HasPrefix(s, "/") {
		abs = base + "/" + s
	}
	abs = path.Clean(abs)
	if abs == base {
		return "."
	}
	prefix := base
	if prefix != "/" {
		prefix += "/"
	}
	if !strings.HasPrefix(abs, prefix) {
		return abs // path.relative would start with ".."
	}
	if rel := abs[len(prefix):]; !strings.HasPrefix(rel, "..") {
		return rel
	}
	return abs
}

// normalizeWindows is normalizeHandoffPath with path.win32, written with
// '/'.
func normalizeWindows(cwd, p string) string {
	s := strings.TrimRight(jsTrim(p), `/\`)
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, `\`, "/")
	base, ok := cleanCwd(cwd)
	var abs string
	switch vol, rest, isAbs := splitAbs(s); {
	case !isAbs && len(s) >= 2 && s[1] == ':' && isASCIILetter(s[0]) && ok:
		// Drive-relative ("C:", "C:x"): against cwd on its drive, else
		// that drive's root (baton knows no other drive's cwd).
		if bvol, _, _ := splitAbs(base); strings.EqualFold(bvol, s[:2]) {
			abs = joinClean(base, s[2:])
		} else {
			abs = strings.ToUpper(s[:1]) + ":" + path.Clean("/"+s[2:])
		}
	case isAbs && vol == "" && ok:
		// Rooted without a drive: on cwd's drive.
		bvol, _, _ := splitAbs(base)
		abs = bvol + path.Clean(rest)
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

// cleanCwd returns a Windows cwd in the form normalizeWindows compares
// against and whether it is usable (absolute).
func cleanCwd(cwd string) (string, bool) {
	s := strings.ReplaceAll(jsTrim(cwd), `\`, "/")
	vol, rest, isAbs := splitAbs(s)
	if !isAbs {
		return "", false
	}
	return vol + path.Clean(rest), true
}

// usableCwd reports whether cwd is absolute on the system it names, as
// clio's usableCwd asks.
func usableCwd(cwd string) bool {
	c := jsTrim(cwd)
	if isWindowsPath(c) {
		_, ok := cleanCwd(c)
		return ok
	}
	return strings.HasPrefix(c, "/")
}

// splitAbs splits a Windows path written with '/' into its drive ("C:",
// upper-cased, or "") and the rest, which starts with '/'. isAbs is false
// for anything else.
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
// when it lies inside it, comparing without case as path.win32.relative
// does; otherwise abs is returned.
func relTo(base, abs string) string {
	if strings.EqualFold(abs, base) {
		return "."
	}
	prefix := base
	if !strings.HasSuffix(prefix, "/") { // base is a root ("/", "C:/") when it ends with '/'
		prefix += "/"
	}
	if len(abs) > len(prefix) && strings.EqualFold(abs[:len(prefix)], prefix) {
		if rel := abs[len(prefix):]; !strings.HasPrefix(rel, "..") {
			return unambiguous(rel)
		}
	}
	return abs
}

// unambiguous keeps a relative Windows result relative: one whose first
// name looks like a drive ("a:/x", from "./a:/x", or "a:", from "\a:")
// would read as the absolute "A:/x" or the drive-relative "A:" when
// normalized again, so it keeps its "./".
func unambiguous(rel string) string {
	if len(rel) >= 2 && rel[1] == ':' && isASCIILetter(rel[0]) {
		return "./" + rel
	}
	return rel
}

// jsTrim trims what JavaScript's String.prototype.trim trims: the ECMAScript
// WhiteSpace and LineTerminator code points.
func jsTrim(s string) string {
	start := 0
	for start < len(s) {
		r, n := utf8.DecodeRuneInString(s[start:])
		if !IsJSSpace(r) {
			break
		}
		start += n
	}
	end := len(s)
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s[start:end])
		if !IsJSSpace(r) {
			break
		}
		end -= n
	}
	return s[start:end]
}

// IsJSSpace reports the code points JavaScript's String.prototype.trim
// removes.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
