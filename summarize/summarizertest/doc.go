// Package summarizertest checks that a provider summarizer (a
// condense.Summarizer that asks a model over HTTP) keeps the rules every
// one must keep, the way testing/slogtest checks a slog.Handler. It serves
// the provider's recorded answers from an httptest server of its own,
// builds the summarizer against it, and checks, one subtest each:
//
//   - Success: the summary's text, its usage (cache tokens included) and
//     cost, no trim; one request, a POST to Provider.Path, asking for the
//     default model and summarize.DefaultMaxOutput, with
//     summarize.SystemPrompt and a user message in which the tool output is
//     fenced and labelled as data;
//   - OutputCap: the cap asked for is the request's, else the option's,
//     never above summarize.DefaultMaxOutput nor the model's maximum, and
//     models named in Config.Model are asked for by that name;
//   - Auth: a 401 is a *condense.APIError of kind condense.ErrAuth, with the
//     provider's error type and message, and is not retried;
//   - RetryAfter: two rate limits, then a summary: three requests, waiting
//     exactly what Retry-After asked, then what Retry-After-Ms asked (it
//     wins over Retry-After; Anthropic and OpenAI both send it);
//   - RetryAfterOverCap: a Retry-After of two minutes is over the cap on a
//     wait and is returned as a rate limit carrying it, not waited for;
//   - ServerError: a 500 is retried Config.MaxRetries times with a backoff
//     between attempts, then returned as condense.ErrServer;
//   - Overloaded: an overload is retried, and with retries off returned as
//     condense.ErrOverloaded with the provider's error type;
//   - ContextTooLarge: each such answer is condense.ErrContextTooLarge and
//     is not retried; ClientError: a client error of no known kind is a
//     *condense.APIError of no kind, not retried;
//   - Rejections: each answer is a *summarize.RejectedError with its reason
//     and stop reason, no summary, and is not retried;
//   - NonJSONError: an error answer that is not JSON (a proxy's page) is
//     still classified, its body the message;
//   - Timeout: when the provider never answers, the call ends at
//     Config.Timeout with an error that unwraps to context.DeadlineExceeded
//     and says "timed out after" the timeout;
//   - Cancel: a cancellation, during the request or before the call, is
//     context.Canceled and never reported as a timeout;
//   - CancelDuringRetryWait: a cancellation during the wait for a
//     Retry-After ends the call with context.Canceled and no further
//     attempt;
//   - InputTooLarge: a span over Config.Limits.MaxInputTokens is
//     summarize.ErrInputTooLarge and sends nothing; TrimsToBudget: a span
//     over Config.Limits.MaxPayloadBytes has its long tool result truncated
//     and the Trim says so.
//
// Every check works on what the server recorded (how many requests, what
// they held) and on the waits the summarizer asked of Config.Sleep, never
// on elapsed time: the summarizer must take its retry wait from
// Config.Sleep. The kit's sleeper records each wait and returns at once,
// and in CancelDuringRetryWait blocks until the kit cancels the call. The
// answers of Timeout and Cancel are held back until the client gives up,
// so those cases pass however fast or slow the machine is; a call that
// never returns is reported after Patience.
//
// The kit assumes what the summarizers of provider/anthropic and
// provider/openai do: the request is built with summarize.BuildPrompt and
// answers are judged with the rules of summarize.Check; errors are
// classified with condense.ClassifyHTTP; Config.MaxRetries 0 means the
// summarizer's default number of retries (at least two) and a negative
// number none; the cap on a Retry-After wait is at least 20 seconds and
// less than two minutes.
//
// A provider's test describes its summarizer in a Provider: how to build
// it from a Config, how to read what a request asked for, and the
// provider's recorded answers:
//
//	func TestSummarizer(t *testing.T) {
//		summarizertest.Run(t, summarizertest.Provider{
//			Name: "acme",
//			New: func(c summarizertest.Config) (condense.Summarizer, error) {
//				return acme.NewSummarizer(acme.Options{
//					APIKey: "test-key", BaseURL: c.BaseURL, HTTPClient: c.HTTPClient,
//					Model: c.Model, MaxOutputTokens: c.MaxOutputTokens, ModelMaxOutput: c.ModelMaxOutput,
//					MaxRetries: c.MaxRetries, Timeout: c.Timeout, Limits: c.Limits,
//					Sleep: c.Sleep,
//				})
//			},
//			Path:         "/v1/generate",
//			DefaultModel: acme.DefaultModel,
//			Sent: func(t summarizertest.TB, r summarizertest.Request) summarizertest.Sent {
//				var b struct {
//					Model     string `json:"model"`
//					MaxTokens int    `json:"max_tokens"`
//					System    string `json:"system"`
//					Prompt    string `json:"prompt"`
//				}
//				if err := json.Unmarshal(r.Body, &b); err != nil {
//					t.Fatalf("request body: %v", err)
//				}
//				return summarizertest.Sent{Model: b.Model, MaxOutputTokens: b.MaxTokens, System: b.System, User: b.Prompt}
//			},
//			Success:     summarizertest.Step{File: "generate_success.json"},
//			Text:        "## Summary\n",
//			Usage:       condense.Usage{Provider: "acme", Model: "acme-1", InputTokens: 1200, OutputTokens: 80, CostUSD: 0.00136},
//			Auth:        summarizertest.Step{Status: 401, File: "error_401.json"},
//			AuthType:    "unauthorized",
//			AuthMessage: "bad key",
//			RateLimited: summarizertest.Step{Status: 429, File: "error_429.json"},
//			ServerError: summarizertest.Step{Status: 500, File: "error_500.json"},
//			Rejections: []summarizertest.Rejection{
//				{Name: "Truncated", Answer: summarizertest.Step{File: "generate_cut.json"}, Reason: summarize.ErrTruncated, StopReason: "length"},
//			},
//		})
//	}
//
// Files named by a Step are read from the testing package's testdata
// directory. Check runs the same cases without subtests and reports to any
// TB, so a test of a test can observe a failure. NewServer gives a
// provider's other tests the kit's server on its own.
package summarizertest
