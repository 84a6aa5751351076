package anthropic

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/httpx"
	"github.com/condense-dev/condense/provider/internal/retry"
)

// Client sends Messages API requests and reads the answers. The request
// body is always EncodeRequest's and the answer is read by DecodeResponse
// (or, streamed, into StreamEvents): the codec is the only writer and
// reader of the wire format. Transport, authentication, the base URL and
// any request options come from the official Go SDK, whose raw Post sends
// the body as it is. A Client is safe for concurrent use.
//
// Error answers are *condense.APIError values classified by
// condense.ClassifyHTTP, with the wait the API asked for in RetryAfter.
type Client struct {
	sdk     anthropic.Client
	policy  retry.Policy
	timeout time.Duration
}

// NewClient returns a Client configured by opts: APIKey and BaseURL (or
// $ANTHROPIC_API_KEY and $ANTHROPIC_BASE_URL), HTTPClient, MaxRetries,
// Timeout and Logger; the other options are the Summarizer's and the
// Counter's. The SDK reads nothing from the environment and makes no
// retries of its own: rate limits, overloads and server errors are retried
// by this package's loop (exponential backoff with jitter, Retry-After
// honoured; MaxRetries 0 means 3, negative none). Timeout, when set, bounds
// one Send or CountTokens call, retries included. It fails when no API key
// is given or set in the environment.
func NewClient(opts Options) (*Client, error) {
	c, err := newClient(&opts)
	if err != nil {
		return nil, err
	}
	c.policy = retry.Policy{MaxRetries: opts.MaxRetries, Sleep: opts.sleep, Logger: opts.Logger}
	c.timeout = opts.Timeout
	return c, nil
}

// NewSDKClient returns a Client that sends through sdk as its caller
// configured it (environment, credentials, base URL, the SDK's own
// retries); it adds no retry loop of its own.
func NewSDKClient(sdk anthropic.Client) *Client {
	return &Client{sdk: sdk, policy: retry.Policy{MaxRetries: -1}}
}

// newClient resolves the key and base URL of opts in place and builds the
// SDK client. The SDK reads nothing from the environment (the key and base
// URL are resolved here, from Options or the two variables) and makes no
// retries of its own, so that every answer is classified alike and
// Retry-After is honoured exactly.
func newClient(opts *Options) (*Client, error) {
	if opts.APIKey == "" {
		opts.APIKey = os.Getenv(EnvAPIKey)
	}
	if opts.APIKey == "" {
		return nil, fmt.Errorf("anthropic: no API key: set Options.APIKey or $%s", EnvAPIKey)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = os.Getenv(EnvBaseURL)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	ro := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(opts.BaseURL),
		// The key travels as x-api-key, which the API, proxies and
		// gateways all take, rather than as a bearer token.
		option.WithHeader("X-Api-Key", opts.APIKey),
		option.WithMaxRetries(0),
		option.WithMiddleware(httpx.JSONAnswers),
	}
	if opts.HTTPClient != nil {
		ro = append(ro, option.WithHTTPClient(opts.HTTPClient))
	}
	return &Client{sdk: anthropic.NewClient(ro...), policy: retry.Policy{MaxRetries: -1}}, nil
}

// Send sends r to POST /v1/messages and returns the decoded answer, its
// usage priced from the built-in price table when the model is in it (the
// requested model stands in when the answer names none). opts are passed
// to the SDK for this call. Like the SDK's Messages.New, it refuses a
// request whose max_tokens would take longer than ten minutes to answer
// without streaming.
func (c *Client) Send(ctx context.Context, r *Request, opts ...option.RequestOption) (*Response, error) {
	body, err := EncodeRequest(r)
	if err != nil {
		return nil, err
	}
	if c.timeout > 0 {
		parent := ctx
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
		resp, err := c.sendRetrying(ctx, r, body, opts)
		return resp, retry.Deadline(parent, err, c.timeout, "anthropic: request")
	}
	return c.sendRetrying(ctx, r, body, opts)
}

func (c *Client) sendRetrying(ctx context.Context, r *Request, body []byte, opts []option.RequestOption) (*Response, error) {
	var resp *Response
	err := retry.Do(ctx, c.policy, func(ctx context.Context) error {
		var err error
		resp, err = c.send(ctx, r, body, opts)
		return err
	})
	return resp, err
}

// send makes one attempt with an encoded body.
func (c *Client) send(ctx context.Context, r *Request, body []byte, opts []option.RequestOption) (*Response, error) {
	timeout, err := anthropic.CalculateNonStreamingTimeout(r.MaxOutputTokens, anthropic.Model(r.Model), slices.Concat(c.sdk.Options, opts))
	if err != nil {
		return nil, err
	}
	opts = append(slices.Clip(opts), option.WithRequestTimeout(timeout))
	var answer []byte
	if err := c.sdk.Post(ctx, "v1/messages", body, &answer, opts...); err != nil {
		return nil, classify(err)
	}
	resp, err := DecodeResponse(answer)
	if err != nil {
		return nil, fmt.Errorf("anthropic: reading the answer: %w", err)
	}
	if resp.Usage.Model == "" {
		resp.Usage.Model = r.Model
	}
	resp.Usage.CostUSD = prices.Cost(resp.Usage.Model, resp.Usage)
	return resp, nil
}

// CountTokens counts the input tokens of r with POST
// /v1/messages/count_tokens. r's max_tokens is left out (the endpoint takes
// none); other members the endpoint does not take (stream, temperature, …)
// are the caller's to leave out of Extra.
func (c *Client) CountTokens(ctx context.Context, r *Request, opts ...option.RequestOption) (int, error) {
	cr := *r
	cr.MaxOutputTokens = 0
	body, err := EncodeRequest(&cr)
	if err != nil {
		return 0, err
	}
	if c.timeout > 0 {
		parent := ctx
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
		n, err := c.countRetrying(ctx, body, opts)
		return n, retry.Deadline(parent, err, c.timeout, "anthropic: count request")
	}
	return c.countRetrying(ctx, body, opts)
}

func (c *Client) countRetrying(ctx context.Context, body []byte, opts []option.RequestOption) (int, error) {
	var n int
	err := retry.Do(ctx, c.policy, func(ctx context.Context) error {
		var err error
		n, err = c.count(ctx, body, opts)
		return err
	})
	return n, err
}

// count makes one count request with an encoded body.
func (c *Client) count(ctx context.Context, body []byte, opts []option.RequestOption) (int, error) {
	var answer []byte
	if err := c.sdk.Post(ctx, "v1/messages/count_tokens", body, &answer, opts...); err != nil {
		return 0, classify(err)
	}
	d := newDecoder(answer)
	n := -1
	if d.open('{', "want an object") {
		for first := true; d.r.More('}', first); first = false {
			if string(d.r.Key()) == "input_tokens" {
				v, ok := d.r.Int()
				if ok && v >= 0 {
					n = v
				}
				continue
			}
			d.r.Skip()
		}
		d.r.End()
	}
	if d.failed() || n < 0 {
		return 0, fmt.Errorf("anthropic: reading the count: no input_tokens in %.200q", answer)
	}
	return n, nil
}

// Stream sends r with "stream": true and yields the answer's events as
// they come; the first error ends the sequence. Retries (with NewClient)
// apply until the answer starts, never after an event was yielded. An
// error event of the stream is a *condense.APIError.
func (c *Client) Stream(ctx context.Context, r *Request, opts ...option.RequestOption) iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		sr := *r
		sr.SetField("stream", []byte("true"))
		body, err := EncodeRequest(&sr)
		if err != nil {
			yield(StreamEvent{}, err)
			return
		}
		var res *http.Response
		err = retry.Do(ctx, c.policy, func(ctx context.Context) error {
			res = nil
			if err := c.sdk.Post(ctx, "v1/messages", body, &res, opts...); err != nil {
				return classify(err)
			}
			return nil
		})
		if err != nil {
			yield(StreamEvent{}, err)
			return
		}
		dec := ssestream.NewDecoder(res)
		if dec == nil {
			yield(StreamEvent{}, errors.New("anthropic: empty stream"))
			return
		}
		defer dec.Close()
		var st streamState
		for dec.Next() {
			sse := dec.Event()
			ev, skip, err := st.decode(sse.Data)
			if err == nil && sse.Type == "error" && ev.Type != "error" {
				err = &streamError{raw: strings.TrimSpace(string(sse.Data))}
			}
			if err != nil {
				var se *streamError
				if errors.As(err, &se) {
					msg := se.msg
					if msg == "" {
						msg = se.raw
					}
					err = condense.ClassifyHTTP(Provider, res.StatusCode, se.typ, "", msg)
				}
				yield(StreamEvent{}, err)
				return
			}
			if skip {
				continue
			}
			if !yield(ev, nil) {
				return
			}
		}
		if err := dec.Err(); err != nil {
			yield(StreamEvent{}, err)
		}
	}
}

// classify maps an error answer of the SDK (*anthropic.Error) to a
// *condense.APIError; other errors (transport, context) are returned as
// they are.
func classify(err error) error {
	var ae *anthropic.Error
	if !errors.As(err, &ae) {
		return err
	}
	msg := ae.Message
	if msg == "" {
		msg = strings.TrimSpace(ae.RawJSON())
	}
	var h http.Header
	if ae.Response != nil {
		h = ae.Response.Header
	}
	return retry.Classify(Provider, ae.StatusCode, string(ae.Type()), string(ae.ErrorCode()), msg, h)
}
