package ledger

import (
	"strings"
)

// This file holds the recognisers of identifiers.

var issueDeny = map[string]bool{"UTF": true, "SHA": true, "ISO": true, "AES": true, "RSA": true,
	"MD": true, "HTTP": true, "TLS": true, "SSL": true, "IPV": true, "GPT": true, "ES": true,
	"IEEE": true, "ANSI": true, "X": true, "PKCS": true, "ECMA": true, "UTC": true, "GMT": true,
	"TCP": true, "UDP": true, "ARM": true, "LTS": true, "FIPS": true, "KOI": true, "CP": true,
	"EUC": true, "P": true, "H": true, "W": true, "C": true, "E": true}

// ids finds issue keys (ABC-123, ORD-2024-0042), ticket numbers (#1234),
// key=value ids (order_id=…, "request_id": "…"), commit hashes in context
// (commit 3fa9c2d) or standalone 40-hex, and UUIDs.
func (s *scanner) ids(t string, urlSpans [][2]int) {
	defer func() {
		if !s.source {
			s.randomIDs(t, urlSpans, min(s.lineItems, len(s.items)))
			s.addressIDs(t)
			s.describedIDs(t)
		}
	}()
	var covered [][2]int
	skip := func(i int) bool { return inSpans(i, covered) >= 0 || inSpans(i, urlSpans) >= 0 }
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '=' || c == ':' || c == '|' && i > 0 && t[i-1] == ' ':
			// '|': psql's expanded display, "id          | 88412"
			if i == 0 || !(isAlnum(t[i-1]) || t[i-1] == '"' || t[i-1] == '\'' || t[i-1] == ' ') {
				continue
			}
			key, vs, ve, ok := idKeyValue(t, i)
			if !ok || inSpans(i, urlSpans) >= 0 || entityKeys[key] && allDigits(t[vs:ve]) && ve-vs < 5 {
				// "tenant=105" on every line of a log is a field, not a
				// handle worth keeping; "tenant: acme-eu-7" is one.
				continue
			}
			s.add(KindID, key+"="+t[vs:ve])
			covered = append(covered, [2]int{vs, ve})
			i = ve - 1
		case c == '-' && i > 0 && i+1 < len(t) && isDigit(t[i+1]) && (isUpper(t[i-1]) || isDigit(t[i-1])):
			if v, ok := issueKey(t, i); ok && !skip(i) && !s.listed(t) {
				s.add(KindID, v) // not a listing's routine row: its odd ones
			}
		case c == '#' && i > 0 && i+2 < len(t) && isDigit(t[i+1]) && isDigit(t[i+2]) && isAlnum(t[i-1]):
			// owner/repo#123, a reference to another repository's issue.
			if v, ok := repoIssue(t, i); ok && !skip(i) {
				s.add(KindID, v)
			}
		case c == '_' && i >= 2 && i+10 < len(t) && isLower(t[i-1]):
			// cus_PaB3cD4eF5gH6i, ch_3NqLkT2e…: a typed id, a short
			// lower-case prefix and a random tail.
			if v, end, ok := prefixedID(t, i); ok {
				if !skip(i) {
					s.add(KindID, v)
				}
				i = end - 1
			}
		case c == 'a' && strings.HasPrefix(t[i:], "arn:") && (i == 0 || !isWordByte(t[i-1])):
			// arn:aws:lambda:us-east-1:123456789012:function:reaper
			j := i
			for j < len(t) && t[j] != ' ' && t[j] != '"' && t[j] != '\'' && t[j] != ',' && t[j] != ')' {
				j++
			}
			if strings.Count(t[i:j], ":") >= 5 && !skip(i) {
				s.add(KindID, t[i:j])
				covered = append(covered, [2]int{i, j})
			}
			i = j - 1
		case c == '#' && i > 0 && i+2 < len(t) && isDigit(t[i+1]) && isDigit(t[i+2]) && !isAlnum(t[i-1]) && t[i-1] != '&' && t[i-1] != '#':
			j := i + 1
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			if (j == len(t) || !isAlnum(t[j])) && j-i <= 10 && !skip(i) {
				s.add(KindID, t[i:j])
			}
			i = j - 1
		case c == 'g' && i >= 3 && t[i-1] == '-' && isDigit(t[i-2]) && i+7 < len(t) && isHex(t[i+1]):
			// git describe: v1.4.2-14-g5e6f7a8, the commit after "-g".
			j := i + 1
			for j < len(t) && isHex(t[j]) {
				j++
			}
			if j-i-1 >= 7 && j-i-1 <= 40 && (j == len(t) || !isWordByte(t[j])) && !skip(i) {
				s.add(KindID, t[i+1:j])
			}
			i = j - 1
		case c == '!' && i+2 < len(t) && isDigit(t[i+1]) && isDigit(t[i+2]) && (i == 0 || t[i-1] == ' ' || t[i-1] == '(' || isAlnum(t[i-1]) && strings.Contains(t[strings.LastIndexAny(t[:i], " (\"'`")+1:i], "/")):
			// !482, group/project!482: a GitLab merge request.
			j := i + 1
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			from := i
			if i > 0 && t[i-1] != ' ' && t[i-1] != '(' {
				from = strings.LastIndexAny(t[:i], " (\"'`") + 1
			}
			if (j == len(t) || !isAlnum(t[j]) && t[j] != '!') && j-i <= 8 && !skip(i) {
				s.add(KindID, t[from:j])
			}
			i = j - 1
		case c == '0' && i+34 < len(t) && t[i+1] == 'x' && (i == 0 || !isWordByte(t[i-1])):
			// 0x and 32 hex digits or more: a transaction's or a block's
			// hash as chains print it (a pointer has 16 at most).
			j := i + 2
			for j < len(t) && isHex(t[j]) {
				j++
			}
			if j-i-2 >= 32 && (j == len(t) || !isWordByte(t[j])) && !skip(i) {
				s.add(KindID, t[i:j])
			}
			i = j - 1
		case !s.output && isDigit(c) && (i == 0 || !isWordByte(t[i-1]) && t[i-1] != '.') && ipAt(t, i) > 0:
			// "is 10.20.4.31:5432 still the primary?": an address named
			// in a message is the server the work is about. In a tool's
			// output addresses are printed on every line and are not.
			j := portAfter(t, ipAt(t, i))
			if !skip(i) {
				s.add(KindID, t[i:j])
			}
			i = j - 1
		case (isHex(c) || c >= 'A' && c <= 'F') && (i == 0 || !isWordByte(t[i-1]) && t[i-1] != ':') && fingerprintAt(t, i) > 0:
			// 3B:7A:C1:…: a certificate's or a key's fingerprint, pairs
			// of hex digits apart by colons (sixteen or more; a MAC
			// address has six)
			j := fingerprintAt(t, i)
			if !skip(i) {
				s.add(KindID, t[i:j])
			}
			i = j - 1
		case isHex(c) && (i == 0 || !isWordByte(t[i-1])):
			if lsn := lsnAt(t, i); lsn > 0 {
				// 0/16B3748: a PostgreSQL WAL position.
				if !skip(i) {
					s.add(KindID, t[i:lsn])
				}
				i = lsn - 1
				continue
			}
			j := i
			for j < len(t) && isHex(t[j]) {
				j++
			}
			if j < len(t) && isWordByte(t[j]) && t[j] != '-' {
				i = j
				continue
			}
			if j-i == 13 && j+1 < len(t) && t[j] == '-' && t[i] == '1' && allDigits(t[i:j]) && isDigit(t[j+1]) {
				// 1718034221337-0: a Redis stream entry, the epoch
				// milliseconds it was added at and its sequence
				e := j + 1
				for e < len(t) && isDigit(t[e]) && e-j <= 5 {
					e++
				}
				if e == len(t) || !isWordByte(t[e]) && t[e] != '-' && t[e] != '.' {
					if !skip(i) {
						s.add(KindID, t[i:e])
					}
					i = e - 1
					continue
				}
			}
			if j-i == 8 && j < len(t) && t[j] == '-' {
				if u, ok := uuidAt(t, i); ok {
					if !skip(i) {
						s.add(KindID, u)
					}
					i += len(u) - 1
					continue
				}
			}
			if (j == len(t) || t[j] != '-') && (hexHash(t, i, j) || s.digitHash(t, i, j)) && !skip(i) {
				// a digest names its algorithm: sha256:9f86d0…
				from := i
				if i > 0 && t[i-1] == ':' {
					a := i - 1
					for a > 0 && isAlnum(t[a-1]) {
						a--
					}
					if digestAlg(t[a : i-1]) {
						from = a
					}
				}
				s.add(KindID, t[from:j])
			}
			i = j - 1
		}
	}
}

// fingerprintAt returns the end of a fingerprint at t[i:], sixteen pairs
// of hex digits or more apart by colons, or 0.
func fingerprintAt(t string, i int) int {
	hex := func(c byte) bool { return isHex(c) || c >= 'A' && c <= 'F' }
	j, n := i, 0
	for j+1 < len(t) && hex(t[j]) && hex(t[j+1]) {
		n++
		j += 2
		if j+2 < len(t) && t[j] == ':' && hex(t[j+1]) {
			j++
			continue
		}
		break
	}
	if n < 16 || j < len(t) && isWordByte(t[j]) {
		return 0
	}
	return j
}

// ipAt returns the end of the dotted IPv4 address at t[i:] (four numbers
// up to 255, not followed by another dot and number or a word), or 0.
func ipAt(t string, i int) int {
	j := i
	for part := 0; part < 4; part++ {
		if part > 0 {
			if j >= len(t) || t[j] != '.' {
				return 0
			}
			j++
		}
		k := j
		for k < len(t) && isDigit(t[k]) && k-j < 4 {
			k++
		}
		if k == j || k-j > 3 || atoiSmall(t[j:k]) > 255 {
			return 0
		}
		j = k
	}
	if j < len(t) && (isWordByte(t[j]) || t[j] == '.' && j+1 < len(t) && isDigit(t[j+1])) {
		return 0
	}
	return j
}

// portAfter returns the end of a server's port after an address ending at
// j (":5432"), or j: a port below the ephemeral range, which a client's
// side of a connection takes.
func portAfter(t string, j int) int {
	if j >= len(t) || t[j] != ':' {
		return j
	}
	k := j + 1
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	if k == j+1 || k-j-1 > 5 || k < len(t) && isWordByte(t[k]) || atoiSmall(t[j+1:k]) >= 32768 {
		return j
	}
	return k
}

// atoiSmall is the value of a short run of digits.
func atoiSmall(d string) int {
	n := 0
	for i := 0; i < len(d); i++ {
		n = n*10 + int(d[i]-'0')
	}
	return n
}

// lsnAt returns the end of a PostgreSQL log sequence number ("0/16B3748",
// "2A/9F0C1D88") whose first half is t[i:j], or 0: two groups of at most
// eight upper-case hex digits around a '/', the second of six or more and
// holding a letter, standing alone. t[i] is a digit.
func lsnAt(t string, i int) int {
	j := i
	for j < len(t) && j-i <= 8 && (isDigit(t[j]) || t[j] >= 'A' && t[j] <= 'F') {
		j++
	}
	if j-i > 8 || j >= len(t) || t[j] != '/' || i > 0 && (t[i-1] == '/' || t[i-1] == '.') {
		return 0
	}
	k, letter := j+1, false
	for k < len(t) && (isDigit(t[k]) || t[k] >= 'A' && t[k] <= 'F') {
		letter = letter || !isDigit(t[k])
		k++
	}
	if n := k - j - 1; n < 6 || n > 8 || !letter || k < len(t) && (isWordByte(t[k]) || t[k] == '/' || t[k] == '.' && k+1 < len(t) && isAlnum(t[k+1])) {
		return 0
	}
	return k
}

// idKeyValue reads a key=value or "key": "value" id around the '=' or ':'
// at t[k]: a key such as order_id, requestId, TRACE_ID, id, ticket, order
// or issue, and a value of 3–64 id characters holding a digit. It returns
// the key and the value's span.
func idKeyValue(t string, k int) (key string, vs, ve int, ok bool) {
	p := k
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p > 0 && (t[p-1] == '"' || t[p-1] == '\'') {
		p--
	}
	e := p
	for p > 0 && (isAlnum(t[p-1]) || t[p-1] == '_' || t[p-1] == '-' && p > 1 && isAlnum(t[p-2])) {
		p--
	}
	if p == e || e-p > 40 || !isAlpha(t[p]) {
		return "", 0, 0, false
	}
	key = t[p:e]
	if !idKey(key) {
		return "", 0, 0, false
	}
	v := k + 1
	if t[k] == '=' && v < len(t) && t[v] == '>' {
		v++ // Ruby's hash: "order_id"=>"48213"
	}
	for v < len(t) && t[v] == ' ' {
		v++
	}
	if v < len(t) && (t[v] == '"' || t[v] == '\'') {
		v++
	}
	if r, ok := strings.CutPrefix(t[v:], "Root="); ok && len(r) > 0 {
		v = len(t) - len(r) // X-Amzn-Trace-Id: Root=1-67891233-abcdef012345678912345678;Parent=…
	}
	if v >= len(t) || !isAlnum(t[v]) {
		return "", 0, 0, false
	}
	w := v
	digit := false
	// '+' for a run id stamped with its zone: scheduled__2026-11-30T00:00:00+00:00
	for w < len(t) && w-v < 128 && (isAlnum(t[w]) || strings.IndexByte("_.:-+", t[w]) >= 0) {
		digit = digit || isDigit(t[w])
		w++
	}
	for w > v && strings.IndexByte(".:-+", t[w-1]) >= 0 {
		w--
	}
	if w-v < 3 || !digit || w < len(t) && (isAlnum(t[w]) || strings.IndexByte("_.:-+", t[w]) >= 0) {
		return "", 0, 0, false
	}
	return key, v, w, true
}

// entityKeys name who a line is about; their values are ids when they
// read as names or long numbers (see ids).
var entityKeys = map[string]bool{"tenant": true, "account": true, "customer": true}

// keyNouns end a key whose value identifies one thing to find again: a
// build, a job, a random seed, an error's digest.
var keyNouns = map[string]bool{"digest": true, "seed": true, "fingerprint": true, "project": true, "jid": true,
	"lease": true, "snapshot": true, "build": true, "job": true, "incident": true, "revision": true}

func idKey(k string) bool {
	switch k {
	case "id", "ID", "Id", "pk", "ticket", "order", "issue", "ticket_no", "order_no", "order_number",
		"reference", "ref", "guid", "uid", "uuid", "sku", "correlation":
		return true
	}
	if entityKeys[k] {
		return true
	}
	// the last word of the key names what the value identifies:
	// digest: '2188491072', --randomly-seed=3821947165, project = acme-prod-381204
	last := strings.ToLower(k[max(strings.LastIndexAny(k, "-_"), -1)+1:])
	if keyNouns[last] {
		return true
	}
	n := len(k)
	if n > 3 && (strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_ID") || strings.HasSuffix(k, "_ref") || strings.HasSuffix(k, "_uid")) {
		return true
	}
	// X-Request-Id, x-amz-request-id: a header naming an id; the trace
	// headers (traceparent, x-cloud-trace-context, X-B3-TraceId).
	if low := strings.ToLower(k); n > 3 && strings.Contains(k, "-") && strings.HasSuffix(low, "-id") ||
		low == "traceparent" || strings.HasSuffix(low, "-trace-context") || strings.HasSuffix(low, "-traceid") {
		return true
	}
	// requestId, traceID, WorkflowId, InstanceId: an "Id" or "ID" ending
	// after a lower-case letter.
	return n > 3 && isAlpha(k[0]) && isLower(k[n-3]) && (strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID"))
}

// issueKey reads an issue key whose first '-' is at t[dash].
func issueKey(t string, dash int) (string, bool) {
	start := dash
	for start > 0 && (isUpper(t[start-1]) || isDigit(t[start-1])) {
		start--
	}
	if start == dash || !isUpper(t[start]) || dash-start > 10 {
		return "", false
	}
	slash := start > 0 && t[start-1] == '/'
	if start > 0 && (isAlnum(t[start-1]) || t[start-1] == '_' || t[start-1] == '-' || t[start-1] == '.') {
		return "", false
	}
	if issueDeny[t[start:dash]] {
		return "", false
	}
	end := dash
	for end < len(t) && t[end] == '-' && end+1 < len(t) && isDigit(t[end+1]) {
		end++
		n := 0
		for end < len(t) && isDigit(t[end]) {
			end++
			n++
		}
		if n > 8 {
			return "", false
		}
		// Sentry's short ids mix capitals into the number: BACKEND-3F2.
		k := end
		for k < len(t) && (isUpper(t[k]) || isDigit(t[k])) {
			k++
		}
		if k > end && n+k-end <= 6 && (k == len(t) || !isAlnum(t[k]) && t[k] != '_') && !unitLetters(t[end:k]) {
			end = k
		}
	}
	// A trailing capital suffix: ORD-7781-XK.
	if end > dash+1 && end+2 < len(t) && t[end] == '-' && isUpper(t[end+1]) {
		k := end + 1
		for k < len(t) && (isUpper(t[k]) || isDigit(t[k])) {
			k++
		}
		if k-end-1 <= 4 && (k == len(t) || !isAlnum(t[k]) && t[k] != '_' && t[k] != '-') && !wordSuffixes[t[end+1:k]] {
			end = k
		}
	}
	if end < len(t) && (isAlpha(t[end]) || t[end] == '_' || (t[end] == '.' && end+1 < len(t) && isDigit(t[end+1]))) {
		return "", false
	}
	// After a '/', only a branch's key: feature/ENG-4821-retry,
	// fix/ENG-4821 (not docs/RFC-0042.md or ../ENG-4821).
	if slash && !(end < len(t) && t[end] == '-' && end+1 < len(t) && isAlpha(t[end+1])) && !branchPrefix(t[:start-1]) {
		return "", false
	}
	return t[start:end], true
}

// unitLetters reports whether the capitals after a key's number are a
// unit or a model's size (XR-200B, M2-1TB, MODEL-3X), not part of an id.
func unitLetters(g string) bool {
	switch strings.TrimLeft(g, "0123456789") {
	case "B", "KB", "MB", "GB", "TB", "PB", "K", "M", "G", "T", "P", "X", "W", "V", "HZ", "MHZ", "GHZ", "MS", "S", "D", "H":
		return true
	}
	return false
}

// wordSuffixes are words written after a key as a note, not part of it:
// ENG-4821-WIP.
var wordSuffixes = map[string]bool{"WIP": true, "TBD": true, "TODO": true, "FIX": true, "DONE": true, "OLD": true, "NEW": true, "RC": true}

// branchPrefix reports whether t ends with a branch name's kind: feature,
// fix, bugfix, hotfix, chore, release.
func branchPrefix(t string) bool {
	k := len(t)
	for k > 0 && isLower(t[k-1]) {
		k--
	}
	switch t[k:] {
	case "feature", "feat", "fix", "bugfix", "hotfix", "chore", "release", "topic":
		return k == 0 || !isWordByte(t[k-1]) && t[k-1] != '/' && t[k-1] != '.'
	}
	return false
}

// uuidAt reads a UUID starting at t[i].
func uuidAt(t string, i int) (string, bool) {
	const n = 36
	if i+n > len(t) {
		return "", false
	}
	for k := 0; k < n; k++ {
		c := t[i+k]
		if k == 8 || k == 13 || k == 18 || k == 23 {
			if c != '-' {
				return "", false
			}
		} else if !isHex(c) {
			return "", false
		}
	}
	if i+n < len(t) && (isWordByte(t[i+n]) || t[i+n] == '-') {
		return "", false
	}
	return t[i : i+n], true
}

var hashContext = []string{"commit", "sha", "hash", "rev", "head", "merge", "checkout", "cherry", "revert", "digest", "at ",
	"container", "image", "objectid(", "trace", "span", "blob", "object", "build", "instance", "snapshot",
	"deploy", "release", "rolled back", "rollback", "pushed", "tag", "wip on"}

// repoIssue reads owner/repo#123 whose '#' is at t[hash].
func repoIssue(t string, hash int) (string, bool) {
	start := hash
	for start > 0 && (isAlnum(t[start-1]) || strings.IndexByte("_.-/", t[start-1]) >= 0) {
		start--
	}
	slash := strings.IndexByte(t[start:hash], '/')
	if slash <= 0 || start+slash+1 >= hash || strings.Count(t[start:hash], "/") != 1 || !isAlnum(t[start]) {
		return "", false
	}
	end := hash + 1
	for end < len(t) && isDigit(t[end]) {
		end++
	}
	if end-hash > 8 || end < len(t) && isWordByte(t[end]) {
		return "", false
	}
	return t[start:end], true
}

// prefixedID reads a typed id whose '_' is at t[us]: a lower-case prefix of
// 2–6 letters starting a word, and a tail of 10–40 letters and digits with
// at least two of each and no further '_' (cus_PaB3cD4eF5gH6i, req_01HZX…).
// A snake_case name has no such tail. It returns the id and its end.
func prefixedID(t string, us int) (string, int, bool) {
	start := us
	for start > 0 && isLower(t[start-1]) {
		start--
	}
	if us-start < 2 || us-start > 6 || start > 0 && (isWordByte(t[start-1]) || t[start-1] == '-') {
		return "", 0, false
	}
	end := us + 1
	digits, letters := 0, 0
	for end < len(t) && isAlnum(t[end]) {
		if isDigit(t[end]) {
			digits++
		} else {
			letters++
		}
		end++
	}
	n := end - us - 1
	// sub_1OaBcDeFgHiJkLmN: a long tail of mixed case needs only one digit
	if digits == 1 && n >= 14 && mixedCase(t[us+1:end]) {
		digits = 2
	}
	// jr_218f…662f: AWS Glue's job runs carry a sha256 after the prefix
	if n < 10 || n > 72 || digits < 2 || letters < 2 || end < len(t) && (isWordByte(t[end]) || t[end] == '-') {
		return "", 0, false
	}
	return t[start:end], end, true
}

// hexHash decides whether the hex run t[i:j] is a hash: 40 or 64 digits
// standing alone, or 7–64 digits with a digit and a letter after a word
// such as commit, sha, hash or revision, in git's "[main 3fa9c2d]", or
// starting a line of git log --oneline.
func hexHash(t string, i, j int) bool {
	n := j - i
	if n < 7 || n > 64 {
		return false
	}
	digit, letter := false, false
	for k := i; k < j; k++ {
		if isDigit(t[k]) {
			digit = true
		} else {
			letter = true
		}
	}
	if !digit || !letter {
		return false
	}
	if n == 40 || n == 64 {
		return true
	}
	if n <= 40 && (strings.HasPrefix(t[j:], "..") || i >= 2 && t[i-2:i] == "..") {
		return true // a range of commits: 3fa9c2d..8b1e5c0, as git push and pull print it
	}
	if i > 0 && t[i-1] == ' ' && j < len(t) && t[j] == ']' && strings.LastIndexByte(t[:i], '[') >= 0 {
		return true // [main 3fa9c2d] message
	}
	if i == 0 && n <= 12 && j+1 < len(t) && t[j] == ' ' && t[j+1] != ' ' {
		return true // git log --oneline: "3fa9c2d Fix the reload race (#483)"
	}
	from := max(0, i-12)
	ctx := strings.ToLower(t[from:i])
	for _, w := range hashContext {
		if strings.Contains(ctx, w) {
			return true
		}
	}
	return false
}

// digestAlg reports whether a word names a hash algorithm.
func digestAlg(w string) bool {
	switch strings.ToLower(w) {
	case "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "blake2b", "blake3", "crc32":
		return true
	}
	return false
}

// randomIDs adds the tokens of t that look generated rather than written:
// a segment of mixed hex (run-7f3e9a, a3f9e2c1b7d4, gke-pool-2-8f3a1c2d-9xkq),
// of letters and digits alternating (i-0a1b2c3d4e5f67890,
// cs_live_a1B2c3D4e5F6g7H8), a ticket glued to its number (INC0012345), a
// short word and a number (pr-1184) or a migration's timestamped name
// (20261130094512_add_orders_tenant_index). Ids, container and node
// names, request and job handles take these shapes in any tool's output,
// whatever key or context word comes with them. Tokens next to '/', '.'
// and '@' belong to paths, host names and versions; what an earlier
// recogniser of this line found (from item n0 on) is not added twice; the
// routine rows of a listing (forty healthy pods) are left to the odd and
// loud ones.
func (s *scanner) randomIDs(t string, urlSpans [][2]int, n0 int) {
	if !strings.ContainsAny(t, "0123456789") {
		return // every shape below holds a digit
	}
	s.numberedIDs(t, urlSpans, n0)
	if s.cell {
		s.rowKey(t, n0)
	}
	listed := -1 // whether t is a listing's routine row, worked out once
	for i := 0; i < len(t); {
		if !isAlnum(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && (isAlnum(t[j]) || t[j] == '-' || t[j] == '_') {
			j++
		}
		start, end := i, j
		i = j
		for end > start && (t[end-1] == '-' || t[end-1] == '_') {
			end--
		}
		if end-start < 6 || end-start > 96 || inSpans(start, urlSpans) >= 0 {
			continue
		}
		if start > 0 && strings.IndexByte("/.:@+\\$%&", t[start-1]) >= 0 && !kindSlash(t, start) && !appMigration(t, start, end) {
			continue
		}
		if start > 0 && t[start-1] == '#' && end-start < 8 {
			continue // a colour (#A1B2C3), not "Order #B7F3A1C9D2E4"
		}
		if end < len(t) {
			c := t[end]
			if c == '/' || c == '@' || c == '+' || c == '=' || c == '\\' || c == '(' ||
				(c == '.' || c == ':') && end+1 < len(t) && isAlnum(t[end+1]) {
				continue
			}
		}
		tok := t[start:end]
		if !generatedID(tok) {
			continue
		}
		if listed < 0 {
			listed = 0
			if s.listed(t) {
				listed = 1
			}
		}
		if listed == 1 {
			continue
		}
		dup := false
		for _, it := range s.items[n0:] {
			if strings.Contains(it.Value, tok) || strings.Contains(tok, it.Value) {
				dup = true
				break
			}
		}
		if !dup {
			s.add(KindID, tok)
		}
	}
}

// generatedID reports whether a token of letters, digits, '-' and '_'
// looks generated (see randomIDs).
func generatedID(tok string) bool {
	if strings.HasPrefix(tok, "0x") || strings.HasPrefix(tok, "0X") || notGenerated[strings.ToLower(tok)] {
		return false
	}
	// the segments between '-' and '_', read in place
	nseg, first, second, quads, quads2 := 0, "", "", 0, 0
	for i := 0; i < len(tok); {
		j := i
		for j < len(tok) && tok[j] != '-' && tok[j] != '_' {
			j++
		}
		if j > i {
			g := tok[i:j]
			// a hex word alone (a1b2c3, 3fa2bc) needs eight digits to be
			// more than a colour or a short word
			if randomSegment(g) && (len(g) >= 8 || len(g) < len(tok) || !allHex(g) || len(g) == 7 && flips(g) >= 4) {
				return true
			}
			if mixedQuad(g) {
				quads++
				if flips(g) >= 2 {
					quads2++
				}
			}
			switch nseg {
			case 0:
				first = g
			case 1:
				second = g
			}
			nseg++
		}
		i = j + 1
	}
	// GHSA-9w8x-4h5c-2jqf: three or more short groups of letters and
	// digits mixed, two of them more than once (not amd64-arm64-s390x or
	// cu118-cu121-cu124, lists of names).
	if quads >= 3 && quads2 >= 2 {
		return true
	}
	// GHSA-9w8x-4h5c-2jqf, GHSA-qhwv-7627-g46x: an upper-case prefix and
	// three or more groups of one length, letters and digits drawn at
	// random (a group may hold only one or the other).
	if nseg >= 4 && upperPrefixGroups(tok) {
		return true
	}
	// PWALMWQAVRT3TQ, Q0FW3FQBGQE329: twelve or more upper-case letters and
	// digits in one word, as incident and job handles are printed.
	if nseg == 1 && len(tok) >= 12 && upperAlnum(tok) {
		return true
	}
	// INC0012345, CHG0031337: a ticket's letters glued to its number.
	if nseg == 1 {
		k := 0
		for k < len(tok) && isUpper(tok[k]) {
			k++
		}
		if k >= 2 && k <= 6 && len(tok)-k >= 5 && allDigits(tok[k:]) && !issueDeny[tok[:k]] {
			return true
		}
	}
	if nseg == 2 && strings.Count(tok, "-")+strings.Count(tok, "_") == 1 {
		a, b := first, second
		// pr-1184, job-20417: a short word and a number.
		if strings.Contains(tok, "-") && len(a) >= 2 && len(a) <= 10 && allLower(a) && len(b) >= 3 && len(b) <= 9 &&
			allDigits(b) && !issueDeny[strings.ToUpper(a)] && !wordNumberDeny[a] {
			return true
		}
	}
	// user_48213, ledger_email_93237, inv-2026-0042: words, then a number
	// of three digits or more, or two numbers.
	if nseg >= 2 && namedNumber(tok) {
		return true
	}
	// 20261130094512_add_orders_tenant_index, 0042_orders_tenant_idx: a
	// migration's name, timestamped (Rails, Prisma) or numbered (Django;
	// three words or more, not 0001_initial).
	if nseg >= 2 && (len(first) >= 8 && len(first) <= 14 || len(first) == 4 && nseg >= 3) && allDigits(first) && len(tok) > len(first) && tok[len(first)] == '_' && allLower(second) {
		return true
	}
	// 1701234567890-0: a Redis stream entry, milliseconds and a sequence.
	if nseg == 2 && len(first) == 13 && allDigits(first) && len(second) <= 6 && allDigits(second) && strings.Count(tok, "-") == 1 {
		return true
	}
	// api-00042-xiz: a Cloud Run or Knative revision, the service's name,
	// a zero-padded generation and a short random tail.
	if nseg >= 3 && allLower(first) {
		last := strings.LastIndexByte(tok, '-')
		gen := strings.LastIndexByte(tok[:max(last, 0)], '-')
		if last > 0 && gen >= 0 && len(tok)-last-1 == 3 && isLowerAlnum(tok[last+1:]) && last-gen-1 == 5 && tok[gen+1] == '0' && allDigits(tok[gen+1:last]) {
			return true
		}
	}
	// wf-build-x7k2p, api-x2x9z: a name Kubernetes generated from a
	// prefix, its five-character tail of letters and digits mixed.
	if nseg >= 2 && allLower(first) && len(first) >= 2 {
		if g := tok[max(strings.LastIndexByte(tok, '-'), strings.LastIndexByte(tok, '_'))+1:]; len(g) == 5 && flips(g) >= 3 && isLowerAlnum(g) {
			return true
		}
	}
	return false
}

// appMigration reports whether t[start:end], after a '.', is a numbered
// migration under its app's label: Django's "Applying billing.0042_invoice_tenant_idx".
func appMigration(t string, start, end int) bool {
	return t[start-1] == '.' && start >= 2 && isLower(t[start-2]) && end-start > 5 && allDigits(t[start:start+4]) && t[start+4] == '_'
}

// isLowerAlnum reports whether g holds only lower-case letters and digits.
func isLowerAlnum(g string) bool {
	for i := 0; i < len(g); i++ {
		if !isDigit(g[i]) && !isLower(g[i]) {
			return false
		}
	}
	return true
}

// randomSegment reports whether a segment of a token is a generated tail:
// six or more hex digits with at least two digits and two letters, not in
// one run each, or six or more letters and digits alternating at least
// three times.
func randomSegment(g string) bool {
	if len(g) < 6 {
		return false
	}
	// float64ToInt32, parseV2Header1, v1beta1: names and versions, not
	// random tails (a name starts with a word of four letters or more);
	// but twenty or more lower-case letters and digits changing places
	// five times or more are drawn at random (a swarm task's
	// vrcv8kjuc6x0rxqckyukfgpza), whatever letters they start with
	if k := lowerRun(g); k >= 4 && k < len(g) && !(len(g) >= 12 && allHex(g)) && !longRandom(g) || versionTag(g) {
		return false
	}
	digits, letters, hex, flips := 0, 0, true, 0
	for k := 0; k < len(g); k++ {
		c := g[k]
		switch {
		case isDigit(c):
			digits++
		case isAlpha(c):
			letters++
			hex = hex && c >= 'a' && c <= 'f'
		default:
			return false
		}
		if k > 0 && isDigit(c) != isDigit(g[k-1]) {
			flips++
		}
	}
	if hex && digits >= 2 && letters >= 2 && flips >= 2 {
		return true // not cafe1234, a word and a number
	}
	return digits >= 2 && letters >= 3 && flips >= 3
}

// longRandom reports whether g is twenty or more lower-case letters and
// digits with digits and letters changing places at least five times.
func longRandom(g string) bool {
	return len(g) >= 20 && isLowerAlnum(g) && flips(g) >= 5
}

// flips counts the changes between digits and letters along g.
func flips(g string) int {
	n := 0
	for k := 1; k < len(g); k++ {
		if isDigit(g[k]) != isDigit(g[k-1]) {
			n++
		}
	}
	return n
}

// upperPrefixGroups reports whether tok is an upper-case word of two to
// eight letters, then three or more '-' groups of one length (three to
// six) of lower-case letters and digits, holding at least one of each.
func upperPrefixGroups(tok string) bool {
	groups := strings.Split(tok, "-")
	if len(groups) < 4 || len(groups[0]) < 2 || len(groups[0]) > 8 {
		return false
	}
	for k := 0; k < len(groups[0]); k++ {
		if !isUpper(groups[0][k]) {
			return false
		}
	}
	n, digit, letter := len(groups[1]), false, false
	for _, g := range groups[1:] {
		if len(g) != n || n < 3 || n > 6 || !isLowerAlnum(g) {
			return false
		}
		digit = digit || strings.ContainsAny(g, "0123456789")
		letter = letter || strings.IndexFunc(g, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0
	}
	return digit && letter
}

// upperAlnum reports whether tok holds only upper-case letters and
// digits, at least one digit and six letters.
func upperAlnum(tok string) bool {
	digits, letters := 0, 0
	for k := 0; k < len(tok); k++ {
		switch c := tok[k]; {
		case isDigit(c):
			digits++
		case isUpper(c):
			letters++
		default:
			return false
		}
	}
	return digits >= 1 && letters >= 6
}

// mixedQuad reports a group of four or five letters and digits holding at
// least one of each ("9w8x", "2jqf"); three of them in one token are
// generated, where one or two may be words ("utf8", "ipv6").
func mixedQuad(g string) bool {
	if len(g) < 4 || len(g) > 5 {
		return false
	}
	for k := 0; k < len(g); k++ {
		if !isAlnum(g[k]) {
			return false
		}
	}
	return flips(g) >= 1
}

// notGenerated are tokens that look generated but are names.
var notGenerated = map[string]bool{"utf8mb4": true, "utf8mb3": true, "x86_64": true, "aarch64": true,
	"linux-amd64": true, "linux-arm64": true, "darwin-arm64": true, "darwin-amd64": true, "windows-amd64": true}

// wordNumberDeny are words before a number that name a standard, a size or
// a position, not a handle: sha-256, line-120, port-8080.
var wordNumberDeny = map[string]bool{"sha": true, "aes": true, "rfc": true, "iso": true, "utf": true,
	"line": true, "lines": true, "port": true, "page": true, "step": true, "item": true, "chapter": true,
	"section": true, "version": true, "ver": true, "http": true, "code": true, "status": true, "error": true,
	"iso8859": true, "ecma": true, "ieee": true, "cve": true, "pep": true, "python": true, "node": true,
	"java": true, "jdk": true, "go": true, "postgres": true, "pg": true, "mysql": true, "redis": true,
	"windows": true, "ubuntu": true, "debian": true, "centos": true, "fedora": true, "alpine": true,
	"rhel": true, "cp": true, "latin": true, "api": true, "macos": true, "ios": true, "android": true}

func allLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLower(s[i]) {
			return false
		}
	}
	return s != ""
}

// idNouns name a thing by its number: "order 48213", "PR 4412", "build
// 6543219", "job #20417". Positions and sizes ("line 42", "port 8080",
// "step 3") are not among them.
var idNouns = map[string]bool{"order": true, "invoice": true, "pr": true, "mr": true, "issue": true,
	"ticket": true, "build": true, "job": true, "incident": true, "story": true,
	"bug": true, "tenant": true, "account": true, "customer": true, "shipment": true, "payment": true,
	"transaction": true, "txn": true, "deployment": true, "deploy": true, "pipeline": true,
	"workflow": true, "org": true, "project": true, "merchant": true, "subscription": true,
	"refund": true, "pull": true, "changeset": true, "revision": true, "task": true,
	"id": true, "session": true, "event": true, "alloc": true, "allocation": true,
	"user": true, "member": true, "employee": true, "patient": true, "device": true, "product": true,
	"booking": true, "reservation": true, "contract": true, "claim": true, "loan": true, "policy": true,
	"cart": true, "parcel": true, "vendor": true, "supplier": true, "driver": true, "trip": true}

// longIDNouns name a thing by its number only when the number is long:
// "batch 202611300042", "run 7712345678", not "batch 256" or "run 100".
var longIDNouns = map[string]bool{"batch": true, "run": true, "request": true, "case": true,
	"record": true, "release": true, "execution": true, "attempt": true, "message": true}

// numberedIDs adds "noun N" ids: a noun of idNouns, then an optional '#',
// "no." or "number", then three to twenty digits standing alone (a
// Snowflake or Pub/Sub id is 16 to 19).
func (s *scanner) numberedIDs(t string, urlSpans [][2]int, n0 int) {
	for i := 0; i < len(t); i++ {
		if isDigit(t[i]) && i > 1 && t[i-1] == '/' {
			// "GET /api/users/48213", "orders/48213": a REST resource
			// under its collection
			if v, end := resourceID(t, i); end > 0 && inSpans(i, urlSpans) < 0 {
				s.add(KindID, v)
				i = end
			}
			continue
		}
		if !isDigit(t[i]) || i == 0 || isWordByte(t[i-1]) || t[i-1] == '.' || t[i-1] == '-' || t[i-1] == '/' {
			continue
		}
		j := i
		for j < len(t) && isDigit(t[j]) {
			j++
		}
		n := j - i
		if n < 3 || n > 20 || j < len(t) && (isWordByte(t[j]) || t[j] == '.' && j+1 < len(t) && isDigit(t[j+1]) || t[j] == '/' || t[j] == '-' ||
			t[j] == ':' && j+1 < len(t) && isDigit(t[j+1])) || quantityAfter(t, j) || ofTotal(t, j) {
			i = j
			continue
		}
		// the word before, past '#', "no." or "number"
		k := i
		if t[k-1] == '#' {
			k--
		}
		for k > 0 && t[k-1] == ' ' {
			k--
		}
		if k > 2 && t[k-1] == '.' && strings.EqualFold(t[k-3:k-1], "no") {
			k-- // "no. 1182"
		}
		w := k
		for w > 0 && isAlpha(t[w-1]) {
			w--
		}
		word := strings.ToLower(t[w:k])
		if word == "number" || word == "no" {
			k2 := w
			for k2 > 0 && (t[k2-1] == ' ' || t[k2-1] == '.') {
				k2--
			}
			w2 := k2
			for w2 > 0 && isAlpha(t[w2-1]) {
				w2--
			}
			word, w = strings.ToLower(t[w2:k2]), w2
		}
		if w < k && (idNouns[word] || longIDNouns[word] && n >= 6) && (w == 0 || !isWordByte(t[w-1])) && inSpans(i, urlSpans) < 0 {
			v := t[w:j]
			dup := false
			for _, it := range s.items[n0:] {
				if strings.Contains(it.Value, t[i:j]) {
					dup = true
					break
				}
			}
			if !dup {
				s.add(KindID, v)
			}
		}
		i = j
	}
}

// resourceID reads "users/48213" around the number at t[i], after a '/':
// a collection named by the plural of a noun that numbers things (idNouns),
// and three to twenty digits ending the segment. It returns the id and the
// end of the number, or 0.
func resourceID(t string, i int) (string, int) {
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j-i < 3 || j-i > 20 || j < len(t) && (isWordByte(t[j]) || t[j] == '.' || t[j] == '-') {
		return "", 0
	}
	w := i - 1
	for w > 0 && (isLower(t[w-1]) || t[w-1] == '_') {
		w--
	}
	coll := t[w : i-1]
	if w > 0 && t[w-1] != '/' && t[w-1] != ' ' && t[w-1] != '"' && t[w-1] != '\'' {
		return "", 0
	}
	one := strings.TrimSuffix(coll, "s")
	if one == coll || !idNouns[one] && !idNouns[strings.TrimSuffix(one, "e")] {
		return "", 0 // not a plural: "v2/123", "line/420"
	}
	return t[w:j], j
}

// quantityAfter reports whether a number is followed by a unit of
// measure (the measurement reader's: "250 ms", "64 MB", "5%") or by what
// it counts ("200 users", "20000 rows"): a quantity, not a number naming a
// thing.
func quantityAfter(t string, j int) bool {
	k, unit := unitAfter(t, j)
	if unit != "" {
		return true
	}
	w := firstWord(t[k:])
	switch strings.ToLower(w) {
	case "rows", "items", "times", "users", "tokens", "lines", "files", "tests", "errors", "requests", "bytes", "days",
		"iterations", "messages", "events", "records", "entries", "steps", "retries", "attempts", "calls",
		"queries", "samples", "keys", "objects", "chunks", "pages":
		return true
	}
	return false
}

// ofTotal reports whether a number is followed by "of" and another number:
// a position in a run ("event 1000 of 25000"), not a name.
func ofTotal(t string, j int) bool {
	r, ok := strings.CutPrefix(t[j:], " of ")
	return ok && r != "" && isDigit(r[0])
}

// lowerRun returns the length of g's leading run of lower-case letters.
func lowerRun(g string) int {
	k := 0
	for k < len(g) && isLower(g[k]) {
		k++
	}
	return k
}

// versionTag reports an API version tag: v1beta1, v2alpha3, v1rc2.
func versionTag(g string) bool {
	if len(g) < 4 || g[0] != 'v' || !isDigit(g[1]) {
		return false
	}
	k := 1
	for k < len(g) && isDigit(g[k]) {
		k++
	}
	for _, w := range []string{"alpha", "beta", "rc", "pre"} {
		if r, ok := strings.CutPrefix(g[k:], w); ok && allDigitsOrEmpty(r) {
			return true
		}
	}
	return false
}

func allDigitsOrEmpty(s string) bool { return s == "" || allDigits(s) }

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// digitHash reports whether the digits t[i:j] are a short hash that
// happens to be all digits, opening a line of git's one-line log
// ("2637798 Route the route planner (#139)"): only in a git command's
// output, where a line's first number is not a timestamp or a size.
func (s *scanner) digitHash(t string, i, j int) bool {
	if i != 0 || j-i < 7 || j-i > 12 || j+1 >= len(t) || t[j] != ' ' || !isUpper(t[j+1]) || !allDigits(t[i:j]) {
		return false
	}
	for k := range s.items {
		if it := &s.items[k]; it.Kind == KindCommand {
			for _, c := range []string{"git log", "git show", "git reflog", "git rev-list", "git cherry"} {
				if strings.HasPrefix(it.Value, c) {
					return true
				}
			}
		}
	}
	return false
}

// rowKey adds the first value of a table's row holding a value of its own
// (markOddCells) as an id when it reads as one: the row's key, "48213" in
// the one row marked stuck, "nightly-billing-28301774" in the one job at
// 0/1. A number of three digits or more, a generated token, words and a
// number, or a name ending in a number of four digits or more; not a line
// number (followed by a tab, '→' or ':'), a time, a date, a size, a
// version, a file's name or a benchmark's ("BenchmarkSplit-8").
func (s *scanner) rowKey(t string, n0 int) {
	i := 0
	for i < len(t) && (t[i] == '|' || t[i] == '*' || t[i] == ' ' || t[i] == '\t') {
		i++
	}
	quoted := i < len(t) && t[i] == '"' // a CSV row's "value",
	if quoted {
		i++
	}
	j := i
	digit := false
	for j < len(t) && (isAlnum(t[j]) || t[j] == '-' || t[j] == '_' || t[j] == '.') {
		digit = digit || isDigit(t[j])
		j++
	}
	for j > i && (t[j-1] == '.' || t[j-1] == '-') {
		j--
	}
	if !digit || j-i < 3 || j-i > 64 || j < len(t) && t[j] != ' ' && t[j] != '\t' && t[j] != '|' && t[j] != ',' && !(quoted && t[j] == '"') {
		return
	}
	tok := t[i:j]
	if strings.IndexByte(tok, '.') >= 0 || tok[0] == 'v' && len(tok) > 1 && isDigit(tok[1]) || quantityAfter(t, j) ||
		j < len(t) && (t[j] == '\t' || t[j] == ':') || strings.HasPrefix(t[j:], "→") {
		return // 10.0.3.7, 1.4.2, file_004.parquet, v1.30.2, "512 MB", "  104\t…"
	}
	if !idLikeKey(tok) && !(len(tok) >= 12 && mixedToken(tok)) {
		// a long key of letters and digits is the row's handle whatever
		// its shape (Trino's 20260422_085040_46706_dnofz)
		return
	}
	for _, it := range s.items[n0:] {
		if strings.Contains(it.Value, tok) {
			return
		}
	}
	s.add(KindID, tok)
}

// mixedToken reports whether a token holds letters and a run of five
// digits or more: a generated handle, not a name with a number
// (BenchmarkPad-8, BenchmarkDecode8192-8).
func mixedToken(tok string) bool {
	letter, digits := false, 0
	for i := 0; i < len(tok); i++ {
		letter = letter || isAlpha(tok[i])
		if isDigit(tok[i]) {
			digits++
		}
	}
	return letter && digits >= 4 && longestDigits(tok) >= 5
}

// idLikeKey reports whether a table's first value reads as an id (see
// rowKey).
func idLikeKey(tok string) bool {
	if allDigits(tok) {
		return len(tok) >= 3
	}
	if isDigit(tok[0]) && strings.ContainsAny(tok, "-:") {
		// 2026-11-30, 10:02:11; but a job named by its start and a
		// long number (Dataflow's 2026-04-17_02_36_10-1040089744192338245)
		return len(tok) >= 24 && longestDigits(tok) >= 10
	}
	if generatedID(tok) || namedNumber(tok) {
		return true
	}
	k := strings.LastIndexAny(tok, "-_")
	if k > 0 && len(tok)-k-1 >= 6 && isUpper(tok[0]) && upperCode(tok[k+1:]) {
		return true // ORD-XTQMHY86: a code of capitals and digits after a prefix
	}
	return k > 0 && len(tok)-k-1 >= 4 && allDigits(tok[k+1:])
}

// longestDigits returns the length of the longest run of digits in s.
func longestDigits(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// upperCode reports whether s is capitals and digits, with a digit.
func upperCode(s string) bool {
	digit := false
	for i := 0; i < len(s); i++ {
		switch {
		case isDigit(s[i]):
			digit = true
		case !isUpper(s[i]):
			return false
		}
	}
	return digit
}

// mixedCase reports whether s holds upper- and lower-case letters, each
// more than once and not in one run each: a random tail, not a CamelCase
// name.
func mixedCase(s string) bool {
	up, low, changes := 0, 0, 0
	for k := 0; k < len(s); k++ {
		switch {
		case isUpper(s[k]):
			up++
		case isLower(s[k]):
			low++
		}
		if k > 0 && isAlpha(s[k]) && isAlpha(s[k-1]) && isUpper(s[k]) != isUpper(s[k-1]) {
			changes++
		}
	}
	return up >= 2 && low >= 2 && changes >= 4
}

// namedNumber reports a token of lower-case words and a number: words
// joined by '_' or '-', then a number of three digits or more
// (user_48213, ledger_email_93237), or a word and two numbers
// (inv-2026-0042). A word of a name standard (utf-8, sha-256) or a
// position (line-120) is no id's, nor is a version or a size.
func namedNumber(tok string) bool {
	// the segments between '_' and '-', read in place: at most five
	var buf [5]string
	segs := buf[:0]
	for rest := tok; rest != ""; {
		g := rest
		if k := strings.IndexAny(rest, "_-"); k >= 0 {
			g, rest = rest[:k], rest[k+1:]
		} else {
			rest = ""
		}
		if g == "" {
			continue
		}
		if len(segs) == len(buf) {
			return false
		}
		segs = append(segs, g)
	}
	if len(segs) < 2 || !allLower(segs[0]) || len(segs[0]) < 2 || wordNumberDeny[segs[0]] {
		return false
	}
	words, nums := 0, 0
	for k, g := range segs {
		switch {
		case allLower(g) && nums == 0:
			words++
		case allDigits(g) && k > 0:
			nums++
		default:
			return false
		}
	}
	last := segs[len(segs)-1]
	if !allDigits(last) || settingWords[segs[len(segs)-2]] || issueDeny[strings.ToUpper(segs[0])] {
		return false
	}
	// daily-full-20260411022332: a name stamped with a date and time,
	// as backup, snapshot and job names are, whatever joins the words
	return nums == 1 && len(last) >= 3 && len(last) <= 12 && strings.Contains(tok, "_") ||
		nums == 1 && len(last) >= 8 && len(last) <= 14 && strings.HasPrefix(last, "20") ||
		nums == 2 && words == 1 && len(tok) >= 8
}

// settingWords name a setting or a position, whose number is a value, not
// a name's: batch_size_512, exit_code_127, case_001, page-2-of.
var settingWords = map[string]bool{"size": true, "code": true, "count": true, "limit": true, "max": true,
	"min": true, "timeout": true, "port": true, "case": true, "step": true, "level": true, "version": true,
	"len": true, "length": true, "num": true, "page": true, "retries": true, "threads": true, "workers": true,
	"width": true, "height": true, "depth": true, "ttl": true, "ms": true, "sec": true, "secs": true,
	"seconds": true, "bytes": true, "kb": true, "mb": true, "gb": true, "percent": true, "pct": true, "rate": true}

// kindSlash reports whether the token at t[start:] follows a resource
// kind and a '/' (pod/ledger-api-7d9f8c6b5-x2x9z, job.batch/nightly-…):
// a name, not a path's component.
func kindSlash(t string, start int) bool {
	if t[start-1] != '/' {
		return false
	}
	k := start - 1
	for k > 0 && (isLower(t[k-1]) || t[k-1] == '.') {
		k--
	}
	if k == start-1 || k > 0 && t[k-1] != ' ' && t[k-1] != '\t' && t[k-1] != '"' && t[k-1] != '\'' {
		return false
	}
	kind, _, _ := strings.Cut(t[k:start-1], ".")
	switch kind {
	case "pod", "pods", "deployment", "deployments", "job", "jobs", "cronjob", "replicaset", "statefulset",
		"daemonset", "service", "svc", "node", "nodes", "configmap", "secret", "ingress", "namespace", "pvc":
		return true
	}
	return false
}

// addressIDs adds the addresses of a line that name one thing among many
// of its kind: a Terraform resource's (module.vpc.aws_subnet.private[2],
// data.aws_iam_policy.ci, aws_s3_bucket.logs) and a Kafka record's
// topic-partition@offset (orders-3@18234).
func (s *scanner) addressIDs(t string) {
	if !strings.Contains(t, "_") && !strings.Contains(t, "@") {
		return
	}
	for i := 0; i < len(t); {
		var j int
		i, j = nextField(t, i)
		if i == j {
			break
		}
		w := strings.Trim(t[i:j], "\"'`,;()[]{}")
		if strings.HasSuffix(t[i:j], "]") || strings.HasSuffix(t[i:j], "],") {
			w = strings.TrimRight(strings.TrimSuffix(strings.TrimSpace(t[i:j]), ","), "\"'`") // keep an index: private[2]
		}
		if resourceAddress(w) {
			s.add(KindID, w)
		} else if strings.IndexByte(w, '@') > 0 {
			// in a JSON list too: "partitions":["orders-2@44810","orders-3@18234"]
			for _, p := range strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune("\",[]{}':", r) }) {
				if partitionOffset(p) {
					s.add(KindID, p)
				}
			}
		}
		i = j
	}
}

// resourceAddress reports whether w is a Terraform resource address: an
// optional module path, "data." for a data source, a provider's resource
// type (aws_subnet, google_sql_database_instance) and a name, with an
// optional index.
func resourceAddress(w string) bool {
	if !strings.Contains(w, "_") || !strings.Contains(w, ".") {
		return false
	}
	for strings.HasPrefix(w, "module.") {
		_, rest, ok := strings.Cut(w[len("module."):], ".")
		if !ok {
			return false
		}
		w = rest
	}
	w = strings.TrimPrefix(w, "data.")
	typ, name, ok := strings.Cut(w, ".")
	if !ok || strings.Contains(name, ".") {
		return false
	}
	if k := strings.IndexByte(name, '['); k > 0 && strings.HasSuffix(name, "]") {
		name = name[:k]
	}
	provider, rest, found := strings.Cut(typ, "_")
	if !found || rest == "" || !terraformProviders[provider] || name == "" {
		return false
	}
	return every(typ, func(c byte) bool { return isLower(c) || isDigit(c) || c == '_' }) &&
		every(name, func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' })
}

// terraformProviders are the prefixes of common providers' resource types.
var terraformProviders = map[string]bool{"aws": true, "google": true, "azurerm": true, "azuread": true,
	"kubernetes": true, "helm": true, "github": true, "cloudflare": true, "datadog": true, "digitalocean": true,
	"vault": true, "random": true, "null": true, "tls": true, "local": true, "oci": true, "alicloud": true}

// partitionOffset reports whether w is a Kafka topic-partition@offset:
// orders-3@18234.
func partitionOffset(w string) bool {
	at := strings.IndexByte(w, '@')
	if at <= 0 || !allDigits(w[at+1:]) {
		return false
	}
	dash := strings.LastIndexByte(w[:at], '-')
	return dash > 0 && allDigits(w[dash+1:at]) && isAlpha(w[0])
}

// describedIDs keeps the names git describe gives a commit: the latest tag,
// the commits since it and the abbreviated hash after a 'g'
// ("v1.10.4-2-g3eb0076", "release-7-14-g5137c25a"). A build's version
// string is that name, and it says which commit a running service was built
// from where the hash alone does not say which release it follows.
func (s *scanner) describedIDs(t string) {
	for from := 0; ; {
		k := strings.Index(t[from:], "-g")
		if k < 0 {
			return
		}
		g := from + k
		from = g + 2
		// the hash: 7 to 40 hex digits, then no more name
		e := g + 2
		for e < len(t) && isHex(t[e]) {
			e++
		}
		if e-(g+2) < 7 || e-(g+2) > 40 || e < len(t) && (isAlnum(t[e]) || t[e] == '_') {
			continue
		}
		// the count of commits since the tag
		c := g
		for c > 0 && isDigit(t[c-1]) {
			c--
		}
		if c == g || c == 0 || t[c-1] != '-' {
			continue
		}
		// the tag: a name holding a digit, back to a boundary
		b := c - 1
		digit := false
		for b > 0 && (isAlnum(t[b-1]) || t[b-1] == '.' || t[b-1] == '-' || t[b-1] == '_' || t[b-1] == '/') {
			if isDigit(t[b-1]) {
				digit = true
			}
			b--
		}
		if b == c-1 || !digit {
			continue
		}
		s.add(KindID, t[b:e])
	}
}
