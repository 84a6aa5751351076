// Package transcript reads agent transcripts in foreign formats into a
// condense.Request and writes requests back out.
//
// Read understands Claude Code session JSONL, Codex CLI rollout JSONL,
// Gemini CLI stream-json logs, session files and saved chats, OpenAI chat
// messages, Anthropic Messages bodies, mini-swe-agent and SWE-agent
// trajectories, OpenHands event logs, Cline and Roo Code task histories
// (api_conversation_history.json), LangChain and LangGraph message lists
// (serialized messages, messages_to_dict entries, message dicts, a thread
// state's values), and the condense JSON form. With FormatAuto (the
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
//     Options.Lenient skips it (Transcript.Skipped);
//   - JSON cut short, nested deeper than MaxDepth or followed by trailing
//     data is a *ReadError naming its line and column;
//   - invalid UTF-8 is read as U+FFFD and noted (NoteReplaced) with its
//     line, column and byte count;
//   - an input over Options.MaxBytes (DefaultMaxBytes, 256 MiB, unless set)
//     is refused with ErrTooLarge before it is read whole; Claude Code and
//     Codex JSONL are streamed a line at a time by Read and ReadFile, so
//     reading them holds little more than the transcript itself;
//   - records a format links out of file order (a Claude Code line written
//     before its parentUuid) are read in the order the links give, each
//     moved record with a NoteReordered.
//
// A compaction the agent already made (a Claude Code compact boundary, a
// Codex compacted item, a Roo Code condense summary, an OpenHands
// condensation whose forgotten events are the oldest) is imported as
// Transcript.Checkpoint; the messages
// it replaced stay in Request.Messages, since nothing is ever deleted, and
// Transcript.Rendered gives what the agent itself sent.
//
// Documented variants of a format are read, not repaired: the exit message
// that ends a mini-swe-agent run (a role no provider has) is read as text
// marked "[mini-swe-agent exit: STATUS]", the result of the calls it
// ended or else a user message (a NoteConverted note); the call ids a
// replayed SWE-agent demonstration reuses are given new ones (NoteRekeyed,
// Transcript.OriginalIDs); OpenHands actions that name no tool call get the
// deterministic id "openhands-<event id>", which the observation naming the
// action as its cause answers.
//
// What condense.Request has no field for is kept where a request sent again
// needs it, and left out where it does not:
//
//   - Kept, byte for byte, as provider parts: Anthropic content blocks the
//     reader does not model (documents, search results, server tool uses
//     and their results, compaction blocks, unsigned thinking, and text or
//     image blocks holding other members, such as citations), OpenAI chat
//     content parts other than text and images (input_audio, file,
//     refusal), Codex web search, tool search, image generation and
//     compaction items and reasoning items with encrypted_content, and
//     Gemini parts other than text, thoughts, function calls and responses
//     and inline images (file data, executable code and its results).
//   - Kept beside its block: an Anthropic block's cache_control, and the
//     members of a tool_use or tool_result block the reader does not model,
//     travel as a fields part right after the block's part (see
//     anthropic.FieldsPart); the Anthropic writer puts them back on the
//     block.
//   - Cline and Roo Code: tool use the agent wrote as XML in its text is
//     read as tool calls and results when the next user message answers it
//     with Cline's result texts, and stays text otherwise (see the Cline
//     reader for the exact rule); Cline's bookkeeping members ("ts",
//     "metrics", "call_id", …) are left out, its "modelInfo" names the
//     model.
//   - LangChain: an AI message's tool_calls are its calls (the duplicate
//     tool_use blocks of its content are not read twice); content blocks
//     of unknown types are kept as "langchain" provider parts, which only
//     the condense form writes; invalid_tool_calls, usage_metadata and the
//     rest of the metadata are left out; message ids are kept.
//   - Left out: cache_control and the other members of Anthropic system
//     blocks and tool definitions (a server tool's type and settings), whose
//     system prompt and tools condense.Request holds as plain text and
//     name, description and schema; the members of a message besides its
//     role and content (the "id", "timestamp", "model", "stop_reason" and
//     "usage" of saved conversations, an OpenAI message's "name"); members
//     of OpenAI content parts (an image's detail, an output text's
//     annotations) and of Codex items (an item's status); and top-level
//     members other than the messages, model, system prompt, tools, output
//     cap and thinking budget. The codecs of
//     provider/anthropic and provider/openai keep all of these when they
//     decode a request body to forward; a transcript is read to be compacted
//     and written out as a new request.
//
// Write produces OpenAI chat, Anthropic Messages and condense JSON bodies.
// The OpenAI writer drops thinking (chat completions have no place to send
// reasoning back), is_error and images inside tool results; the Anthropic
// writer merges consecutive messages of one role (tool results first) so
// roles alternate, always writes max_tokens, and drops thinking without a
// signature. Both drop the other provider's opaque blocks. Both write what
// the provider's API accepts as it is: every tool call answered, unique ids
// the API takes, a definition for every tool called, and for Anthropic a
// user message first (see Write). CheckWritten checks a written body
// against its format's rules (anthropic.CheckRequest,
// openai.CheckChatRequest, condense.Validate); WriteWith with
// WriteOptions.OriginalIDs writes re-keyed ids' originals into the condense
// form, which Read gives back in Transcript.OriginalIDs.
package transcript

//go:generate go test -run TestLargeSample -update .
