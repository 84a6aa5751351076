package ledger

import (
	"slices"
	"strings"
)

// This file finds an error told inside a sentence, as people report them:
// "CI is red again: panic: runtime error: index out of range [7] with length
// 1", "the dashboard crashes with TypeError: Cannot read properties of
// undefined (reading 'id') when I open a new tenant", "Seeing \"read tcp
// 10.0.3.4:5432: connection reset by peer\" in the worker logs", "Uploads
// over 10MB get a 413 Request Entity Too Large". Output is read line by
// line by the other recognisers; in prose the error is a span of the
// sentence: from its marker to where the sentence goes back to the
// speaker's own words.

// inlineErrors adds the errors quoted inside a line of prose.
func (s *scanner) inlineErrors(t string) {
	if len(t) < 12 {
		return
	}
	for _, sp := range errorSpans(t, s.fromUser) {
		v := t[sp[0]:sp[1]]
		if sp[1] >= len(t) || !strings.ContainsRune("\"`'”", rune(t[sp[1]])) {
			// a quote bounds its span, stop and all ("… Connection
			// refused."); an unquoted span ends before its stop
			v = strings.TrimRight(v, " .,;:")
		}
		if v = strings.TrimSpace(v); len(v) >= 8 {
			s.add(KindError, v)
		}
	}
}

// errorSpans returns the spans of t that hold an error: an exception's
// class and its message ("java.lang.OutOfMemoryError: Java heap space"), a
// marker and its message ("panic: …", "ERROR: …", "error[E0502]: …"), a
// quoted or backticked span that names a failure, an HTTP error status with
// its reason, and a non-zero exit status.
func errorSpans(t string, told bool) [][2]int {
	var out [][2]int
	covered := func(i int) bool { return inSpans(i, out) >= 0 }
	// quoted spans first: their quotes bound the error
	for i := 0; i < len(t); i++ {
		q := t[i]
		if q != '"' && q != '`' && q != '\'' || i > 0 && isAlnum(t[i-1]) {
			continue
		}
		end := strings.IndexByte(t[i+1:], q)
		if q == '\'' {
			// a single quote closes where a word ends, not in one ("don't")
			end = singleQuoteEnd(t, i+1)
		}
		if end < 0 {
			if q == '\'' {
				continue
			}
			break
		}
		end += i + 1
		if inner := t[i+1 : end]; strings.Count(inner, " ") >= 2 && quotedFailure(inner) {
			out = append(out, [2]int{i + 1, end})
		}
		i = end
	}
	// curly quotes, as a chat or a word processor writes them
	for k := 0; k < len(t); {
		o := strings.Index(t[k:], "“")
		if o < 0 {
			break
		}
		o += k + len("“")
		e := strings.Index(t[o:], "”")
		if e < 0 {
			break
		}
		if inner := t[o : o+e]; strings.Count(inner, " ") >= 2 && quotedFailure(inner) && !covered(o) {
			out = append(out, [2]int{o, o + e})
		}
		k = o + e
	}
	for i := 0; i < len(t); i++ {
		if covered(i) || i > 0 && (isAlnum(t[i-1]) || t[i-1] == '_' || t[i-1] == '.') {
			continue
		}
		if end := classEnd(t, i); end > 0 {
			// "TypeError: …", "java.lang.OutOfMemoryError: …"
			if strings.HasPrefix(t[end:], ": ") && reported(t, i) {
				out = append(out, [2]int{i, messageEnd(t, end+2, i)})
				i = out[len(out)-1][1]
			} else {
				i = end
			}
			continue
		}
		if m := errorMarker(t[i:]); m > 0 && reported(t, i) {
			out = append(out, [2]int{i, messageEnd(t, i+m, i)})
			i = out[len(out)-1][1]
			continue
		}
		if end := httpStatusEnd(t, i); end > 0 {
			out = append(out, [2]int{i, end})
			i = end
			continue
		}
		if end := exitStatusEnd(t, i); end > 0 {
			out = append(out, [2]int{i, end})
			i = end
			continue
		}
		if end := codeEnd(t, i); end > 0 && strings.HasPrefix(t[end:], ": ") && reported(t, i) {
			// an error's code and its message: "invalid_client: Client
			// authentication failed", "401 invalid_token: token used …"
			out = append(out, [2]int{i, messageEnd(t, end+2, i)})
			i = out[len(out)-1][1]
			continue
		}
	}
	// What a program said, as a user tells it after a verb of reporting
	// with no mark of its own ("PowerShell says .\build.ps1 cannot be
	// loaded because running scripts is disabled"): the rest of the
	// sentence, when it names a failure and holds no span found above.
	// The agent's own explanations ("the lexer reports the error before
	// …") are not read so.
	for i := 1; told && i < len(t); i++ {
		if t[i-1] != ' ' || t[i] == ' ' || !saysVerb(t[:i-1]) {
			continue
		}
		end := sentenceEnd(t, i)
		if end-i < 12 || !quotedFailure(t[i:end]) || slices.ContainsFunc(out, func(sp [2]int) bool { return sp[0] < end && sp[1] > i }) {
			continue
		}
		out = append(out, [2]int{i, end})
		i = end
	}
	return out
}

// saysVerbs say that the clause after them is a program's words: "the
// log says …", "PowerShell complains …".
var saysVerbs = []string{"says", "said", "shows", "showed", "printed", "prints", "complains", "complained", "reports",
	"reported", "logs", "logged", "returns", "returned", "throws", "threw", "responds", "responded", "answers"}

// saysVerb reports whether before ends with one of saysVerbs, a word of
// its own.
func saysVerb(before string) bool {
	k := len(before)
	for k > 0 && isAlpha(before[k-1]) {
		k--
	}
	if k == len(before) || k > 0 && isAlnum(before[k-1]) {
		return false
	}
	w := before[k:]
	return slices.ContainsFunc(saysVerbs, func(v string) bool { return strings.EqualFold(v, w) })
}

// sentenceEnd returns where the sentence that goes on at t[from] ends: at
// a stop followed by a space or the end of the line, or at the line's end.
func sentenceEnd(t string, from int) int {
	for k := from; k < len(t); k++ {
		if (t[k] == '.' || t[k] == '!' || t[k] == ';') && (k+1 == len(t) || t[k+1] == ' ') {
			return k
		}
	}
	return len(t)
}

// codeEnd returns the end of an error code in snake case that starts at
// t[i] ("invalid_token", "quota_exceeded", "ERR_CONNECTION_REFUSED"), or -1:
// two words or more joined by underscores, one of them naming a failure.
func codeEnd(t string, i int) int {
	j := i
	for j < len(t) && (isAlnum(t[j]) || t[j] == '_') {
		j++
	}
	w := t[i:j]
	if j == i || !strings.Contains(w, "_") || strings.HasPrefix(w, "_") || strings.HasSuffix(w, "_") {
		return -1
	}
	for p := range strings.SplitSeq(w, "_") {
		if slices.ContainsFunc(failureParts, func(f string) bool { return strings.EqualFold(f, p) }) {
			return j
		}
	}
	return -1
}

// failureParts are the words of an error code in snake case that name a
// failure.
var failureParts = []string{"invalid", "error", "err", "failed", "failure", "denied", "forbidden", "exceeded",
	"unauthorized", "timeout", "expired", "refused", "unavailable", "conflict", "missing", "unknown", "bad", "illegal"}

// quotedFailure reports whether a quoted span names a failure: an error's
// shape or its vocabulary ("connection reset by peer", "permission
// denied").
func quotedFailure(q string) bool {
	sig := signalsOf(q)
	return sig.shape || sig.vocab > 0
}

// singleQuoteEnd returns where the single quote opened before t[from]
// closes, relative to from: at a quote not followed by a letter or a digit
// ("'Your card was declined.' even with …"), or -1.
func singleQuoteEnd(t string, from int) int {
	for k := from; k < len(t); k++ {
		if t[k] == '\'' && (k+1 == len(t) || !isAlnum(t[k+1])) && k > from && t[k-1] != ' ' {
			return k - from
		}
	}
	return -1
}

// classEnd returns the end of an exception's or an error's class name that
// starts at t[i] (TypeError, OutOfMemoryError, java.lang.IllegalStateException,
// ssl.SSLCertVerificationError), or -1.
func classEnd(t string, i int) int {
	j := i
	for j < len(t) && (isAlnum(t[j]) || t[j] == '_' || t[j] == '.' || t[j] == '$') {
		j++
	}
	name := strings.TrimRight(t[i:j], ".")
	last := name[strings.LastIndexByte(name, '.')+1:]
	if len(last) < 6 || !isUpper(last[0]) {
		return -1
	}
	for _, suf := range []string{"Error", "Exception", "Fault", "Failure"} {
		if strings.HasSuffix(last, suf) && len(last) > len(suf) {
			return i + len(name)
		}
	}
	return -1
}

// errorMarkers open an error's message in prose.
var errorMarkers = []string{"panic: ", "fatal error: ", "fatal: ", "FATAL: ", "ERROR: ", "Error: ", "error: "}

// errorMarker returns the length of the error marker that opens s ("panic:
// ", "ERROR: ", "error[E0502]: "), or 0.
func errorMarker(s string) int {
	for _, m := range errorMarkers {
		if strings.HasPrefix(s, m) && len(s) > len(m)+4 {
			return len(m)
		}
	}
	if strings.HasPrefix(s, "error[") {
		if k := strings.Index(s, "]: "); k > 6 && k < 14 {
			return k + 3
		}
	}
	return 0
}

// clauseStops are the words with which a sentence goes back from an error
// it quotes to the speaker's own words: "… when I open a new tenant", "…,
// started after the last deploy".
var clauseStops = []string{" when ", " whenever ", " since ", " every time ", " each time ", " after the ",
	" after we ", " after i ", " while ", " because ", " but ", " so ", " and then ", " and it ", " and i ",
	" and we ", " which ", " from the ", " in the ", " on the ", " for the ", " at the ", " - ", " — ", " – ",
	", can ", ", could ", ", please", ", probably", ", maybe", ", any ", ", do ", ", did ", ", is ", ", started",
	", no ", ", not ", ", since ", ", after ", ", and ", ", but ", ", so ", ", then "}

// messageEnd returns where an error's message that starts at t[from] ends:
// the end of its sentence, a closing bracket opened before the error
// (start), or a word with which the speaker goes on.
func messageEnd(t string, from, start int) int {
	end := len(t)
	if start > 0 && t[start-1] == '(' {
		if k := strings.IndexByte(t[from:], ')'); k >= 0 {
			// "(java.lang.OutOfMemoryError: Java heap space)": but the
			// message's own brackets ("(reading 'id')") close first
			depth := 1
			for j := start; j < len(t); j++ {
				switch t[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
				if depth == 0 {
					end = j
					break
				}
			}
		}
	}
	rest := strings.ToLower(t[from:end])
	for _, w := range clauseStops {
		if k := strings.Index(rest, w); k >= 0 && from+k < end {
			end = from + k
		}
	}
	for k := from; k+1 < end; k++ {
		// a sentence ends: ". Can you…", "? ", "! "
		if (t[k] == '.' || t[k] == '?' || t[k] == '!') && t[k+1] == ' ' && k+2 < len(t) && isUpper(t[k+2]) {
			return k
		}
	}
	return end
}

// httpReasons are the reason phrases of the HTTP error statuses.
var httpReasons = []string{"Bad Request", "Unauthorized", "Payment Required", "Forbidden", "Not Found",
	"Method Not Allowed", "Not Acceptable", "Request Timeout", "Conflict", "Gone", "Length Required",
	"Precondition Failed", "Request Entity Too Large", "Payload Too Large", "URI Too Long",
	"Unsupported Media Type", "Unprocessable Entity", "Unprocessable Content", "Too Many Requests",
	"Internal Server Error", "Not Implemented", "Bad Gateway", "Service Unavailable", "Gateway Timeout"}

// httpStatusEnd returns the end of "413 Request Entity Too Large" at t[i],
// an HTTP error status and its reason, or -1.
func httpStatusEnd(t string, i int) int {
	if i+4 >= len(t) || t[i] != '4' && t[i] != '5' || !isDigit(t[i+1]) || !isDigit(t[i+2]) || t[i+3] != ' ' {
		return -1
	}
	for _, r := range httpReasons {
		if !strings.HasPrefix(t[i+4:], r) {
			continue
		}
		end := i + 4 + len(r)
		if end == len(t) || strings.IndexByte(".,;:)!?'\"`", t[end]) >= 0 {
			return end
		}
		// what follows goes back to the speaker ("… Too Large from the
		// ingress"), not on with a noun ("the 404 Not Found page")
		next := strings.ToLower(firstWord(strings.TrimLeft(t[end:], " ")))
		switch next {
		case "from", "on", "in", "at", "for", "when", "with", "after", "since", "and", "but", "so", "error",
			"errors", "response", "responses", "status", "back", "again", "every", "whenever":
			return end
		}
		return -1
	}
	return -1
}

// exitStatusEnd returns the end of a non-zero exit status at t[i] ("exit
// status 137", "exit code 2", "exited with code 1"), or -1.
func exitStatusEnd(t string, i int) int {
	for _, p := range []string{"exit status ", "exit code ", "exited with code ", "exited with status "} {
		if !strings.HasPrefix(t[i:], p) {
			continue
		}
		j := i + len(p)
		k := j
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		if k > j && t[j:k] != "0" {
			return k
		}
	}
	return -1
}

// reportVerbs say that what follows them is what a program printed: "dies
// with", "I'm getting", "it throws".
var reportVerbs = map[string]bool{"with": true, "got": true, "get": true, "gets": true, "getting": true,
	"see": true, "seeing": true, "saw": true, "says": true, "said": true, "shows": true, "showing": true,
	"throws": true, "threw": true, "throwing": true, "returns": true, "returned": true, "raises": true,
	"raised": true, "hit": true, "hits": true, "hitting": true, "logs": true, "logged": true, "printed": true,
	"prints": true, "reports": true, "reported": true, "again": true, "fails": true, "failed": true, "error": true,
	"reporting": true, "flags": true, "flagged": true, "flagging": true, "showed": true, "displays": true,
	"displayed": true, "printing": true, "emits": true, "emitted": true, "complains": true, "errors": true,
	"erroring": true, "crashes": true, "crashed": true, "dies": true, "died": true, "gives": true, "giving": true,
	"gave": true, "throw": true, "return": true, "shown": true, "alerting": true, "alerts": true,
	"uncaught": true, "unhandled": true}

// reported reports whether the error at t[i] is quoted as printed: it
// opens the line or follows a colon, a bracket, a quote or a verb of
// reporting ("crashes with TypeError: …", "red again: panic: …"), not a
// word that makes it part of the speaker's own sentence ("How should I
// handle error: responses").
func reported(t string, i int) bool {
	j := i
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	if j == 0 {
		return true
	}
	switch t[j-1] {
	case ':', '(', '[', '"', '`', '\'', '-', '>':
		return true
	}
	k := j
	for k > 0 && isAlpha(t[k-1]) {
		k--
	}
	return reportVerbs[strings.ToLower(t[k:j])]
}
