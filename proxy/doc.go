// Package proxy compacts transparently for agents that speak the OpenAI or
// Anthropic API, in any language: point the agent's base URL at a Proxy
// and its requests reach the real API with their history compacted when
// they need it, and untouched otherwise. The command is condense proxy;
// docs/proxy.md has the setup and the details.
//
// # What is compacted
//
// POST /v1/chat/completions and /v1/responses (OpenAI) and /v1/messages
// (Anthropic) are read with the provider's codec (packages
// provider/openai and provider/anthropic), run through a condense.Preflight
// for their model, and sent on in the same wire format. Every other request
// — count_tokens, models, files, anything new — is passed through as it
// came. Streamed answers are relayed event by event as they arrive, and a
// client that goes away cancels the upstream call.
//
// The proxy works on the raw bytes of the history array. A request under
// its threshold goes upstream byte for byte as it came. When the preflight
// renders the history differently (a compaction in this call or a
// checkpoint of an earlier one), the body is rebuilt by splicing: every
// element the rendering keeps verbatim goes out as its original bytes,
// placeholders and summaries are written by the codec, and everything
// outside the array (unknown members, cache markers, tools, encrypted
// reasoning in the items) is left as it was.
//
// # Conversations
//
// Agents resend the whole history on every call. The proxy hashes each
// element of the array into a SHA-256 chain, seeded with a hash of the
// caller's credentials, the API and the model, and finds the conversation a
// request continues by the longest prefix of the chain it has seen. Each
// conversation keeps its preflight, so its checkpoints are reused: between
// compactions the body sent upstream only grows at its end and the
// provider's prompt cache keeps hitting, and each call decodes and counts
// only the elements it has not seen. Conversations are held in memory, the
// least recently used dropped first (Options.Conversations); one client
// never finds another's, since the chain starts from its key's hash.
//
// # Replicas
//
// With Options.Shared (NewPostgresStore), conversations are kept in a
// store that several proxies share: each link of a chain is claimed by one
// conversation at its position (a history that diverges from its
// conversation's claims a new one, which starts from the checkpoints of
// the other that cover only what they share), a conversation's
// checkpoints are a session
// of the store opened in shared mode, and every proxy renders a request
// from the conversation's latest stored checkpoint. A compaction runs under
// the session's lease; a proxy that waited for the lease uses the
// checkpoint made meanwhile instead of computing another. Replicas behind a
// load balancer thus send the same bytes upstream for a conversation's
// requests, and compact it once. Credentials and message content are not
// stored: only chain hashes, and the checkpoints' summaries and
// placeholders.
//
// # Recall
//
// With Options.Recall, a non-streaming request whose rendering masks or
// summarizes content gets one more tool, condense_recall. When the model's
// answer calls that tool and no other, the proxy answers from the
// conversation's history and asks the upstream again (at most four times),
// so the client sees only the final answer; HeaderRecallCalls says how many
// extra upstream calls were made.
//
// # Keys, limits and visibility
//
// API keys and authorization headers are forwarded upstream and nowhere
// else: they are never logged, counted or kept, only hashed into the scope
// of a conversation and of the per-client limits (Options.MaxBodyBytes,
// Options.MaxConcurrent). Every compacted endpoint's answer carries
// HeaderCompacted, HeaderTokensBefore and HeaderTokensAfter; each
// compaction is logged; Metrics counts requests, compactions and tokens for
// Prometheus. A request that cannot fit even compacted is never sent: the
// client gets a 400 in its provider's error shape ("context_length_exceeded"
// for OpenAI, "prompt is too long" for Anthropic) with the numbers.
package proxy
