package corpus

// The phrasing tables: how the assistant announces what it does, reports
// results and states decisions, and how the user sets tasks and rules.
// Every table is split: a session only ever uses the entries of its half.

// style is how one agent talks. Templates use {path}, {pattern}, {target},
// {what}, {n}, {f}, {test} and {k} (a step counter).
type style struct {
	name    string
	read    []string
	search  []string
	test    []string
	edit    []string
	other   []string
	pass    []string
	fail    []string
	done    []string // opens the final report
	narrate float64  // share of routine steps with text
	think   float64  // share of steps with thinking, where the format has it
}

var styles = newSplit("agent styles", []*style{
	{
		name:    "let-me",
		read:    []string{"Let me read {path}.", "Let me look at {path} first.", "Let me open {path} to see what it does."},
		search:  []string{"Let me search for {pattern}.", "Let me find every use of {pattern}.", "Let me see where {pattern} is referenced."},
		test:    []string{"Let me run {target}.", "Let me rerun {target} to see where we are.", "Let me run the tests for {target} again."},
		edit:    []string{"Let me update {path}.", "Let me make that change in {path}.", "Let me patch {path} now."},
		other:   []string{"Let me check {what}.", "Let me look at {what}."},
		pass:    []string{"All {n} tests pass.", "The tests pass now ({n} passed)."},
		fail:    []string{"{f} tests still fail; {test} is the first one.", "Still failing: {test} (and {f} in total)."},
		done:    []string{"Here is what I changed:", "Summary of the work:"},
		narrate: 0.7, think: 0.35,
	},
	{
		name:    "terse",
		read:    []string{"Reading {path}.", "{path}:", "Open {path}."},
		search:  []string{"Searching for {pattern}.", "grep {pattern}.", "Usages of {pattern}:"},
		test:    []string{"Running {target}.", "Rerun {target}.", "Tests: {target}."},
		edit:    []string{"Editing {path}.", "Fix in {path}.", "Patch {path}."},
		other:   []string{"Checking {what}.", "Quick look at {what}."},
		pass:    []string{"Green: {n} passed.", "OK, {n}/{n}."},
		fail:    []string{"Red: {f} failing ({test}).", "{f} failures, first {test}."},
		done:    []string{"Done.", "Changes:"},
		narrate: 0.45, think: 0.15,
	},
	{
		name:    "numbered",
		read:    []string{"Step {k}: read {path}.", "Step {k}: inspect {path}."},
		search:  []string{"Step {k}: search the tree for {pattern}.", "Step {k}: locate {pattern}."},
		test:    []string{"Step {k}: run {target}.", "Step {k}: verify with {target}."},
		edit:    []string{"Step {k}: modify {path}.", "Step {k}: apply the change to {path}."},
		other:   []string{"Step {k}: examine {what}.", "Step {k}: review {what}."},
		pass:    []string{"Step {k} result: {n} passed, 0 failed.", "Step {k} result: all {n} green."},
		fail:    []string{"Step {k} result: {f} failed ({test} first).", "Step {k} result: {test} fails, {f} failures overall."},
		done:    []string{"Final step: report.", "Wrap-up of all steps:"},
		narrate: 0.85, think: 0.1,
	},
	{
		name:    "casual",
		read:    []string{"ok, reading {path}", "peeking at {path}", "lemme open {path}"},
		search:  []string{"grepping for {pattern}", "where's {pattern} used?", "hunting for {pattern}"},
		test:    []string{"running {target}", "kicking off {target} again", "test time: {target}"},
		edit:    []string{"tweaking {path}", "fixing up {path}", "changing {path}"},
		other:   []string{"poking at {what}", "having a look at {what}"},
		pass:    []string{"nice, {n} passing", "all good, {n} green"},
		fail:    []string{"nope, {f} still red ({test})", "{test} still broken, {f} failing"},
		done:    []string{"ok that's it, recap:", "all done, here's the recap:"},
		narrate: 0.55, think: 0.25,
	},
}, []*style{
	{
		name:    "we-voice",
		read:    []string{"We need to see {path}.", "We should read {path} before changing anything.", "We open {path} next."},
		search:  []string{"We should look for {pattern} across the tree.", "We search the code base for {pattern}.", "We track down the callers of {pattern}."},
		test:    []string{"We run {target} to confirm.", "We re-run {target} now.", "We check {target} once more."},
		edit:    []string{"We patch {path}.", "We apply the edit to {path}.", "We rewrite the relevant part of {path}."},
		other:   []string{"We inspect {what}.", "We take stock of {what}."},
		pass:    []string{"Everything is green now: {n} passed.", "We are at {n} passing and no failures."},
		fail:    []string{"We are still at {f} failures, starting with {test}.", "{test} keeps failing; {f} failures remain."},
		done:    []string{"To sum up what we did:", "Here is where we ended up:"},
		narrate: 0.75, think: 0.3,
	},
	{
		name:    "status-tag",
		read:    []string{"[read] {path}", "[inspect] {path}", "[open] {path}"},
		search:  []string{"[search] {pattern}", "[grep] {pattern}", "[usages] {pattern}"},
		test:    []string{"[test] {target}", "[verify] {target}", "[rerun] {target}"},
		edit:    []string{"[edit] {path}", "[patch] {path}", "[change] {path}"},
		other:   []string{"[check] {what}", "[look] {what}"},
		pass:    []string{"[result] pass ({n})", "[result] {n} ok, 0 failing"},
		fail:    []string{"[result] {f} failing: {test}", "[result] FAIL {test} (+{f} total)"},
		done:    []string{"[summary]", "[report] final state:"},
		narrate: 0.9, think: 0.05,
	},
	{
		name:    "question-led",
		read:    []string{"What does {path} do here? Opening it.", "Is the problem in {path}? Reading it.", "How is {path} organised? Let's see."},
		search:  []string{"Where else is {pattern} referenced?", "Who calls {pattern}?", "Is {pattern} used anywhere else?"},
		test:    []string{"Does {target} pass now?", "What does {target} say this time?", "Is {target} still red?"},
		edit:    []string{"How should {path} change? Applying the fix.", "What is the smallest edit to {path}? This one.", "Can {path} be fixed in place? Trying."},
		other:   []string{"What about {what}?", "Anything odd in {what}?"},
		pass:    []string{"Yes: {n} passed, none failed.", "It does; {n} of {n} pass."},
		fail:    []string{"Not yet: {test} fails ({f} in total).", "No. {f} failures, {test} among them."},
		done:    []string{"Where do things stand? Like this:", "What changed, in short:"},
		narrate: 0.6, think: 0.2,
	},
	{
		name:    "now-gerund",
		read:    []string{"Now opening {path}.", "Now reading through {path}.", "Opening {path} now."},
		search:  []string{"Now grepping for {pattern}.", "Searching the repository for {pattern} now.", "Now listing uses of {pattern}."},
		test:    []string{"Now running {target}.", "Running {target} again now.", "Now re-checking {target}."},
		edit:    []string{"Now patching {path}.", "Applying the edit to {path} now.", "Now rewriting part of {path}."},
		other:   []string{"Now examining {what}.", "Looking into {what} now."},
		pass:    []string{"Passing: {n} of {n}.", "Now passing, all {n}."},
		fail:    []string{"Failing: {test}, {f} overall.", "Now at {f} failures; {test} leads."},
		done:    []string{"Finished. Overview:", "Now complete; the overview:"},
		narrate: 0.65, think: 0.25,
	},
}, func(s *style) string { return s.name })

// Decision phrasings: {x} is chosen over {y} for {c}, because {why}.
var decisionForms = strSplit("decision phrasings", []string{
	"I'll go with {x} rather than {y} for {c}.",
	"We will use {x} instead of {y} in {c}.",
	"Decision: {x} for {c}, not {y}, because {why}.",
	"Going with {x} over {y} here; {why}.",
	"Settled on {x} for {c}; {y} is out because {why}.",
	"Let's use {x} for {c} and drop the idea of {y}.",
	"{x} it is for {c}, since {why}.",
	"I picked {x} over {y}: {why}.",
	"The plan for {c} is {x}, not {y}.",
	"I decided to use {x} in {c} because {why}.",
	"I'm going with {x}; {y} is tempting but {why}.",
	"For {c}, {x} beats {y} because {why}.",
}, []string{
	"Between {x} and {y}, I'm picking {x} for {c} since {why}.",
	"The fix will rely on {x}; {y} was the other option, but {why}.",
	"Choosing {x} over {y} for {c}.",
	"My call: {x} in {c}. Not {y}, because {why}.",
	"Rather than {y}, {c} will use {x}.",
	"{c} gets {x}; I ruled out {y} because {why}.",
	"Plan of record for {c}: {x} (not {y}).",
	"After weighing it, {x} wins over {y} for {c}.",
	"Opting for {x} in {c}, because {why}; {y} stays out.",
	"We should go for {x} here, not {y}: {why}.",
	"I'm settling {c} on {x} and leaving {y} aside.",
	"Final answer on {c}: {x}. {y} would have worked, but {why}.",
})

// Constraint phrasings, in user messages. Keys: {pkgkind} {pkg}, {dir},
// {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var constraintForms = strSplit("constraint phrasings", []string{
	"Don't change the public API of {pkgkind} {pkg}.",
	"Never touch {dir}.",
	"No new dependencies, please; {dep} included.",
	"Leave {file} exactly as it is.",
	"Keep it compatible with {ver}.",
	"Do not run anything against {env}.",
	"{dir} is generated, so don't edit it by hand.",
	"You must keep {api} unchanged.",
	"Always run `{cmd}` before you tell me it's done.",
	"Avoid adding {dep}; we are trying to get rid of it.",
	"Only change code inside {dir}.",
	"Make sure nothing in {file} changes.",
	"Never commit directly to main.",
	"Don't rename anything exported from {pkgkind} {pkg}.",
}, []string{
	"Please keep the exported surface of {pkgkind} {pkg} exactly as it is.",
	"Hands off {dir}, that directory belongs to another team.",
	"Under no circumstances should you modify {file}.",
	"We can't take on new third-party packages for this, and that means no {dep}.",
	"Whatever you do, {ver} support has to keep working.",
	"{env} is off limits; use the local database only.",
	"The files under {dir} come from codegen, so they stay untouched.",
	"{api} is frozen for this release.",
	"Before calling it finished, `{cmd}` has to pass.",
	"{dep} is on its way out, so no new uses of it.",
	"Keep your edits within {dir}; the rest of the tree is out of scope.",
	"I need {file} to stay byte-for-byte identical.",
	"Push to a branch; the main branch is protected for a reason.",
	"Existing names in {pkgkind} {pkg} stay as they are, no renames.",
})

// Distractors: plans that are not decisions. Keys: {topic}, {thing}, {path}.
var planForms = strSplit("plan distractors", []string{
	"Next I will look at the {topic} handling.",
	"Let me check how {thing} handles this next.",
	"I will read {path} after this.",
	"Then I'll look at the callers of {thing}.",
	"Next up is the {topic} code.",
	"I'll come back to {thing} later.",
	"I will also look at how {topic} is tested.",
}, []string{
	"After that I'm going to look into {topic}.",
	"Checking {thing} next to see how it behaves.",
	"Time to see how {thing} deals with this.",
	"I'll have a look at {path} in a moment.",
	"Going to inspect the {topic} path afterwards.",
	"{thing} deserves a closer look later on.",
	"Once this is done, {topic} is the next thing to read.",
})

// Task openings: {proj} {issue}.
var taskForms = strSplit("task phrasings", []string{
	"{proj} {issue}. Find the cause and fix it.",
	"Bug: {proj} {issue}. Please track it down and fix it, with a test.",
	"Users report that {proj} {issue}. Investigate and fix.",
}, []string{
	"We have a problem: {proj} {issue}. Can you dig in and fix it?",
	"Can you figure out why {proj} {issue}? A fix with a regression test would be ideal.",
	"Since the last release {proj} {issue}. I'd like a root cause and a fix.",
})

// Follow-up requests from the user: {comp}, {issue}.
var askForms = strSplit("follow-up phrasings", []string{
	"Good. Now look at {comp} too: it {issue}.",
	"Next: {comp}. It {issue}.",
	"Thanks. While you're at it, {comp} {issue}; fix that as well.",
	"One more thing: {comp} {issue}.",
}, []string{
	"Nice work. There's another report: {comp} {issue}.",
	"Moving on to {comp}, which {issue}.",
	"Appreciated. Could you also handle {comp}? It {issue}.",
	"Another ticket came in about {comp}: it {issue}.",
})

// Follow-up symptoms, completing "{comp} ...".
var askIssues = strSplit("follow-up symptoms", []string{
	"sometimes double-counts retries",
	"drops requests under load",
	"logs the same warning thousands of times",
	"ignores the configured timeout",
}, []string{
	"hangs on shutdown",
	"returns stale data after a failover",
	"leaks memory over a long weekend",
	"reports the wrong totals at month end",
})

// Planted specifics in user messages, by category. Keys: {path}, {cmd},
// {id}, {err}.
var userPathForms = strSplit("user path phrasings", []string{
	"Also have a look at {path}, it changed in the same release.",
	"The bug might be in {path}.",
}, []string{
	"{path} might be involved too, so check it.",
	"Someone mentioned {path} in the incident channel.",
})

var userCommandForms = strSplit("user command phrasings", []string{
	"To reproduce it locally I use `{cmd}`.",
	"Run `{cmd}` when you think it's fixed.",
}, []string{
	"This is how CI runs it: {cmd}",
	"My repro command, for what it's worth: {cmd}",
})

var userIDForms = strSplit("user identifier phrasings", []string{
	"The failing request had id {id}.",
	"This is tracked as {id}.",
}, []string{
	"For reference, the affected record is {id}.",
	"Use {id} when you mention it in the commit message.",
})

var userErrorForms = strSplit("user error phrasings", []string{
	"Production logs show: {err}",
	"The error we see is `{err}`.",
}, []string{
	"Here's what the on-call saw:\n\n    {err}\n",
	"Our alerts fire with this message: {err}",
})

// Assistant prose carrying planted specifics. Keys: {path}, {cmd}, {id}.
var proseCommandForms = strSplit("assistant command phrasings", []string{
	"I reproduced it with `{cmd}`.",
}, []string{
	"For the record, the reproduction was: {cmd}",
	"The command that shows the failure reliably is `{cmd}`.",
})

var prosePathForms = strSplit("assistant path phrasings", []string{
	"The culprit is in `{path}`.",
	"The root cause sits in {path}.",
}, []string{
	"Found it: {path} is where this goes wrong.",
	"So {path} is the file to fix.",
})

var proseIDForms = strSplit("assistant identifier phrasings", []string{
	"This matches ticket {id}.",
}, []string{
	"I'll reference {id} in the commit.",
	"That lines up with {id}.",
})

// Final reports after the last step: {comp}, {n}.
var closeForms = strSplit("closing phrasings", []string{
	"- fixed {comp}\n- the suite passes ({n} tests)",
	"- {comp}: fixed and covered by a test\n- {n} tests green",
}, []string{
	"1. {comp} no longer misbehaves.\n2. {n} tests pass locally.",
	"* {comp} repaired, regression test added\n* test run: {n} passed",
})
