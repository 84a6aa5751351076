package ledger

import "strings"

// This file reads the ways people say a question is settled without a
// word such as "decided": a lead-in that says so before a colon ("Final
// call after syncing with Sophie:", "So, to be clear for the
// implementation:"), a course taken in place of another ("Instead we store
// every rate in the table", "I'll drop the grids and not split the
// package"), and, in a user's message, the simpler option declared enough
// ("an env var per flag is enough for now, no runtime toggling").

// settledLeads say, in the lead-in before a colon, that what follows was
// settled.
var settledLeads = []string{"final call", "final decision", "final version", "final plan", "final approach",
	"final design", "final answer", "final choice", "final word", "decision", "decisions", "decided", "official",
	"officially", "verdict", "consensus", "agreed", "the rule", "as the rule", "like this", "to be clear",
	"to be explicit", "scratch", "bottom line", "long story short", "after the meeting", "after the call",
	"after syncing", "so please", "the outcome", "resolution"}

// settledLead returns where the clause a settling lead-in introduces
// starts: after "Decision with Jan and Natalia: ", "So scratch the Redis
// plan: ", "Let's make it official: ". A lead-in that ends the sentence
// ("Final call after syncing with Sophie and Dario:") returns its length:
// what it settles is the sentence after it. It returns -1 for any other
// sentence.
func settledLead(low string) int {
	k, at := strings.Index(low, ": "), 0
	switch {
	case k > 0:
		at = k + 2
	case strings.HasSuffix(low, ":"):
		k, at = len(low)-1, len(low)
	default:
		return -1
	}
	lead := strings.TrimLeft(low[:k], "> *_-#")
	if k > 100 || len(strings.Fields(lead)) > 14 || strings.ContainsAny(lead, "?`") || !hasAnyWord(lead, settledLeads) {
		return -1
	}
	if at < len(low) && (len(strings.Fields(low[at:])) < 3 || strings.HasSuffix(low, "?")) {
		return -1
	}
	return at
}

// settledReader wraps a sentence classifier of prose people wrote: a
// sentence a settling lead-in opens is a decision, and so is the sentence
// after a lead-in that stands alone, whatever their words.
func settledReader(classify func(low string, starts []int) (Kind, int)) func(low string, starts []int) (Kind, int) {
	pending := false
	return func(low string, starts []int) (Kind, int) {
		was := pending
		pending = false
		if at := settledLead(low); at >= 0 {
			if at == len(low) {
				pending = true
				return "", 0
			}
			return KindDecision, 0
		}
		if was && len(strings.Fields(low)) >= 4 && !strings.HasSuffix(low, "?") && !hedged(low) {
			return KindDecision, 0
		}
		if discussionNamed(low) {
			// "We discussed it at the maintainer sync." says the next
			// sentence is where it landed
			pending = true
		}
		return classify(low, starts)
	}
}

// lookVerbs only look: a course that opens with one is a step.
var lookVerbs = map[string]bool{"see": true, "find": true, "check": true, "look": true, "search": true, "read": true,
	"inspect": true, "view": true, "open": true, "print": true, "list": true, "show": true, "run": true,
	"examine": true, "explore": true, "grep": true, "try": true, "investigate": true, "verify": true, "confirm": true,
	"test": true, "debug": true, "dig": true, "figure": true, "ask": true, "wait": true}

// insteadCourse reports whether a sentence opens with the course taken in
// place of the one just described: "Instead we store every fetched rate in
// the table", "Instead, I'll pass the context explicitly".
func insteadCourse(low string) bool {
	r, ok := strings.CutPrefix(strings.TrimLeft(low, "> *_-"), "instead")
	if !ok || r == "" || isAlpha(r[0]) {
		return false
	}
	r = strings.TrimLeft(r, " ,")
	for _, subj := range []string{"we will ", "we'll ", "we ", "i will ", "i'll ", "let's "} {
		if v, ok := strings.CutPrefix(r, subj); ok {
			w := strings.Trim(firstWord(v), ".,;:")
			return w != "" && !lookVerbs[w] && !observeVerbs[w] && !auxiliaries[w] && !pastTense(w) &&
				len(strings.Fields(v)) >= 3
		}
	}
	return false
}

// courseAndNot reports whether the speaker takes one course and, in the
// same sentence, says which it does not: "I'll drop the duplicated grids
// and not split the package", "we keep the field and don't add a second
// one".
func courseAndNot(low string) bool {
	for _, sep := range []string{" and not ", " and don't ", " and do not ", " and won't ", " and will not "} {
		k := strings.Index(low, sep)
		if k < 0 {
			continue
		}
		before, after := low[:k], strings.Fields(low[k+len(sep):])
		subj := -1
		for _, s := range []string{"i'll", "we'll", "i will", "we will", "let's", "we"} {
			if j := wordIndex(before, s); j >= 0 && (subj < 0 || j < subj) {
				subj = j
			}
		}
		if subj < 0 || len(after) < 2 {
			continue
		}
		v := strings.Fields(before[subj:])
		if len(v) < 3 {
			continue
		}
		w := v[1]
		if w == "will" && len(v) > 2 {
			w = v[2]
		}
		if lookVerbs[w] || observeVerbs[w] || auxiliaries[w] || pastTense(w) || strings.HasSuffix(w, "ing") {
			continue
		}
		if a := after[0]; auxiliaries[a] || pastTense(a) || strings.HasSuffix(a, "ing") && a != "bring" {
			continue
		}
		return true
	}
	return false
}

// enoughCourse reports whether a user's sentence declares the simpler
// option enough and goes on to say what that rules out or how it is done:
// "an env var per flag is enough for now, read once at startup, no
// runtime toggling", "Server-Sent Events are enough here since it's
// one-way".
func enoughCourse(low string) bool {
	for _, c := range []string{" is enough", " are enough", " is good enough", " are good enough", " suffices", " suffice"} {
		k := strings.Index(low, c)
		if k <= 0 {
			continue
		}
		if subj := strings.Fields(low[:k]); len(subj) == 1 && notInstruction[subj[0]] {
			continue // "that is enough, thanks"
		}
		rest := low[k+len(c):]
		for _, r := range []string{", ", " since ", " because ", "; ", " so ", " — "} {
			if j := strings.Index(rest, r); j >= 0 && j <= 12 && len(strings.Fields(rest[j:])) >= 3 {
				return true
			}
		}
	}
	return false
}

// droppedLeads open a short sentence that drops an option: what comes
// after it is what replaced it.
var droppedLeads = []string{"scrapped", "dropped", "abandoned", "gave up on", "ditched", "reverted", "killed",
	"threw out", "binned"}

// discussionNamed reports whether a short sentence only says that a
// question was discussed, and where ("We discussed it at the maintainer
// sync.", "Talked it over with Jan and Natalia."): the sentence after it
// gives the outcome.
func discussionNamed(low string) bool {
	h := strings.TrimLeft(low, "> *_-")
	if len(strings.Fields(h)) > 12 || strings.HasSuffix(h, "?") || strings.Contains(h, ": ") {
		return false
	}
	return hasAnyLead(h, []string{"we discussed", "discussed", "we talked", "talked it over", "as discussed",
		"we had the meeting", "we met", "we synced", "after the meeting", "after some discussion", "after discussion"})
}
