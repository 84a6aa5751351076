package condense_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/condense-dev/condense"
)

func TestClassifyHTTP(t *testing.T) {
	for _, tt := range []struct {
		status               int
		typ, code, msg, want string
	}{
		{401, "authentication_error", "", "invalid x-api-key", "auth"},
		{403, "", "", "", "auth"},
		{429, "rate_limit_error", "", "", "rate_limited"},
		{413, "request_too_large", "", "", "context_too_large"},
		{400, "invalid_request_error", "", "prompt is too long: 215000 tokens > 200000 maximum", "context_too_large"},
		{400, "invalid_request_error", "context_length_exceeded", "", "context_too_large"},
		{400, "", "", "the request exceeds the available context size", "context_too_large"},
		{400, "invalid_request_error", "", "messages: roles must alternate", "api"},
		{529, "overloaded_error", "", "", "overloaded"},
		{503, "", "", "engine is currently overloaded", "overloaded"},
		{500, "api_error", "", "", "server"},
		{404, "not_found_error", "", "", "api"},
	} {
		e := condense.ClassifyHTTP("p", tt.status, tt.typ, tt.code, tt.msg)
		if got := e.Code(); got != tt.want {
			t.Errorf("%d %s %s %q: code %q, want %q", tt.status, tt.typ, tt.code, tt.msg, got, tt.want)
		}
		if got := condense.ErrorCode(fmt.Errorf("call: %w", e)); got != tt.want {
			t.Errorf("%d: ErrorCode of the wrapped error %q, want %q", tt.status, got, tt.want)
		}
		if retry := tt.want == "rate_limited" || tt.want == "overloaded" || tt.want == "server"; e.Retryable() != retry {
			t.Errorf("%d: Retryable() = %v", tt.status, e.Retryable())
		}
	}
	if e := condense.ClassifyHTTP("p", 429, "", "", ""); !errors.Is(e, condense.ErrRateLimited) {
		t.Error("a 429 does not unwrap to ErrRateLimited")
	}
}

func TestErrorCode(t *testing.T) {
	for err, want := range map[error]string{
		nil:                                   "",
		errors.New("x"):                       "internal",
		condense.ErrNothingToCompact:          "nothing_to_compact",
		&condense.WindowError{Tokens: 9}:      "context_window_exceeded",
		fmt.Errorf("a: %w", condense.ErrAuth): "auth",
		&condense.ValidationError{}:           "invalid_history",
	} {
		if got := condense.ErrorCode(err); got != want {
			t.Errorf("ErrorCode(%v) = %q, want %q", err, got, want)
		}
	}
}
