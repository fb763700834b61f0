package workflow

import (
	"strings"
)

// The workflow host's readings of a URL written in a document, each
// answering only "refused" or "not known to be refused": the engine parses
// with the WHATWG URL parser, which baton does not restate, so a string is
// refused here only for what refuses it whatever that parser makes of it (a
// scheme, user info, a query, a fragment, a leading "-"), and every other
// string is left alone. analysis/workflow/testdata/locators.json holds the
// engine's own verdicts, which these never contradict.

// locatorRefused reports a `<Repository url>` the workflow host refuses
// before Git runs (packages/workflow/src/deno/composition/locator.ts,
// admitLocator): empty, with a control character or white space, starting
// with "-", a URL whose scheme is not https, http, ssh, git or file or
// that holds user info, a query or a fragment, and anything else that is
// neither Git's scp-like user@host:path nor an absolute path.
func locatorRefused(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") {
		return true
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || jsWhiteSpace(r) {
			return true
		}
	}
	if scheme, rest, ok := schemeSlashes(s); ok {
		switch scheme = strings.ToLower(scheme); scheme {
		case "https", "http":
			return urlCarriesMore(strings.TrimLeft(rest, `/\`), true, true)
		case "ssh", "git":
			return urlCarriesMore(rest, false, true)
		case "file":
			return urlCarriesMore(rest, true, false)
		}
		return true
	}
	if scpLike(s) || strings.HasPrefix(s, "/") {
		return false
	}
	return true
}

// issueURLRefused reports an `<IssueTracker url>` or `<Issue url>` the
// workflow host refuses (packages/workflow/src/issue/tracker.ts,
// canonicalIssueTarget): not an http or https URL, or one with user info,
// a query or a fragment.
func issueURLRefused(s string) bool {
	// The URL parser drops C0 controls and spaces at either end, and tabs
	// and line breaks anywhere.
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	if !hasScheme(s) {
		return true // no scheme: no URL without a base
	}
	colon := strings.IndexByte(s, ':')
	switch strings.ToLower(s[:colon]) {
	case "http", "https":
	default:
		return true
	}
	return urlCarriesMore(strings.TrimLeft(s[colon+1:], `/\`), true, true)
}

// schemeSlashes splits s at "scheme://", as admitLocator's
// ^[A-Za-z][A-Za-z0-9+.-]*:\/\/ does.
func schemeSlashes(s string) (scheme, rest string, ok bool) {
	if !hasScheme(s) {
		return "", "", false
	}
	colon := strings.IndexByte(s, ':')
	if !strings.HasPrefix(s[colon:], "://") {
		return "", "", false
	}
	return s[:colon], s[colon+3:], true
}

// urlCarriesMore reports, of a URL from its authority on (rest): a query
// or a fragment that is not empty, and, when withHost, user info (anything
// before the authority's last "@" but an empty name and password) or no
// host. Each refuses the URL, and so does a parse that fails. special is
// the parser's reading of a backslash as a slash (http, https, file).
func urlCarriesMore(rest string, special, withHost bool) bool {
	end := strings.IndexAny(rest, "/?#")
	if special {
		end = strings.IndexAny(rest, `/\?#`)
	}
	authority, after := rest, ""
	if end >= 0 {
		authority, after = rest[:end], rest[end:]
	}
	if withHost {
		host := authority
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			if info := authority[:at]; info != "" && info != ":" {
				return true
			}
			host = authority[at+1:]
		}
		if special && host == "" {
			return true // an http or https URL without a host does not parse
		}
	}
	query, fragment := "", ""
	if h := strings.IndexByte(after, '#'); h >= 0 {
		fragment = after[h+1:]
		after = after[:h]
	}
	if q := strings.IndexByte(after, '?'); q >= 0 {
		query = after[q+1:]
	}
	return query != "" || fragment != ""
}

// scpLike matches Git's user@host:path, ^([^/@:]+)@([^/@:]+):(.+)$.
func scpLike(s string) bool {
	at := strings.IndexByte(s, '@')
	if at <= 0 || strings.ContainsAny(s[:at], "/:") {
		return false
	}
	rest := s[at+1:]
	colon := strings.IndexByte(rest, ':')
	if colon <= 0 || strings.ContainsAny(rest[:colon], "/@") {
		return false
	}
	return colon+1 < len(rest)
}

// jsWhiteSpace is JavaScript's \s beyond the ASCII controls: the space, no-break
// space, the Unicode space separators, the line and paragraph separators
// and the byte-order mark.
func jsWhiteSpace(r rune) bool {
	switch {
	case r == ' ', r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029,
		r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}

// providerName is the Issue boundary's provider discriminator,
// ^[a-z][a-z0-9-]*$ (packages/workflow/src/issue/tracker.ts,
// issueProviderName).
func providerName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// hasScheme matches ^[A-Za-z][A-Za-z0-9+.-]*: at the start of p.
func hasScheme(p string) bool {
	if p == "" || !isASCIILetter(p[0]) {
		return false
	}
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case c == ':':
			return true
		case isASCIILetter(c), c >= '0' && c <= '9', c == '+', c == '.', c == '-':
		default:
			return false
		}
	}
	return false
}
