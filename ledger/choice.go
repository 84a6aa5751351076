package ledger

import (
	"slices"
	"strings"
)

// This file finds decisions by the shape of the sentence rather than by a
// fixed cue. Agents state a choice in many ways that share a few shapes:
//
//   - an evaluated option: "the cleanest fix is to …", "best option here is
//     …", "I think the right move is …";
//   - a labelled verdict: "Conclusion: …", "Plan of record: …", "Final
//     answer on storage: …";
//   - a refusal of an option: "let's not add a flag; …", "we don't need the
//     ORM for this; …", "rejecting the monkeypatch approach";
//   - a course taken, in the gerund, with its reason or consequence:
//     "Keeping the public signature; the new parameter goes into …";
//   - the alternative put first: "Instead of a regex I'm writing …",
//     "Rather than mocking the clock, inject …".
//
// Each shape names the thing chosen and is rare in narration ("the best
// part is …", "using grep to find …", "moving on to …" are excluded).

// fillers may open a sentence before its shape: "ok, so the approach: …",
// "I think the right move is …".
var fillers = []string{"ok", "okay", "so", "alright", "all right", "right", "well", "then", "now",
	"i think", "i believe", "honestly", "in the end", "in short", "overall", "after all",
	"after trying both", "having tried both", "on balance", "all things considered", "given that",
	"to be safe", "for now", "for this", "here"}

// headOf removes fillers and their punctuation from the start of a
// lower-case sentence.
func headOf(low string) string {
	for changed := true; changed; {
		changed = false
		low = strings.TrimLeft(low, " ,—–-:")
		for _, f := range fillers {
			if r, ok := strings.CutPrefix(low, f); ok && (r == "" || !isAlpha(r[0])) {
				low, changed = r, true
			}
		}
	}
	return low
}

// verdictWords are the nouns that head an evaluated option or a labelled
// verdict.
var verdictWords = []string{"option", "fix", "move", "path", "approach", "way forward", "choice", "call",
	"solution", "bet", "route", "design", "course", "strategy", "direction", "plan of record", "verdict",
	"conclusion", "resolution", "recommendation", "decision", "answer", "trade-off", "tradeoff", "pick",
	"my take", "our take", "plan now", "new plan", "preference", "outcome",
	"standing instruction", "standing rule", "ground rule", "house rule"}

// ruleLabels head a rule adopted for the rest of the work.
var ruleLabels = []string{"standing instruction", "standing rule", "ground rule", "house rule"}

// judgements rank an option: "the safest path", "best option".
var judgements = []string{"best", "cleanest", "simplest", "safest", "right", "correct", "proper",
	"preferred", "sanest", "least risky", "most robust", "better", "smallest", "pragmatic", "obvious",
	"only sane", "only real", "sensible", "chosen", "final", "agreed", "real", "robust", "minimal", "winning",
	"safer", "simpler", "cleaner", "saner", "cheaper", "easier", "less risky", "more robust"}

// choiceShape reports whether a lower-case sentence states a choice by one
// of the shapes above.
func choiceShape(low string) bool {
	h := headOf(low)
	if judgedOption(h) || labelledVerdict(h) || refusal(h) || alternativeFirst(h) || betterThan(h) ||
		optionOver(h) || negatedCourse(h) || isToCourse(h) || gerundOver(h) || keptAsIs(h) {
		return true
	}
	// "We're keeping the old column around for one release so rollbacks
	// still work": a course taken, said in the progressive.
	for _, subj := range []string{"we're ", "we are ", "i'm ", "i am ", ""} {
		if rest, ok := strings.CutPrefix(h, subj); ok && gerundCourse(rest) {
			return true
		}
	}
	return false
}

// verdictSubjects head a sentence that says what the course is: "the
// answer is to close the body …", "our approach will be to snapshot …".
var verdictSubjects = []string{"answer", "approach", "fix", "plan", "solution", "idea", "change", "move",
	"way", "way forward", "decision", "call", "strategy", "design", "option", "choice", "remedy", "cure", "trick", "thing to do"}

// isToCourse finds "<the|our …> <verdict noun> is/will be to <verb>".
func isToCourse(h string) bool {
	for _, v := range []string{" is to ", " will be to ", " would be to ", " should be to ", " is: ", " will be: "} {
		k := strings.Index(h, v)
		if k < 0 {
			continue
		}
		subj := strings.Fields(h[:k])
		if n := len(subj); n > 1 && (subj[n-1] == "here" || subj[n-1] == "now") {
			subj = subj[:n-1] // "the decision here is to …"
		}
		if len(subj) == 0 || len(subj) > 4 {
			continue
		}
		noun := strings.Join(subj[1:], " ")
		if len(subj) == 1 {
			noun = subj[0]
		}
		for _, w := range verdictSubjects {
			if strings.HasSuffix(noun, w) {
				return true
			}
		}
	}
	return false
}

// notOver are the words before "over" that make it a movement or a loop,
// not a preference: "iterate over", "hand over", "all over".
var notOver = map[string]bool{"go": true, "goes": true, "went": true, "look": true, "looked": true,
	"read": true, "loop": true, "iterate": true, "hand": true, "pass": true, "run": true, "walk": true,
	"jump": true, "click": true, "hover": true, "all": true, "take": true, "took": true, "fall": true,
	"fell": true, "roll": true, "carry": true, "win": true, "wins": true, "won": true, "prefer": true,
	"favour": true, "favor": true, "is": true, "are": true, "was": true, "were": true, "start": true,
	"it": true, "them": true, "this": true, "that": true, "turn": true, "think": true, "get": true,
	"got": true, "copy": true, "port": true, "move": true, "moved": true, "ranges": true, "range": true}

// optionOver finds a preference put as "X over Y": "mutex over atomics for
// the stats struct: …", "tabs over spaces, since …".
func optionOver(h string) bool {
	f := strings.Fields(h)
	for i := 1; i <= 2 && i < len(f)-1; i++ {
		if f[i] != "over" {
			continue
		}
		prev := strings.Trim(f[i-1], ",;:")
		if notOver[prev] || strings.HasSuffix(prev, "ing") || strings.HasSuffix(prev, "ed") || prev != f[i-1] {
			return false
		}
		// the rejected option is short and closes a clause
		for j := i + 1; j <= i+4 && j < len(f); j++ {
			w := f[j]
			if strings.HasSuffix(w, ",") || strings.HasSuffix(w, ":") || strings.HasSuffix(w, ";") ||
				strings.HasSuffix(w, ".") || (j+1 < len(f) && (f[j+1] == "for" || f[j+1] == "here" || f[j+1] == "in")) {
				return true
			}
		}
		return false
	}
	return false
}

// gerundOver finds a choice led by a gerund that prefers one option over
// another: "Using Zod for validation over hand-written guards", "Sticking
// with cron over a queue here".
func gerundOver(h string) bool {
	f := strings.Fields(h)
	if len(f) < 4 {
		return false
	}
	switch f[0] {
	case "using", "keeping", "sticking", "preferring", "favoring", "favouring", "choosing", "adopting", "taking":
	default:
		return false
	}
	for i := 2; i < len(f)-1 && i <= 8; i++ {
		if f[i] != "over" {
			continue
		}
		switch strings.Trim(f[i+1], ".,;:") {
		case "ssh", "http", "https", "tcp", "udp", "grpc", "websocket", "websockets", "time", "stdin", "a", "an":
			return false // a channel or a span ("over SSH", "over time"), not an option
		}
		// the option set aside is short and closes the clause
		for j := i + 1; j <= i+5 && j < len(f); j++ {
			if f[j] == "to" || f[j] == "and" {
				return false // "using curl over ssh to check it"
			}
			if strings.HasSuffix(f[j], ",") || strings.HasSuffix(f[j], ";") || strings.HasSuffix(f[j], ":") || strings.HasSuffix(f[j], ".") || j == len(f)-1 {
				return true
			}
		}
		return false
	}
	return false
}

// keptAsIs finds a choice not to change something yet: "I'll keep the
// float column for now", "we'll leave the v1 route as is".
func keptAsIs(h string) bool {
	for _, c := range []string{"i'll ", "we'll ", "i will ", "we will ", "let's ", "i'm going to ", "we're going to ",
		"i'm ", "we're ", "i am ", "we are "} {
		k := strings.Index(h, c)
		if k < 0 || k > 0 && h[k-1] != ' ' {
			continue
		}
		rest := h[k+len(c):]
		if w := firstWord(rest); w != "keep" && w != "leave" && w != "keeping" && w != "leaving" {
			continue
		}
		if g := firstWord(strings.TrimPrefix(strings.TrimPrefix(rest, firstWord(rest)), " ")); strings.HasSuffix(g, "ing") {
			continue // "I'll keep looking", "I'm keeping running it"
		}
		// the option kept, and the one set aside: "I'll keep the wrapper in
		// client.py and remove the duplicate", "keeping the comprehension
		// and reverting the vectorization", "…and not migrate to FastAPI"
		for _, scope := range []string{"for now", "as is", "as-is", "unchanged", "untouched", "in place", "for this release", "for this pr",
			" and remove", " and removing", " and drop", " and dropping", " and revert", " and reverting",
			" and delete", " and deleting", " and not ", " and get rid", " and getting rid"} {
			if strings.Contains(rest, scope) {
				return true
			}
		}
	}
	return false
}

// observedNouns follow "no" in a finding, not a refusal: "no errors this
// time, …".
var observedNouns = map[string]bool{"errors": true, "error": true, "failures": true, "output": true,
	"results": true, "luck": true, "change": true, "changes": true, "matches": true, "match": true,
	"tests": true, "warnings": true, "issues": true, "problems": true, "difference": true, "idea": true,
	"callers": true, "references": true, "usages": true, "hits": true, "such": true, "more": true,
	"longer": true, "one": true, "response": true, "trace": true, "sign": true, "need": true, "wonder": true}

// negatedCourse finds a course turned down at the head of a sentence: "not
// bumping the major version; …", "no ORM here; raw queries …".
func negatedCourse(h string) bool {
	if rest, ok := strings.CutPrefix(h, "not "); ok {
		w := firstWord(rest)
		switch w {
		case "going", "being", "seeing", "finding", "having", "knowing", "getting", "sure", "working", "passing",
			"failing", "matching", "existing", "showing", "returning", "changing", "running":
			return false
		}
		return strings.HasSuffix(w, "ing")
	}
	if rest, ok := strings.CutPrefix(h, "no "); ok {
		if observedNouns[strings.Trim(firstWord(rest), ".,;:")] {
			return false
		}
		k := strings.Index(rest, "; ")
		return k > 0 && len(strings.Fields(rest[:k])) <= 3 && len(strings.Fields(rest[k:])) >= 3
	}
	return false
}

// judgedOption finds "(the|my|our) <judgement> <verdict word> [here|for …]
// is|was|would be|:".
func judgedOption(h string) bool {
	for _, d := range []string{"the ", "my ", "our ", "a ", ""} {
		r, ok := strings.CutPrefix(h, d)
		if !ok {
			continue
		}
		for _, j := range judgements {
			rj, ok := strings.CutPrefix(r, j+" ")
			if !ok {
				continue
			}
			for _, w := range verdictWords {
				rw, ok := strings.CutPrefix(rj, w)
				if !ok || (rw != "" && isAlpha(rw[0]) && rw[0] != 's') {
					continue
				}
				rw = strings.TrimPrefix(rw, "s")
				// what may stand between the noun and its verb: "here",
				// "for the cache", "in this case" (a few words)
				for _, v := range []string{" is ", " was ", " would be ", " will be ", ": ", " here is ", " here: "} {
					if k := strings.Index(rw, v); k >= 0 && len(strings.Fields(rw[:k])) <= 5 {
						return true
					}
				}
			}
		}
	}
	return false
}

// labelledVerdict finds a verdict word in a short label before a colon:
// "conclusion: …", "plan of record: …", "final answer on storage: …".
func labelledVerdict(h string) bool {
	label, rest, ok := strings.Cut(h, ":")
	if n := len(strings.Fields(label)); !ok || n > 8 || len(strings.Fields(rest)) < 1 {
		return false
	} else if n > 5 && !hasAnyPrefix(label, ruleLabels) {
		// a rule's label may say how long it holds: "standing
		// instruction while this branch is open: …"
		return false
	}
	if len(strings.Fields(rest)) < 3 {
		// "Verdict: optimistic locking.", "Decision: Redis.": a short
		// answer needs a label that can only announce one.
		l := strings.TrimSpace(label)
		for _, w := range []string{"decision", "verdict", "conclusion", "final decision", "final answer", "choice", "pick", "resolution"} {
			if l == w || strings.HasSuffix(l, " "+w) && len(strings.Fields(l)) <= 3 {
				return true
			}
		}
		return false
	}
	if r := strings.TrimSpace(rest); hasAnyPrefix(r, undecided) {
		return false // "Conclusion: none yet, …"
	}
	for _, w := range verdictWords {
		if hasWord(label, w) && (w != "answer" || hasWord(label, "final")) && headsLabel(label, w) {
			return true
		}
	}
	return hasWord(label, "approach") || hasWord(label, "the design")
}

// undecided open a verdict that is not one yet.
var undecided = []string{"none", "not yet", "unclear", "unknown", "undecided", "tbd", "pending", "inconclusive", "no idea"}

// headsLabel reports whether the verdict word w heads the label: it ends
// it or is followed by what it is about or when ("final answer on
// storage", "conclusion after the benchmark", "decision made"), not
// "resolution of the screenshot".
func headsLabel(label, w string) bool {
	k := strings.LastIndex(label, w)
	after := strings.TrimSpace(label[k+len(w):])
	return after == "" || hasAnyPrefix(after, []string{"on ", "for ", "about ", "after ", "made", "taken", "reached", "here", "then", "now", "so far", "while ", "until "})
}

// refusals reject an option.
var refusals = []string{"let's not", "lets not", "we're not going to", "we are not going to", "we're not switching",
	"we're not migrating", "we're not moving", "we're not adding", "we're not upgrading", "we're not changing",
	"we're not adopting", "we're not supporting", "we're not shipping", "we are not switching", "we are not migrating",
	"we are not adding", "we are not upgrading", "we are not supporting",
	"i'm not going to", "i am not going to", "we won't", "we will not", "i won't", "i will not",
	"we don't need", "we do not need", "i don't need", "no need for", "rejecting", "rejected",
	"ruling out", "not going to", "we shouldn't", "we should not", "i'd avoid", "we'd avoid",
	"let's avoid", "we'll avoid", "i'll avoid", "skipping the", "there's no point in", "not worth"}

// refusal finds an option turned down, with what it is about: "let's not
// add a feature flag; …", "we don't need the ORM for this".
func refusal(h string) bool {
	for _, r := range refusals {
		rest, ok := strings.CutPrefix(h, r)
		if !ok || (rest != "" && isAlpha(rest[0])) {
			continue
		}
		// a concrete verb says what is turned down in fewer words: "We're
		// not migrating in-flight jobs."
		if n := len(strings.Fields(rest)); n < 2 || n < 3 && !strings.HasSuffix(r, "ing") {
			return false
		}
		// "there's no need to look further" turns down a step, not an
		// option; "let's not forget" is a reminder.
		w := strings.Trim(firstWord(rest), ".,;:")
		if w == "forget" || w == "look" || w == "worry" || w == "bother" || w == "panic" {
			return false
		}
		return true
	}
	return false
}

// courseGerunds take a course when they open a sentence that goes on to a
// reason or a consequence.
var courseGerunds = []string{"using", "keeping", "switching", "replacing", "dropping", "sticking",
	"rejecting", "reverting", "pinning", "vendoring", "deferring", "adopting", "choosing", "preferring",
	"going", "moving", "opting", "favouring", "favoring", "storing", "treating", "making", "swapping", "trading"}

// gerundCourse finds "Keeping the public signature; the new parameter goes
// into an options struct", "Using zod for validation here, the hand-rolled
// checks missed nested fields", but not "Using grep to find …", "Moving on
// to …" or "Switching to the repository root to run …".
func gerundCourse(h string) bool {
	w := firstWord(h)
	found := false
	for _, g := range courseGerunds {
		if w == g {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	rest := h[len(w):]
	if (w == "swapping" || w == "trading") && !strings.Contains(rest, " for ") && !strings.Contains(rest, " with ") {
		return false // "Swapping the two arguments fixed nothing": a step, not X for Y
	}
	if strings.HasPrefix(rest, " track") || strings.HasPrefix(rest, " an eye") || strings.HasPrefix(rest, " point") ||
		strings.Contains(rest, "here are") || strings.Contains(rest, "here is") || strings.Contains(rest, "below") {
		return false
	}
	if instrumental(rest) || strings.HasPrefix(rest, " on") || strings.HasPrefix(rest, " into") ||
		strings.HasPrefix(rest, " through") || strings.HasPrefix(rest, " back to") || strings.HasPrefix(rest, " over") {
		return false
	}
	// the course goes on: a second clause with a reason or a consequence
	for _, sep := range []string{"; ", " — ", " – ", " - ", ": ", " so ", " keeps ", " makes ",
		" avoids ", " means ", " lets ", " saves ", " gives ", ", which "} {
		if k := strings.Index(rest, sep); k >= 0 && len(strings.Fields(rest[k:])) >= 4 {
			return true
		}
	}
	return reasoned(rest)
}

// alternativeFirst finds a sentence that opens with the option it turns
// down: "instead of a regex I'm writing …", "rather than mocking the
// clock, inject …".
func alternativeFirst(h string) bool {
	for _, a := range []string{"instead of", "rather than", "as opposed to", "in place of"} {
		if rest, ok := strings.CutPrefix(h, a+" "); ok && len(strings.Fields(rest)) >= 4 {
			// "rather than guess, I'll print it" turns down no option
			alt, main, comma := strings.Cut(rest, ",")
			if comma && stepNext(strings.TrimSpace(main)) {
				return false // "rather than reading every file, let me grep for it": a step
			}
			return !comma || len(strings.Fields(alt)) >= 2
		}
	}
	return false
}

// betterThan finds a judgement between two courses: "better to fail loudly
// here than …", "it's safer to … than …".
func betterThan(h string) bool {
	h = strings.TrimPrefix(strings.TrimPrefix(h, "it's "), "it is ")
	for _, j := range []string{"better", "safer", "simpler", "cheaper", "cleaner", "best", "wiser"} {
		if rest, ok := strings.CutPrefix(h, j+" to "); ok {
			// "better to fail loudly than …", "it's cleaner to fix this at
			// the source: the exporter …" (the judgement and its why)
			return j == "best" || hasWord(rest, "than") || strings.Contains(rest, ": ") || strings.Contains(rest, "; ")
		}
	}
	return false
}

// firstWord returns the first word of s, without leading spaces.
func firstWord(s string) string {
	s = strings.TrimLeft(s, " ")
	if k := strings.IndexAny(s, " ,;:."); k >= 0 {
		return s[:k]
	}
	return s
}

// winsAtEnd finds "X wins" closing a clause: "the pool wins; the builder
// allocated more".
func winsAtEnd(low string) bool {
	for _, w := range []string{" wins", " won"} {
		for off := 0; ; {
			k := strings.Index(low[off:], w)
			if k < 0 {
				break
			}
			k += off
			off = k + len(w)
			rest := low[k+len(w):]
			if r, ok := strings.CutPrefix(rest, " here"); ok && (strings.HasPrefix(r, ":") || strings.HasPrefix(r, " —")) {
				rest = r // "cron wins here: the job runs once a night"
			}
			if rest == "" || strings.IndexByte(".;,:!", rest[0]) >= 0 || strings.HasPrefix(rest, " over") || strings.HasPrefix(rest, " out") {
				return true
			}
		}
	}
	return false
}

// A choice said in words no cue list foresees still carries some of a few
// signals: the speaker commits to a course (a modal or "let's" before a
// verb that changes something, not one that looks or runs), settles or
// opts, weighs options (better, overkill, makes more sense), names the
// design being decided (the approach, my take, the trade-off), gives a
// reason, or sets an alternative aside. One signal alone is common in
// narration ("since the last change, the test takes twelve seconds"); a
// choice carries two, one of them the speaker's own commitment, judgement
// or design.

// settleWords settle a question whatever else the sentence says.
var settleWords = []string{"settle", "settled", "settling", "opt", "opted", "opting", "decide", "decided",
	"deciding", "choose", "chose", "chosen", "choosing", "go with", "going with", "went with", "commit to",
	"committing to", "pick", "picking"}

// evalWords weigh an option.
var evalWords = []string{"better", "best", "simpler", "simplest", "safer", "safest", "cleaner", "cleanest",
	"easier", "easiest", "overkill", "invasive", "more sense", "makes sense", "cheaper", "cheapest",
	"robust", "risky", "riskier", "worth", "worse", "preferable", "wiser", "sane", "saner", "pragmatic",
	"unnecessary", "not needed", "overcomplicated", "over-engineered", "over-engineering", "sufficient",
	"good enough", "ideal", "nicer", "less error-prone", "more readable", "less code",
	"fragile", "brittle", "a lot of ops", "heavyweight", "lightweight"}

// designNouns name what is being decided.
var designNouns = []string{"design", "approach", "decision", "my take", "our take", "trade-off", "tradeoff",
	"strategy", "policy", "convention", "the plan is", "the plan now", "plan of record", "the question of"}

// notDesign follow a design noun that names a document, not a design.
var notDesign = []string{"doc", "docs", "document", "file", "files", "section", "page", "flag", "flags",
	"review", "meeting", "tab", "menu", "list", "listed", "are listed", "is listed"}

// intentCues commit the speaker to what follows.
var intentCues = []string{"i'll", "we'll", "i will", "we will", "i'd", "we'd", "we should", "i should",
	"we can", "we go", "we're going to", "i'm going to", "going to", "let's", "will", "should",
	"that's what i'm doing", "that's what we're doing"}

// choiceScore reports whether a lower-case sentence carries two signals of
// a choice, one of them the speaker's.
func choiceScore(low string) bool {
	own, n := 0, 0
	for _, w := range settleWords {
		if k := wordIndex(low, w); k >= 0 && !settleStep(low[k+len(w):]) && spoken(low, k) {
			// "Picking a port is done by the OS": a gerund opening the
			// sentence may be its subject; it needs a second signal
			g := 2
			if strings.HasSuffix(w, "ing") && headOf(low[:k]) == "" {
				g = 1
			}
			own, n = own+g, n+g
			break
		}
	}
	commit := committed(low)
	if commit {
		own, n = own+1, n+1
	}
	for _, w := range evalWords {
		if hasWord(low, w) {
			own, n = own+1, n+1
			break
		}
	}
	if designNamed(low) {
		own, n = own+1, n+1
	}
	if reasoned(low) || strings.Contains(low, "; ") || strings.Contains(low, " — ") ||
		(hasWord(low, "so") && !hasWord(low, "so far")) || hasAnyLead(low, consequences) {
		n++
	}
	if commit && ruleScoped(low) {
		n++ // what the speaker commits to holds as a rule
	}
	alt := hasNotBut(low) || hasWord(low, "than") || hasWord(low, "no") ||
		// "replacing the retry loop with backoff.Retry": the old way set aside
		(hasWord(low, "replacing") || hasWord(low, "swapping")) && (hasWord(low, "with") || hasWord(low, "for"))
	for _, c := range alternatives {
		alt = alt || hasWord(low, c)
	}
	if alt {
		n++
	}
	return own > 0 && n >= 2
}

// ruleScopes make a commitment a rule for the rest of the work: it holds
// from here on, by default, only or always, within a bound.
var ruleScopes = []string{"from here", "from now on", "going forward", "default", "defaults", "by default",
	"only", "always", "never", "at the edges", "capped at", "fall back", "falls back", "reserve",
	"everywhere", "for all", "for every"}

// ruleScoped reports whether a sentence scopes what it commits to as a
// rule: "we will return 422 for validation errors and reserve 400 for
// malformed JSON", "from here I'll treat the vendor directory as
// read-only".
func ruleScoped(low string) bool {
	for _, r := range ruleScopes {
		if hasWord(low, r) {
			return true
		}
	}
	return false
}

// settleStep reports whether what follows a settling word is a next step:
// "decided to look at the parser next", "picked up".
func settleStep(rest string) bool {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return false
	}
	if f[0] == "up" {
		return true
	}
	if f[0] == "to" && len(f) > 1 {
		v := strings.Trim(f[1], ".,;:")
		return slices.Contains(stepVerbs, v) || slices.Contains(moreStepVerbs, v)
	}
	return false
}

// spoken reports whether the word at low[k:] is the speaker's: the
// sentence opens with it (past fillers: "Opted to leave …", "OK, settling
// on …"), or a first-person subject stands in the few words before it
// ("I'm settling", "we finally picked"), not "the scheduler can decide".
func spoken(low string, k int) bool {
	if headOf(low[:k]) == "" {
		return true
	}
	// the speaker is the subject of the clause the cue ends: "we evaluated
	// GORM and sqlc and chose sqlc", not "we found the previous developer
	// chose MySQL"
	f := strings.Fields(low[:k])
	for i := len(f) - 1; i >= 0 && i >= len(f)-8; i-- {
		w := strings.Trim(f[i], ".,;:!?")
		switch w {
		case "i", "we", "i'm", "we're", "i've", "we've", "i'll", "we'll", "i'd", "we'd", "let's", "me", "us":
			return true
		case "that", "who", "which", "when", "because", "since", "he", "she", "they", "it", "someone", "previous", "developer", "team":
			return false
		}
		if i < len(f)-1 && strings.ContainsAny(f[i][len(f[i])-1:], ".,;:!?") {
			return false // another clause
		}
	}
	return false
}

// changeGerunds after "I'm" or "we're" change the course under way: "I'm
// replacing the retry loop with backoff.Retry".
var changeGerunds = []string{"replacing", "switching", "swapping", "dropping", "pinning", "reverting", "migrating"}

// committed reports whether an intent cue is followed by a verb that
// changes something, past adverbs: "we will serialise writes", "the new
// field will be optional", not "I'll check the logs". A bare "will" or
// "should" commits only a design's subject ("the new field", "the
// change"), not "the test will fail".
func committed(low string) bool {
	for _, subj := range []string{"i'm ", "we're ", "i am ", "we are "} {
		if k := strings.Index(low, subj); k >= 0 && (k == 0 || low[k-1] == ' ') {
			// not "I'm replacing the placeholder … now": an edit under way
			if w := firstWord(low[k+len(subj):]); slices.Contains(changeGerunds, w) &&
				!hasWord(low, "now") && !hasWord(low, "next") && !hasWord(low, "first") {
				return true
			}
		}
	}
	for _, c := range intentCues {
		k := wordIndex(low, c)
		if k < 0 {
			continue
		}
		if (c == "will" || c == "should") && headOf(low[:k]) != "" {
			// "Will implement the limiter in middleware": the subject
			// left out is the speaker
			subj := low[:k]
			if j := strings.LastIndexAny(subj, ",;:"); j >= 0 {
				subj = subj[j+1:]
			}
			if !hasWord(subj, "new") && !designNamed(subj) && !hasWord(subj, "change") && !hasWord(subj, "fix") &&
				!hasWord(subj, "default") {
				continue
			}
		}
		words := strings.Fields(low[k+len(c):])
		for i, w := range words {
			w = strings.Trim(w, ".,;:!?\"'`()")
			if w == "have" && i+1 < len(words) && slices.Contains([]string{"the", "it", "them", "each", "every", "all"}, words[i+1]) {
				return true // "we'll have the CLI read config from …": a design, not a need
			}
			if planAdverbs[w] || w == "not" || w == "probably" || w == "simply" || w == "all" ||
				w == "only" || w == "always" || w == "never" || w == "just" || w == "also" || w == "still" {
				continue
			}
			if w == "" || slices.Contains(stepVerbs, w) || slices.Contains(moreStepVerbs, w) ||
				w == "see" || w == "need" || w == "like" || w == "have" || w == "want" {
				break
			}
			return true
		}
	}
	return false
}

// designNamed reports whether a design noun is named, not a document about
// it.
func designNamed(low string) bool {
	for _, d := range designNouns {
		k := wordIndex(low, d)
		if k < 0 {
			continue
		}
		next := firstWord(low[k+len(d):])
		if !slices.Contains(notDesign, next) {
			return true
		}
	}
	return false
}

// stepNext reports whether a clause only says what the speaker does next:
// "let me grep for the error string", "I'll print the value".
func stepNext(cl string) bool {
	for _, lead := range []string{"let me ", "let's ", "i'll ", "i will ", "i'm going to "} {
		if rest, ok := strings.CutPrefix(cl, lead); ok {
			return slices.Contains(stepVerbs, strings.Trim(firstWord(rest), ".,;:"))
		}
	}
	return false
}
