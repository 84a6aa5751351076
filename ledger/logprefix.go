package ledger

import "strings"

// This file strips the prefix a log multiplexer puts before each line of the
// logs it gathers, so that the line behind it is read as the program printed
// it: its level word at its start, its JSON record whole, its indentation
// kept for the frames of a traceback.
//
//	web-1      | Traceback (most recent call last):        (compose)
//	api.1.kq3v9@node-2    | {"level":"error",…}            (swarm)
//	build+1 | --> RUN go test ./...                         (a target, Earthly)
//	0|worker | {"levelname": "ERROR", …}                    (pm2)
//	2026-04-11T08:47:00.522464+00:00 app[worker.1]: …       (Heroku)
//	2026-04-04T10:39:50.2757451Z go test ./...              (GitHub Actions, Azure)
//	[10:13:02]W:	 [Step 2/2] …                            (TeamCity)
//	[fetch-source : clone] + git fetch …                    (Tekton's tkn)
//	[pod/api-7d9f/app] …                                    (kubectl logs --prefix)
//
// A prefix is read by its shape only, and only where a log line's level or
// record is looked for; what follows it must be more than one word, and
// behind a bar no row of cells, so that a table's "name | value" row is
// not taken for a source and its value.

// logSource returns line without the log multiplexer's prefix, and whether
// it had one.
func logSource(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if t == "" {
		return line, false
	}
	for i, cut := range []func(string) int{barSource, stampSource, teamCitySource, stepSource} {
		if n := cut(t); n > 0 && n < len(t) {
			rest := t[n:]
			r := strings.TrimSpace(rest)
			if r == "" || !strings.ContainsAny(r, " \t") || i == 0 && strings.Contains(r, " | ") && !stepArrow(r) {
				// a table's row, behind what looked like a bar; but
				// a step may run a pipeline
				return line, false
			}
			return rest, true
		}
	}
	return line, false
}

// barSource measures a source name and a bar: "web-1  | ", "svc.1.id@node-2 | ",
// "+target | ", "0|worker | ". The name is one token that names a replica
// or a target: it holds a digit or '@', or starts with '+' or a process's
// number and '|'.
func barSource(t string) int {
	i := 0
	if t[0] == '+' {
		i++
	} else if ok, d := digitsAt(t, 0); ok && d < len(t) && t[d] == '|' {
		i = d + 1 // pm2's "0|worker | ": the process's id, then its name
	}
	start := i
	replica := i > 0
	for i < len(t) && (isAlnum(t[i]) || t[i] == '_' || t[i] == '-' || t[i] == '.' || t[i] == '@' || t[i] == '/' || t[i] == ':') {
		if isDigit(t[i]) || t[i] == '@' {
			replica = true
		}
		i++
	}
	if i == start || !replica || i-start > 120 || !isAlpha(t[start]) {
		return 0
	}
	j := i
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	if j+1 >= len(t) || t[j] != '|' || t[j+1] != ' ' {
		return 0
	}
	return j + 2
}

// stampSource measures an ISO 8601 timestamp with a 'T' and a zone ("Z",
// "+00:00") opening the line, and the "app[worker.1]:" source a platform's
// router puts after it: "2026-04-04T10:39:50.2757451Z ",
// "2026-04-11T08:47:00.522464+00:00 app[web.1]: ".
func stampSource(t string) int {
	if len(t) < 21 || !isDigit(t[0]) || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' {
		return 0
	}
	i := 11
	for i < len(t) && (isDigit(t[i]) || t[i] == ':' || t[i] == '.') {
		i++
	}
	switch {
	case i < len(t) && t[i] == 'Z':
		i++
	case i+6 <= len(t) && (t[i] == '+' || t[i] == '-') && t[i+3] == ':':
		i += 6
	default:
		return 0
	}
	if i >= len(t) || t[i] != ' ' {
		return 0
	}
	i++
	// a source: word[word.N]:
	j := i
	for j < len(t) && (isAlnum(t[j]) || t[j] == '_' || t[j] == '-') {
		j++
	}
	if j > i && j < len(t) && t[j] == '[' {
		if k := strings.Index(t[j:], "]: "); k > 0 && k < 40 {
			return j + k + 3
		}
	}
	return i
}

// teamCitySource measures TeamCity's "[10:13:02]W:\t", "[10:13:02]i:" or
// "[10:13:02] :" (a plain line) and
// the block names after it ("[Step 2/2] ").
func teamCitySource(t string) int {
	if len(t) < 12 || t[0] != '[' || !isDigit(t[1]) || t[3] != ':' || t[6] != ':' || t[9] != ']' || !isAlpha(t[10]) && t[10] != ' ' || t[11] != ':' {
		return 0
	}
	i := 12
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	for i < len(t) && t[i] == '[' {
		k := strings.IndexByte(t[i:], ']')
		if k < 0 || k > 60 {
			break
		}
		i += k + 1
		for i < len(t) && t[i] == ' ' {
			i++
		}
	}
	return i
}

// stepSource measures the "[task : step] " a pipeline's log viewer puts
// before each line (tkn pipelinerun logs), or the "[pod/api-7d9f/app] "
// of kubectl logs --prefix: a bracketed name that holds " : " or '/', with
// no space outside those, then a space.
func stepSource(t string) int {
	if len(t) < 6 || t[0] != '[' {
		return 0
	}
	k := strings.IndexByte(t, ']')
	if k < 3 || k > 120 || k+1 >= len(t) || t[k+1] != ' ' {
		return 0
	}
	name := t[1:k]
	named := strings.Contains(name, " : ")
	if !named && !strings.Contains(name, "/") || strings.Contains(strings.ReplaceAll(name, " : ", ":"), " ") {
		return 0
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && !strings.ContainsRune(" :/-_.", rune(c)) {
			return 0
		}
	}
	return k + 2
}

// stepArrows open a build step's line: "--> RUN make test".
var stepArrows = []string{"-->", "==>", "=>", "->", "▶", "»"}

// stepArrow reports whether a line behind a prefix opens with a step's
// arrow.
func stepArrow(r string) bool {
	return hasAnyPrefix(r, stepArrows)
}

// sourcedStep reads the command a build step runs behind a log
// multiplexer's prefix, given what follows the prefix (trimmed; "" for a
// line with none): a target's "--> RUN go test ./..." (an arrow, then a
// RUN as a Dockerfile writes it), a step's shell traced by set -x ("+
// make test"), or a CI runner's stamped "##[group]Run …" (ciCommand).
func sourcedStep(rest string) (string, bool) {
	if rest == "" {
		return "", false
	}
	if c, ok := strings.CutPrefix(rest, "+ "); ok {
		// a step's shell traced by set -x: "[build : run] + make test"
		c = strings.TrimSpace(c)
		return c, inlineCommand(c)
	}
	for _, arrow := range stepArrows {
		if r, ok := strings.CutPrefix(rest, arrow); ok {
			rest = strings.TrimSpace(r)
			break
		}
	}
	if c, ok := strings.CutPrefix(rest, "RUN "); ok {
		c = strings.TrimSpace(c)
		return c, c != ""
	}
	return ciCommand(rest)
}

// scriptContents reads the first line of the script Azure Pipelines'
// script task prints under "Script contents:" (each line may carry the
// log's time stamp): the command the step runs. t is the line, src the
// line without its prefix or "".
func scriptContents(prev, t, src string) (string, bool) {
	if p, ok := logSource(prev); ok {
		prev = strings.TrimSpace(p)
	}
	if prev != "Script contents:" {
		return "", false
	}
	c := t
	if src != "" {
		c = src
	}
	return c, inlineCommand(c)
}
