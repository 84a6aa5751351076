package httpx

import (
	"net/http"
	"testing"
)

func TestJSONAnswers(t *testing.T) {
	for _, tt := range []struct {
		status   int
		ct, want string
	}{
		{200, "", "application/json"},
		{200, "text/plain; charset=utf-8", "application/json"},
		{200, "application/json; charset=utf-8", "application/json; charset=utf-8"},
		{200, "application/problem+json", "application/problem+json"},
		{500, "text/html", "text/html"},
	} {
		next := func(*http.Request) (*http.Response, error) {
			h := http.Header{}
			if tt.ct != "" {
				h.Set("Content-Type", tt.ct)
			}
			return &http.Response{StatusCode: tt.status, Header: h}, nil
		}
		resp, err := JSONAnswers(&http.Request{}, next)
		if err != nil || resp.Header.Get("Content-Type") != tt.want {
			t.Errorf("%d %q: got %q, %v; want %q", tt.status, tt.ct, resp.Header.Get("Content-Type"), err, tt.want)
		}
	}
}
