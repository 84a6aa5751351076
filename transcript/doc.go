// Package transcript reads agent transcripts in foreign formats into a
// condense.Request and writes requests back out (DESIGN §7 "Transcript
// readers").
//
// Read understands Claude Code session JSONL, Codex CLI rollout JSONL,
// OpenAI chat messages, Anthropic Messages bodies, mini-swe-agent and
// SWE-agent trajectories, and the condense JSON form. With FormatAuto (the
// default) it asks Detect, whose rules are listed on Detect: each format has
// a key shape no other format has, checked in a fixed order, and an input
// matching none is an error listing the formats.
//
// Whatever the format, the messages Read returns pass condense.Validate:
//
//   - tool results always travel in RoleTool messages right after the
//     assistant message that called them (one tool message may hold a
//     parallel batch);
//   - a call left without a result before the newest step (an interrupted
//     run) gets the stand-in result "[no result recorded]" marked IsError,
//     counted in Transcript.Repaired; calls of the newest step stay open;
//   - a result separated from its call moves back next to it;
//   - a result whose call is nowhere is an error naming the call id;
//     Options.Lenient drops it (Transcript.Dropped);
//   - a malformed record is a *ReadError naming the file, the line (JSONL)
//     or JSON path (JSON) and the problem, wrapping condense.ErrMalformed;
//     Options.Lenient skips it (Transcript.Skipped).
//
// A compaction the agent already made (a Claude Code compact boundary, a
// Codex compacted item) is imported as Transcript.Checkpoint; the messages
// it replaced stay in Request.Messages, since nothing is ever deleted, and
// Transcript.Rendered gives what the agent itself sent.
//
// Opaque provider data is carried as provider parts, byte for byte:
// Anthropic blocks the reader does not model (compaction, server tools,
// anything with encrypted_content) and Codex reasoning items with
// encrypted_content. An Anthropic block's cache_control travels as a provider
// part {"cache_control": …} right after the block's part (DESIGN §2 lists
// cache-control markers among the provider blocks); the Anthropic writer puts
// it back on the block. cache_control on system blocks and tools has no
// place in condense.Request and is not kept.
//
// Write produces OpenAI chat, Anthropic Messages and condense JSON bodies.
// The OpenAI writer drops thinking (chat completions have no place to send
// reasoning back), is_error and images inside tool results; the Anthropic
// writer merges consecutive messages of one role (tool results first) so
// roles alternate, always writes max_tokens, and drops thinking without a
// signature. Both drop the other provider's opaque blocks.
package transcript

//go:generate go test -run TestLargeSample -update .
