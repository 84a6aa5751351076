// Package anthropic summarizes history with Claude models and counts tokens
// exactly through Anthropic's count_tokens endpoint (DESIGN B19).
//
// Requests go through the official Go SDK, github.com/anthropics/anthropic-sdk-go/v2
// (client.Messages.New and client.Messages.CountTokens), which speaks API
// version APIVersion. The SDK is configured to read nothing from the
// environment and to make no retries of its own: this package resolves the
// key and base URL, classifies every error answer (*anthropic.Error) and runs
// the only retry loop.
//
// A Summarizer implements condense.Summarizer on the Messages API. It sends
// one request per summary: the summary system prompt, one user message built
// by summarize.BuildPrompt (tool output fenced and labelled as data), no
// tools, and an output cap of min(4096, the request's cap, the model's
// maximum). The compaction model is chosen apart from the agent's own model,
// and defaults to DefaultModel, the cheapest current Claude model. The key
// and base URL come from Options or from $ANTHROPIC_API_KEY and
// $ANTHROPIC_BASE_URL, so a proxy or gateway can stand in for the API.
//
// A response that stops at max tokens, uses a tool, holds no text or is a
// refusal is rejected with a *summarize.RejectedError. An error answer is a
// *condense.APIError whose Kind says what happened: condense.ErrAuth (401,
// 403), ErrRateLimited (429), ErrContextTooLarge (413, or a 400 saying the
// prompt is too long), ErrOverloaded (529, overloaded_error) or ErrServer
// (other 5xx). Rate limits, overloads and server errors are retried with
// exponential backoff and jitter, honouring retry-after-ms and Retry-After;
// a Retry-After over 30 s, or past the request's deadline, is returned at
// once. Options.Timeout (default two minutes) bounds a whole call, retries
// included, and cancelling the context stops it, waits included.
//
// A Counter implements condense.Counter with exact counts from the API,
// cached per message fingerprint so that a preflight costs one request per
// new message. When the API cannot answer it falls back to the calibrated
// Claude heuristic of package tokens and logs once. Its OnCount hook reports
// every exact count beside the heuristic's estimate, which is how a
// tokens.Calibration learns the correction of the offline counter.
//
// Usage reports input tokens including prompt-cache writes and reads, and a
// cost from the built-in price table (PriceOf) when the model is in it.
package anthropic
