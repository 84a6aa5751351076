// Package redact finds secrets in text (API keys and tokens of known
// shapes, passwords and tokens after their keys, private key blocks,
// passwords in URLs) and replaces them with "[REDACTED]". Every surface
// that shows or keeps text derived from a history passes it through here:
// the ledger, the extractive summarizer, the journal, the command line, the
// evaluation reports and the library's own log lines (Err, Text).
package redact

import (
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/condense-dev/condense/internal/needles"
)

// Redacted replaces every secret String finds.
const Redacted = "[REDACTED]"

// A redaction rule. Its regular expression runs only on lines holding one
// of its triggers, which keeps String fast on megabytes of tool output. The
// triggers are matched without regard to case, and every string the
// expression matches holds one of them (a property test checks this), so
// the pre-filter can never let a secret through that the expression would
// have caught.
type redaction struct {
	name     string
	triggers []string // lower case
	// re matches a secret: the group named s is the secret, or the whole
	// match when there is no such group.
	re *regexp.Regexp
	// accept, when set, must approve the secret ("sk-" inside
	// "task-runner-configuration" has no digit, a cache key is not
	// random enough).
	accept func(v string) bool
	// assign: run only when a trigger is part of a key followed by ':' or
	// '=' ("tokens: 512" qualifies, "the token expired" does not).
	assign bool
}

// assignKeyScan bounds how far hit reads a key name past a trigger
// looking for its ':' or '='. It must be longer than any key tail an
// assign rule's expression allows after its trigger (the widest is
// "signature" plus 40), or the rule would miss lines its expression
// matches; the property test TestRedactPrefilterAgreesWithPatterns holds
// the two together.
const assignKeyScan = 64

// hit reports whether line may hold a match of r.
func (r *redaction) hit(line string) bool {
	for _, t := range r.triggers {
		for off := 0; ; {
			k := needles.IndexFold(line[off:], t)
			if k < 0 {
				break
			}
			if !r.assign {
				return true
			}
			j := off + k + len(t)
			for j < len(line) && (isAlpha(line[j]) || isDigit(line[j]) || line[j] == '_' || line[j] == '-') && j-off-k < assignKeyScan {
				j++
			}
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ' ' || line[j] == '\t') {
				j++
			}
			if j < len(line) && (line[j] == ':' || line[j] == '=') {
				return true
			}
			off += k + 1
		}
	}
	return false
}

// apply redacts every match of r in line.
func (r *redaction) apply(line string) string {
	ms := r.re.FindAllStringSubmatchIndex(line, -1)
	if ms == nil {
		return line
	}
	g := r.re.SubexpIndex("s")
	var b strings.Builder
	last := 0
	for _, m := range ms {
		from, to := m[0], m[1]
		if g > 0 {
			if m[2*g] < 0 {
				continue
			}
			from, to = m[2*g], m[2*g+1]
		}
		v := line[from:to]
		if strings.HasPrefix(line[m[0]:], "PASS: ") {
			continue // a test runner's verdict ("--- PASS: TestX (0.01s)"), not a password
		}
		if len(line)-m[0] > 5 && strings.EqualFold(line[m[0]:m[0]+5], "pass=") && (m[0] == 0 || line[m[0]-1] == ' ') && tallyCount(line, v) {
			continue // a run's tally ("Done. PASS=6 WARN=0 ERROR=0 SKIP=0"), not a password
		}
		if r.assign && prose(line, from, to) {
			continue
		}
		if from < last || strings.HasPrefix(strings.Trim(v, `"'`), "[") || strings.EqualFold(v, "bearer") ||
			strings.EqualFold(v, "basic") || strings.EqualFold(v, "token") || variable(v) || r.accept != nil && !r.accept(v) {
			continue
		}
		b.WriteString(line[last:from])
		b.WriteString(Redacted)
		last = to
	}
	if last == 0 {
		return line
	}
	b.WriteString(line[last:])
	return b.String()
}

// prose reports whether the value line[from:to] after a key and a colon
// is a word of a sentence rather than a secret: lower-case letters only,
// followed by another word ("jsonwebtoken: jsonwebtoken has no EdDSA
// support", "the refresh token: expired after an hour"). A secret ends its
// line or its field; a password of lower-case letters alone followed by
// prose is the price.
func prose(line string, from, to int) bool {
	p := from
	for p > 0 && (line[p-1] == ' ' || line[p-1] == '\t' || line[p-1] == '"' || line[p-1] == '\'') {
		p--
	}
	if p == 0 || line[p-1] != ':' || to-from < 2 || to+2 > len(line) || line[to] != ' ' || !('a' <= line[to+1] && line[to+1] <= 'z') {
		return false
	}
	for i := from; i < to; i++ {
		if c := line[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// variable reports whether v names a secret instead of holding one: a
// shell or template variable ("$TOKEN", "${API_KEY}", "$(cat token)",
// "%API_KEY%", "{{ .Token }}"). Its name is what a reader needs.
func variable(v string) bool {
	v = strings.Trim(v, `"'`)
	switch {
	case len(v) > 1 && v[0] == '$':
		if v[1] == '{' || v[1] == '(' {
			return true
		}
		// $NAME in one case: "$uperS3cret" is a password, "$GITHUB_TOKEN" is not
		upper, lower := false, false
		for i := 1; i < len(v); i++ {
			c := v[i]
			switch {
			case 'A' <= c && c <= 'Z':
				upper = true
			case 'a' <= c && c <= 'z':
				lower = true
			case c == '_' || i > 1 && '0' <= c && c <= '9':
			default:
				return false
			}
		}
		return !(upper && lower)
	case len(v) > 2 && v[0] == '%' && v[len(v)-1] == '%':
		return true
	}
	return strings.HasPrefix(v, "{{")
}

func hasDigit(v string) bool { return strings.ContainsAny(v, "0123456789") }

// random reports whether v looks like a generated secret rather than a
// word, a path or a version: 20 bytes or more, letters and digits both,
// and at least 3.5 bits of entropy per character.
func random(v string) bool {
	v = strings.Trim(v, `"'`)
	if len(v) < 20 || !hasDigit(v) || strings.IndexFunc(v, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }) < 0 {
		return false
	}
	if wordy(v) {
		return false
	}
	var n [256]int
	for i := 0; i < len(v); i++ {
		n[v[i]]++
	}
	h := 0.0
	for _, c := range n {
		if c > 0 {
			p := float64(c) / float64(len(v))
			h -= p * math.Log2(p)
		}
	}
	return h >= 3.5
}

// tallyCount reports whether v, a secret key's value on line, is a count
// of a run's tally: a number of at most four digits on a line that also
// counts, as words of their own with numbers, two of failures, warnings,
// errors, skips or the total ("Done. PASS=6 WARN=0 ERROR=0 SKIP=0").
func tallyCount(line, v string) bool {
	if len(v) == 0 || len(v) > 4 || strings.Trim(v, "0123456789") != "" {
		return false
	}
	n := 0
	for _, f := range strings.Fields(line) {
		k, c, ok := strings.Cut(f, "=")
		if !ok || c == "" || strings.Trim(c, "0123456789") != "" {
			continue
		}
		switch strings.ToLower(k) {
		case "fail", "failed", "failures", "warn", "warnings", "error", "errors", "skip", "skipped", "total":
			n++
		}
	}
	return n >= 2
}

// configWords are values a key such as "token" or "secret" takes in
// configuration that are never secrets: log levels and switches
// (RUST_LOG=token=trace, secret_scanning: enabled).
var configWords = map[string]bool{"trace": true, "debug": true, "info": true, "warn": true, "warning": true,
	"error": true, "fatal": true, "true": true, "false": true, "null": true, "none": true, "nil": true,
	"off": true, "on": true, "yes": true, "no": true, "enabled": true, "disabled": true, "required": true, "optional": true}

// notConfigWord accepts a value after a secret's key unless it is one of
// configWords, in any case.
func notConfigWord(v string) bool {
	return !configWords[strings.ToLower(strings.Trim(v, `"'()`))] // "(using password: YES)"
}

// wordy reports whether v is built of words and numbers, as identifiers
// are ("creditnote_period_81403", "Payment-Intent-2026"): every part
// between separators is all digits or letters of one case (a capital
// first letter allowed). Random values mix digits and letters, or cases,
// inside a part.
func wordy(v string) bool {
	for part := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' || r == ':' }) {
		digits, lower, upper := 0, 0, 0
		for i := 0; i < len(part); i++ {
			switch c := part[i]; {
			case isDigit(c):
				digits++
			case 'a' <= c && c <= 'z':
				lower++
			case 'A' <= c && c <= 'Z':
				upper++
			default:
				return false
			}
		}
		switch {
		case digits == len(part), lower == len(part), upper == len(part):
		case digits == 0 && upper == 1 && 'A' <= part[0] && part[0] <= 'Z':
		default:
			return false
		}
	}
	return true
}

// The redaction table. The shapes follow the vendors' documented token
// formats (the ones secret scanners such as gitleaks and trufflehog look
// for); the key words cover the spellings configuration files, environment
// dumps, headers and command lines use, in any case.
var redactions = []redaction{
	// Authorization and cookie headers, bearer tokens.
	{"authorization header", []string{"authorization"},
		mustFold(`authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest)[ \t]+)?(?P<s>[^\s"',;\[]+)`), nil, true},
	{"bearer token", []string{"bearer"}, mustFold(`\bbearer[ \t]+(?P<s>[a-z0-9._~+/\-]{8,}=*)`), nil, false},
	{"cookie header", []string{"cookie"}, mustFold(`\b(?:set-)?cookie["']?[ \t]*:[ \t]*(?P<s>[^\s"'\[][^\r\n"']*)`), nil, true},
	// Vendor key shapes.
	{"openai or anthropic key", []string{"sk-"}, regexp.MustCompile(`sk-[A-Za-z0-9_\-]{16,}`), hasDigit, false},
	{"stripe key", []string{"sk_", "rk_", "whsec_"}, regexp.MustCompile(`\b(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{20,})`), nil, false},
	{"aws access key", []string{"akia", "asia", "abia", "acca"}, regexp.MustCompile(`(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}`), nil, false},
	{"github token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`), nil, false},
	{"gitlab token", []string{"glpat-", "gldt-", "glrt-", "glptt-", "glsoat-"}, regexp.MustCompile(`gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_\-]{20,}`), nil, false},
	{"slack token", []string{"xox"}, regexp.MustCompile(`xox[abposre]-[A-Za-z0-9\-]{10,}`), nil, false},
	{"slack webhook", []string{"hooks.slack.com"}, mustFold(`hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9/_\-]{8,})`), nil, false},
	{"google api key", []string{"aiza"}, regexp.MustCompile(`AIza[0-9A-Za-z_\-]{30,}`), nil, false},
	{"npm token", []string{"npm_"}, regexp.MustCompile(`\bnpm_[A-Za-z0-9]{30,}`), nil, false},
	{"hugging face token", []string{"hf_"}, regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`), nil, false},
	{"pypi token", []string{"pypi-"}, regexp.MustCompile(`pypi-AgE[A-Za-z0-9_\-]{40,}`), nil, false},
	{"sendgrid key", []string{"sg."}, regexp.MustCompile(`SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}`), nil, false},
	{"shopify token", []string{"shpat_", "shpca_", "shppa_", "shpss_"}, regexp.MustCompile(`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`), nil, false},
	{"digitalocean token", []string{"_v1_"}, regexp.MustCompile(`do[opr]_v1_[a-f0-9]{64}`), nil, false},
	{"json web token", []string{"eyj"}, regexp.MustCompile(`eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), nil, false},
	{"age key", []string{"age-secret-key-"}, regexp.MustCompile(`AGE-SECRET-KEY-1[0-9A-Z]{50,}`), nil, false},
	// Secrets on command lines: --password x, -p'x', mysql -pSECRET,
	// docker login -p x.
	{"password flag", []string{"-pass", "-pwd", "-token", "-secret", "-api", "-access", "-private", "-client-secret", "-auth"},
		mustFold(`(?:^|[ \t])--?(?:password|passwd|pass|pwd|token|secret|api-?key|access-?key|private-?key|client-secret|auth-token)(?:=|[ \t]+)(?P<s>"[^"\r\n]+"|'[^'\r\n]+'|[^\s"'\-][^\s"']*)`), nil, false},
	{"mysql password", []string{"mysql", "mariadb"}, regexp.MustCompile(`(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\r\n]*?[ \t]-p(?P<s>[^\s'"\-][^\s'"]*|'[^'\r\n]+'|"[^"\r\n]+")`), nil, false},
	{"docker login password", []string{"docker"}, regexp.MustCompile(`docker[ \t]+login\b[^\r\n]*?[ \t](?:-p|--password)(?:[ \t]+|=)(?P<s>[^\s'"]+)`), nil, false},
	// key=value and "key": "value" secrets: password=, token=, api_key:,
	// Api-Key:, PRIVATE-KEY=, …
	{"secret assignment", []string{"pass", "pwd", "secret", "token", "api", "access", "private", "credential"},
		mustFold(`\b(?:[a-z0-9_\-]*(?:password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|credentials?)|(?:[a-z0-9_\-]*[_\-])?(?:pass|pwd))(?:[_\-]?key)?["']?[ \t]*[:=][ \t]*["']?(?P<s>[^\s"'&,;<>=\[\]{}()][^\s"'&,;<>]*)`), notConfigWord, true},
	// A random-looking value after any key-like word: key=, *_KEY:,
	// signature=, salt:, auth=.
	{"random value after a key", []string{"key", "sig", "salt", "auth", "cred", "nonce"},
		mustFold(`\b[a-z0-9_\-]*(?:key|sig|signature|salt|auth|cred|nonce)[a-z0-9_\-]{0,40}["']?[ \t]*[:=][ \t]*["']?(?P<s>[A-Za-z0-9+/_\-.=]{20,})`), random, true},
}

// mustFold compiles a pattern whose letters match in either ASCII case.
// Go's (?i) also folds the long s (U+017F) into s and the Kelvin sign
// (U+212A) into k, which no trigger search would see; mustFold takes those
// two runes out of every character class (they can still appear inside a
// value matched by a negated class, they just end it).
func mustFold(pattern string) *regexp.Regexp {
	re, err := syntax.Parse("(?i)"+pattern, syntax.Perl)
	if err != nil {
		panic(err)
	}
	return regexp.MustCompile(asciiOnlyFold(re).String())
}

func asciiOnlyFold(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			break
		}
		cat := &syntax.Regexp{Op: syntax.OpConcat}
		for _, r := range re.Rune {
			lo, up := unicode.ToLower(r), unicode.ToUpper(r)
			if lo > unicode.MaxASCII || up > unicode.MaxASCII || lo == up {
				cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}})
				continue
			}
			cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune{up, up, lo, lo}})
		}
		return cat
	case syntax.OpCharClass:
		var out []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for _, odd := range []rune{0x17F, 0x212A} {
				if lo <= odd && odd <= hi {
					if lo < odd {
						out = append(out, lo, odd-1)
					}
					lo = odd + 1
				}
			}
			if lo <= hi {
				out = append(out, lo, hi)
			}
		}
		re.Rune = out
	}
	for i, sub := range re.Sub {
		re.Sub[i] = asciiOnlyFold(sub)
	}
	return re
}

// triggerSet finds the lines holding any rule's trigger. A trigger holding
// another one ("-pass" holds "pass") adds nothing to the line search and is
// left out of it. ruleNeedles[i] is the set of needles (bit k for
// the k-th needle of triggerSet) one of which a line must hold for rule i to run.
var triggerSet, ruleNeedles = func() (*needles.Set, []uint64) {
	var all, ts []string
	for _, r := range redactions {
		all = append(all, r.triggers...)
	}
	for _, t := range all {
		redundant := slices.Contains(ts, t)
		for _, u := range all {
			if u != t && strings.Contains(t, u) {
				redundant = true
			}
		}
		if !redundant {
			ts = append(ts, t)
		}
	}
	masks := make([]uint64, len(redactions))
	for i, r := range redactions {
		for _, t := range r.triggers {
			for k, u := range ts {
				if strings.Contains(t, u) {
					masks[i] |= 1 << k
				}
			}
		}
	}
	return needles.NewFold(ts...), masks
}()

const (
	pemBegin = "-----BEGIN "
	pemKey   = "PRIVATE KEY"
	pemEnd   = "-----END "
)

// String returns s with secrets replaced by "[REDACTED]":
//
//   - private key blocks (PEM and PGP), whole;
//   - keys and tokens of known shapes: OpenAI and Anthropic sk-…, Stripe
//     sk_live_/rk_test_/whsec_, AWS AKIA…, GitHub ghp_…/github_pat_…,
//     GitLab glpat-…, Slack xox…- and webhook paths, Google AIza…, npm_,
//     Hugging Face hf_, PyPI, SendGrid, Shopify, DigitalOcean, age keys and
//     JSON web tokens;
//   - Authorization, Cookie and Set-Cookie header values and bearer tokens;
//   - values after secret-like keys in any case and spelling (password,
//     Pwd, API-KEY, Api_Key, access-key, Private-Key, client_secret, token,
//     credentials, …) with ':' or '=' (query strings, environment
//     assignments, JSON, YAML, headers);
//   - command-line secrets: --password x, --token=x, mysql -pSECRET,
//     docker login -p x;
//   - a random-looking value (20+ characters of letters and digits with high
//     entropy) after any key-like word (key, signature, salt, auth, …);
//   - the password of a URL (scheme://user:pass@host →
//     scheme://user:[REDACTED]@host).
//
// Text without secrets is returned as is. String is idempotent.
func String(s string) string {
	s = redactPEM(s)
	s = redactURLPasswords(s)
	// Find the lines holding a trigger of some rule in one pass, then run
	// the rules on those lines only.
	type hitLine struct {
		start int
		found uint64
	}
	var lines []hitLine
	triggerSet.Lines(s, func(start int, found uint64) { lines = append(lines, hitLine{start, found}) })
	if len(lines) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, hl := range lines {
		ls := hl.start
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		line := s[ls:le]
		red := line
		for i := range redactions {
			if ruleNeedles[i]&hl.found == 0 {
				continue
			}
			if r := &redactions[i]; r.hit(red) {
				red = r.apply(red)
			}
		}
		if red == line {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 64)
		}
		b.WriteString(s[last:ls])
		b.WriteString(red)
		last = le
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactPEM replaces every PEM private key block (and PGP private key
// block), from its BEGIN line to the end of its END line, or to the end of s
// when the block is cut off.
func redactPEM(s string) string {
	if !strings.Contains(s, pemKey) {
		return s
	}
	var b strings.Builder
	found := false
	rest := s
	for {
		k, n := indexKeyMarker(rest)
		if k < 0 {
			break
		}
		begin := strings.LastIndex(rest[:k], pemBegin)
		if begin < 0 || strings.Contains(rest[begin:k], "\n") {
			// Not a BEGIN line (an END line, or prose): keep it.
			b.WriteString(rest[:k+n])
			rest = rest[k+n:]
			continue
		}
		if !found {
			found = true
			b.Grow(len(s))
		}
		b.WriteString(rest[:begin])
		b.WriteString(Redacted)
		after := rest[k+n:]
		e := strings.Index(after, pemEnd)
		if e < 0 {
			rest = ""
			break
		}
		tail := after[e:]
		if nl, m := indexKeyMarker(tail); nl >= 0 && !strings.Contains(tail[:nl], "\n") {
			rest = tail[nl+m:]
		} else if nl := strings.IndexByte(tail, '\n'); nl >= 0 {
			rest = tail[nl:]
		} else {
			rest = ""
		}
	}
	if !found {
		return s
	}
	b.WriteString(rest)
	return b.String()
}

// indexKeyMarker finds the first "PRIVATE KEY-----" or "PRIVATE KEY
// BLOCK-----" in s and returns its offset and length, or -1.
func indexKeyMarker(s string) (int, int) {
	for off := 0; ; {
		k := strings.Index(s[off:], pemKey)
		if k < 0 {
			return -1, 0
		}
		k += off
		for _, tail := range []string{"-----", " BLOCK-----"} {
			if strings.HasPrefix(s[k+len(pemKey):], tail) {
				return k, len(pemKey) + len(tail)
			}
		}
		off = k + len(pemKey)
	}
}

// redactURLPasswords replaces the password of every URL with credentials:
// scheme://user:pass@host → scheme://user:[REDACTED]@host.
func redactURLPasswords(s string) string {
	if !strings.Contains(s, "://") || strings.IndexByte(s, '@') < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for off := 0; ; {
		k := strings.Index(s[off:], "://")
		if k < 0 {
			break
		}
		k += off
		start := k + 3
		end := start
		for end < len(s) && !isURLStop(s[end]) && s[end] != '/' && s[end] != '?' && s[end] != '#' {
			end++
		}
		off = end
		if end == start {
			off = start
			continue
		}
		auth := s[start:end]
		at := strings.LastIndexByte(auth, '@')
		if at < 0 {
			continue
		}
		colon := strings.IndexByte(auth[:at], ':')
		if colon < 0 || colon == at-1 || auth[colon+1:at] == Redacted {
			continue
		}
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last : start+colon+1])
		b.WriteString(Redacted)
		last = start + at
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// isURLStop reports whether c ends a URL (whitespace, quotes, brackets).
func isURLStop(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '\\' || c == '|' || c == '{' || c == '}'
}
