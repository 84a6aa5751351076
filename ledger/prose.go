package ledger

import (
	"slices"
	"strings"
)

// This file reads decisions, plans and constraints in prose.
//
// An assistant's sentence is a decision when it settles the course of the
// work: it picks one thing over another (instead of, rather than, X over Y,
// X beats Y, not X but Y), adopts a rule or an approach for what follows
// (from now on, going forward, we'll stick with, the fix is to, settled on,
// I'll go with), or states a conclusion that changes the course (the root
// cause is ...). It is a plan when it only says what the assistant does next
// (let me, I'll now, next I will, first check, I need to look at): such a
// sentence is worth little once the step has run, and there are many of
// them. A user's sentence is a constraint when it sets a rule on the work
// (don't, never, must, make sure, only change, keep it compatible, without
// changing), not when it merely holds one of those words ("it only fails on
// CI", "the jobs never finish").

// assistantProse adds the decisions and plans of an assistant's text.
func (s *scanner) assistantProse(text string) {
	if observation(text) {
		return
	}
	s.agentProse = true
	s.prose(text, assistantKind)
	s.agentProse = false
}

// IsPlan reports whether one sentence of the agent's reply only says what
// it does next ("Let me read the worker package."): the ledger reads it as
// a plan, not as a decision, a change of course or a note.
func IsPlan(sentence string) bool {
	low := strings.ToLower(strings.TrimSpace(sentence))
	k, _ := assistantKind(low, nil)
	return k == KindPlan
}

// assistantKind is the kind of a lower-case sentence of an assistant's
// text, and where in it the item starts; starts are where the sentences
// run together in it begin.
func assistantKind(low string, starts []int) (Kind, int) {
	if at, ok := decisionAt(low); ok && !strings.HasSuffix(low, "?") && !hedged(low) {
		// "…255 green Decision: miette over…": the decision starts
		// where its cue opens a run-on sentence.
		if slices.Contains(starts, at) {
			return KindDecision, at
		}
		return KindDecision, 0
	}
	if rejectsWithReason(low) && !hedged(low) {
		return KindDecision, 0
	}
	if isPlan(low) {
		switch verb, course := planCourse(low); {
		case course && reasoned(low):
			return KindDecision, 0
		case substitution(verb, low) && (reasoned(low) || clauseAfter(low)):
			// "I'm going to replace the hand-written parser with
			// pyparsing, because the grammar keeps growing": one
			// thing for another, with why.
			return KindDecision, 0
		case course && verb != "" && len(strings.Fields(low)) >= courseWords:
			// "I'll switch the retry to jittered backoff, which
			// should stop the thundering herd": a change of
			// course with substance, not a next step. As a note
			// it is ranked like every specific instead of being
			// dropped with the plans older than the latest.
			return KindNote, 0
		}
		return KindPlan, 0
	}
	if noteWorthy(low) {
		return KindNote, 0
	}
	return "", 0
}

// thinkingProse adds the decisions of an assistant's reasoning, leaving
// out the hedged ones ("maybe I should use X instead") and questions.
func (s *scanner) thinkingProse(text string) {
	s.prose(text, func(low string, starts []int) (Kind, int) {
		if strings.HasSuffix(low, "?") || hedged(low) {
			return "", 0
		}
		if decisionStrict(low) {
			return KindDecision, 0
		}
		return "", 0
	})
}

// hedges make a sentence a thought rather than a choice.
var hedges = []string{"maybe", "perhaps", "might", "could", "possibly", "not sure", "unsure", "wonder",
	"if ", "whether", "or should", "alternatively", "option a", "option 1", "one option", "another option",
	"considering", "consider", "whichever"}

func hedged(low string) bool {
	// A condition in the reason that follows the course does not hedge
	// it: "The decision here is to fail closed: if the policy service is
	// down, requests are denied."
	for _, sep := range []string{": ", "; ", " — ", " because ", " since "} {
		if k := strings.Index(low, sep); k > 0 && len(strings.Fields(low[:k])) >= 4 {
			low = low[:k]
		}
	}
	for _, h := range hedges {
		if strings.HasSuffix(h, " ") {
			if strings.HasPrefix(low, h) || strings.Contains(low, " "+h) {
				return true
			}
			continue
		}
		if hasWord(low, h) {
			return true
		}
	}
	return false
}

// noteWorthy reports whether an assistant's sentence that is neither a
// decision nor a plan is worth a note: one that says something, not a
// pleasantry ("Done.", "Sure, here it is:") or a question back.
func noteWorthy(low string) bool {
	if strings.HasSuffix(low, "?") || strings.HasSuffix(low, ":") {
		return false
	}
	n := len(strings.Fields(low))
	// a short sentence that names something in a code span: "The flag
	// is `checkout_v2_split_tender`."
	return n >= 6 || n >= 3 && strings.Count(low, "`") >= 2
}

// userProse adds the constraints of a user's text. The caller leaves out
// tool output relayed as user text (see observation).
func (s *scanner) userProse(text string) {
	s.prose(text, settledReader(func(low string, starts []int) (Kind, int) {
		if strings.HasSuffix(low, "?") {
			return "", 0 // a question sets no rule
		}
		if isConstraint(low) {
			return KindConstraint, 0
		}
		// The user settles a question the agent asked or a course it
		// proposed: "Let's go with Redis.", "Use the partial index, not
		// the serializer check."
		if decisionStrict(low) && !hedged(low) || userChoice(low) || rejectsWithReason(low) && !hedged(low) || ordinalPick(low) ||
			userCourse(low) || hasAnyLead(low, []string{"i", "we"}) && justifiedAlternative(low) && !hedged(low) && !lookedAt(low) {
			// the last: "I went ahead and used moment-timezone instead
			// of luxon because the other files import it"
			return KindDecision, 0
		}
		// "… they don't want the audit. so we use Stripe Checkout, please
		// remove …": typed in lower case, the conclusion opens mid-line
		if k := strings.Index(low, ". so "); k > 0 && userCourse(low[k+2:]) {
			return KindDecision, k + 2
		}
		// "Server-Sent Events are enough here since it's one-way, so use
		// SSE over plain HTTP and skip socket.io."
		if enoughCourse(low) && !hedged(low) {
			return KindDecision, 0
		}
		if k := strings.Index(low, ", so "); k > 0 && (userChoice(low[k+5:]) || userCourse(low[k+2:])) {
			return KindDecision, 0
		}
		// "Looping in from the product side: we're not going to support
		// IE11 …": what a short lead-in introduces is read as a sentence.
		if r, at := afterLead(low); at > 0 && (decisionStrict(r) && !hedged(r) || userChoice(r) || userCourse(r)) {
			return KindDecision, at
		}
		// A rule typed straight after pasted output, with no full stop
		// between: "…socket hang up Leave x.ts exactly as it is." The
		// constraint is the rule, from its first word.
		for _, at := range starts {
			if ruleClause(low[at:]) {
				return KindConstraint, at
			}
		}
		// "save files stay JSON (gzipped), the binary format is shelved
		// until after 1.0", "Pydantic v2 only. Don't add the compat
		// imports": how things are settled, in no decision's words
		if (settledChoice(low) || settledRule(low) && !hedged(low)) && !lookedAt(low) {
			return KindDecision, 0
		}
		return "", 0
	}))
}

// prose splits text into sentences, outside code fences, code-like lines
// and tool output relayed as text, and adds each sentence classify gives a
// kind to. classify sees the sentence in lower case with curly apostrophes
// made straight and a leading label (THOUGHT:, DISCUSSION, a list bullet)
// removed, and the offsets in it of the capitalised words that follow a
// space mid-sentence (where a run-on sentence may start a new thought); it
// returns the kind and the offset the item starts at.
func (s *scanner) prose(text string, classify func(low string, starts []int) (Kind, int)) {
	inFence, decided := false, false
	block := -1 // the decision that ends the line before, which the next line may go on with
	// options holds the lines of a list of options just read, its intro
	// ("Two options for the loop:") then its items, for the decision that
	// picks one of them by its place ("Going with the first: …").
	var options []string
	lines := strings.Split(text, "\n")
	if s.unwrap {
		lines = unwrapped(lines, 0)
	}
	for _, line := range lines {
		n0 := len(s.items)
		s.optionLine(&options, strings.TrimSpace(line))
		prevBlock := block
		block = -1
		t := strings.TrimRight(line, " \t\r")
		if f := strings.TrimSpace(t); strings.HasPrefix(f, "```") {
			inFence = !inFence
			// A sentence typed straight after a pasted block's closing
			// fence: "``` Go with the cache, please, not …".
			rest := strings.TrimSpace(strings.TrimLeft(f, "`"))
			if inFence || len(strings.Fields(rest)) < 3 {
				continue
			}
			t = rest
		}
		if inFence {
			s.decisionComment(strings.TrimSpace(t), classify)
			continue
		}
		if h, ok := strings.CutPrefix(strings.TrimSpace(t), "#"); ok && (h == "" || h[0] == '#' || h[0] == ' ') {
			// What a decision record's "## Decision" section says is
			// the decision, however it is worded.
			low, _ := lower(strings.Trim(h, "# *:"))
			decided = slices.Contains(decisionHeadings, low)
		}
		if f := strings.TrimSpace(t); strings.HasSuffix(f, ":") && !strings.HasPrefix(f, "#") && len(strings.Fields(f)) <= 3 {
			// a section's label on a line of its own, as plain-text
			// records write them ("Outcome:", "Consequences:")
			low, _ := lower(strings.Trim(f, "*_: "))
			decided = slices.Contains(decisionHeadings, low)
			continue
		}
		if codeLine(t) {
			continue
		}
		t = strings.TrimSpace(t)
		if prevBlock >= 0 && t != "" {
			// "**Decision:** X.\n**Rejected:** Y (why).": the line that
			// names what was set aside, or why, goes with the decision
			// it follows, as written.
			if low, _ := lower(t); blockLine(low) && s.extendBlock(prevBlock, t) {
				block = prevBlock
				continue
			}
		}
		if decided && !strings.HasPrefix(t, "#") && len(t) <= s.e.capOf(KindDecision) && len(strings.Fields(t)) >= 4 && !strings.HasSuffix(t, "?") {
			// A paragraph of a decision section is one decision with
			// its reasons: "Daily partitions, never one big table.
			// Reason: vacuum on the big table takes hours."
			if low, pos := lower(t); low != "" {
				if cut := len(low) - len(stripLabel(low)); cut < len(pos) {
					if v := t[pos[cut]:]; len(strings.Fields(v)) >= 4 {
						if s.add(KindDecision, v) != nil {
							block = len(s.items) - 1
						}
						continue
					}
				}
			}
		}
		sents := sentences(t)
		read := func(sent string) (Kind, int, string, []int, int) {
			low, pos := lower(sent)
			cut := len(low) - len(stripLabel(low))
			low = low[cut:]
			var starts []int
			for i := 2; i < len(low); i++ {
				// a capital after a space, but not the pronoun I joined to
				// what comes before ("…, so I'm going with that")
				if sent[pos[cut+i]] != low[i] && isAlpha(low[i]) && low[i-1] == ' ' &&
					!(low[i] == 'i' && (i+1 == len(low) || low[i+1] == ' ' || low[i+1] == '\'') && joinedI(low[:i-1])) {
					starts = append(starts, i)
				}
			}
			k, at := classify(low, starts)
			if at > 0 && labelled(low[:at]) {
				// "Note: I chose …": the label goes with what it labels
				at = 0
			}
			return k, at, low, pos, cut
		}
		// Each sentence is read first, so that a decision can take the
		// sentence before it that gives its reason before that one is
		// kept on its own.
		type reading struct {
			k        Kind
			at, cut  int
			low      string
			pos      []int
			readable bool
		}
		rs := make([]reading, len(sents))
		for i, sent := range sents {
			if len(sent) >= 8 {
				k, at, low, pos, cut := read(sent)
				if decided && (k == "" || k == KindNote || k == KindPlan) && len(strings.Fields(low)) >= 4 && !strings.HasSuffix(low, "?") {
					k, at = KindDecision, 0
				}
				rs[i] = reading{k, at, cut, low, pos, true}
			} else {
				// too short to record on its own ("Faster."), not
				// to go on about a decision
				low, pos := lower(sent)
				rs[i] = reading{low: low, pos: pos, readable: true}
			}
		}
		// joins says whether sentence i may join a decision next to it:
		// a sentence read as nothing or as a note, short, no question.
		joins := func(i int) bool {
			r := rs[i]
			return r.readable && len(r.pos) > r.cut && (r.k == "" || r.k == KindNote) && aside(r.low)
		}
		// follows says whether sentence i may follow a decision as its
		// reason: as joins, but a reason may be hedged ("Changing it
		// would probably need a table rewrite.").
		follows := func(i int) bool {
			r := rs[i]
			if !r.readable || len(r.pos) <= r.cut {
				return false
			}
			if r.k != "" && r.k != KindNote && r.k != KindDecision {
				return false
			}
			return setsAside(r.low) || r.k != KindDecision && reasonAfter(r.low)
		}
		dcap := s.e.capOf(KindDecision)
		taken := make([]bool, len(sents))
		vals := make([]string, len(sents))
		for si := range sents {
			r := rs[si]
			if r.k == "" && !(r.readable && len(r.pos) > r.cut && len(strings.Fields(r.low)) >= 3 && !strings.HasSuffix(r.low, "?")) {
				continue
			}
			if (r.k == KindNote || r.k == KindPlan || r.k == "") && r.at == 0 && si+1 < len(sents) && rs[si+1].readable && setsAside(rs[si+1].low) {
				// "I'll implement orjson for the worker. The
				// alternative was the json module, but …": a course
				// followed by the option it leaves is a choice.
				r.k = KindDecision
				rs[si].k = KindDecision
			}
			if r.k == "" && si > 0 && hasAnyLead(r.low, []string{"picking", "picked", "taking", "going with", "choosing"}) && rs[si-1].readable && namesPick(rs[si-1].low, r.low) {
				// "pandas is quicker to write, polars is correct since
				// … Picking polars.": a pick of what the sentence
				// before weighed.
				r.k = KindDecision
				rs[si].k = KindDecision
			}
			if r.k == "" {
				continue
			}
			sent := sents[si]
			v := sent[r.pos[r.cut+r.at]:]
			if r.at == 0 && r.k == KindDecision {
				// "3. Use distroless instead of alpine …", "> Decided: …":
				// a decision is kept as printed, with its list's mark
				if off := strings.Index(t, sent); off >= 0 && len(r.pos) > r.cut {
					if p := t[:off] + sent[:r.pos[r.cut]]; listMarker(p) {
						v = p + v
					}
				}
			}
			// A run-on sentence keeps the clauses around what it
			// records (fitClauses); a single clause too long for the
			// cap is kept whole up to the kind's own cap (capOf).
			if max := s.e.maxValueLen(); len(v) > max {
				cue := 0
				if r.k == KindDecision {
					if c, ok := decisionAt(r.low[r.at:]); ok {
						cue = r.pos[r.cut+r.at+c] - r.pos[r.cut+r.at]
					}
				}
				var key func(string) bool
				switch r.k {
				case KindDecision:
					key = func(low string) bool { _, ok := decisionAt(low); return ok }
				case KindConstraint:
					key = isConstraint
				}
				// a choice's reason, or a rule's scope, is often the
				// clause after it ("…; the conflict spans 300+ lines
				// of hashes"): it may reach the kind's own cap
				v = fitClauses(v, cue, max, s.e.capOf(r.k), key)
			} else if r.k == KindDecision {
				// "jsonwebtoken cannot verify EdDSA. We'll use jose.":
				// the sentence before that states the problem the
				// choice answers belongs to it, as do the sentences
				// after it, which go on about it ("We'll use pgx.
				// database/sql hides the COPY protocol."), up to the
				// next thing said of its own kind, a question, the
				// next step or a report that something works.
				// Only when the decision is its whole sentence: what a
				// cue mid-sentence left out is not brought back.
				if si > 0 && r.at == 0 && !taken[si-1] && joins(si-1) && motivates(rs[si-1].low, r.low) {
					p := rs[si-1]
					if whole := sents[si-1][p.pos[p.cut]:] + " " + sent[r.pos[r.cut]:]; len(whole) <= dcap {
						v = whole
						taken[si-1] = true
						vals[si-1] = ""
					}
				} else if si == 1 && r.at == 0 && !taken[0] && rs[0].k == "" && len(sents[0]) < 16 && !strings.HasSuffix(sents[0], "?") {
					// "Throw. We decided to phase the Result helper
					// out; …": the short answer that opens the line is
					// the pick the decision goes on about
					if whole := sents[0] + " " + v; len(whole) <= dcap && strings.HasPrefix(t, sents[0]) {
						v = whole
						taken[0] = true
						vals[0] = ""
					}
				}
				for n, next := 0, si+1; n < continuation && next < len(sents); n, next = n+1, next+1 {
					if len(v)+1+len(sents[next]) > dcap || !follows(next) {
						break
					}
					v += " " + sents[next]
					taken[next] = true
				}
			}
			if !taken[si] {
				vals[si] = v
			}
		}
		// Notes said one after the other in a paragraph are one note:
		// a choice in words no reader knows ("Proposal: X. Y was
		// turned down, it costs Z.") is kept as said, not cut in two.
		for si := 0; si+1 < len(vals); si++ {
			if rs[si].k != KindNote || vals[si] == "" || taken[si] {
				continue
			}
			for next := si + 1; next < len(vals) && rs[next].k == KindNote && vals[next] != "" && !taken[next] &&
				vals[next] == sents[next] && len(vals[si])+1+len(vals[next]) <= dcap; next++ {
				vals[si] += " " + vals[next]
				taken[next] = true
			}
		}
		for si, v := range vals {
			if v != "" && !taken[si] {
				s.add(rs[si].k, v)
			}
		}
		// A decision that ends its line may go on in the next.
		if k := len(s.items) - 1; k >= n0 && s.items[k].Kind == KindDecision && strings.HasSuffix(t, s.items[k].Value) {
			block = k
		}
		if len(options) >= 3 {
			s.withOptions(n0, options)
		}
	}
}

// optionLine keeps track of a list of options in a message: a line ending
// with ':' starts one, its list items extend it, a blank line is passed
// over and any other line ends it once it has been read (see withOptions).
func (s *scanner) optionLine(options *[]string, t string) {
	if n := len(*options); n > 0 && (*options)[n-1] == "" {
		*options = (*options)[:0] // the line after the list was read
	}
	switch {
	case t == "":
	case listItem(t) && len(*options) > 0:
		*options = append(*options, t)
	case strings.HasSuffix(t, ":") && len(t) <= s.e.maxValueLen() && !listItem(t):
		*options = append((*options)[:0], t)
	case len(*options) >= 3:
		// the line after the list: read with it, then the list is done
		*options = append(*options, "")
	default:
		*options = (*options)[:0]
	}
}

// listItem reports whether a trimmed line is an item of a Markdown list.
func listItem(t string) bool {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
		return true
	}
	k := 0
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	return k > 0 && k+1 < len(t) && (t[k] == '.' || t[k] == ')') && t[k+1] == ' '
}

// ordinals pick an option by its place in a list.
var ordinals = []string{"the first", "the second", "the third", "the former", "the latter", "option a",
	"option b", "option c", "option 1", "option 2", "option 3", "option #1", "option #2", "option #3", "option one",
	"option two", "option three", "the first one", "the second one"}

// ordinalPick reports whether a user's sentence picks an option by its
// place: "The second, please.", "Option B, since …", "the first one".
func ordinalPick(low string) bool {
	// "Approved option 2.", "Kindly go ahead with the second approach
	// only": a word of assent or choice before the place
	for _, a := range []string{"kindly ", "please ", "ok, ", "ok ", "then "} {
		low = strings.TrimPrefix(low, a)
	}
	for _, a := range []string{"approved ", "approve ", "i approve ", "we approve ", "go with ", "go ahead with ", "let's do ",
		"let's go with ", "we'll take ", "i'll take ", "take ", "i pick ", "we pick ", "i choose ", "we choose ", "do "} {
		if r, ok := strings.CutPrefix(low, a); ok {
			for _, o := range ordinals {
				// the place ends the pick, or names what is picked:
				// not "take the first step and add logging"
				if rest, ok := strings.CutPrefix(r, o); ok && (rest == "" || strings.IndexByte(".,;:!—", rest[0]) >= 0 ||
					hasAnyLead(strings.TrimSpace(rest), []string{"one", "option", "approach", "variant", "proposal", "please"})) {
					return true
				}
			}
		}
	}
	for _, o := range ordinals {
		if rest, ok := strings.CutPrefix(low, o); ok {
			return rest == "" || rest[0] == ',' || rest[0] == '.' || rest[0] == ':' || strings.HasPrefix(rest, " please") ||
				strings.HasPrefix(rest, " one") || strings.HasPrefix(rest, " option") || strings.HasPrefix(rest, " is better")
		}
	}
	return false
}

// withOptions puts the list of options just read (its intro and items)
// before a decision added from n0 on that picks one of them by its place,
// on lines of their own, when the whole stays within the kind's cap: "the
// first" means nothing without the list.
func (s *scanner) withOptions(n0 int, options []string) {
	if options[len(options)-1] == "" {
		options = options[:len(options)-1]
	}
	for k := n0; k < len(s.items); k++ {
		it := &s.items[k]
		low := strings.ToLower(it.Value)
		if it.Kind != KindDecision || !hasAnyWord(low, ordinals) {
			continue
		}
		v := strings.Join(options, "\n") + "\n" + it.Value
		if len(v) > s.e.capOf(KindDecision) {
			return
		}
		s.setValue(k, v)
		return
	}
}

// emphasis removes Markdown's bold marks.
var emphasis = strings.NewReplacer("**", "", "__", "")

// blockLabels open a line that goes on with the decision of the line
// before it: what was set aside, and why.
var blockLabels = []string{"rejected", "turned down", "not chosen", "ruled out", "alternatives considered",
	"alternative considered", "alternatives", "alternative", "considered", "why not", "why", "reasons", "reason",
	"rationale", "trade-offs", "trade-off", "tradeoffs", "tradeoff", "downsides", "downside", "cons",
	"consequences", "consequence", "instead of", "over", "vs"}

// blockLine reports whether a lower-case line goes on with the decision of
// the line before it: a label from blockLabels and a colon ("**Rejected:**
// …", "- turned down: …", "Why: …"), or a sentence that sets an option
// aside.
func blockLine(low string) bool {
	h := emphasis.Replace(stripLabel(low))
	for _, l := range blockLabels {
		if r, ok := strings.CutPrefix(h, l); ok && strings.HasPrefix(strings.TrimLeft(r, " *_"), ":") {
			return true
		}
	}
	return setsAside(h)
}

// extendBlock adds line, as written, on a line of its own to the decision
// at k, when the whole stays within the kind's cap. A decision is the one
// kind of item whose value may hold line breaks, and only these.
func (s *scanner) extendBlock(k int, line string) bool {
	c := s.e.capOf(KindDecision)
	v := clean(line, c)
	if k >= len(s.items) || v == "" || len(s.items[k].Value)+1+len(v) > c {
		return false
	}
	s.setValue(k, s.items[k].Value+"\n"+v)
	return true
}

// substitution reports whether a plan's verb puts one thing in another's
// place and the sentence names both: "replace X with Y", "move X from A
// to B", "switch X to Y".
func substitution(verb, low string) bool {
	switch verb {
	case "replace", "swap", "switch", "migrate", "move", "convert", "port", "rewrite", "change":
		return strings.Contains(low, " with ") || strings.Contains(low, " to ") || strings.Contains(low, " for ")
	}
	return false
}

// clauseAfter reports whether a sentence goes on, after a semicolon, a dash
// or a colon, with a clause of its own (three words or more): the reason a
// course is given without a word that says so.
func clauseAfter(low string) bool {
	for _, sep := range []string{"; ", " — ", " – ", " - "} {
		if k := strings.Index(low, sep); k > 0 && len(strings.Fields(low[k+len(sep):])) >= 3 {
			switch firstWord(low[k+len(sep):]) {
			case "then", "next", "and", "after", "afterwards", "finally", "also":
				continue // the next step, not a reason
			}
			return true
		}
	}
	return false
}

// continuation is how many sentences after a decision may join it as its
// reason.
const continuation = 3

// consequences open a sentence that draws its course from what was said
// before it.
var consequences = []string{"so", "therefore", "thus", "hence", "that's why", "that is why", "which is why",
	"for that reason", "because of that", "because of this", "given that", "given this", "as a result",
	"instead", "in that case", "that means", "this means"}

// limits are words with which a sentence states a problem or a limit.
var limits = []string{"not", "no", "can't", "cannot", "doesn't", "don't", "won't", "isn't", "aren't",
	"wasn't", "never", "without", "too", "fails", "failed", "breaks", "broke", "deadlocks", "deadlocked",
	"leaks", "races", "slow", "slower", "flaky", "only", "needs", "requires", "lacks", "missing"}

// decisionHeadings head the section of a decision record or a design
// note that states what was decided.
var decisionHeadings = []string{"decision", "decisions", "decision outcome", "the decision", "chosen option",
	"chosen approach", "outcome", "resolution", "what we decided", "decided", "where we landed", "what we chose",
	"conclusion", "conclusions", "verdict", "agreed", "agreements", "the call", "decision log", "decisions log",
	"decision record", "decision records", "key decisions", "architecture decisions", "design decisions",
	"decisions made", "what we agreed", "changes we're making", "what we're changing", "working agreements",
	"team agreements", "resolutions", "agreed changes", "agreed actions"}

// setAside are the words with which a sentence names the option not
// taken, said after the one taken: "The alternative was Y, but …", "I
// considered Y, but …", "Keeping Y isn't an option since …", "At first Y
// looks appealing, but …", "Y would also work, except that …".
var setAside = []string{"the alternative was", "the alternative is", "the alternative would be",
	"the other option", "the other candidate", "i considered", "we considered", "i also considered",
	"we also considered", "isn't an option", "is not an option", "wasn't an option", "was not an option",
	"looks appealing", "looked appealing", "looks tempting", "looked tempting", "is tempting", "was tempting",
	"would also work", "would work too", "falls short", "fell short", "i'm ruling out", "we're ruling out",
	"ruled out", "off the table", "doesn't fit here", "does not fit here", "was rejected", "i rejected",
	"we rejected", "i dropped", "we dropped", "loses out", "lost out", "rules out", "ruling out",
	"voted down", "voted against", "was declined", "is declined", "declined as", "not recommended",
	"first instinct", "is a no", "a non-starter", "a dealbreaker", "a deal-breaker", "a no-go", "stays banned",
	"is banned", "stays out of", "gets us in trouble", "got us in trouble", "we tried", "i tried",
	"came up, but", "was suggested, but", "was proposed, but", "i don't want", "we don't want", "loses because",
	"lost because", "is rejected", "are rejected", "rejected (", "won't work because", "doesn't work because",
	"was turned down", "were turned down", "got turned down", "been tempting", "been appealing", "on the shelf",
	"breaks down because", "broke down because", "doesn't survive", "does not survive", "not coming back",
	"loses since", "got vetoed", "was vetoed", "were vetoed", "was the runner-up", "stays out because",
	"stays out since", "walked away from", "would bite us"}

// rejectsWithReason reports whether a lower-case sentence sets an option
// aside and says why: "JPA entities was voted down because the tables are
// read-only", "session mode is out (it pins a backend per client)", "X is
// a no, exiting drops frames in flight", "taking X and leaving Y behind:
// Y dropped a column". Whatever else it says, that is the record of a
// choice.
func rejectsWithReason(low string) bool {
	at := -1
	for _, w := range setAside {
		if k := wordIndex(low, w); k >= 0 && (at < 0 || k < at) {
			at = k
		}
	}
	for _, w := range []string{" is out (", " is out:", " is out;", " is out,", " is out because", " is out since"} {
		if k := strings.Index(low, w); k > 0 && (at < 0 || k < at) {
			at = k
		}
	}
	if k := wordIndex(low, "leaving"); k > 0 && strings.Contains(low[k:], " behind") && (at < 0 || k < at) {
		at = k
	}
	if k := wordIndex(low, "and forget"); k > 0 && (at < 0 || k < at) && !hasWord(low, "fire and forget") && !hasWord(low, "set it and forget") {
		at = k // "Let's do daily partitions and forget one big table; vacuum takes hours."
	}
	if at < 0 {
		return false
	}
	rest := low[at:]
	for _, r := range []string{" because ", " since ", ": ", "; ", " — ", " (", ", but ", " as ", ", ", " until it "} {
		if k := strings.Index(rest, r); k > 0 && len(strings.Fields(rest[k:])) >= 4 {
			return true
		}
	}
	// "we tried X last year and X takes an exclusive lock"
	return strings.HasPrefix(rest, "we tried") && strings.Contains(rest, " and ")
}

// setsAside reports whether a lower-case sentence names the option not
// taken (see setAside) and why, as the sentence after a choice does: "Not
// executemany — it is 30x slower.", "Why not a HashMap?",
// "Alternative considered: JPA entities."
func setsAside(low string) bool {
	if strings.HasPrefix(low, "why not ") {
		return true
	}
	if strings.HasSuffix(low, "?") {
		return false
	}
	if hasAnyLead(low, setAsideLeads) {
		return true
	}
	if rest, ok := strings.CutPrefix(low, "no "); ok && len(strings.Fields(rest)) >= 4 {
		// "No executemany inserts: executemany is 30x slower.": the
		// option left, then why
		if k := strings.Index(rest, ": "); k > 0 && len(strings.Fields(rest[:k])) <= 5 && len(strings.Fields(rest[k:])) >= 3 {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(low, "not "); ok && !hasAnyLead(rest, []string{"sure", "yet", "really", "only", "all", "every", "much", "quite", "exactly"}) {
		// "Not doing a Mutex<Journal> — the mutex serializes reads
		// too.": the option left, with why
		return strings.Contains(rest, " — ") || strings.Contains(rest, " - ") || strings.Contains(rest, ": ") ||
			hasWord(rest, "because") || hasWord(rest, "since")
	}
	return hasAnyWord(low, setAside)
}

// setAsideLeads open a sentence that names the option not taken.
var setAsideLeads = []string{"alternative considered", "alternatives considered", "turned down", "rejected:",
	"rejected", "ruled out", "considered and rejected", "reason the", "i considered", "we considered", "i also considered",
	"we also considered"}

// motivates reports whether the lower-case sentence prev, said just before
// the decision dec, is the problem the decision answers: the decision
// opens by drawing from it ("So …", "Instead …"), or prev states a limit
// or judges an option. A plain finding ("The trace shows two writers.")
// or a step taken ("I looked at the code.") stays apart.
func motivates(prev, dec string) bool {
	// "LGTM with orjson in the worker. Let's not reintroduce the json
	// module; …": an option turned down goes with the one kept before it.
	return hasAnyLead(dec, consequences) || refusal(dec) || rejectsWithReason(dec) || hasAnyWord(prev, limits) || hasAnyWord(prev, evalWords) ||
		discussionNamed(prev) || hasAnyLead(prev, droppedLeads) && len(strings.Fields(prev)) <= 8 || // "Scrapped the zigbuild approach. Final version: …"
		namesPick(prev, dec) ||
		hasAnyWord(prev, []string{"options", "alternatives", "choices", "candidates"}) && strings.Contains(prev, " or ") // "Two options for the loop: X or Y. Taking X, since …"
}

// namesPick reports whether a short decision ("Picking JDBI for the tax
// tables.") picks what the sentence before it names: that sentence weighed
// the options ("JPA entities is simpler, JDBI for the tax tables is correct
// since …"), and the pick alone says nothing of why. Two of the pick's
// words of four letters or more must be in it.
func namesPick(prev, dec string) bool {
	f := strings.Fields(dec)
	if len(f) < 2 || len(f) > pickWords || hasWord(dec, "up") {
		// "Picking the export crash up tomorrow." is a step
		return false
	}
	n := 0
	for _, w := range f[1:] {
		w = strings.Trim(w, ".,;:!()'\"`")
		if len(w) >= 4 && hasWord(prev, w) {
			n++
		}
	}
	return n >= 2
}

// pickWords is the most words a decision that only names its pick has.
const pickWords = 10

// hasAnyWord reports whether low holds one of words as a whole word.
func hasAnyWord(low string, words []string) bool {
	for _, w := range words {
		if hasWord(low, w) {
			return true
		}
	}
	return false
}

// hasAnyLead reports whether low opens with one of leads as whole words.
func hasAnyLead(low string, leads []string) bool {
	for _, o := range leads {
		if strings.HasPrefix(low, o) && (len(low) == len(o) || !isAlpha(low[len(o)])) {
			return true
		}
	}
	return false
}

// aside reports whether a lower-case sentence may join a decision as its
// reason: short, no question, not hedged, not a report that something now
// works and not the narration of a step ("Next …", "Now running …").
func aside(low string) bool {
	if len(strings.Fields(low)) > 30 || strings.HasSuffix(low, "?") || hedged(low) {
		return false
	}
	return !hasAnyLead(low, stepLeads) && !hasAnyWord(low, resultWords)
}

// reasonAfter is aside for a sentence after the decision, where a hedge
// weighs the option set aside rather than doubting the choice.
func reasonAfter(low string) bool {
	if len(strings.Fields(low)) > 30 || strings.HasSuffix(low, "?") {
		return false
	}
	return !hasAnyLead(low, stepLeads) && !hasAnyWord(low, resultWords)
}

// stepLeads open the narration of a step.
var stepLeads = []string{"now", "next", "then", "first", "ok", "okay", "done", "great", "good", "perfect",
	"alright", "all right", "let me", "let's", "i'll now", "running", "reading", "checking", "looking",
	"opening", "editing", "searching", "trying"}

// resultWords say that something now works or is finished: a report, not
// a reason.
var resultWords = []string{"fixed", "passes", "passed", "passing", "green", "works", "worked", "succeeded",
	"finished", "completed", "resolved"}

// clauseBreaks end a clause inside a run-on sentence.
var clauseBreaks = []string{"; ", " - ", " — ", " – ", ", then ", ", and then ", ", next ", ", after that "}

// subClauseBreaks end a part of a clause: where a clause too long for an
// item may start instead.
var subClauseBreaks = []string{", and ", ", so ", ", but ", ", which ", ", "}

// fitClauses shortens a sentence over max bytes to the clauses around its
// cue (the offset where what it records starts, or, when that is 0 and key
// is given, the first clause key accepts): the clause holding it, the
// clauses after it up to the first that announces a next step, as long as
// they fit in reach (when it is over max: a decision's reason may run past
// the usual cap), then those before it, as long as they fit in max. A run-on sentence that chains a finding,
// a decision and the next step ("…; going with pgx over lib/pq because …
// - next I will wire the pool in") keeps the decision whole instead of
// being cut off in its middle. A clause too long on its own starts at its
// part that holds the cue; if that is still too long, v is returned as it
// came (the caller truncates it).
func fitClauses(v string, cue, max, reach int, key func(low string) bool) string {
	type span struct{ start, end int }
	split := func(from, to int, breaks []string) []span {
		var out []span
		start := from
		for i := from; i < to; i++ {
			for _, b := range breaks {
				if strings.HasPrefix(v[i:to], b) {
					out = append(out, span{start, i})
					start = i + len(b)
					i = start - 1
					break
				}
			}
		}
		return append(out, span{start, to})
	}
	holding := func(parts []span) int {
		if cue == 0 && key != nil {
			for i, x := range parts {
				if low, _ := lower(v[x.start:x.end]); key(low) {
					return i
				}
			}
			return 0
		}
		c := 0
		for i, x := range parts {
			if cue >= x.start {
				c = i
			}
		}
		return c
	}
	cl := split(0, len(v), clauseBreaks)
	c := holding(cl)
	if cl[c].end-cl[c].start > max {
		parts := split(cl[c].start, cl[c].end, subClauseBreaks)
		cl[c].start = parts[holding(parts)].start
		if cl[c].end-cl[c].start > max {
			return v
		}
	}
	lo, hi := c, c
	if reach < max {
		reach = max
	}
	for hi+1 < len(cl) && cl[hi+1].end-cl[lo].start <= reach {
		low, _ := lower(v[cl[hi+1].start:cl[hi+1].end])
		if isPlan(low) {
			break
		}
		hi++
	}
	for lo > 0 && cl[hi].end-cl[lo-1].start <= max {
		lo--
	}
	return strings.TrimRight(v[cl[lo].start:cl[hi].end], " ,;-—–")
}

// joinedI reports whether the text before a pronoun I joins it to the same
// sentence: a comma, or a conjunction ("so", "and", "because").
func joinedI(before string) bool {
	if strings.HasSuffix(before, ",") || strings.HasSuffix(before, ";") {
		return true
	}
	w := before[strings.LastIndexByte(before, ' ')+1:]
	switch w {
	case "so", "and", "but", "because", "since", "then", "therefore", "thus", "hence", "which", "that", "if", "when", "as", "until", "unless", "while", "why":
		return true
	}
	return false
}

// lower returns s in ASCII lower case with curly apostrophes made straight,
// and for each of its bytes the offset of the byte of s it comes from.
func lower(s string) (string, []int) {
	b := make([]byte, 0, len(s))
	pos := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			// a line break of a wrapped sentence (see unwrapped), with
			// the next line's indentation, reads as one space
			b = append(b, ' ')
			pos = append(pos, i)
			for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t') {
				i++
			}
			continue
		case strings.HasPrefix(s[i:], "’"):
			b = append(b, '\'')
			pos = append(pos, i)
			i += len("’") - 1
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
		pos = append(pos, i)
	}
	pos = append(pos, len(s))
	return string(b), pos
}

// unwrapped returns the lines of a text (split) with the lines of a wrapped
// sentence joined, as printed (their line breaks and indentation kept): a
// commit message, a review comment or a mail wraps its sentences at 72 or
// 80 columns, and a choice said across the break ("We'll drop the
// native-tls feature\n  entirely in 0.19 instead of …") is one sentence.
// A line goes on in the next one when it is long, does not end a sentence
// or a clause and is not code, and the next one is indented as its first
// line (or, under a list item, as the item's text) and opens no list item,
// heading, table row, fence, quote or post of its own.
func unwrapped(lines []string, skip int) []string {
	if len(lines) < 2 {
		return lines
	}
	// the width the text is wrapped at: a greedy wrap breaks a line
	// where the next word would not fit, so a wrapped line and the next
	// one's first word are together longer than any line of the text
	width := 0
	for _, l := range lines {
		if n := len(strings.TrimRight(l, " \t\r")); n <= maxWrap {
			width = max(width, n)
		}
	}
	out := lines[:0:0]
	fence := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
		}
		if fence || !wraps(line) || codeLine(unindent(line, skip)) {
			out = append(out, line)
			continue
		}
		first := indentOf(line)
		item := listItem(strings.TrimSpace(line))
		j := i
		for j+1 < len(lines) && wraps(lines[j]) {
			n := lines[j+1]
			t := strings.TrimSpace(n)
			in := indentOf(n)
			w, _, _ := strings.Cut(t, " ")
			if len(strings.TrimRight(lines[j], " \t\r"))+1+len(w) <= width ||
				t == "" || !(in == first || item && in > first && in <= first+4) || listItem(t) || codeLine(unindent(n, skip)) && in == skip ||
				strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, ">") ||
				speakerPrefix(t) > 0 {
				break
			}
			j++
		}
		out = append(out, strings.Join(lines[i:j+1], "\n"))
		i = j
	}
	return out
}

// wraps reports whether a line of prose may go on in the next: it is
// long, as a wrapped line is, and does not end with a mark that ends a
// sentence, a clause or a block.
func wraps(line string) bool {
	t := strings.TrimRight(line, " \t\r")
	if len(strings.TrimSpace(t)) < 40 || len(t) > maxWrap || strings.Count(t, " ") < 5 {
		return false
	}
	switch t[len(t)-1] {
	case '.', '!', '?', ':', ';', '{', '}', '|', '`', '\\':
		return false
	}
	return !strings.HasPrefix(strings.TrimSpace(t), "```")
}

// unindent returns line without the skip spaces a tool indents every
// line of a text with (git log's four), when it has them.
func unindent(line string, skip int) string {
	if skip > 0 && len(line) >= skip && strings.TrimLeft(line[:skip], " ") == "" {
		return line[skip:]
	}
	return line
}

// maxWrap is the longest line a text wrapped by its author or a tool
// has: people, git and mail wrap at 72 to 100 columns.
const maxWrap = 100

// indentOf returns the width of the spaces and tabs a line opens with.
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// SpanPlans is how many plans Extract keeps from a span: the latest ones,
// which may still be pending.
const SpanPlans = 3

// latestPlans drops from items all plans but the n latest (by Source, then
// by position), keeping the order of the rest.
func latestPlans(items []Item, n int) []Item {
	var plans []int
	for i, it := range items {
		if it.Kind == KindPlan {
			plans = append(plans, i)
		}
	}
	if len(plans) <= n {
		return items
	}
	// Stable: of plans with the same source, the later one is newer.
	slices.SortStableFunc(plans, func(a, b int) int { return items[a].Source - items[b].Source })
	drop := make(map[int]bool, len(plans)-n)
	for _, i := range plans[:len(plans)-n] {
		drop[i] = true
	}
	out := items[:0:0]
	for i, it := range items {
		if !drop[i] {
			out = append(out, it)
		}
	}
	return out
}

// observation reports whether a message's text is tool output relayed as
// text (mini-swe-agent's and SWE-agent's observations are user messages):
// it is not the user's prose.
// IsObservation reports whether a user message's text is tool output an
// agent relays in the user's role (mini-swe-agent's "<returncode>…",
// SWE-agent's "OBSERVATION", …) rather than the user's own words.
func IsObservation(text string) bool { return observation(text) }

func observation(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<returncode>", "<output>", "OBSERVATION", "Observation:", "EXECUTION RESULT",
		"Tool output:", "[File: ", "Exit code:", "Exit code "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.Contains(t, "(Open file: ") && strings.Contains(t, "(Current directory: ")
}

// codeLine reports whether a line looks like code or a listing rather than
// prose: indented by four spaces or a tab, numbered like a listing ("17:
// x", "17\tx"), a comment, a heading, a diff line, or ending like a
// statement or a block (";", "{", "}"). Code quoted inside a sentence
// ("`tern_core::parse`") does not make it code.
func codeLine(line string) bool {
	t := strings.TrimSpace(line)
	if markdownLine(line, t) {
		return false
	}
	if strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
		return true
	}
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i > 0 && i < len(t) && (t[i] == ':' || t[i] == '\t' || t[i] == ' ' && i+1 < len(t) && !isAlpha(t[i+1])) {
		return true
	}
	for _, p := range []string{"//", "/*", "#", "--", ">>>", "$ ", "+", "@@"} {
		if strings.HasPrefix(t, p) && !plusOne(t) {
			return true
		}
	}
	// A statement or a block opener of a C-like language; a sentence
	// cut off at a semicolon has words, not operators or keywords.
	if strings.HasSuffix(t, ";") {
		first, _, _ := strings.Cut(t, " ")
		return strings.ContainsAny(t, "()={}") || strings.Count(t, " ") < 4 || codeKeywords[first]
	}
	return strings.HasSuffix(t, "{") || strings.HasSuffix(t, "}")
}

// plusOne reports whether a line opens with a reader's "+1" ("+1 to
// Alex. Let's move the retry …"), a vote in a thread, not a line a diff
// adds.
func plusOne(t string) bool {
	r, ok := strings.CutPrefix(t, "+1")
	return ok && len(r) > 1 && strings.ContainsRune(" ,.!:;—", rune(r[0])) && len(strings.Fields(r)) >= 2
}

// codeKeywords open a statement in common languages.
var codeKeywords = map[string]bool{"import": true, "export": true, "from": true, "const": true, "let": true,
	"var": true, "return": true, "func": true, "def": true, "class": true, "package": true, "use": true,
	"include": true, "require": true, "using": true, "static": true, "public": true, "private": true}

// markdownLine reports a line of Markdown prose (t, trimmed) that a code
// reader would take for code: a heading of two marks or more, not
// indented ("## Decision: …"; a single '#' opens a comment as often), or a
// list item, nested or marked with '+' ("    - I'll keep …", "+ We'll use
// …"), holding a sentence: four words or more, starting with a letter,
// not a YAML key ("- name: …").
func markdownLine(line, t string) bool {
	rest := ""
	switch {
	case strings.HasPrefix(t, "#"):
		r := strings.TrimLeft(t, "#")
		if n := len(t) - len(r); n < 2 || n > 6 || !strings.HasPrefix(r, " ") || line != strings.TrimLeft(line, " \t") {
			return false
		}
		rest = r
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		rest = t[2:]
	default:
		return false
	}
	rest = strings.TrimLeft(rest, " *_")
	if k := strings.Index(rest, ": "); k > 0 && !strings.Contains(rest[:k], " ") && isLower(rest[0]) {
		return false // "- name: Only run on main" is YAML
	}
	return rest != "" && isAlpha(rest[0]) && strings.Count(rest, " ") >= 3 && !strings.ContainsAny(rest, "={}")
}

// stripLabel removes a leading label or list marker from a lower-case
// sentence: "thought: ", "discussion ", "- ", "* ", "## ", "1. ", "2) ", "step 3: ".
func stripLabel(low string) string {
	for {
		// A list bullet ("- ", "* ", "• ") goes; emphasis stays, so that
		// "**Decision:** …" is kept as written, not as "Decision:** …".
		t := strings.TrimLeft(low, " -•>")
		for strings.HasPrefix(t, "* ") || t == "*" {
			t = strings.TrimLeft(t[1:], " -•>")
		}
		if r := strings.TrimLeft(t, "#"); len(r) < len(t) && strings.HasPrefix(r, " ") {
			t = r // a Markdown heading's marks
		}
		for _, p := range []string{"thought:", "thoughts:", "discussion:", "discussion", "reasoning:", "analysis:"} {
			if r, ok := strings.CutPrefix(t, p); ok {
				t = r
				break
			}
		}
		if r, ok := strings.CutPrefix(t, "step "); ok {
			t = r
		}
		i := 0
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')' || t[i] == ':') {
			t = t[i+1:]
		}
		t = strings.TrimLeft(t, " ")
		if t == low {
			return t
		}
		low = t
	}
}

// listMarker reports whether what a sentence opens with is only a list's
// or a quote's mark: "3. ", "- ", "* ", "• ", "> ", "2) ".
func listMarker(p string) bool {
	return strings.TrimSpace(p) != "" && every(p, func(c byte) bool { return isDigit(c) || strings.IndexByte(" .)-*>", c) >= 0 }) ||
		strings.TrimSpace(strings.ReplaceAll(p, "•", "")) == "" && strings.Contains(p, "•")
}

// labelled reports whether what comes before a sentence's item is a short
// label ("note: ", "update: ", "fyi - "), not a run-on sentence's start.
func labelled(before string) bool {
	t := strings.TrimSpace(before)
	return (strings.HasSuffix(t, ":") || strings.HasSuffix(t, " -") || strings.HasSuffix(t, " —")) &&
		len(strings.Fields(t)) <= 2
}

// firmDecisions settle a course by themselves.
var firmDecisions = []string{"decision:", "going with", "decided", "we've decided", "settled on", "settling on",
	"opted for", "opting for", "opt for", "going forward", "from now on", "from here on",
	"for the rest of the", "i'll go with", "i will go with", "i'm going with", "i am going with",
	"we'll go with", "we will go with", "let's go with", "went with", "i chose", "we chose", "chose",
	"i've chosen", "we've chosen", "i picked", "we picked", "picked", "prefer", "the approach will be",
	"the approach is", "my approach is", "our approach is", "the fix is to", "the fix will be",
	"the solution is to", "the solution will be", "root cause is", "root cause was",
	"root cause:", "stick with", "sticking with", "stick to", "we'll keep", "we will keep",
	"keep using", "switching to", "i'll switch", "we'll switch", "beats", "is out because", "are out because",
	"ruled out", "in favor of", "in favour of", "drop the idea of", "dropping the idea of",
	"the decision is", "decision is to", "convention:", "rule:", "standardize on", "standardise on",
	"standardizing on", "standardising on", "we're adopting", "we are adopting", "i'm adopting", "adopting",
	"i'm choosing", "we're choosing", "agreed:", "resolved to", "was decided", "is the pick", "the pick is",
	"my pick", "our pick", "path will be", "strategy will be", "the call is", "the better option is", "the right call is", "is the right call", "is the right choice",
	"gonna go with", "going to go with", "i'll stay with", "we'll stay with", "i'd rather", "we'd rather",
	"wins over", "win out over", "leaning towards", "leaning toward", "i lean towards", "i lean toward",
	"i'd go with", "we'd go with", "that's what i'll", "that's what we'll", "that is what i'll",
	"is the better fit", "is a better fit", "after weighing", "my call:", "our call:", "is the way to go",
	"made the call", "making the call", "this calls for", "i recommend", "we recommend", "i'd recommend",
	"we'd recommend", "my recommendation", "our recommendation", "the way we go", "is the way forward",
	"favours", "favors", "opting out of", "opted out of", "decided against", "going against",
	"for the rest of this", "being phased out", "is phased out", "off the list", "off the table", "is a no-go",
	"i'll commit to", "we'll commit to", "won't revisit", "loses because", "i'm landing on", "we're landing on", "i landed on", "we landed on",
	"i've gone with", "we've gone with", "i'd lean toward", "i'd lean towards", "we'd lean toward", "we'd lean towards",
	"gets the nod", "got the nod", "ended up with", "ended up going with", "ended up using",
	"is the answer for", "full stop", "agreed in review", "let's just go with", "we'll just go with",
	"i'll just go with", "just going with", "we agreed to", "we've agreed to", "we have agreed to", "we agreed on",
	"we've agreed on", "the team agreed", "agreed to go with", "chosen over", "selected over", "preferred over",
	"picked over", "favoured over", "favored over", "decision was to", "decision was made to", "decision has been made",
	"are decided", "is decided", "already decided", "decided already", "is settled:", "are settled:", "that's the design",
	"that is the design", "that's final", "that's settled", "it was agreed", "it's been agreed", "it has been agreed",
	"this is final.", "that is final.", "it's final.", "is final:", "final decision", "we decide to",
	"we decide for", "we decide on", "we're not supporting", "we are not supporting", "we won't support", "we will not support",
	"we're dropping support", "we are dropping support", "decided:", "approved option", "approved model", "approved proposal",
	"approved approach", "approved variant", "approved plan", "lgtm with", "ship it with", "approve with", "approved with",
	"going ahead with", "we're freezing", "we are freezing", "we will go ahead with", "we'll go ahead with", "we go ahead with"}

// pastChoice are firm cues that report a choice made: the speaker's ("we
// decided", "Opted for …") settles the course, someone else's ("the
// previous developer decided to use MySQL") is history.
var pastChoice = map[string]bool{"decided": true, "chose": true, "picked": true, "opted for": true,
	"went with": true, "settled on": true, "ended up with": true, "ended up going with": true, "ended up using": true}

// alternatives name a rejected option.
var alternatives = []string{"instead of", "instead", "rather than", "as opposed to", "vs", "vs.", "versus",
	"is tempting but", "not worth it"}

// choosers are the words that make an alternative a choice of the speaker's
// rather than a description of the code ("X is parsed with A instead of B").
var choosers = []string{"i'll", "i will", "i'd", "i'm going", "we'll", "we will", "we'd", "we're going",
	"let's", "i'm", "i am", "we're", "we are", "my", "our", "the plan", "the approach", "the fix", "the solution", "use",
	"using", "switch", "replace", "better to", "should", "keep", "go with", "will be", "is going to be",
	// an evaluation between the alternatives: "the cleaner path is X rather than Y"
	"better", "cleaner", "simpler", "safer", "preferable", "best"}

// useCues adopt a tool, library or design; they are decisions unless the
// use is only the means of the next step ("let's use find_file to see where
// it is", "I'll use the edit command").
var useCues = []string{"i'll use", "i will use", "we'll use", "we will use", "let's use", "going to use",
	"we should use", "i'd use", "we'd use"}

// stepVerbs are what a next step does; "use X to <one of these>" is a plan.
var stepVerbs = []string{"see", "find", "check", "look", "search", "locate", "view", "inspect", "open",
	"read", "print", "list", "show", "run", "reproduce", "confirm", "verify", "test", "get", "examine",
	"understand", "figure", "explore", "navigate", "scroll", "jump", "display", "edit", "fix", "make",
	"apply", "replace", "update", "modify", "add", "insert", "write", "create", "remove", "delete",
	"change", "debug", "grep", "count", "compare", "go", "narrow", "dump", "trace", "confirm"}

// leadDecisions settle a course when they open the sentence: "Picking X
// for the loop.", "Verdict on the cache: X.", "Chose X (vs. Y): …",
// "Rule for the rest of this change: …". "Taking X" must give its reason
// ("Taking X, since …"), or it is a step ("Taking a look").
var leadDecisions = []string{"picking", "verdict", "chose", "rule for the rest", "trade-off accepted",
	"tradeoff accepted", "approach:", "chosen:", "choice:", "taking"}

// decisionAt reports whether a lower-case sentence settles a course, and
// where its firm cue (the first of them) is, or 0.
func decisionAt(low string) (int, bool) {
	for _, l := range leadDecisions {
		if hasAnyLead(low, []string{l}) {
			if l == "taking" && !hasWord(low, "since") && !hasWord(low, "because") {
				break
			}
			if l == "picking" && (hasAnyLead(low, []string{"picking up"}) || !hasAnyWord(low, []string{"for", "over", "instead", "since", "because"})) {
				break // "Picking a port is done by the OS."
			}
			return 0, true
		}
	}
	if strings.Contains(low, "**") || strings.Contains(low, "__") {
		// Markdown emphasis around a cue ("**Decision**: …").
		if plain := emphasis.Replace(low); plain != low {
			if _, ok := decisionAt(plain); ok {
				return 0, true
			}
		}
	}
	if u := undated(low); u != low {
		// "**Decision (2024-02-20):** field-level LWW"
		if _, ok := decisionAt(u); ok {
			return 0, true
		}
	}
	first, found := len(low), false
	for _, c := range firmDecisions {
		if k := wordIndex(low, c); k >= 0 && !stepOnly(low, c) && (!pastChoice[c] || spoken(low, k)) {
			first, found = min(first, k), true
		}
	}
	if found {
		return first, true
	}
	return 0, isDecisionSoft(low)
}

// decisionStrict is decisionAt without the two-signal score (see
// isDecisionShaped).
func decisionStrict(low string) bool {
	for _, c := range firmDecisions {
		if k := wordIndex(low, c); k >= 0 && !stepOnly(low, c) && (!pastChoice[c] || spoken(low, k)) {
			return true
		}
	}
	if plain := emphasis.Replace(low); plain != low {
		return decisionStrict(plain)
	}
	if u := undated(low); u != low {
		return decisionStrict(u)
	}
	return isDecisionShaped(low)
}

// undated returns a sentence whose leading label is dated or numbered
// ("decision (2024-02-20): …", "decision 7: …") as the bare label
// ("decision: …"); else low itself.
func undated(low string) string {
	t := strings.TrimLeft(low, "> *_-")
	for _, l := range []string{"decision", "resolution", "outcome", "agreed"} {
		r, ok := strings.CutPrefix(t, l+" ")
		if !ok {
			// "DECISION(2024-03-18): …", a tag with its date
			if r, ok = strings.CutPrefix(t, l+"("); !ok {
				continue
			}
		}
		k := strings.IndexByte(r, ':')
		if k <= 0 || k > 24 || strings.Count(r[:k], " ") > 2 {
			return low
		}
		return l + r[k:]
	}
	return low
}

// isDecisionSoft finds a decision without a firm cue: a choice between
// options by the speaker, "X it is", an adopted tool, a rule for later.
func isDecisionSoft(low string) bool {
	return choiceScore(low) || isDecisionShaped(low)
}

// isDecisionShaped is isDecisionSoft without the two-signal score: what a
// user's message or the assistant's reasoning is held to, where a loose
// reading would take musings and reports for choices.
func isDecisionShaped(low string) bool {
	if itIsIdiom(low) || choiceShape(low) || winsAtEnd(low) || insteadCourse(low) || courseAndNot(low) {
		return true
	}
	alt := false
	for _, c := range alternatives {
		if hasWord(low, c) {
			alt = true
			break
		}
	}
	if !alt && hasNotBut(low) {
		alt = true
	}
	if alt {
		for _, c := range choosers {
			if hasWord(low, c) {
				return true
			}
		}
	}
	for _, c := range useCues {
		if k := wordIndex(low, c); k >= 0 {
			return !instrumental(low[k+len(c):])
		}
	}
	// A rule for the rest of the work in the first person: "I'll always
	// run the linter", "we never commit generated files".
	for _, subj := range []string{"i'll", "i will", "we'll", "we will", "we", "we must", "we should"} {
		for _, adv := range []string{"always", "never"} {
			// not "the bug we never fixed": a rule looks ahead; and it
			// acts: "we'll always see this warning" only observes
			if k := wordIndex(low, subj+" "+adv); k >= 0 {
				v := strings.Trim(firstWord(low[k+len(subj)+len(adv)+1:]), ".,;:")
				if !pastTense(v) && !observeVerbs[v] && !slices.Contains(stepVerbs, v) {
					return true
				}
			}
		}
	}
	return false
}

// observeVerbs say what happens to the speaker, not what the speaker
// does: "we'll always see this warning", "I'll never get used to it".
var observeVerbs = map[string]bool{"see": true, "get": true, "hit": true, "find": true, "notice": true,
	"need": true, "have": true, "be": true, "know": true, "want": true, "run into": true, "encounter": true}

// stepOnly reports whether a firm cue is part of a next step rather than a
// choice: "let me find the root cause", "let me check which one they
// picked".
func stepOnly(low, cue string) bool {
	if strings.HasPrefix(cue, "root cause") {
		for _, p := range []string{"find the root cause", "look for the root cause", "the root cause is not",
			"the root cause isn't", "what the root cause", "determine the root cause", "identify the root cause"} {
			if strings.Contains(low, p) {
				return true
			}
		}
	}
	if cue == "switching to" {
		// "switching to the repository root to run the suite" moves, it
		// does not choose
		if k := strings.Index(low, cue); k >= 0 && instrumental(low[k+len(cue):]) {
			return true
		}
	}
	if cue == "decided" || cue == "opted for" || cue == "chose" {
		// "decided to look at the parser next" is a next step
		if k := wordIndex(low, cue); k >= 0 && settleStep(low[k+len(cue):]) {
			return true
		}
	}
	if cue == "going ahead with" {
		// "going ahead with running the suite now" is a step
		if k := wordIndex(low, cue); k >= 0 && strings.HasSuffix(firstWord(low[k+len(cue):]), "ing") {
			return true
		}
	}
	if cue == "picked" && strings.Contains(low, "picked up") {
		return true
	}
	if cue == "picked" || cue == "chose" || cue == "prefer" || cue == "decided" {
		for _, p := range []string{"which one", "who ", "whether", "check", "see if", "see which", "let me", "let's see"} {
			if strings.Contains(low, p) {
				return !strings.Contains(low, "i "+cue) && !strings.Contains(low, "we "+cue)
			}
		}
	}
	return false
}

// instrumental reports whether what follows a use cue makes the use the
// means of the next step: "find_file to see where it is", "the edit
// command", "grep to find the callers".
func instrumental(rest string) bool {
	if hasWord(rest, "command") || hasWord(rest, "tool") {
		return true
	}
	for off := 0; ; {
		k := wordIndex(rest[off:], "to")
		if k < 0 {
			return false
		}
		k += off
		off = k + 2
		next := strings.Fields(rest[off:])
		if len(next) == 0 {
			return false
		}
		w := strings.Trim(next[0], ".,;:!?")
		for _, v := range stepVerbs {
			if w == v {
				return true
			}
		}
	}
}

// hasNotBut finds a rejected option said as "X, not Y" or "not X but Y".
func hasNotBut(low string) bool {
	if k := strings.Index(low, ", not "); k >= 0 {
		rest := low[k+6:]
		// "..., not sure" and "..., not yet" are hedges, not options.
		for _, h := range []string{"sure", "yet", "just", "only", "really", "quite", "that", "because", "a problem", "an issue"} {
			if strings.HasPrefix(rest, h) {
				return false
			}
		}
		return true
	}
	if k := wordIndex(low, "not"); k >= 0 {
		return wordIndex(low[k:], "but") > 0 && !strings.Contains(low, "not only")
	}
	return false
}

// itIsIdiom finds "X it is": "Postgres it is.", "factory_boy fixtures it is
// for the tax calculation": a choice made, not "I don't know what it is".
func itIsIdiom(low string) bool {
	for off := 0; ; {
		k := strings.Index(low[off:], " it is")
		if k < 0 {
			return false
		}
		k += off
		off = k + 6
		rest := low[k+6:]
		if !(rest == "" || strings.HasPrefix(rest, " for ") || strings.HasPrefix(rest, " then") ||
			strings.IndexByte(".,;:!(—–", rest[0]) >= 0 || strings.HasPrefix(rest, " (") || strings.HasPrefix(rest, " —") || strings.HasPrefix(rest, " -")) {
			continue
		}
		before := strings.Fields(low[:k])
		if len(before) == 0 {
			continue
		}
		prev := strings.Trim(before[len(before)-1], ",;:")
		switch prev {
		case "what", "which", "how", "where", "whether", "why", "who", "whatever", "whichever", "as", "than",
			"that", "if", "because", "so", "here", "there", "when", "since", "is", "was", "and", "but", "or",
			"see", "know", "think", "thought", "believe", "guess", "wherever", "however", "now", "yes", "no":
			continue
		}
		if strings.HasPrefix(before[0], "wh") || before[0] == "how" || before[0] == "is" || before[0] == "does" {
			continue
		}
		return true
	}
}

// planStarts open a sentence about the next step; planCues say it anywhere.
var (
	planStarts = []string{"let me", "let's", "lets", "lemme", "next", "first", "time to", "to do this", "to fix this", "to verify", "to confirm", "to check", "to see",
		"plan:", "next steps:", "todo:", "i'll", "i will", "i'm going to", "i am going to", "i'm gonna",
		"i need to", "i should", "i want to", "i'd like to", "i have to", "i must", "i can", "we need to",
		"we should", "we'll", "we will", "we can", "we have to", "we must", "going to"}
	planCues = []string{"i'll", "i will", "let me", "let's", "i'm going to", "i am going to", "i need to",
		"we need to", "next step", "next up", "the plan is", "my plan", "i'll now", "i will now", "i plan to",
		"i intend to", "i want to", "we'll", "we will"}
)

// isPlan reports whether a lower-case sentence says what the assistant does
// next.
func isPlan(low string) bool {
	return hasAnyLead(low, planStarts) || hasAnyWord(low, planCues)
}

// reasonCues give the reason for a course.
var reasonCues = []string{"since", "because", "given that", "so that", "to avoid", "which avoids", "as that",
	"as it", "as this", "otherwise", "given", "to keep", "to stay", "matching", "to match", "consistent with",
	"in line with", "for consistency"}

// planAdverbs may stand between a plan's cue and its verb.
var planAdverbs = map[string]bool{"now": true, "first": true, "also": true, "then": true, "just": true,
	"quickly": true, "briefly": true, "next": true, "still": true, "instead": true, "go": true, "and": true,
	"ahead": true}

// moreStepVerbs are next steps beside stepVerbs: trying and looking again.
var moreStepVerbs = []string{"rerun", "re-run", "retry", "try", "dig", "start", "begin", "move", "continue",
	"revisit", "double-check", "recheck", "re-check", "investigate", "analyze", "analyse", "review", "study",
	"poke", "peek", "glance", "skim", "step", "wait", "ask", "report", "summarize", "help", "come"}

// courseWords is the fewest words a change of course worded as a plan
// needs to be kept as a note.
const courseWords = 7

// reasoned reports whether a sentence gives a reason.
func reasoned(low string) bool {
	for _, c := range reasonCues {
		if hasWord(low, c) {
			return true
		}
	}
	return false
}

// planCourse returns the verb after a plan's cue (past adverbs) and whether
// it changes the course of the work rather than taking a next step: "keep",
// "switch", "store" against "check", "run", "look". A plan is a decision
// when it adopts a course and says why ("I'm going to keep the cache and
// invalidate it on every write, since the TTL approach left stale
// reads"): the reason is what a later step must not undo. A plan whose
// verb only looks, runs or tries ("I'll rerun the tests because the cache
// was stale") stays a plan.
func planCourse(low string) (verb string, course bool) {
	first := len(low)
	cue := ""
	for _, c := range append(planCues[:len(planCues):len(planCues)], "going to") {
		if k := wordIndex(low, c); k >= 0 && k < first {
			first, cue = k, c
		}
	}
	if cue == "" {
		return "", false
	}
	for _, w := range strings.Fields(low[first+len(cue):]) {
		w = strings.Trim(w, ".,;:!?\"'`()")
		if planAdverbs[w] {
			continue
		}
		switch w {
		case "is", "are", "be", "was":
			return w, false // "next up is the tax code"
		case "use":
			// "let's use find_file to see where it is"
			k := strings.Index(low, " use ")
			return w, k >= 0 && !instrumental(low[k+5:])
		}
		return w, w != "" && !slices.Contains(stepVerbs, w) && !slices.Contains(moreStepVerbs, w)
	}
	return "", false
}

// constraintVerbs may follow "only" in a rule: "only change code in x/".
var constraintVerbs = []string{"change", "edit", "touch", "modify", "use", "run", "commit", "work", "add",
	"fix", "update", "write", "push", "call", "import", "depend", "rely", "refactor", "delete", "remove",
	"create", "test", "deploy", "read", "return", "make", "rename"}

// ruleStarts open a clause that sets a rule.
var ruleStarts = []string{"don't", "do not", "dont", "never", "always", "avoid", "make sure", "ensure",
	"be sure", "keep", "leave", "preserve", "stick to", "stick with", "stay", "refrain", "no new",
	"no additional", "no extra", "no external", "no third-party", "no changes", "no breaking",
	"no edits", "no direct", "no force", "nothing in", "must", "you must", "you should", "you shouldn't",
	"you should not", "you may not", "you can't", "you cannot", "you need to", "you have to", "use only",
	"limit", "restrict", "do nothing", "under no circumstances", "target", "ask me before", "ask before",
	"check with me", "only use"}

// ruleAnywhere set a rule wherever they are.
var ruleAnywhere = []string{"must", "mustn't", "should not", "shouldn't",
	"it's important that", "it is important that", "it's essential that", "it is essential that",
	"it's critical that", "it is critical that", "without asking", "without my approval",
	"should never", "make sure", "not allowed", "is forbidden", "are forbidden", "prohibited",
	"without changing", "without touching", "without modifying", "without breaking", "without editing",
	"without adding", "without renaming", "without removing", "needs to stay", "has to stay",
	"needs to remain", "has to remain", "needs to keep", "has to keep", "stay compatible",
	"remain compatible", "keep it compatible", "backwards compatible", "backward compatible",
	"so don't", "so do not", "so never", "and don't", "and do not", "but don't",
	"but do not", "please don't", "please do not", "please never", "please avoid",
	"please keep", "please leave", "please only", "please always", "please make sure", "please use only",
	"you should never", "you should always", "you must", "you may not", "do not use", "don't use",
	"off-limits", "off limits", "hands off", "is frozen", "are frozen", "is read-only", "are read-only",
	"read-only for", "can't break", "cannot break", "can't change", "cannot change", "can't touch",
	"cannot touch", "careful not to", "have to stay", "have to remain", "have to keep", "need to stay",
	"need to remain", "nothing should", "no one should", "nobody should",
	// a deadline binds the work as a rule does
	"has to go out by", "has to ship by", "has to land by", "has to be done by", "has to be merged by",
	"needs to go out by", "needs to ship by", "needs to land by", "needs to be done by", "needs to be merged by",
	"must ship by", "hard deadline", "the deadline is", "due by",
	// so does a platform the work has to keep supporting
	"have to support", "has to support", "need to support", "needs to support", "have to run on",
	"has to run on", "need to run on", "needs to run on", "has to work on", "needs to work on"}

// ruleSkips are clause openers ignored before a rule word: "so", "and",
// "please", "also".
var ruleSkips = []string{"so", "and", "but", "please", "pls", "plz", "also", "just", "then", "remember", "remember to",
	"note", "important", "oh", "btw", "again", "and please", "and also", "but please", "however", "plus"}

// ruleExceptions open a clause with a rule word but set no rule.
var ruleExceptions = []string{"keep going", "keep trying", "keep at it", "keep digging", "keep looking",
	"keep me posted", "keep up", "leave it to you", "must have", "must've", "never mind", "nevermind",
	"always happens", "never happens"}

// isConstraint reports whether a user's lower-case sentence sets a rule. A
// question asks; it sets no rule.
func isConstraint(low string) bool {
	if strings.HasSuffix(low, "?") {
		return false
	}
	for _, c := range ruleAnywhere {
		if hasWord(low, c) && !(c == "must" && (mustHaveDone(low) || hasWord(low, "must've"))) {
			return true
		}
	}
	for _, cl := range clauses(low) {
		if ruleClause(cl) {
			return true
		}
	}
	return false
}

// mustHaveDone reports whether a sentence's "must have" guesses at what
// happened ("it must have been the cache", "someone must have changed
// it") rather than requiring something ("must have unit tests").
func mustHaveDone(low string) bool {
	before, after, ok := strings.Cut(low, "must have ")
	if !ok {
		return false
	}
	if who := strings.Fields(before); len(who) > 0 && slices.Contains([]string{"it", "that", "this", "someone", "somebody",
		"something", "he", "she", "they", "there", "which", "who"}, who[len(who)-1]) {
		return true // "someone must have set DEBUG=1"
	}
	w, _, _ := strings.Cut(after, " ")
	w = strings.TrimRight(w, ".,;:!")
	return slices.Contains(pastParticiples, w) || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || strings.HasSuffix(w, "wn")
}

// pastParticiples are irregular ones that guess at what happened after
// "must have".
var pastParticiples = []string{"been", "had", "got", "run", "made", "done", "seen", "hit", "set", "lost", "put", "left",
	"sent", "read", "cut", "let", "shut", "split", "caught", "brought", "thought", "built", "kept", "meant", "felt",
	"held", "told", "sold", "found", "stood", "paid", "said", "struck", "stuck", "hung", "won", "spent", "slipped"}

// clauses splits a lower-case sentence at , ; : ( and dashes.
func clauses(low string) []string {
	f := func(r rune) bool { return r == ',' || r == ';' || r == ':' || r == '(' || r == '—' || r == '–' }
	out := strings.FieldsFunc(low, f)
	for i := range out {
		out[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out[i]), "- "))
	}
	return out
}

// ruleClause reports whether a clause opens with a rule word.
func ruleClause(cl string) bool {
	for changed := true; changed; {
		changed = false
		for _, sk := range ruleSkips {
			if r, ok := strings.CutPrefix(cl, sk+" "); ok {
				cl, changed = strings.TrimSpace(r), true
			}
		}
	}
	for _, ex := range ruleExceptions {
		if strings.HasPrefix(cl, ex) {
			return false
		}
	}
	if r, ok := strings.CutPrefix(cl, "only "); ok {
		for _, modal := range []string{" may ", " should ", " can "} {
			// "only the worker package may change", "… may be edited"
			if _, after, ok := strings.Cut(r, modal); ok {
				w, _, _ := strings.Cut(strings.TrimPrefix(after, "be "), " ")
				for _, v := range constraintVerbs {
					if strings.HasPrefix(w, v) {
						return true
					}
				}
			}
		}
		w, _, _ := strings.Cut(r, " ")
		for _, v := range constraintVerbs {
			if w == v {
				return true
			}
		}
		return false
	}
	for _, c := range ruleStarts {
		if strings.HasPrefix(cl, c) && (len(cl) == len(c) || !isAlpha(cl[len(c)])) {
			return true
		}
	}
	// "All new code needs type hints", "every endpoint has to log its
	// caller": a requirement on everything of a kind.
	if w, rest, ok := strings.Cut(cl, " "); ok && (w == "all" || w == "every" || w == "each" || w == "any") {
		for _, r := range []string{" needs ", " need ", " requires ", " require ", " has to ", " have to "} {
			if strings.Contains(" "+rest+" ", r) {
				return true
			}
		}
	}
	return false
}

// sentences splits a line at ". ", "! " and "? " followed by what can open
// a sentence (a capital, a digit, a quote, a bracket), so "e.g. the" and
// "assert_eq! on strings" do not end one.
func sentences(t string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(t); i++ {
		if (t[i] == '.' || t[i] == '!' || t[i] == '?') && t[i+1] == ' ' && opensSentence(t[i+2]) && !midSentenceDot(t, i) {
			out = append(out, strings.TrimSpace(t[start:i+1]))
			start = i + 2
		}
	}
	if start < len(t) {
		out = append(out, strings.TrimSpace(t[start:]))
	}
	return out
}

// midSentenceDot reports whether the '.' at t[i] ends an ellipsis inside a
// sentence ("SELECT ... FOR UPDATE") or an abbreviation that does not end
// one ("e.g.", "i.e.", "vs.").
func midSentenceDot(t string, i int) bool {
	if t[i] != '.' {
		return false
	}
	if i >= 2 && t[i-1] == '.' && t[i-2] == '.' {
		return true
	}
	for _, abbr := range []string{"e.g.", "i.e.", "vs."} {
		if k := i + 1 - len(abbr); k >= 0 && strings.EqualFold(t[k:i+1], abbr) && (k == 0 || !isAlpha(t[k-1])) {
			return true
		}
	}
	return false
}

func opensSentence(c byte) bool {
	return isUpper(c) || isDigit(c) || c >= 0x80 || strings.IndexByte("\"'`([*_", c) >= 0
}

// hasWord reports whether w occurs in s bounded by non-letters.
func hasWord(s, w string) bool {
	return wordIndex(s, w) >= 0
}

// wordIndex returns the index of the first occurrence of w in s bounded by
// non-letters, or -1.
func wordIndex(s, w string) int {
	for off := 0; ; {
		k := strings.Index(s[off:], w)
		if k < 0 {
			return -1
		}
		k += off
		e := k + len(w)
		if (k == 0 || !isAlpha(s[k-1]) || !isAlpha(w[0])) && (e == len(s) || !isAlpha(s[e]) || !isAlpha(w[len(w)-1])) {
			return k
		}
		off = k + 1
	}
}

// pastTense reports whether a word reads as a verb in the past: "fixed",
// "was", "had".
func pastTense(w string) bool {
	switch w {
	case "was", "were", "had", "did", "got", "made", "saw", "found", "ran", "knew", "thought":
		return true
	}
	return len(w) > 3 && strings.HasSuffix(w, "ed")
}

// userAssents open a user's reply before what it settles: "yeah use
// httpx", "no, use pnpm not npm", "Fine, go ahead with the job".
var userAssents = []string{"yeah", "yes", "yep", "yup", "no", "nope", "nah", "ok", "okay", "fine", "sure",
	"alright", "all right", "right", "so", "and", "actually", "hmm", "then", "just", "please", "ok so", "good",
	"great", "cool", "perfect", "thanks", "nvm", "never mind", "nevermind", "fair", "fair enough", "agreed",
	"lgtm", "sounds good", "makes sense", "works for me", "fine by me", "good call", "good idea", "hm", "hmm ok"}

// choiceVerbs open a user's instruction that takes or sets aside an
// option by itself: "use httpx", "drop the win32 branches", "skip Windows
// CI for now", "stop using print for debugging".
var choiceVerbs = []string{"use", "go with", "go ahead with", "drop", "skip", "stop", "pin", "switch to",
	"prefer", "pick", "choose", "stick with", "stick to", "avoid", "replace", "remove", "ditch", "forget about"}

// notInstruction open a sentence that does not instruct: a pronoun, an
// article, a question word or an auxiliary.
var notInstruction = map[string]bool{"i": true, "i'm": true, "i've": true, "we": true, "it": true, "it's": true,
	"this": true, "that": true, "the": true, "a": true, "an": true, "there": true, "they": true, "you": true,
	"what": true, "why": true, "how": true, "when": true, "where": true, "which": true, "who": true, "is": true,
	"are": true, "was": true, "were": true, "do": true, "does": true, "did": true, "can": true, "could": true,
	"would": true, "should": true, "will": true, "my": true, "our": true, "your": true, "its": true, "he": true,
	"she": true, "not": true, "also": true, "but": true, "if": true, "when's": true, "let": true, "thank": true}

// userChoice reports whether a user's sentence instructs a choice: it
// opens, after an assent, with a verb that takes or drops an option, or
// with any instruction that names the option it turns down ("Put the
// config in pyproject.toml instead of setup.cfg", "Branch off develop, not
// main").
func userChoice(low string) bool {
	if hedged(low) {
		return false
	}
	h, assented := low, false
	for _, sep := range []string{", ", " — ", "; "} {
		if k := strings.Index(h, sep); k > 0 && len(strings.Fields(h[:k])) <= 6 &&
			(hasAnySuffix(h[:k], approvals) || hasAnyLead(h[:k], []string{"i agree with", "agree with", "agreed with", "+1 to", "same as"})) {
			// "I agree with Maria — pass the context explicitly"
			h, assented = h[k+len(sep):], true
			break
		}
	}
	for changed := true; changed; {
		changed = false
		h = strings.TrimLeft(h, " ,.!—–-")
		for _, a := range userAssents {
			if r, ok := strings.CutPrefix(h, a); ok && (r == "" || r[0] == ' ' || r[0] == ',' || r[0] == '.' || r[0] == '!') {
				h, changed, assented = r, true, true
			}
		}
	}
	for _, l := range []string{"let's just ", "let's ", "lets just ", "lets ", "just "} {
		// "let's just pin numpy<2 for now", "just drop the flag"
		if r, ok := strings.CutPrefix(h, l); ok && hasAnyLead(r, choiceVerbs) {
			h = r
			break
		}
	}
	if hasAnyLead(h, choiceVerbs) {
		return len(strings.Fields(h)) >= 2
	}
	if w := strings.Trim(firstWord(h), ".,;:"); assented && len(w) > 2 && !notInstruction[w] && !pastTense(w) &&
		!strings.HasSuffix(w, "ing") && (!strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss")) && !strings.HasSuffix(h, "?") {
		// an instruction after an assent that also drops something:
		// "pass the context explicitly, drop the ctx field"
		for _, c := range []string{", drop ", ", skip ", " and drop ", " and skip ", ", remove ", " and remove ", ", no "} {
			if k := strings.Index(h, c); k > 0 && len(strings.Fields(h[k:])) >= 3 {
				return true
			}
		}
	}
	if w := strings.Trim(firstWord(h), ".,;:"); assented && hasAnyWord(h, []string{"you suggested", "you proposed", "you recommended", "you described"}) &&
		!strings.HasSuffix(h, "?") && !pastTense(w) && !notInstruction[w] && !strings.HasSuffix(w, "ing") &&
		!slices.Contains([]string{"i", "we", "it", "that", "this", "what", "the", "same", "still"}, w) {
		// "Yes, do the migration in two steps like you suggested.": the
		// user takes the agent's proposal.
		return true
	}
	w := strings.Trim(firstWord(h), ".,;:")
	if w == "" || notInstruction[w] || pastTense(w) || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "s") {
		return false
	}
	for _, a := range []string{"instead of", "rather than", "as opposed to"} {
		if hasWord(h, a) {
			return true
		}
	}
	return hasNotBut(h) || strings.Contains(h, " not ") && !strings.Contains(h, " not sure") && notBetween(h)
}

// lookedAt reports whether a sentence only says what its speaker looked
// at, tried or found ("I looked at X instead of Y because you asked"): no
// choice made.
func lookedAt(low string) bool {
	f := strings.Fields(low)
	return len(f) > 1 && slices.Contains([]string{"looked", "checked", "tried", "read", "tested", "saw", "found", "ran",
		"compared", "investigated", "noticed", "searched"}, f[1])
}

// userCourse reports whether a user's sentence states the course the work
// keeps to, as a conclusion ("so we use Stripe Checkout, please remove
// …") or against what it leaves ("We keep CSS modules for the dashboard;
// one utility file is enough", "we keep JSON in production and text only
// in local"): a bare "we use Datadog" describes, it does not choose.
func userCourse(low string) bool {
	if hedged(low) {
		return false
	}
	h, concluded := low, false
	for _, l := range []string{"ok so ", "so ", "so, ", "then ", "therefore ", "hence ", "which means ", "finally ",
		"finally, ", "in the end ", "in the end, ", "so in the end "} {
		if r, ok := strings.CutPrefix(h, l); ok {
			h, concluded = r, true
			break
		}
	}
	if !hasAnyLead(h, []string{"we use", "we keep", "we go with", "we stay with", "we stay on", "we stick with", "we move to",
		"we switch to", "we'll use", "we will use", "we target", "we ship",
		"we require", "we support", "we'll target", "we'll ship", "we'll require", "we'll support",
		"we choose", "we pick", "we put", "we launch", "we freeze", "we drop", "we remove", "we go ahead with",
		"we'll go ahead with", "we will go ahead with", "we make", "we split", "we store", "we leave", "we move",
		"we adopt", "we standardize on", "we standardise on"}) || len(strings.Fields(h)) < 4 {
		return false
	}
	// "only" sets the rest aside when a clause says what of it: "we
	// target net8.0 only from the next major, net6.0 is dropped", not
	// "we use it only in tests"
	only := wordIndex(h, "only")
	return concluded || hasAnyWord(h, []string{"not", "instead", "rather than", "no longer", "anymore"}) ||
		strings.Contains(h, "; ") || only >= 0 && strings.Contains(h[only:], ", ")
}

// afterLead returns the clause a short lead-in introduces ("bigger
// thing: let's not add a utils/ dir", "@channel heads up: we're freezing
// …") and where it starts, or 0 when the sentence has none.
func afterLead(low string) (string, int) {
	k := strings.Index(low, ": ")
	if k <= 0 || len(strings.Fields(low[:k])) > 6 || strings.ContainsAny(low[:k], ".;`\"'()") {
		return "", 0
	}
	r := low[k+2:]
	if len(strings.Fields(r)) < 4 {
		return "", 0
	}
	return r, k + 2
}

// approvals close a user's judgement of the agent's proposal before the
// choice it leads to: "your second option makes sense, go with the flag".
var approvals = []string{"makes sense", "sounds good", "sounds right", "works for me", "is fine", "looks good",
	"looks right", "is better", "is good", "fine by me", "good call", "good idea", "agreed", "fair"}

// notBetween reports whether " not " sets two options side by side: "use
// pnpm not npm", where a word precedes and one follows it.
func notBetween(h string) bool {
	k := strings.Index(h, " not ")
	before, after := strings.Fields(h[:k]), strings.Fields(h[k+5:])
	if len(before) > 0 && auxiliaries[before[len(before)-1]] {
		return false // "relation x does not exist": a report, not an option set aside
	}
	return len(before) >= 2 && len(after) >= 1 && len(after) <= 3
}

// auxiliaries before "not" make it a negated verb, not an option set
// aside.
var auxiliaries = map[string]bool{"does": true, "do": true, "did": true, "is": true, "are": true, "was": true,
	"were": true, "can": true, "could": true, "will": true, "would": true, "should": true, "has": true,
	"have": true, "had": true, "may": true, "might": true, "must": true}

// hasAnySuffix reports whether s ends with one of the suffixes.
func hasAnySuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// decisionComment adds a comment of a block of code in a message (between
// fences: code the agent shows it wrote) that states a decision, as
// written with its marker: "# we use tomllib instead of
// PyYAML because …", "// Decision: retry twice, then dead-letter". A
// comment is read as a sentence; only a decision, or a course set against
// another ("instead of", "rather than"), is kept.
func (s *scanner) decisionComment(t string, classify func(low string, starts []int) (Kind, int)) {
	if !s.agentProse {
		return // code a person pasted: its comments are someone else's
	}
	body := ""
	for _, m := range []string{"// ", "# ", "-- ", "/* ", "* ", "; "} {
		if r, ok := strings.CutPrefix(t, m); ok {
			body = strings.TrimSpace(strings.TrimSuffix(r, "*/"))
			break
		}
	}
	if len(strings.Fields(body)) < 5 || len(t) > s.e.capOf(KindDecision) || strings.HasSuffix(body, "?") {
		return
	}
	low, _ := lower(body)
	if k, _ := classify(low, nil); k == KindDecision || (hasWord(low, "instead of") || hasWord(low, "rather than")) && !hedged(low) &&
		hasAnyLead(low, []string{"we", "i", "decision", "decided", "chose", "use", "prefer", "keep", "going with"}) {
		s.add(KindDecision, t)
	}
}
