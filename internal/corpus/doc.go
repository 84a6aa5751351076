// Package corpus generates synthetic agent sessions for measuring what
// compaction keeps. Each session is written in one agent's own transcript
// format (Anthropic messages, Codex rollouts, mini-swe-agent and SWE-agent
// trajectories, ...) for one project in one language ecosystem, in one
// style of phrasing, with specifics planted in it: paths, commands, errors,
// identifiers, measurements, decisions and constraints. The planted texts
// are the probes; a compacted rendering is scored by plain string search for
// them, never by the extractors under test.
//
// Every table the generator draws from (phrasings, projects, formats, tool
// sets, planting forms) is cut into halves that share nothing: Tune, to
// look at while adjusting extractors and strategies, and Report, held out to
// report figures. A third half, Fresh, was written without looking at the
// extractors and held out until its misses were read and tuned against: it
// is a second tuning half now. Its probe-bearing tables (planting forms,
// error messages, commands, phrasings) have entries of their own; the other
// tables fall back to the report half's. A fourth half, Blind, was written
// as Fresh was, without looking at the extractors or at the other halves'
// entries (new wording, new tools and new surfaces for every probe-bearing
// table), and held out until its misses too were read and tuned against. A
// fifth half, Sealed, is held out like Report and written the same way,
// after Blind, without looking at the extractors or at the four other
// halves' entries: other wording, tools, ecosystems and surfaces again. A
// sixth half, Holdout, is held out too and written after Sealed in the same
// way, without looking at the extractors, with tools, libraries, ecosystems
// and wordings none of the five other halves use: report only, like
// Sealed. A seventh half, Reserve, is held out and written after Holdout in
// the same way, without looking at the extractors, with tools, libraries,
// ecosystems and wordings none of the six other halves use: report only.
// An eighth half, Practice, is written after Reserve in the same way,
// without looking at the extractors, with tools, libraries, ecosystems and
// wordings none of the seven other halves use, but it is a tuning half:
// its misses may be read and tuned against, while Report, Sealed, Holdout
// and Reserve stay report only. A ninth half, Drill, is written after
// Practice in the same way, without looking at the extractors, with
// tools, formats and wordings none of the eight other halves use, to
// drill what compaction still loses (identifiers and figures inside the
// output of unfamiliar tools, and errors, commands and decisions that
// reach the agent through a tool's output): a fifth tuning half. The same
// Config always gives the same bytes.
//
// The command ./cmd/gencorpus writes a corpus to a directory and scores
// renderings against it.
package corpus
