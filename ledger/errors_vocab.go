package ledger

import "strings"

// This file holds the failure vocabulary: words that name a failure in
// any ecosystem, and the fixed messages of the operating system (the
// strerror texts: "No such file or directory", "Connection refused"), of
// signals ("Segmentation fault", "Killed") and of language runtimes
// ("deadline exceeded", "index out of range", "nil pointer dereference",
// "attempt to add with overflow"), which are errors by themselves.

// Word classes.
const (
	wNone   uint8 = iota
	wFail         // a failure word: failed, invalid, refused…
	wNeg          // a word that negates the next: no, not, without…
	wPhrase       // a word that only counts inside a phrase (found, such, range…)
)

var failWords = map[string]uint8{}

func init() {
	for _, w := range strings.Fields(`error errors failed failure failures fail fails failing fatal
		exception exceptions denied refused timeout timeouts exceeded violates violated violation
		cannot can't couldn't unable invalid unexpected overflow underflow undefined killed abort
		aborted aborting crash crashed crashes unreachable unavailable rejected forbidden unauthorized
		unauthenticated illegal uncaught unhandled corrupt corrupted missing conflict conflicts mismatch
		incompatible expired exhausted interrupted panic panicked panics deadlock traceback segfault
		errno doesn't isn't wasn't didn't servfail nxdomain`) {
		failWords[w] = wFail
	}
	for _, w := range strings.Fields(`no not never without zero non`) {
		failWords[w] = wNeg
	}
	for _, w := range strings.Fields(`found exist exists`) {
		failWords[w] = wPhrase
	}
}

// strongPhrases are messages that are errors wherever they appear, by
// their last word: the words before it, nearest first ("refused":
// "connection" for "Connection refused"; "found": "not", "command" for
// "command not found").
var strongPhrases = map[string][][]string{}

func init() {
	for _, p := range []string{
		"deadline exceeded", "nil pointer", "null pointer", "out of range", "out of memory",
		"core dumped", "segmentation fault", "connection refused", "permission denied",
		"access denied", "no such file", "broken pipe", "reset by peer", "command not found",
		"not permitted", "no space left", "too many open files", "already in use", "no route to host",
		"goroutines are asleep", "concurrent map writes", "invalid memory address", "divide by zero",
		"division by zero", "with overflow", "stack overflow", "bus error", "illegal instruction",
		"timed out", "deadlock detected", "duplicate key", "unique constraint", "authentication failed",
		"could not connect", "did not complete", "wait timeout", "timeout exceeded", "took too long",
		"connection timeout", "request timeout", "read timeout", "write timeout", "timeout waiting",
		"time limit exceeded", "budget exceeded", "is not recognized",
		"unknown authority", "certificate verify failed", "certificate has expired",
		"deadline has elapsed", "could not find", "could not resolve",
		"no candidates found", "data truncated",
	} {
		ws := strings.Fields(p)
		last := ws[len(ws)-1]
		var before []string
		for k := len(ws) - 2; k >= 0; k-- {
			before = append(before, ws[k])
		}
		strongPhrases[last] = append(strongPhrases[last], before)
		if failWords[last] == wNone {
			failWords[last] = wPhrase
		}
	}
}

// wordFilter rules out, with one bit test, most words that are not in
// the vocabulary before the map is asked.
type wordFilter [16]uint64

func wordHash(w []byte) uint {
	n := len(w)
	return (uint(w[0])*131 + uint(w[min(1, n-1)])*31 + uint(w[n-1])*7 + uint(n)*17) & 1023
}

func (f *wordFilter) add(w string) { h := wordHash([]byte(w)); f[h/64] |= 1 << (h % 64) }

func (f *wordFilter) has(w []byte) bool { h := wordHash(w); return f[h/64]&(1<<(h%64)) != 0 }

// vocabFilter holds the words of failWords (filled in after it).
var vocabFilter wordFilter

func init() {
	for w := range failWords {
		vocabFilter.add(w)
	}
}

// errnoNames are the POSIX error names, as Node, Python and libuv print
// them ("connect ECONNREFUSED 127.0.0.1:5432").
var errnoNames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ECONNREFUSED ECONNRESET ECONNABORTED ENOENT EACCES EPERM EADDRINUSE
		EADDRNOTAVAIL ETIMEDOUT EPIPE EEXIST ENOSPC EMFILE ENFILE ENOTDIR EISDIR ENOTEMPTY EROFS EBUSY
		EHOSTUNREACH ENETUNREACH ENOTFOUND EAI_AGAIN ECANCELED EINVAL ENOMEM EAGAIN EIO EXDEV ENOTSUP
		ENOTCONN ESRCH ECHILD EDEADLK ELOOP ENAMETOOLONG ENOEXEC E2BIG EFBIG`) {
		errnoNames[w] = true
	}
}

// signalsOf reads a line for the signals of failure: failure words as
// whole words (not part of an identifier, a path or a flag: errors.go,
// test_error_handling, --no-error-on-unmatched-pattern), not negated ("no
// errors", "0 failed", "errors: 0"), and the shapes of an error.
func signalsOf(t string) signals {
	var sig signals
	// The words before the current one, lower case, nearest first.
	var words [3][16]byte
	var lens [3]int
	for i := 0; i < len(t); {
		if !isAlpha(t[i]) {
			i++
			continue
		}
		start := i
		for i < len(t) && (isAlpha(t[i]) || t[i] == '\'' && i+1 < len(t) && isAlpha(t[i+1])) {
			i++
		}
		end := i
		n := end - start
		if joined(t, start, end) || n > len(words[0]) {
			lens[2], lens[1], lens[0] = lens[1], lens[0], 0
			continue
		}
		if n >= 4 && t[start] == 'E' && errnoNames[t[start:end]] {
			sig.shape = true
		}
		words[2], words[1] = words[1], words[0]
		lens[2], lens[1] = lens[1], lens[0]
		for k := 0; k < n; k++ {
			words[0][k] = lowerByte(t[start+k])
		}
		lens[0] = n
		w := words[0][:n]
		if !vocabFilter.has(w) {
			continue
		}
		cls := failWords[string(w)]
		if cls == wNone {
			continue
		}
		prev := string(words[1][:lens[1]])
		if cls == wNeg {
			if string(w) == "not" {
				switch prev {
				case "could", "can", "did", "does", "was", "cannot":
					sig.vocab++ // "could not serialize access", "did not complete"
				case "is", "are", "were":
					sig.denied++ // "jenkins is not in the sudoers file", "… is not writable"
				}
			}
			continue
		}
		for _, before := range strongPhrases[string(w)] {
			if len(before) >= 1 && before[0] == prev && (len(before) < 2 || before[1] == string(words[2][:lens[2]])) {
				sig.shape = true
			}
		}
		switch {
		case cls == wFail:
			if !negated(t, start, end, prev) {
				sig.vocab++
			}
		case string(w) == "found" || string(w) == "exist" || string(w) == "exists":
			if prev == "not" || prev == "never" {
				sig.vocab++
			}
		}
	}
	if !sig.shape {
		sig.shape = httpFailure(t) || serverErrorPhrase(t) || strings.Contains(t, "[Errno ") || strings.Contains(t, "::unwrap()` on")
	}
	return sig
}

// joined reports whether the letters t[start:end] are part of a longer
// token: an identifier (error_handling, Error2), a path or a file name
// (pkg/errors, errors.go), a flag or a compound (--no-error, non-fatal),
// or a call (panic(, panic!).
func joined(t string, start, end int) bool {
	if start > 0 {
		c := t[start-1]
		if isDigit(c) || c == '_' {
			return true
		}
		if (c == '/' || c == '-' || c == '.') && start > 1 && (isAlnum(t[start-2]) || t[start-2] == '_' || t[start-2] == c) {
			return true
		}
		if c == '-' && start == 1 {
			return true
		}
	}
	if end < len(t) {
		c := t[end]
		if isDigit(c) || c == '_' || c == '(' || c == '!' {
			return true
		}
		if (c == '/' || c == '-' || c == '.') && end+1 < len(t) && (isAlnum(t[end+1]) || t[end+1] == '_') {
			return true
		}
	}
	return false
}

// negated reports whether a failure word is negated or counted: "no
// errors", "without error", "0 failed", "2 failed" (a summary's count),
// "errors: 0", "failures=0".
func negated(t string, start, end int, prev string) bool {
	if failWords[prev] == wNeg {
		return true
	}
	// A count before the word ("3 failed"), unless the number names a
	// thing ("refund 4821 rejected", "job 7 failed").
	k := start
	for k > 0 && (t[k-1] == ' ' || t[k-1] == '\t') {
		k--
	}
	if k < start && k > 0 && isDigit(t[k-1]) && !namedBefore(t, k) {
		return true
	}
	// A zero after it.
	r := end
	for r < len(t) && (t[r] == ' ' || t[r] == ':' || t[r] == '=' || t[r] == '"') {
		r++
	}
	return r > end && r < len(t) && t[r] == '0' && (r+1 == len(t) || !isDigit(t[r+1]))
}

// serverErrors are the reason phrases of the 5xx statuses, as servers
// print them after the code.
var serverErrors = []string{"500 Internal Server Error", "502 Bad Gateway", "503 Service Unavailable",
	"504 Gateway Timeout", "504 Gateway Time-out"}

// serverErrorPhrase reports a server error's code with its reason phrase
// anywhere in a line: Rails' "Completed 500 Internal Server Error in 12ms".
func serverErrorPhrase(t string) bool {
	if !strings.Contains(t, " 50") && !strings.HasPrefix(t, "50") {
		return false
	}
	for _, p := range serverErrors {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}

// namedBefore reports whether the number ending at t[end] follows a noun
// that names a thing by its number ("refund 4821", "job #7").
func namedBefore(t string, end int) bool {
	i := end
	for i > 0 && isDigit(t[i-1]) {
		i--
	}
	if i > 0 && t[i-1] == '#' {
		i--
	}
	j := i
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	w := j
	for w > 0 && isAlpha(t[w-1]) {
		w--
	}
	return j > w && j < i && idNouns[strings.ToLower(t[w:j])]
}

// httpFailure recognises an HTTP failure status: a response's status line
// ("HTTP/1.1 503 Service Unavailable"), an access log's ("GET /x
// HTTP/1.1" 500), or a status field ("status=500", "status: 502", "status
// code 503", "StatusCode: 500", "HTTP 503"). Server errors (5xx) count
// anywhere; client errors (4xx) only in a status line or field.
func httpFailure(t string) bool {
	for _, key := range []string{"HTTP", "tatus", "TATUS"} {
		for off := 0; off < len(t); {
			i := strings.Index(t[off:], key)
			if i < 0 {
				break
			}
			i += off
			off = i + len(key)
			r := off
			if key == "HTTP" {
				for r < len(t) && (t[r] == '/' || t[r] == '.' || isDigit(t[r]) && r+1 < len(t) && (t[r+1] == '.' || t[r+1] == ' ' || t[r+1] == '"') && r-off < 4) {
					r++
				}
			} else {
				if i > 0 && isAlpha(t[i-1]) && t[i-1] != 's' && t[i-1] != 'S' && !strings.HasSuffix(t[:i], "Http") {
					continue
				}
				rest := t[r:]
				for _, p := range []string{"Code", "code", "_code", " code", "CODE"} {
					if strings.HasPrefix(rest, p) {
						r += len(p)
						break
					}
				}
			}
			for r < len(t) && (t[r] == ' ' || t[r] == ':' || t[r] == '=' || t[r] == '"') {
				r++
			}
			if r+3 <= len(t) && (r+3 == len(t) || !isAlnum(t[r+3])) && isDigit(t[r]) && isDigit(t[r+1]) && isDigit(t[r+2]) {
				if t[r] == '5' || t[r] == '4' && r > 0 && t[r-1] != '"' {
					return true
				}
			}
		}
	}
	return false
}
