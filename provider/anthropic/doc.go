// Package anthropic speaks Anthropic's Messages API for condense: one codec
// for its wire format, a small client over the official Go SDK, a
// Summarizer and an exact Counter built on both, and converters from and to
// the SDK's request type.
//
// # Codec
//
// DecodeRequest reads a Messages API request body into a Request, which is
// a condense.Request plus what the body holds besides it; EncodeRequest
// writes one back. Nothing is lost on the way: top-level members the codec
// does not model (temperature, metadata, tool_choice, stream, anything new)
// are kept in Request.Extra and written back byte for byte in their order;
// system blocks and tool definitions keep their other members
// (cache_control, a server tool's type and settings); content blocks of
// unknown types, and known blocks holding members the codec does not model
// (citations on a text), travel as opaque provider parts, byte for byte; a
// block's cache_control, and members of tool_use and tool_result blocks the
// codec does not model, follow the block's part as a fields part
// (FieldsPart) that encoding puts back on the block; members of a message
// object besides role and content (an "id", a "timestamp", anything new)
// lead its parts as a message fields part (MessageFieldsPart) that encoding
// puts back on the message. Thinking signatures,
// redacted thinking, images (base64 and url), tool results (content as a
// string or blocks, is_error) and the system prompt as a string or blocks
// all come back as they were. Decoding followed by encoding gives the same
// JSON value, with the members the codec does not model byte for byte (see
// Request for the few things it normalizes, all of which the API reads
// the same way).
//
// DecodeHead, DecodeMessage and DecodeContent read a body piece by piece,
// for readers of logs (package transcript). DecodeResponse reads an answer
// into a Response: the assistant message, stop reason, usage (cache reads
// and writes apart, and inside InputTokens) and model.
//
// The codec reads and writes JSON by hand, one pass over the body, instead
// of through encoding/json or the SDK's types: on a 500 KB body it decodes
// several times faster than encoding/json into the SDK's parameters, which
// also drop the members they do not know.
//
// # Client
//
// A Client sends a Request (the body is always EncodeRequest's) through the
// SDK's transport with Send, Stream (server-sent events decoded into
// StreamEvents) and CountTokens. NewClient resolves the key and base URL
// from Options or from $ANTHROPIC_API_KEY and $ANTHROPIC_BASE_URL, makes the
// SDK read nothing from the environment and retry nothing itself, and runs
// this package's retry loop; NewSDKClient sends through an SDK client
// configured by its caller. The SDK speaks API version APIVersion. Error
// answers are *condense.APIError values whose Kind says what happened:
// condense.ErrAuth (401, 403), ErrRateLimited (429), ErrContextTooLarge
// (413, or a 400 saying the prompt is too long), ErrOverloaded (529,
// overloaded_error) or ErrServer (other 5xx). Rate limits, overloads and
// server errors are retried with exponential backoff and jitter, honouring
// retry-after-ms and Retry-After; a Retry-After over 30 s, or past the
// request's deadline, is returned at once.
//
// # Summarizer and Counter
//
// A Summarizer implements condense.Summarizer on the Messages API. It sends
// one request per summary: the summary system prompt, one user message built
// by summarize.BuildPrompt (tool output fenced and labelled as data), no
// tools, and an output cap of min(4096, the request's cap, the model's
// maximum). The compaction model is chosen apart from the agent's own model,
// and defaults to DefaultModel, the cheapest current Claude model. A response
// that stops at max tokens, uses a tool, holds no text or is a refusal is
// rejected with a *summarize.RejectedError. Options.Timeout (default two
// minutes) bounds a whole call, retries included, and cancelling the context
// stops it, waits included.
//
// A Counter implements condense.Counter with exact counts from the
// count_tokens endpoint, cached per message fingerprint so that a preflight
// costs one request per new message. When the API cannot answer it falls
// back to the calibrated Claude heuristic of package tokens and logs once.
// Its OnCount hook reports every exact count beside the heuristic's
// estimate, which is how a tokens.Calibration learns the correction of the
// offline counter.
//
// Usage reports input tokens including prompt-cache writes and reads, and a
// cost from the built-in price table when the model is in it.
//
// # The SDK's types
//
// FromSDK and ToSDK convert between the SDK's MessageNewParams and a
// Request, so that an agent built on the SDK compacts its own parameters
// with a condense.Preflight and sends the result with the SDK, losing
// nothing (see the example).
package anthropic
