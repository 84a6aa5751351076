// Command condense compacts, counts, inspects and evaluates LLM agent
// transcripts with the condense library, offline unless a provider
// summarizer or judge is asked for. Run "condense --help" for the commands
// and "condense COMMAND --help" for a command's flags and examples.
//
//	condense compact [flags] [FILE]  render a transcript as the next request, compacted to fit
//	condense count [flags] [FILE]    tokens by role and part kind, with the counter used
//	condense inspect [flags] [FILE]  where the tokens are and what each strategy would do
//	condense eval [flags] FILE...    retention, compression, validity and cost of compaction policies
//	condense replay JOURNAL          verify a recorded agent run offline
//	condense proxy [flags]           compact transparently between an agent and the OpenAI or Anthropic API
//	condense completion SHELL        a completion script for bash, zsh, fish or powershell
//
// The command line follows GNU conventions (github.com/spf13/cobra):
// --flag and --flag=value, -o for --out, flags before or after the
// arguments, "--" to end them, --help and --version. The single-dash long
// flags of earlier versions (-window 32k) are still accepted. A FILE of
// "-", or no FILE when standard input is not a terminal, reads standard
// input. A mistake on the command line prints one line and a hint to the
// command's help.
//
// Transcripts are read in any format the transcript package knows
// (--format auto detects it): Claude Code and Codex sessions, OpenAI and
// Anthropic messages, mini-swe-agent and SWE-agent trajectories, and the
// condense JSON document. compact writes the next request as OpenAI or
// Anthropic messages or as condense JSON (--to); on a terminal it prints
// a one-line summary, and its --stats JSON reports what each compaction
// did. --instructions makes a manual compaction with a focus for the
// summary.
//
// The budget comes from the model (--model, default the transcript's) or
// from --window, --reserve and --fraction; sizes take k and m suffixes
// (32k = 32,000). An unknown model without --window is a usage error.
// Exit codes: 0 success (also when there is nothing to compact), 1 the
// request cannot fit even after compaction (context_window_exceeded), 2 bad
// usage or bad input (eval: no file could be evaluated), 130 interrupted.
// docs/formats.md has the formats, the stats keys and the exit codes in
// full.
package main
