package agent

import (
	"net/http"
	"strings"

	"github.com/condense-dev/condense/summarize"
)

// ClassifyHTTPError returns a provider's error answer as a
// *summarize.APIError whose Kind the loop branches on: ErrAuth (401, 403),
// ErrContextTooLarge (413, or a 400 whose type, code or message says the
// input is over the context window), ErrOverloaded (529, 503,
// overloaded_error), ErrRateLimited (429), ErrServer (other 5xx). Model
// adapters use it.
func ClassifyHTTPError(provider string, status int, errType, code, message string) *summarize.APIError {
	e := &summarize.APIError{Provider: provider, Status: status, Type: errType, Message: message}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = summarize.ErrAuth
	case status == http.StatusRequestEntityTooLarge:
		e.Kind = summarize.ErrContextTooLarge
	case status == 529 || status == http.StatusServiceUnavailable || errType == "overloaded_error":
		e.Kind = summarize.ErrOverloaded
	case status == http.StatusTooManyRequests:
		e.Kind = summarize.ErrRateLimited
	case status == http.StatusBadRequest && tooLong(errType, code, message):
		e.Kind = summarize.ErrContextTooLarge
	case status >= 500:
		e.Kind = summarize.ErrServer
	}
	return e
}

// tooLongPhrases are what providers say when the input is over the context
// window: Anthropic "prompt is too long: 215000 tokens > 200000 maximum",
// OpenAI "maximum context length" (code context_length_exceeded), vLLM
// "longer than the model's context length", Ollama and llama.cpp "exceeds
// the available context size".
var tooLongPhrases = []string{
	"prompt is too long", "context length", "context_length_exceeded", "context window",
	"context size", "too many tokens", "input is too long", "maximum context", "reduce the length",
}

func tooLong(errType, code, message string) bool {
	s := strings.ToLower(errType + " " + code + " " + message)
	for _, p := range tooLongPhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
