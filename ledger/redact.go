package ledger

import (
	"regexp"
	"strings"
)

// Redacted replaces every secret Redact finds.
const Redacted = "[REDACTED]"

// A redaction rule: the regular expression runs only on lines holding one
// of its triggers, which keeps Redact fast on megabytes of tool output.
type redaction struct {
	triggers []string
	// re matches a secret: with no groups the whole match is the secret;
	// with groups, group 2 is the secret and groups 1 and 3 are kept.
	re *regexp.Regexp
	// digit: a match without a digit is not a secret ("sk-" inside
	// "task-runner-configuration").
	digit bool
	// assign: run only when a trigger is the end of a key followed by ':'
	// or '=' ("tokens: 512" does not qualify), or, with need, when the
	// line holds that byte too.
	assign bool
	need   byte
}

// hit reports whether line may hold a match of r.
func (r *redaction) hit(line string) bool {
	if r.need != 0 && strings.IndexByte(line, r.need) < 0 {
		return false
	}
	for _, t := range r.triggers {
		for off := 0; ; {
			k := strings.Index(line[off:], t)
			if k < 0 {
				break
			}
			if !r.assign {
				return true
			}
			j := off + k + len(t)
			for j < len(line) && (isAlpha(line[j]) || line[j] == '_' || line[j] == '-') && j-off-k < 40 {
				j++
			}
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ' ') {
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
	var b strings.Builder
	last := 0
	for _, m := range ms {
		from, to := m[0], m[1]
		if len(m) >= 6 && m[4] >= 0 {
			from, to = m[4], m[5]
		}
		v := line[from:to]
		if r.digit && !strings.ContainsAny(v, "0123456789") {
			continue
		}
		if strings.HasPrefix(v, "[") || strings.EqualFold(v, "bearer") || strings.EqualFold(v, "basic") || strings.EqualFold(v, "token") {
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

var redactions = []redaction{
	// Passwords in URLs: scheme://user:pass@host keeps the user.
	// Bearer and other Authorization header values.
	{[]string{"uthorization", "UTHORIZATION"}, regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*["']?(?:bearer\s+|basic\s+|token\s+)?)([^\s"',;\[]+)`), false, true, 0},
	{[]string{"earer", "EARER"}, regexp.MustCompile(`(?i)(\bbearer\s+)([A-Za-z0-9._~+/\-]{8,}=*)`), false, false, 0},
	// Vendor key shapes.
	{[]string{"sk-"}, regexp.MustCompile(`sk-[A-Za-z0-9_\-]{16,}`), true, false, 0},
	{[]string{"AKIA", "ASIA"}, regexp.MustCompile(`(?:AKIA|ASIA)[0-9A-Z]{16}`), false, false, 0},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`), false, false, 0},
	{[]string{"xox"}, regexp.MustCompile(`xox[abposr]-[A-Za-z0-9\-]{10,}`), false, false, 0},
	{[]string{"AIza"}, regexp.MustCompile(`AIza[0-9A-Za-z_\-]{30,}`), false, false, 0},
	// key=value and "key": "value" secrets: password=, token=, api_key:, …
	{[]string{"assw", "ASSW", "ecret", "ECRET", "oken", "OKEN", "pi_key", "PI_KEY", "pikey", "PIKEY", "piKey", "pi-key", "ccess_key", "CCESS_KEY", "ccessKey", "rivate_key", "RIVATE_KEY", "pwd", "PWD"},
		regexp.MustCompile(`(?i)(\b[a-z0-9_\-]*(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)["']?\s*[:=]\s*["']?)([^\s"'&,;<>=\[][^\s"'&,;<>]*)`), false, true, 0},
}

var triggerSet = func() *needleSet {
	var ts []string
	for _, r := range redactions {
		ts = append(ts, r.triggers...)
	}
	return newNeedleSet(ts...)
}()

const (
	pemBegin = "-----BEGIN "
	pemKey   = "PRIVATE KEY-----"
	pemEnd   = "-----END "
)

// Redact returns s with secrets replaced by "[REDACTED]": PEM private keys
// (the whole block), API keys of known shapes (OpenAI and Anthropic sk-…,
// AWS AKIA…, GitHub ghp_… and github_pat_…, Slack xox…-, Google AIza…),
// Authorization header and bearer token values, password=, token=, secret=
// and api_key= style values (in query strings, environment assignments,
// JSON and YAML), and the password of a URL (scheme://user:pass@host →
// scheme://user:[REDACTED]@host). Text without secrets is returned as is.
// Redact is idempotent.
func Redact(s string) string {
	s = redactPEM(s)
	s = redactURLPasswords(s)
	// Find the lines holding a trigger of some rule in one pass, then run
	// the rules on those lines only.
	var lines []int // line starts
	triggerSet.lines(s, func(start int, _ uint64) { lines = append(lines, start) })
	if len(lines) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, ls := range lines {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		line := s[ls:le]
		red := line
		for i := range redactions {
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

// redactPEM replaces every PEM private key block, from its BEGIN line to
// the end of its END line (or to the end of s when the block is cut off).
func redactPEM(s string) string {
	if !strings.Contains(s, pemKey) {
		return s
	}
	var b strings.Builder
	found := false
	rest := s
	for {
		k := strings.Index(rest, pemKey)
		if k < 0 {
			break
		}
		begin := strings.LastIndex(rest[:k], pemBegin)
		if begin < 0 || strings.Contains(rest[begin:k], "\n") {
			// Not a BEGIN line (an END line, or prose): keep it.
			b.WriteString(rest[:k+len(pemKey)])
			rest = rest[k+len(pemKey):]
			continue
		}
		if !found {
			found = true
			b.Grow(len(s))
		}
		b.WriteString(rest[:begin])
		b.WriteString(Redacted)
		after := rest[k+len(pemKey):]
		e := strings.Index(after, pemEnd)
		if e < 0 {
			rest = ""
			break
		}
		tail := after[e:]
		if nl := strings.Index(tail, pemKey); nl >= 0 && !strings.Contains(tail[:nl], "\n") {
			rest = tail[nl+len(pemKey):]
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
