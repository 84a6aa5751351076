package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/condense-dev/condense/provider/internal/httpx"
	"github.com/condense-dev/condense/provider/internal/retry"
)

// API names a wire API of OpenAI and compatible servers.
type API string

// The wire APIs: Chat Completions (POST /chat/completions), which every
// compatible server speaks, and the Responses API (POST /responses).
const (
	APIChat      API = "chat"
	APIResponses API = "responses"
)

// ClientOptions configure a Client.
type ClientOptions struct {
	// APIKey authenticates; "" means $OPENAI_API_KEY. With neither, no
	// Authorization header is sent, as local servers need none.
	APIKey string
	// BaseURL is the API's address, "/v1" included; "" means
	// $OPENAI_BASE_URL, else DefaultBaseURL.
	BaseURL string
	// HTTPClient sends the requests; nil means the SDK's default client.
	HTTPClient *http.Client
	// MaxRetries is the number of times the SDK retries a failed request
	// (connection errors, 408, 409, 429, 5xx, honouring Retry-After): 0
	// means the SDK's default (2), negative none. Callers that run their
	// own retry loop set it negative.
	MaxRetries int
	// RequestOptions are SDK options applied to every request (headers,
	// middleware, an organization).
	RequestOptions []option.RequestOption
}

// Client sends condense requests to OpenAI or an OpenAI-compatible server
// over Chat Completions or the Responses API. The body of every request is
// written by this package's codecs (EncodeChatRequest,
// EncodeResponsesRequest) and every answer read by them; the official SDK
// (github.com/openai/openai-go/v3) carries them, with its authentication,
// base URL, headers and retries.
//
// Error answers are *condense.APIError values, classified by
// condense.ClassifyHTTP whatever server sent them, with the Retry-After
// the server asked for. A Client is safe for concurrent use.
type Client struct {
	sdk openai.Client
}

// NewClient returns a Client. The key and base URL resolved here override
// what the SDK reads from the environment; it still honours
// $OPENAI_ORG_ID, $OPENAI_PROJECT_ID and $OPENAI_CUSTOM_HEADERS.
func NewClient(opts ClientOptions) *Client {
	key, base := opts.APIKey, opts.BaseURL
	if key == "" {
		key = os.Getenv(EnvAPIKey)
	}
	if base == "" {
		base = os.Getenv(EnvBaseURL)
	}
	if base == "" {
		base = DefaultBaseURL
	}
	ro := []option.RequestOption{
		option.WithBaseURL(base),
		// An empty key sends no Authorization header.
		option.WithAPIKey(key),
		option.WithMiddleware(httpx.JSONAnswers),
	}
	switch {
	case opts.MaxRetries < 0:
		ro = append(ro, option.WithMaxRetries(0))
	case opts.MaxRetries > 0:
		ro = append(ro, option.WithMaxRetries(opts.MaxRetries))
	}
	if opts.HTTPClient != nil {
		ro = append(ro, option.WithHTTPClient(opts.HTTPClient))
	}
	ro = append(ro, opts.RequestOptions...)
	return &Client{sdk: openai.NewClient(ro...)}
}

// post sends body to path and returns the answer's body.
func (c *Client) post(ctx context.Context, path string, body []byte, opts []option.RequestOption) ([]byte, error) {
	var raw []byte
	var res *http.Response
	err := c.sdk.Post(ctx, path, body, &raw, append(opts, option.WithResponseInto(&res))...)
	if err != nil {
		return nil, classify(err, res)
	}
	return raw, nil
}

// stream sends body to path and returns the answer's body, to be read as
// server-sent events.
func (c *Client) stream(ctx context.Context, path string, body []byte, opts []option.RequestOption) (io.ReadCloser, error) {
	var res *http.Response
	err := c.sdk.Post(ctx, path, body, &res, opts...)
	if err != nil {
		return nil, classify(err, res)
	}
	if res == nil || res.Body == nil {
		return nil, errNoBody
	}
	return res.Body, nil
}

// without returns fs without the members named.
func without(fs Fields, names ...string) Fields {
	var out Fields
	for _, f := range fs {
		if !slices.Contains(names, f.Name) {
			out = append(out, f)
		}
	}
	return out
}

// Chat sends r to POST /chat/completions and returns the answer. Stream
// members of r.Extra are left out: StreamChat streams.
func (c *Client) Chat(ctx context.Context, r *ChatRequest, opts ...option.RequestOption) (*ChatResponse, error) {
	req := *r
	req.Extra = without(r.Extra, "stream", "stream_options")
	body, err := EncodeChatRequest(&req)
	if err != nil {
		return nil, err
	}
	raw, err := c.post(ctx, "chat/completions", body, opts)
	if err != nil {
		return nil, err
	}
	return DecodeChatResponse(raw)
}

// StreamChat sends r to POST /chat/completions with "stream": true and,
// unless r.Extra sets stream_options, {"include_usage": true}, so that
// the last chunk reports usage. The caller closes the stream.
func (c *Client) StreamChat(ctx context.Context, r *ChatRequest, opts ...option.RequestOption) (*ChatStream, error) {
	req := *r
	req.Extra = without(r.Extra, "stream")
	req.Extra = append(req.Extra, Field{"stream", json.RawMessage("true")})
	if _, ok := r.Extra.Get("stream_options"); !ok {
		req.Extra = append(req.Extra, Field{"stream_options", json.RawMessage(`{"include_usage":true}`)})
	}
	body, err := EncodeChatRequest(&req)
	if err != nil {
		return nil, err
	}
	rc, err := c.stream(ctx, "chat/completions", body, opts)
	if err != nil {
		return nil, err
	}
	return NewChatStream(rc), nil
}

// Responses sends r to POST /responses and returns the answer. A
// "stream" member of r.Extra is left out: StreamResponses streams. A
// failed response is returned as a *condense.APIError.
func (c *Client) Responses(ctx context.Context, r *ResponsesRequest, opts ...option.RequestOption) (*ResponsesResponse, error) {
	req := *r
	req.Extra = without(r.Extra, "stream")
	body, err := EncodeResponsesRequest(&req)
	if err != nil {
		return nil, err
	}
	raw, err := c.post(ctx, "responses", body, opts)
	if err != nil {
		return nil, err
	}
	resp, err := DecodeResponsesResponse(raw)
	if err != nil {
		return nil, err
	}
	if resp.Status == "failed" && resp.Error != nil {
		return nil, streamError("", resp.Error.Code, resp.Error.Message)
	}
	return resp, nil
}

// StreamResponses sends r to POST /responses with "stream": true. The
// caller closes the stream.
func (c *Client) StreamResponses(ctx context.Context, r *ResponsesRequest, opts ...option.RequestOption) (*ResponsesStream, error) {
	req := *r
	req.Extra = append(without(r.Extra, "stream"), Field{"stream", json.RawMessage("true")})
	body, err := EncodeResponsesRequest(&req)
	if err != nil {
		return nil, err
	}
	rc, err := c.stream(ctx, "responses", body, opts)
	if err != nil {
		return nil, err
	}
	return NewResponsesStream(rc), nil
}

// countMembers are the top-level members the input-token count endpoint
// takes besides model, instructions, input and tools.
var countMembers = []string{"tool_choice", "previous_response_id", "conversation", "reasoning",
	"text", "truncation", "parallel_tool_calls"}

// CountInputTokens asks POST /responses/input_tokens how many input
// tokens r holds. Members of r.Extra the endpoint does not take (store,
// include, stream, temperature, …) and the output cap are left out.
func (c *Client) CountInputTokens(ctx context.Context, r *ResponsesRequest, opts ...option.RequestOption) (int, error) {
	return c.countTokens(ctx, r, false, opts)
}

func (c *Client) countTokens(ctx context.Context, r *ResponsesRequest, noStrict bool, opts []option.RequestOption) (int, error) {
	req := *r
	req.MaxOutputTokens = 0
	req.Extra = nil
	for _, f := range r.Extra {
		if slices.Contains(countMembers, f.Name) {
			req.Extra = append(req.Extra, f)
		}
	}
	body, err := encodeResponses(&req, noStrict)
	if err != nil {
		return 0, err
	}
	raw, err := c.post(ctx, "responses/input_tokens", body, opts)
	if err != nil {
		return 0, err
	}
	doc, err := objectDoc(raw)
	if err != nil {
		return 0, err
	}
	h, _ := readItem(doc, "input_tokens")
	n, ok := intOf(h.vals["input_tokens"])
	if !ok {
		return 0, errAt("input_tokens", "missing from the answer")
	}
	return n, nil
}

// classify maps an error answer to a *condense.APIError. res is the
// answer the SDK saw: its body is read whatever its shape, as the SDK
// builds an *openai.Error only from OpenAI's own ({"error": {…}}), not
// from vLLM's or a proxy's. Other errors (transport, context) are returned
// as they are.
func classify(err error, res *http.Response) error {
	if err == nil {
		return nil
	}
	var oe *openai.Error
	if errors.As(err, &oe) && oe.Response != nil {
		res = oe.Response
	}
	if res == nil || res.StatusCode < 400 {
		return err
	}
	var body []byte
	if res.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(res.Body, httpx.MaxResponseBytes))
	}
	typ, code, msg := parseError(body)
	return retry.Classify(Provider, res.StatusCode, typ, code, msg, res.Header)
}

// parseError reads the error answers of OpenAI ({"error": {"message",
// "type", "code"}}), Ollama (the same shape) and vLLM ({"object": "error",
// "message", "type", "code"}); for any other body the message is the body.
func parseError(body []byte) (typ, code, msg string) {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", "", strings.TrimSpace(string(body))
	}
	var inner struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if len(e.Error) > 0 && json.Unmarshal(e.Error, &inner) == nil && inner.Message != "" {
		return inner.Type, rawString(inner.Code), inner.Message
	}
	var s string
	if len(e.Error) > 0 && json.Unmarshal(e.Error, &s) == nil && s != "" {
		return "", "", s // {"error": "model not found"}
	}
	if e.Message != "" {
		return e.Type, rawString(e.Code), e.Message
	}
	return "", "", strings.TrimSpace(string(body))
}

// rawString returns a JSON string's value, or a number's text; "" for null.
func rawString(r []byte) string {
	var s string
	if json.Unmarshal(r, &s) == nil {
		return s
	}
	if t := strings.TrimSpace(string(r)); t != "null" {
		return t
	}
	return ""
}
