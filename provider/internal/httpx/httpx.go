// Package httpx holds the HTTP plumbing the provider adapters share around
// the official SDKs.
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// JSONAnswers is an SDK middleware (anthropic-sdk-go and openai-go option.Middleware)
// that marks a successful answer as JSON when its Content-Type says
// otherwise or nothing. The SDKs decode only answers labelled JSON; some
// proxies and OpenAI-compatible servers label theirs text/plain, and condense
// has always read every 2xx answer as JSON.
func JSONAnswers(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp == nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if !strings.Contains(mt, "json") {
		resp.Header.Set("Content-Type", "application/json")
	}
	return resp, err
}

// MaxResponseBytes bounds what is read of an answer.
const MaxResponseBytes = 16 << 20

// StatusError is a non-2xx answer.
type StatusError struct {
	Status int
	Header http.Header
	Body   []byte
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.Status, strings.TrimSpace(string(e.Body)))
}

// Join returns base and path joined with exactly one slash.
func Join(base, path string) string {
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
}

// PostJSON posts in as JSON to url with header and decodes a 2xx answer
// into out. A non-2xx answer is a *StatusError; transport errors (and the
// context's) are returned as they are.
func PostJSON(ctx context.Context, hc *http.Client, url string, header http.Header, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return Post(ctx, hc, url, header, body, out)
}

// Post is PostJSON with a body already encoded.
func Post(ctx context.Context, hc *http.Client, url string, header http.Header, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes))
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Status: resp.StatusCode, Header: resp.Header, Body: data}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decoding response: %w", err)
	}
	return nil
}
