package proxy

import (
	"encoding/json"
	"net/http"

	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense/provider/anthropic"
)

// writeError answers with an error in the shape provider's clients read:
// {"error":{"message","type","code"}} for OpenAI,
// {"type":"error","error":{"type","message"}} for Anthropic.
func writeError(w http.ResponseWriter, provider string, status int, msg string) {
	var body any
	if provider == anthropic.Provider {
		body = map[string]any{"type": "error", "error": map[string]any{"type": anthropicType(status), "message": msg}}
	} else {
		typ, code := openaiType(status)
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

func anthropicType(status int) string {
	switch status {
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case http.StatusBadRequest:
		return "invalid_request_error"
	}
	return "api_error"
}

func openaiType(status int) (typ, code string) {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error", "context_length_exceeded"
	case http.StatusRequestEntityTooLarge:
		return "invalid_request_error", "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error", "rate_limit_exceeded"
	}
	return "server_error", "upstream_unreachable"
}

func gjsonBool(body []byte, path string) bool { return gjson.GetBytes(body, path).Bool() }
