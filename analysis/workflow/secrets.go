package workflow

import (
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/baton-md/baton/internal/ascii"
	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

var RuleCredential = &analysis.Rule{
	ID:       "workflow/credential",
	Summary:  "The engine's secret scanner reads a credential in the document, and refuses to run it.",
	Severity: analysis.Error,
	Doc: "Before a run journals anything, the engine scans it for credentials, and the first thing it journals is " +
		"the document's own source (packages/core/src/secrets/policy.ts, guardWithSecretDetection; the root " +
		"import). A document that holds something the scanner takes for a credential is refused before any of it " +
		"runs, with `SecretDetectedError`. The scanner is secretlint's recommended preset and three rules of the " +
		"engine's own (packages/core/src/secrets/rules.ts), and the engine's rules read more than tokens: a field " +
		"named like a credential (`apiKey`, `api_key`, `access token`, `client secret`, `password`, `authorization`, " +
		"…) followed by `:` or `=` and a value at least 16 characters long that mixes kinds of character is a " +
		"credential, so `apiKey: process.env.OPENAI_API_KEY` and `clientSecret: config.clientSecret` are refused " +
		"as surely as a real key. A value the engine reads as a placeholder passes: `${OPENAI_API_KEY}`, " +
		"`$OPENAI_API_KEY`, `<redacted>`, `{{ api_key }}`, a phrase of placeholder words (`your-api-key-here`). " +
		"So does a short name: read the value into a variable first (`const key = process.env.OPENAI_API_KEY`) " +
		"and write `apiKey: key`.\n\n" +
		"baton runs the engine's own three rules as they are written (bearer tokens after `Authorization` or " +
		"`Bearer`, `sk-` keys, credential-named fields) and the recommended preset's rules that find a provider's " +
		"token by its format (GitHub, GitLab, Slack, Stripe, npm, OpenAI, Anthropic, Groq, Hugging Face, Linear, " +
		"Notion, SendGrid, Shopify, Grafana, HashiCorp Vault, Vercel, Databricks, Docker, Figma, Cloudflare, " +
		"Tailscale, 1Password service accounts, an AWS secret access key) and its rules that judge a password in a URL or a database connection " +
		"string (`postgres://app:s3cret@db/app` is refused; `postgres://user:pass@localhost/db` is not), over the document as the engine journals it (a JSON string, so " +
		"a quote is `\\\"` and a field at the start of a line follows `\\n`), held to the scanners' verdicts in " +
		"analysis/workflow/testdata/credentials.json and preset.json, recorded by running them. Not ported: the " +
		"preset's GCP rule, which reads a service account's JSON file (the journal is not one). " +
		"A document with a `secretlint-disable` comment is not read.\n\n" +
		"**The engine** fails the run before anything in the document runs: `SecretDetectedError`.",
	Follows: []string{
		"executable.md packages/core/src/secrets/policy.ts guardWithSecretDetection (SecretDetectedError)",
		"executable.md packages/core/src/secrets/rules.ts xmdCredentialRule",
		"executable.md packages/core/src/secrets/scanner.ts createSecretScanner (secretlint 13.0.4 recommended preset)",
	},
}

// checkCredentials reports what the engine's own credential rule finds in
// the document as the engine journals it.
func (k *checker) checkCredentials() {
	for _, f := range scanCredentials(k.c.Text) {
		k.report(RuleCredential, f.span, fmt.Sprintf("%s: the engine's secret scanner refuses the document, and the run fails before anything in it runs (SecretDetectedError); %s", f.what, f.advice))
	}
}

type credentialFinding struct {
	span         markdown.Span
	what, advice string
}

// jsSpace is JavaScript's \s, which is not RE2's.
const jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

var (
	// The engine's FIELD_HEAD: a credential-named field and the separator
	// before its value; a name's parts joined by nothing, -, _ or a space.
	fieldHead = lazyre.New(`(?i)\\?["']?\b(?:api[-_ ]?key|access[-_ ]?token|refresh[-_ ]?token|client[-_ ]?secret|session[-_ ]?token|secret[-_ ]?key|private[-_ ]?key|auth[-_ ]?token|authorization|password|passwd|apikey)\b\\?["']?` + jsSpace + `*[:=]` + jsSpace + `*`)
	bareValue = lazyre.New(`^[^\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff},}"'\\]+`)
	// What BEARER's lookbehind reads before a token.
	authHead   = lazyre.New(`(?i)authorization\\?["']?`)
	bearerHead = lazyre.New(`(?i)\bBearer` + jsSpace)
	bearerRest = lazyre.New(`(?i)^(?:Bearer` + jsSpace + `+)?([A-Za-z0-9._~+/=-]{16,})`)
	scheme     = lazyre.New(`(?i)^(?:Bearer|Token|Basic|ApiKey)` + jsSpace + `+`)

	explicitForms = []*lazyre.Regexp{
		lazyre.New(`^\$\{[^}]*\}$`),
		lazyre.New(`^\$[A-Za-z_][A-Za-z0-9_]*$`),
		lazyre.New(`^<[^>]*>$`),
		lazyre.New(`^\{\{[^}]*\}\}$`),
		lazyre.New(`(?i)^x+$`),
		lazyre.New(`^\*+$`),
		lazyre.New(`^-+$`),
		lazyre.New(`^\.+$`),
		lazyre.New(`(?i)^(none|null|undefined|empty|unset|omitted|redacted|changeme)$`),
	}
	placeholderWords = set("example", "placeholder", "redacted", "dummy", "sample", "changeme", "todo", "fixme", "test",
		"fake", "your", "my", "here", "goes", "insert", "replace", "some", "xxx")
	fillerWords = set("a", "an", "the", "of", "for", "in", "to", "and", "or", "api", "key", "keys", "token", "tokens",
		"secret", "password", "passwd", "pwd", "pass", "auth", "authorization", "bearer", "client", "access", "refresh",
		"session", "id", "name", "user", "username", "account", "value", "string", "text", "code", "docs",
		"documentation", "credential", "credentials", "openai", "anthropic", "github", "gitlab", "aws", "gcp", "azure")
	phraseWords = lazyre.New(`^[a-z]{1,15}(?:[-_ .][a-z]{1,15})*$`)
)

// scanCredentials runs the engine's credential rule (xmdCredentialRule:
// BEARER, OPENAI, the fields) over text journaled as the engine journals a
// document, a JSON string, and gives what it finds in text's offsets.
func scanCredentials(text string) []credentialFinding {
	if ascii.Index(text, "secretlint-disable", len("secretlint")) >= 0 { // its hyphen: rarer than its s
		return nil
	}
	content, back := journaled(text)
	var out []credentialFinding
	hits, credentialWord := scanPreset(content)
	for _, h := range hits {
		s, e := back(h.secretStart), back(h.secret1)
		if s < e {
			what := fmt.Sprintf("a %s token (secretlint's %s rule, which the engine runs)", h.id, h.id)
			switch h.id {
			case "basicauth":
				what = "a password in a URL (secretlint's basicauth rule, which the engine runs)"
			case "database-connection-string":
				what = "a password in a database connection string (secretlint's database-connection-string rule, which the engine runs)"
			}
			out = append(out, credentialFinding{span: markdown.Span{Start: s, End: e}, what: what,
				advice: "take it out of the document, and read it from the environment in an eval block under a short name"})
		}
	}
	if !credentialWord {
		return out
	}
	for _, h := range scanJournaled(content) {
		s, e := back(h.start), back(h.end)
		if s >= e {
			continue
		}
		f := credentialFinding{span: markdown.Span{Start: s, End: e}}
		switch h.id {
		case "BEARER_TOKEN":
			f.what, f.advice = "a bearer token", "write a placeholder (Bearer $TOKEN), or build the header from a variable"
		case "OPENAI_KEY":
			f.what, f.advice = "an OpenAI-style key (sk-…)", "write a placeholder ($OPENAI_API_KEY) instead"
		default:
			f.what = fmt.Sprintf("%s is a credential-named field whose value the engine takes for a credential", h.field)
			f.advice = "read the value into a short variable first and write the field with it (apiKey: key), or write a placeholder (${API_KEY})"
		}
		out = append(out, f)
	}
	return out
}

// journalHit is what the engine's rule reports: its message id and the
// range of the credential in the journaled content.
type journalHit struct {
	id         string
	start, end int
	field      string // the field's name, for CREDENTIAL_FIELD
}

// scanJournaled is xmdCredentialRule's file(): BEARER_TOKEN, OPENAI_KEY,
// then CREDENTIAL_FIELD, over content.
func scanJournaled(content string) []journalHit {
	var out []journalHit
	for _, m := range bearerTokens(content) {
		if looksLikeSecret(content[m[0]:m[1]]) {
			out = append(out, journalHit{id: "BEARER_TOKEN", start: m[0], end: m[1]})
		}
	}
	for i := 0; ; {
		j := strings.Index(content[i:], "sk-")
		if j < 0 {
			break
		}
		start := i + j
		i = start + 1
		if start > 0 && isKeyByte(content[start-1]) {
			continue
		}
		end := start + 3
		for end < len(content) && isKeyByte(content[end]) {
			end++
		}
		if end-start-3 < 20 {
			continue
		}
		i = end
		// The engine strips /^sk-(?:proj-)?/ before asking.
		rest := content[start+len("sk-") : end]
		if strings.HasPrefix(rest, "proj-") {
			rest = rest[len("proj-"):]
		}
		if !isPlaceholder(rest) {
			out = append(out, journalHit{id: "OPENAI_KEY", start: start, end: end})
		}
	}
	// A quoted value runs to its closing quote, however far: the reads are
	// given a budget linear in the content, so that a document of unclosed
	// quotes after credential-named fields cannot make the scan quadratic.
	// Past it, the fields left are not read.
	budget := 8*len(content) + 1<<20
	for _, h := range fieldHead.FindAllStringIndex(content, -1) {
		if budget < 0 {
			break
		}
		for _, r := range readFieldValues(content, h[1], &budget) {
			cred := scheme.ReplaceAllString(r.value, "")
			start := r.at + len(r.value) - len(cred)
			if looksLikeSecret(cred) {
				name := strings.TrimSpace(strings.Trim(content[h[0]:h[1]], "\\\"' \t:="))
				out = append(out, journalHit{id: "CREDENTIAL_FIELD", start: start, end: start + len(cred), field: name})
				break
			}
		}
	}
	return out
}

// credentialWords are the words, one of which every pattern of the
// engine's own rule needs, in any ASCII case (its case-insensitive letters
// fold only within ASCII here: none is k or s but "key", "secret" and
// "sk-", whose Unicode folds the engine's JavaScript patterns do not make
// either).
var credentialWords = []string{"key", "token", "secret", "authorization", "passw", "bearer", "sk-"}

// hasFoldAt reports whether s holds lower (lower-case ASCII) at i, in any
// ASCII case.
func hasFoldAt(s string, i int, lower string) bool {
	if i+len(lower) > len(s) {
		return false
	}
	for k := 0; k < len(lower); k++ {
		c := s[i+k]
		if c >= 'A' && c <= 'Z' {
			c |= 0x20
		}
		if c != lower[k] {
			return false
		}
	}
	return true
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// bearerTokens is BEARER's matches: a token of 16 or more token characters
// (after an optional "Bearer "), where the text before it ends with
// `authorization`, an optional \ and quote, spaces, : or =, spaces, an
// optional \ and quote, or with the word Bearer and a space. Each is
// [start, end] of the token.
func bearerTokens(content string) [][2]int {
	ends := map[int]bool{}
	for _, m := range authHead.FindAllStringIndex(content, -1) {
		// authorization, then Q (taken by the pattern's greedy match, or not).
		for _, at := range qEnds(content, m[0]+len("authorization")) {
			p := skipJSSpace(content, at)
			if p >= len(content) || (content[p] != ':' && content[p] != '=') {
				continue
			}
			for q := p + 1; ; {
				for _, e := range qEnds(content, q) {
					ends[e] = true
				}
				n := jsSpaceAt(content, q)
				if n == 0 {
					break
				}
				q += n
			}
		}
	}
	for _, m := range bearerHead.FindAllStringIndex(content, -1) {
		ends[m[1]] = true
	}
	var out [][2]int
	last := 0
	for p := 0; p < len(content); p++ {
		if !ends[p] || p < last {
			continue
		}
		m := bearerRest.FindStringSubmatchIndex(content[p:])
		if m == nil {
			continue
		}
		out = append(out, [2]int{p + m[2], p + m[3]})
		last = p + m[1]
	}
	return out
}

// qEnds are where Q (\\?["']?) can end after at.
func qEnds(s string, at int) []int {
	out := []int{at}
	p := at
	if p < len(s) && s[p] == '\\' {
		p++
		out = append(out, p)
	}
	for _, q := range []int{at, p} {
		if q < len(s) && (s[q] == '"' || s[q] == '\'') {
			out = append(out, q+1)
		}
	}
	return out
}

func jsSpaceAt(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	switch s[i] {
	case '\t', '\n', '\v', '\f', '\r', ' ':
		return 1
	}
	if s[i] < utf8.RuneSelf {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return n
	}
	return 0
}

func skipJSSpace(s string, i int) int {
	for {
		n := jsSpaceAt(s, i)
		if n == 0 {
			return i
		}
		i += n
	}
}

// fieldValue is one reading of a credential-named field's value, and
// where it begins.
type fieldValue struct {
	value string
	at    int
}

// readFieldValues is the engine's readFieldValues: every reading of a
// quoted value, else the bare value up to a space or JSON punctuation.
func readFieldValues(content string, at int, budget *int) []fieldValue {
	if q := quotedValues(content, at, budget); len(q) > 0 {
		return q
	}
	if m := bareValue.FindString(content[at:]); m != "" {
		return []fieldValue{{m, at}}
	}
	return nil
}

func quotedValues(content string, at int, budget *int) []fieldValue {
	open := at
	for open < len(content) && content[open] == '\\' {
		open++
	}
	if open >= len(content) || (content[open] != '"' && content[open] != '\'') {
		return nil
	}
	mark := content[open]
	escapes := open - at
	var depths []int
	if mark == '"' {
		if n := escapes + 1; n&(n-1) == 0 {
			depths = []int{bits.Len(uint(n)) - 1}
		}
	} else {
		depths = []int{0, 1}
	}
	conventions := []bool{false}
	if mark == '\'' {
		conventions = []bool{true, false}
	}
	var out []fieldValue
	for _, d := range depths {
		for _, y := range conventions {
			if r, ok := readAtDepth(content, open+1, mark, d, y, budget); ok {
				dup := false
				for _, o := range out {
					dup = dup || o.value == r.value
				}
				if !dup {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

func delimiterEscapes(mark byte, depth int) int {
	if mark == '"' {
		return 1<<depth - 1
	}
	return 0
}

func readAtDepth(content string, bodyStart int, mark byte, depth int, yamlDoubling bool, budget *int) (fieldValue, bool) {
	for at := bodyStart; at < len(content); at++ {
		if *budget--; *budget < 0 {
			return fieldValue{}, false
		}
		if content[at] != mark {
			continue
		}
		if yamlDoubling && mark == '\'' && at+1 < len(content) && content[at+1] == '\'' {
			at++
			continue
		}
		n := 0
		for back := at - 1; back >= bodyStart && content[back] == '\\'; back-- {
			n++
		}
		if n%(1<<(depth+1)) == delimiterEscapes(mark, depth) {
			end := at - delimiterEscapes(mark, depth)
			if end < bodyStart {
				end = bodyStart
			}
			return fieldValue{content[bodyStart:end], bodyStart}, true
		}
	}
	return fieldValue{}, false
}

// isPlaceholder is the engine's isPlaceholder: the whole value is a
// placeholder's syntax, or a phrase of documented words with at least one
// placeholder word among them.
func isPlaceholder(v string) bool {
	for _, f := range explicitForms {
		if f.MatchString(v) {
			return true
		}
	}
	if !phraseWords.MatchString(v) {
		return false
	}
	some := false
	for _, seg := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' }) {
		if !placeholderWords[seg] && !fillerWords[seg] {
			return false
		}
		some = some || placeholderWords[seg]
	}
	return some
}

// looksLikeSecret is the engine's looksLikeSecret: at least 16 characters
// (UTF-16 code units, as JavaScript counts), not a placeholder, two kinds
// of character, eight distinct ones.
func looksLikeSecret(v string) bool {
	if utf16Len(v) < 16 || isPlaceholder(v) {
		return false
	}
	lower, upperOrDigit, nonLetter := false, false, false
	distinct := map[rune]bool{}
	for _, r := range v {
		lower = lower || r >= 'a' && r <= 'z'
		upperOrDigit = upperOrDigit || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		nonLetter = nonLetter || !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		distinct[r] = true
	}
	classes := 0
	for _, c := range []bool{lower, upperOrDigit, nonLetter} {
		if c {
			classes++
		}
	}
	return classes >= 2 && len(distinct) >= 8
}

// jsonEscapes marks the bytes journaled escapes or reads on their own:
// quotes, backslashes and control characters ([0]), and the bytes past
// ASCII too ([1], for a text that is not UTF-8).
var jsonEscapes = func() (t [2][256]bool) {
	for c := range 256 {
		t[0][c] = c == '"' || c == '\\' || c < 0x20
		t[1][c] = t[0][c] || c >= utf8.RuneSelf
	}
	return t
}()

// journaled is text as the engine journals a document, inside the JSON of
// its root import event (JSON.stringify: quotes, backslashes and control
// characters escaped, all else as it is), and a function from an offset
// in it back to an offset in text.
func journaled(text string) (string, func(int) int) {
	const prefix = `{"type":"import","source":"`
	var b strings.Builder
	b.Grow(len(prefix) + len(text) + len(text)/8 + 2)
	b.WriteString(prefix)
	escapes := &jsonEscapes[0]
	if !utf8.ValidString(text) {
		escapes = &jsonEscapes[1] // then the bytes past ASCII are read too
	}
	for i := 0; i < len(text); {
		// The run that needs no escaping, copied whole.
		j := i
		for j < len(text) && !escapes[text[j]] {
			j++
		}
		b.WriteString(text[i:j])
		if i = j; i == len(text) {
			break
		}
		c := text[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteString("\uFFFD") // as Node decodes a byte that is not UTF-8
			} else {
				b.WriteString(text[i : i+n])
			}
			i += n
			continue
		}
		i++
	}
	b.WriteString(`"}`)
	content := b.String()
	// back walks text and its escaped form side by side to off, from where
	// the last walk stopped when off is past it: findings come in order,
	// rule by rule, so the walks are linear in the text for each rule.
	wp, wi := len(prefix), 0
	back := func(off int) int {
		if off < wp {
			wp, wi = len(prefix), 0
		}
		p, i := wp, wi
		for i < len(text) && p < off {
			c := text[i]
			w := 1
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				w = 2
			case c < 0x20:
				w = 6
			case c >= utf8.RuneSelf:
				r, n := utf8.DecodeRuneInString(text[i:])
				if r == utf8.RuneError && n == 1 {
					p += 3
					i++
					continue
				}
				p += n
				i += n
				continue
			}
			p += w
			i++
		}
		wp, wi = p, i
		return i
	}
	return content, back
}
