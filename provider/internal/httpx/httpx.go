// Package httpx holds the HTTP plumbing the provider adapters share around
// the official SDKs.
package httpx

import (
	"mime"
	"net/http"
	"strings"
)

// MaxResponseBytes bounds what is read of an error answer.
const MaxResponseBytes = 16 << 20

// JSONAnswers is an SDK middleware (option.Middleware of anthropic-sdk-go
// and openai-go) that marks a successful answer as JSON when its
// Content-Type says otherwise or nothing. The SDKs decode only answers
// labelled JSON; some proxies and OpenAI-compatible servers label theirs
// text/plain, and the adapters read every 2xx answer as JSON.
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
