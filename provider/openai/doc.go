// Package openai is condense's side of OpenAI and OpenAI-compatible servers
// (Ollama, vLLM, llama.cpp, LiteLLM, chosen by base URL): one codec per wire
// format, a client that sends through the official Go SDK, a summarizer and
// an exact token counter.
//
// # Codecs
//
// Chat Completions request bodies decode to a ChatRequest
// (DecodeChatRequest) and encode back (EncodeChatRequest); answers decode to
// a ChatResponse (DecodeChatResponse) and streamed chunks to ChatChunk values
// (ChatStream, DecodeChatChunk). The Responses API has the same:
// ResponsesRequest, ResponsesResponse and ResponsesEvent (ResponsesStream).
// A request is a condense.Request plus what condense does not model, so that
// decoding then encoding gives the same request:
//
//   - the body's other top-level members (temperature, tool_choice,
//     response_format, stream_options, previous_response_id, anything new)
//     are kept in Extra, values byte for byte, in order;
//   - tools that are not plain function tools are kept in RawTools;
//   - items, messages and content parts of types condense has no part for
//     are openai provider parts (condense.ProviderBlock("openai", raw)),
//     byte for byte; a reasoning item, encrypted content included, is a
//     thinking part that holds the whole item;
//   - members of a modelled object that condense has no field for (a
//     message's "name", a text part's "cache_control", an output text's
//     "annotations", an item's "id" and "status", the "developer" role) are
//     kept in a small openai provider part beside it, a fields block
//     {"condense": "<kind>", "value": {<members>}}: before the parts of its
//     message or item, right after its part. Encoding writes those members
//     back into the object, values byte for byte; a member with the name of
//     a modelled one takes its place (or, for an object, is merged into
//     it). IsFieldsPart tells such parts apart for readers that want only
//     the content.
//
// What the codecs model is written in one canonical form, which decodes to
// the same value: a chat content of one plain text as a string, a missing
// image detail of the Responses API as "auto", and so on (see ChatRequest
// and ResponsesRequest). Tool call arguments, a string on the wire, map to
// condense's JSON input losslessly, arguments that are not a JSON object
// included (RawArgumentsKey). A body the codecs cannot read is a
// *DecodeError naming the JSON path at fault and wrapping
// condense.ErrMalformed; an object that gives one member twice is such a
// body.
//
// Decoding reads a body in one checking pass and keeps references into it
// rather than copies: the strings of the result that needed no unescaping,
// and every kept raw value, share the body's memory, so the body must not
// be changed while the result is in use. A 500 KB chat body decodes in
// about a millisecond, several times faster than the SDK's parameter types,
// which also drop unknown top-level members.
//
// ChatRequestFromParams and ResponsesRequestFromParams convert the SDK's
// parameter types (openai.ChatCompletionNewParams,
// responses.ResponseNewParams) to requests, and ChatRequest.Params and
// ResponsesRequest.Params convert back, losslessly: what the SDK's types
// cannot hold is set as raw JSON.
//
// # Client
//
// A Client sends requests over Chat Completions (Chat, StreamChat) or the
// Responses API (Responses, StreamResponses, CountInputTokens). The codecs
// write every body and read every answer; the official SDK,
// github.com/openai/openai-go/v3, carries them, with its authentication,
// base URL handling and retries. Error answers, whatever server sent them,
// are *condense.APIError values whose Kind says what happened:
// condense.ErrAuth (401, 403), ErrRateLimited (429), ErrContextTooLarge
// (413, or a 400 with context_length_exceeded or a message saying so, as
// vLLM and Ollama word it), ErrOverloaded (503) or ErrServer (other 5xx).
//
// # Summarizer
//
// A Summarizer implements condense.Summarizer on Chat Completions, which
// every compatible server speaks. It sends one request per summary: a system
// message with the summary prompt, one user message built by
// summarize.BuildPrompt (tool output fenced and labelled as data), no tools,
// and an output cap of min(4096, the request's cap, the model's maximum) as
// max_completion_tokens (max_tokens with Options.LegacyMaxTokens). The
// compaction model is chosen apart from the agent's own model and defaults
// to DefaultModel. The key and base URL come from Options or from
// $OPENAI_API_KEY and $OPENAI_BASE_URL; with a base URL set the key may be
// empty, as local servers need none. The key and base URL resolved here
// override what the SDK reads from the environment (it still honours
// $OPENAI_ORG_ID, $OPENAI_PROJECT_ID and $OPENAI_CUSTOM_HEADERS).
//
// A response cut at the cap (finish reason "length"), calling a tool, with
// no text, filtered ("content_filter") or refused is rejected with a
// *summarize.RejectedError. The SDK makes no retries of its own here: rate
// limits, overloads and server errors are retried with exponential backoff
// and jitter, honouring retry-after-ms and Retry-After; a Retry-After over
// 30 s, or past the request's deadline, is returned at once.
// Options.Timeout (default two minutes) bounds a whole call, retries
// included, and cancelling the context stops it, waits included.
//
// # Counter
//
// A Counter implements condense.Counter with exact counts, cached per
// message fingerprint: from POST /responses/input_tokens by default (free,
// OpenAI's), or from the usage of a one-token chat completion
// (Options.API = APIChat, for compatible servers that report usage).
// Servers that cannot answer make it fall back, after one logged failure,
// to the heuristic of package tokens. Its OnCount hook reports every exact
// count beside the heuristic's estimate, which is how a tokens.Calibration
// learns the correction of the offline counter.
//
// Usage reports input tokens (cached ones included, and counted again as
// cache reads) and output tokens, and a summary's cost from the built-in
// price table when the model is in it; models of other servers cost 0.
package openai
