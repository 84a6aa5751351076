// Package openai summarizes history with OpenAI models, or with any
// OpenAI-compatible server (Ollama, vLLM, llama.cpp, LiteLLM) chosen by base
// URL, and counts tokens exactly through OpenAI's input-token count endpoint
// (DESIGN B19).
//
// Requests go through the official Go SDK, github.com/openai/openai-go/v3
// (client.Chat.Completions.New and client.Responses.InputTokens.Count). The
// key and base URL resolved here override what the SDK reads from the
// environment (it still honours $OPENAI_ORG_ID, $OPENAI_PROJECT_ID and
// $OPENAI_CUSTOM_HEADERS), and the SDK makes no retries of its own: this
// package classifies every error answer, whatever server sent it, and runs
// the only retry loop.
//
// A Summarizer implements condense.Summarizer on the Chat Completions API,
// the one every compatible server speaks. It sends one request per summary:
// a system message with the summary prompt, one user message built by
// summarize.BuildPrompt (tool output fenced and labelled as data), no tools,
// and an output cap of min(4096, the request's cap, the model's maximum) as
// max_completion_tokens (max_tokens with Options.LegacyMaxTokens). The
// compaction model is chosen apart from the agent's own model and defaults
// to DefaultModel. The key and base URL come from Options or from
// $OPENAI_API_KEY and $OPENAI_BASE_URL; with a base URL set the key may be
// empty, as local servers need none.
//
// A response cut at the cap (finish reason "length"), calling a tool, with
// no text, filtered ("content_filter") or refused is rejected with a
// *summarize.RejectedError. An error answer is a *condense.APIError whose
// Kind says what happened: condense.ErrAuth (401, 403), ErrRateLimited
// (429), ErrContextTooLarge (413, or a 400 with context_length_exceeded or
// a message saying so, as vLLM and Ollama word it), ErrOverloaded (503) or
// ErrServer (other 5xx). Rate limits, overloads and server errors are
// retried with exponential backoff and jitter, honouring retry-after-ms and
// Retry-After; a Retry-After over 30 s, or past the request's deadline, is
// returned at once. Options.Timeout (default two minutes) bounds a whole
// call, retries included, and cancelling the context stops it, waits
// included.
//
// A Counter implements condense.Counter with exact counts from POST
// /responses/input_tokens, cached per message fingerprint. Servers without
// that endpoint (most compatible servers) make it fall back, after one
// logged failure, to the heuristic of package tokens. Its OnCount hook
// reports every exact count beside the heuristic's estimate, which is how a
// tokens.Calibration learns the correction of the offline counter.
//
// Usage reports prompt tokens (cached ones included) and completion tokens,
// and a cost from the built-in price table (PriceOf) when the model is in
// it; models of other servers cost 0.
package openai
