package workflow

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/baton-md/baton/internal/lazyre"
)

// The rules of secretlint's recommended preset (13.0.4, the version
// executable.md pins) that find a provider's token by its format, as the
// engine's journal gate runs them: over the document journaled as a JSON
// string. Each is its pattern as secretlint writes it; JavaScript's
// lookbehind (?<!\p{L}) and lookahead (?![…]), which RE2 has not, are read
// around the match. Not ported: the rules that judge what they find
// (basic-auth URLs, database connection strings, 1Password tokens) and the
// GCP rule, which reads a service account's JSON file. Off in the preset's
// defaults, and so not here either: AWS access key IDs and account IDs
// (enableIDScanRule), and npm's rules for .npmrc and package.json files
// (the journal is neither).

// presetRule is one preset pattern.
type presetRule struct {
	id string // the secretlint rule, for the message
	re *lazyre.Regexp
	// notAfterLetter: the match may not follow a Unicode letter.
	notAfterLetter bool
	// notBefore: the match may not be followed by a byte of this set.
	notBefore string
	// group is the submatch that is the secret (0: the whole match); the
	// range the rule reports starts at the whole match and is the group's
	// length, as secretlint computes it.
	group int
	// keep, when set, is the rule's own test of a match.
	keep func(match string) bool
	// judge, when set, is the rule's own test of the match's user and
	// password (submatches 1 and 2, "" when absent).
	judge func(user, password string) bool
	// lits are the literals a match starts with, found with strings.Index
	// (the pattern runs only where one is: a pattern that begins with an
	// alternation or \b has no literal prefix RE2 can skip ahead with);
	// boundary is a \b before the literal. Without lits, gate lists words
	// of which the content holds one before the pattern runs at all.
	lits     []string
	boundary bool
	gate     []string
	anchored *lazyre.Regexp
}

const (
	alnum      = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	alnumUnder = alnum + "_"
	alnumDash  = alnum + "_-"
)

// presetRules are made when a document is first scanned, not when the
// program starts: most runs of baton check no workflow. A rule whose
// pattern starts with a literal lists it in lits (TestPresetLiterals holds
// them to the patterns' literal prefixes).
var presetRules = sync.OnceValue(func() *presetSet {
	rules := []*presetRule{
		{id: "aws", re: lazyre.New(`["']?(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)["']?` + jsSpace + `*(?::|=>|=)` + jsSpace + `*["']?([A-Za-z0-9/\+=]{40})["']?\b`),
			gate: []string{"SECRET", "secret", "Secret"}, group: 1, keep: func(m string) bool { return m != "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" }},
		{id: "npm", re: lazyre.New(`npm_[A-Za-z0-9_]{36}`), lits: []string{"npm_"}, notAfterLetter: true, notBefore: alnumUnder},
		{id: "slack", re: lazyre.New(`\b(?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr)-(?:\d-)?(?:[a-zA-Z0-9]{1,40}-)+[a-zA-Z0-9]{1,40}\b`),
			lits: []string{"xoxb-", "xoxp-", "xapp-", "xoxa-", "xoxo-", "xoxr-"}, boundary: true},
		{id: "slack", re: lazyre.New(`(?i)https://hooks\.slack\.com/services/T[a-zA-Z0-9]{1,40}/B[a-zA-Z0-9]{1,40}/[a-zA-Z0-9]{1,40}`),
			gate: []string{"hooks.slack.com"}},
		{id: "openai", re: lazyre.New(`sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}`),
			lits: []string{"sk-"}},
		// [A-Za-z0-9_-]{90,128}AA(?![A-Za-z0-9_-]): the run of those
		// characters ends in AA, 90 to 128 of them before it.
		{id: "anthropic", re: lazyre.New(`sk-ant-api0\d-[A-Za-z0-9_-]+`), lits: []string{"sk-ant-api0"}, notAfterLetter: true, notBefore: alnumDash,
			keep: func(m string) bool {
				run := len(m) - len("sk-ant-api03-")
				return strings.HasSuffix(m, "AA") && run-2 >= 90 && run-2 <= 128
			}},
		{id: "groq", re: lazyre.New(`gsk_[a-zA-Z0-9]{52}`), lits: []string{"gsk_"}, notAfterLetter: true, notBefore: alnum},
		{id: "huggingface", re: lazyre.New(`hf_[a-zA-Z]{34}`), lits: []string{"hf_"}, notAfterLetter: true, notBefore: alnum[:52]},
		{id: "linear", re: lazyre.New(`lin_api_[a-zA-Z0-9_]{32,128}`), lits: []string{"lin_api_"}, notAfterLetter: true, notBefore: alnumUnder},
		{id: "notion", re: lazyre.New(`ntn_[0-9]{11}[A-Za-z0-9]{35}`), lits: []string{"ntn_"}, notAfterLetter: true, notBefore: alnum},
		{id: "sendgrid", re: lazyre.New(`SG\.\w{1,128}\.\w{1,128}[-_]?\w{1,128}`), lits: []string{"SG."}, notAfterLetter: true, notBefore: alnumUnder,
			keep: func(m string) bool { return utf8.RuneCountInString(m) == 69 }},
		{id: "shopify", re: lazyre.New(`(?:shppa|shpca|shpat|shpss)_[a-zA-Z0-9]{32,64}`), lits: []string{"shppa_", "shpca_", "shpat_", "shpss_"}, notAfterLetter: true, notBefore: alnum},
		{id: "stripe", re: lazyre.New(`(?:sk_live|sk_test|rk_live|rk_test)_[a-zA-Z0-9]{24,99}`), lits: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, notAfterLetter: true, notBefore: alnum},
		{id: "github", re: lazyre.New(`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{36}`), lits: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, notAfterLetter: true, notBefore: alnumUnder},
		{id: "github", re: lazyre.New(`github_pat_[A-Za-z0-9_]{82}`), lits: []string{"github_pat_"}, notAfterLetter: true, notBefore: alnumUnder},
		{id: "github", re: lazyre.New(`ghs_[0-9]{1,20}_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`), lits: []string{"ghs_"}, notAfterLetter: true, notBefore: alnumDash,
			keep: func(m string) bool {
				parts := strings.Split(m[strings.IndexByte(m[4:], '_')+5:], ".")
				return len(parts) == 3 && len(parts[0]) <= 1000 && len(parts[1]) <= 10000 && len(parts[2]) <= 1000
			}},
		{id: "gitlab", re: lazyre.New(`glpat-[A-Za-z0-9_-]{20,128}`), lits: []string{"glpat-"}, notAfterLetter: true, notBefore: alnumDash},
		{id: "grafana", re: lazyre.New(`glc_[A-Za-z0-9+/]+={0,2}`), lits: []string{"glc_"}, notAfterLetter: true, notBefore: alnum + "+/=",
			keep: func(m string) bool { n := len(strings.TrimRight(m, "=")) - len("glc_"); return n >= 32 && n <= 400 }},
		{id: "grafana", re: lazyre.New(`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`), lits: []string{"glsa_"}, notAfterLetter: true, notBefore: "0123456789ABCDEFabcdef"},
		{id: "hashicorp-vault", re: lazyre.New(`hvs\.[A-Za-z0-9_-]{90,120}`), lits: []string{"hvs."}, notAfterLetter: true, notBefore: alnumDash},
		{id: "hashicorp-vault", re: lazyre.New(`hvb\.[A-Za-z0-9_-]+`), lits: []string{"hvb."}, notAfterLetter: true, notBefore: alnumDash,
			keep: func(m string) bool { return len(m)-4 >= 138 && len(m)-4 <= 300 }},
		{id: "hashicorp-vault", re: lazyre.New(`hvr\.[A-Za-z0-9_-]{90,120}`), lits: []string{"hvr."}, notAfterLetter: true, notBefore: alnumDash},
		{id: "vercel", re: lazyre.New(`(?:vcp|vci|vca|vcr|vck)_[A-Za-z0-9]{20,60}`), lits: []string{"vcp_", "vci_", "vca_", "vcr_", "vck_"}, notAfterLetter: true, notBefore: alnum},
		{id: "databricks", re: lazyre.New(`dapi[A-Fa-f0-9]{32}(?:-[0-9])?`), lits: []string{"dapi"}, notAfterLetter: true, notBefore: "0123456789ABCDEFabcdef"},
		{id: "docker", re: lazyre.New(`dckr_pat_[a-zA-Z0-9_-]{27}`), lits: []string{"dckr_pat_"}, notAfterLetter: true, notBefore: alnumDash},
		{id: "figma", re: lazyre.New(`figd_[A-Za-z0-9_-]+`), lits: []string{"figd_"}, notAfterLetter: true, notBefore: alnumDash,
			keep: func(m string) bool { return len(m)-5 >= 40 && len(m)-5 <= 200 }},
		{id: "cloudflare", re: lazyre.New(`(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}`), lits: []string{"cfk_", "cfut_", "cfat_"}, notAfterLetter: true, notBefore: alnum},
		// ops_(ey[A-Za-z0-9+/=]{100,1280}fQ={0,2})(?![A-Za-z0-9+/=]): the run
		// ends in fQ and at most two =, and decodes to a JSON object.
		{id: "1password", re: lazyre.New(`ops_(ey[A-Za-z0-9+/=]+)`), lits: []string{"ops_ey"}, notAfterLetter: true, notBefore: alnum + "+/=",
			keep: onePasswordToken},
		// Credentials in a URL, judged as the rules judge them.
		{id: "basicauth", re: lazyre.New(`(?:https?|ftp|ftps)://([-a-zA-Z0-9_]{1,256}):([-a-zA-Z0-9_]{1,256})@[-a-zA-Z0-9%._+~#=]{1,256}\.[a-zA-Z0-9()]{1,6}\b`),
			lits: []string{"http://", "https://", "ftp://", "ftps://"}, judge: basicAuthReal},
		{id: "database-connection-string", re: lazyre.New(`(?i)mongodb(?:\+srv)?://(?:(` + notColonSlashSpace + `{1,100}):(` + notAtSlashSpace + `{1,200})@)?` + dbRest),
			gate: []string{"mongodb"}, judge: databaseReal},
		{id: "database-connection-string", re: lazyre.New(`(?i)(?:jdbc:)?mysql(?:x)?://(?:(` + notColonSlashSpace + `{1,100}):(` + notAtSlashSpace + `{1,200})@)?` + dbRest),
			gate: []string{"mysql"}, judge: databaseReal},
		{id: "database-connection-string", re: lazyre.New(`(?i)postgres(?:ql)?://(?:(` + notColonSlashSpace + `{1,100}):(` + notAtSlashSpace + `{1,200})@)?` + dbRest),
			gate: []string{"postgres"}, judge: databaseReal},
		{id: "tailscale", re: lazyre.New(`tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}`), lits: []string{"tskey-"}, notAfterLetter: true, notBefore: alnumUnder},
	}
	// A rule's patterns are compiled when a document first holds one of
	// its literals or gate words (lazyre): compiling all of them held
	// every worker of a run for 3 ms on the first workflow.
	for _, r := range rules {
		if r.lits != nil {
			r.anchored = lazyre.New(`^(?:` + r.re.String() + `)`)
		}
	}
	set := &presetSet{rules: rules, lists: [][]litRef{nil}, third: [][4]uint64{{}}}
	add := func(ref litRef) {
		k := uint16(lowerASCII(ref.text[0]))<<8 | uint16(lowerASCII(ref.text[1]))
		if set.at[k] == 0 {
			set.at[k] = uint16(len(set.lists))
			set.lists = append(set.lists, nil)
			set.third = append(set.third, [4]uint64{})
		}
		li := set.at[k]
		set.lists[li] = append(set.lists[li], ref)
		if len(ref.text) < 3 {
			set.third[li] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} // any byte, or none
		} else {
			c := lowerASCII(ref.text[2])
			set.third[li][c>>6] |= 1 << (c & 63)
		}
	}
	// The words one of which the engine's own rule needs (credentialWords),
	// looked for in the same pass: rule -1.
	for _, w := range credentialWords {
		add(litRef{rule: -1, text: w, fold: true})
	}
	for ri, r := range rules {
		for _, l := range r.lits {
			add(litRef{rule: ri, text: l})
		}
		for _, g := range r.gate {
			add(litRef{rule: ri, text: strings.ToLower(g), fold: true})
		}
	}
	return set
})

// presetSet is the rules, and their literals and gate words by their first
// two bytes lower-cased, so that one pass over the content finds where
// every rule may match.
type presetSet struct {
	rules []*presetRule
	// at indexes lists (0: none) by the first two bytes of a literal or a
	// gate word, lower-cased: a table, where a map's lookup for every pair
	// of bytes that starts one was a third of the pass, and one table, where
	// two (exact literals, folded gate words) were a lookup more for every
	// byte of every workflow.
	at    [1 << 16]uint16
	lists [][]litRef
	// third is, for each list, the third bytes (lower-cased) its entries
	// have, as a set: most pairs that start one ("op" of "option", "se" of
	// "set") are ruled out there, before the list is read.
	third [][4]uint64
}

// litRef is a literal of rule (matched exactly) or a gate word of it
// (fold: matched with ASCII case folded; rule -1: the engine's rule's).
type litRef struct {
	rule int
	text string
	fold bool
}

// JavaScript's [^:\/\s], [^@\/\s], [^\/\s?], [^?\s] and [^\s], and the
// host, database and options of the database rules' patterns.
const (
	jsSpaces           = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
	notColonSlashSpace = `[^:/` + jsSpaces + `]`
	notAtSlashSpace    = `[^@/` + jsSpaces + `]`
	dbRest             = `([^/?` + jsSpaces + `]{1,100})(?:/([^?` + jsSpaces + `]{0,100}))?(?:\?([^` + jsSpaces + `]{0,500}))?`
)

// The basic-auth rule's judgement (isLikelyRealUsername,
// isLikelyRealPassword) and the database rules' (isLikelyRealCredential).
var (
	basicAuthIgnored = []string{"localhost", "127.0.0.1", "password", "mypassword", "myusername", "{password}", "${password}",
		"{{password}}", "{username}", "${username}", "{{username}}", "YOUR_PASSWORD", "YOUR_USERNAME", "REPLACE_WITH_PASSWORD",
		"REPLACE_WITH_USERNAME"}
	databaseIgnored = []string{"localhost", "127.0.0.1", "example.com", "example.org", "test.com", "password", "username",
		"secret", "mypassword", "myusername", "root", "admin", "user", "pass", "{password}", "${password}", "{{password}}",
		"{username}", "${username}", "{{username}}", "YOUR_PASSWORD", "YOUR_USERNAME", "REPLACE_WITH_PASSWORD"}
	basicAuthVariables = []*lazyre.Regexp{
		lazyre.New(`\$\{[^}]{1,50}\}`), lazyre.New(`\{\{[^}]{1,50}\}\}`), lazyre.New(`\{[^}]{1,50}\}`),
		lazyre.New(`%[A-Z_]{1,30}%`), lazyre.New(`\$[A-Z_]{1,30}`),
	}
	databaseVariables = append(slices.Clip(basicAuthVariables), lazyre.New(`\$\([^)]{1,50}\)`))
)

// onePasswordToken is the 1Password rule's test of a match's payload: ey,
// 100 to 1,280 characters, fQ and at most two =, which atob and JSON.parse
// read as an object (is1PasswordServiceAccountToken).
func onePasswordToken(match string) bool {
	run := strings.TrimPrefix(match, "ops_")
	body := strings.TrimRight(run, "=")
	if len(run)-len(body) > 2 || !strings.HasSuffix(body, "fQ") {
		return false
	}
	if middle := len(body) - len("ey") - len("fQ"); middle < 100 || middle > 1280 {
		return false
	}
	raw, ok := forgivingBase64(run)
	if !ok {
		return false
	}
	var v any
	if json.Unmarshal(latin1(raw), &v) != nil {
		return false
	}
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// forgivingBase64 is atob's decoding (the HTML standard's forgiving-base64
// decode, the input holding no white space).
func forgivingBase64(s string) ([]byte, bool) {
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(s, "=")
		s = strings.TrimSuffix(s, "=")
	}
	if len(s)%4 == 1 || strings.ContainsRune(s, '=') {
		return nil, false
	}
	b, err := base64.RawStdEncoding.Strict().DecodeString(s)
	if err != nil {
		// atob ignores the bits past the last whole byte that Strict refuses.
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	return b, err == nil
}

// latin1 is what JSON.parse reads of atob's result: each byte a character.
func latin1(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

func variableLike(s string, patterns []*lazyre.Regexp) bool {
	for _, p := range patterns {
		if p.MatchString(s) {
			return true
		}
	}
	return false
}

// repetitive is /^(.)\1{3,}$/: one character, four times or more.
func repetitive(s string) bool {
	if utf8.RuneCountInString(s) < 4 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	for _, r := range s {
		if r != first {
			return false
		}
	}
	return true
}

func containsIgnored(s string, ignored []string) bool {
	l := strings.ToLower(s)
	for _, p := range ignored {
		if strings.Contains(l, strings.ToLower(p)) {
			return true
		}
	}
	return false
}

func basicAuthReal(user, password string) bool {
	if user == "" || password == "" {
		return false
	}
	if utf16Len(user) < 2 || variableLike(user, basicAuthVariables) || containsIgnored(user, basicAuthIgnored) {
		return false
	}
	return utf16Len(password) >= 4 && !variableLike(password, basicAuthVariables) &&
		!containsIgnored(password, basicAuthIgnored) && !repetitive(password)
}

func databaseReal(user, password string) bool {
	if user == "" || password == "" || user == password || utf16Len(password) < 4 || variableLike(password, databaseVariables) {
		return false
	}
	l := strings.ToLower(password)
	for _, p := range databaseIgnored {
		if l == strings.ToLower(p) {
			return false
		}
	}
	return !repetitive(password)
}

// presetHit is one finding of a preset rule: the range secretlint reports
// and the secret's own.
type presetHit struct {
	id                   string
	start, end           int // the range reported
	secretStart, secret1 int // the secret
}

// scanPreset runs the ported preset rules over content: one pass finds
// where each rule's literals start (and which gate words the content
// holds), then each rule's pattern runs there. It also says whether the
// content holds one of the words the engine's own rule needs.
func scanPreset(content string) (hits []presetHit, credentialWord bool) {
	set := presetRules()
	at := make([][]int, len(set.rules))
	gated := make([]bool, len(set.rules))
	for i := 0; i+1 < len(content); i++ {
		li := set.at[uint16(lowerByte[content[i]])<<8|uint16(lowerByte[content[i+1]])]
		if li == 0 {
			continue
		}
		var c byte // past the end: no entry of three bytes or more starts here
		if i+2 < len(content) {
			c = lowerByte[content[i+2]]
		}
		if set.third[li][c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		for _, l := range set.lists[li] {
			switch {
			case !l.fold:
				if strings.HasPrefix(content[i:], l.text) {
					at[l.rule] = append(at[l.rule], i)
				}
			case l.rule < 0:
				credentialWord = credentialWord || hasFoldAt(content, i, l.text)
			case !gated[l.rule] && hasFoldAt(content, i, l.text):
				gated[l.rule] = true
			}
		}
	}
	for ri, r := range set.rules {
		switch {
		case r.lits != nil && len(at[ri]) > 0:
			hits = r.scanAt(content, at[ri], hits)
		case r.lits == nil && gated[ri]:
			hits = r.scanAll(content, hits)
		}
	}
	return hits, credentialWord
}

// lowerByte is lowerASCII of every byte.
var lowerByte = func() (t [256]byte) {
	for c := range 256 {
		t[c] = lowerASCII(byte(c))
	}
	return t
}()

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c | 0x20
	}
	return c
}

// scanAll adds r's matches in content to out, as matchAll finds them: each
// from the end of the one before.
func (r *presetRule) scanAll(content string, out []presetHit) []presetHit {
	for i := 0; i <= len(content); {
		m := r.re.FindStringSubmatchIndex(content[i:])
		if m == nil {
			break
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		next, hit, ok := r.accept(content, m)
		i = next
		if ok {
			out = append(out, hit)
		}
	}
	return out
}

// scanAt adds r's matches starting at the positions at (in order), each
// past the end of the one before, to out.
func (r *presetRule) scanAt(content string, at []int, out []presetHit) []presetHit {
	last := 0
	for _, p := range at {
		if p < last {
			continue
		}
		if r.boundary && p > 0 && isWordByte(content[p-1]) {
			continue
		}
		m := r.anchored.FindStringSubmatchIndex(content[p:])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += p
			}
		}
		next, hit, ok := r.accept(content, m)
		if ok {
			out = append(out, hit)
			last = next
		}
	}
	return out
}

// accept judges the match m as the rule does (lookarounds, keep), and
// says where the search goes on.
func (r *presetRule) accept(content string, m []int) (next int, hit presetHit, ok bool) {
	start, end := m[0], m[1]
	if !r.around(content, start, end) {
		// JavaScript tries the next position.
		_, n := utf8.DecodeRuneInString(content[start:])
		return start + max(n, 1), hit, false
	}
	next = end
	if end == start {
		next++
	}
	gs, ge := m[2*r.group], m[2*r.group+1]
	if gs < 0 || (r.keep != nil && !r.keep(content[gs:ge])) {
		return next, hit, false
	}
	if r.judge != nil {
		var user, password string
		if m[2] >= 0 {
			user = content[m[2]:m[3]]
		}
		if m[4] >= 0 {
			password = content[m[4]:m[5]]
		}
		if !r.judge(user, password) {
			return next, hit, false
		}
		// What the reader is shown is the password, not the URL with
		// whatever followed it.
		return next, presetHit{id: r.id, start: start, end: start + (ge - gs), secretStart: m[4], secret1: m[5]}, true
	}
	return next, presetHit{id: r.id, start: start, end: start + (ge - gs), secretStart: gs, secret1: ge}, true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// around checks the lookbehind and lookahead JavaScript reads around a
// match.
func (r *presetRule) around(content string, start, end int) bool {
	if r.notAfterLetter && start > 0 {
		if c, _ := utf8.DecodeLastRuneInString(content[:start]); unicode.IsLetter(c) {
			return false
		}
	}
	if r.notBefore != "" && end < len(content) && strings.IndexByte(r.notBefore, content[end]) >= 0 {
		return false
	}
	return true
}

// utf16Len is the length JavaScript gives s.
func utf16Len(s string) int {
	n := 0
	for _, c := range s {
		if c >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
