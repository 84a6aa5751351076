package condense

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The kinds of provider error answers, wrapped by *APIError: callers
// branch on them with errors.Is.
var (
	ErrAuth            = errors.New("authentication failed")
	ErrRateLimited     = errors.New("rate limited")
	ErrContextTooLarge = errors.New("context too large")
	ErrOverloaded      = errors.New("provider overloaded")
	ErrServer          = errors.New("provider server error")
)

// APIError is an error answer of a provider. It unwraps to its Kind.
type APIError struct {
	Provider string
	// Status is the HTTP status.
	Status int
	// Type is the provider's error type ("rate_limit_error", …).
	Type    string
	Message string
	// RetryAfter is what the provider asked us to wait, when it did.
	RetryAfter time.Duration
	// Kind is one of ErrAuth, ErrRateLimited, ErrContextTooLarge,
	// ErrOverloaded, ErrServer, or nil for other client errors.
	Kind error
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d", e.Provider, e.Status)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

func (e *APIError) Unwrap() error { return e.Kind }

// Code returns the error's stable code (see ErrorCode): "auth",
// "rate_limited", "context_too_large", "overloaded", "server", or "api" for
// other error answers.
func (e *APIError) Code() string {
	if c := kindCode(e.Kind); c != "" {
		return c
	}
	return "api"
}

// Retryable reports whether the request may be retried: rate limits,
// overloads and server errors.
func (e *APIError) Retryable() bool {
	return e.Kind == ErrRateLimited || e.Kind == ErrOverloaded || e.Kind == ErrServer
}

// ClassifyHTTP maps a provider's HTTP error answer to an *APIError whose
// Kind callers branch on: 401 and 403 are ErrAuth; 429 ErrRateLimited; 413,
// and a 400 whose type, code or message says the input is over the context
// window, ErrContextTooLarge; 529 (Anthropic), 503 (OpenAI's "engine is
// currently overloaded") or an "overloaded_error" ErrOverloaded; other 5xx
// ErrServer. Other client errors have no Kind. Summarizers and model
// adapters share it, so every surface names a failure the same way.
func ClassifyHTTP(provider string, status int, errType, code, message string) *APIError {
	e := &APIError{Provider: provider, Status: status, Type: errType, Message: message}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = ErrAuth
	case status == http.StatusRequestEntityTooLarge:
		e.Kind = ErrContextTooLarge
	case status == 529 || status == http.StatusServiceUnavailable || errType == "overloaded_error":
		e.Kind = ErrOverloaded
	case status == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
	case status == http.StatusBadRequest && tooLong(errType, code, message):
		e.Kind = ErrContextTooLarge
	case status >= 500:
		e.Kind = ErrServer
	}
	return e
}

// tooLongPhrases are what providers say when the input exceeds the context
// window: Anthropic "prompt is too long: 215000 tokens > 200000 maximum",
// OpenAI "This model's maximum context length is 128000 tokens" (code
// context_length_exceeded), vLLM "… is longer than the model's context
// length", Ollama and llama.cpp "exceeds the available context size".
var tooLongPhrases = []string{
	"prompt is too long", "context length", "context_length_exceeded", "context window",
	"context size", "too many tokens", "input is too long", "maximum context", "reduce the length",
}

// tooLong reports whether an error's type, code or message says the input
// is over the model's context window.
func tooLong(errType, code, message string) bool {
	s := strings.ToLower(errType + " " + code + " " + message)
	for _, p := range tooLongPhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
