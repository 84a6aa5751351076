package proxy_test

import (
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/condense-dev/condense/proxy"
)

// A proxy in front of an OpenAI-compatible server, mounted under a prefix
// of a program's own server. An agent sets OPENAI_BASE_URL to
// http://HOST/llm/v1; here a plain HTTP client stands in for it.
func ExampleNew() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("upstream got", r.Method, r.URL.Path)
		io.WriteString(w, `{"id":"c1","object":"chat.completion","choices":[]}`)
	}))
	defer upstream.Close()

	metrics, err := proxy.NewMetrics(prometheus.NewRegistry())
	if err != nil {
		log.Fatal(err)
	}
	p, err := proxy.New(&proxy.Options{
		OpenAIUpstream: upstream.URL + "/v1",
		Metrics:        metrics,
		Logger:         slog.New(slog.DiscardHandler),
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/llm/", http.StripPrefix("/llm", p))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/llm/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"Hello"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println("compacted:", resp.Header.Get(proxy.HeaderCompacted))
	// Output:
	// upstream got POST /v1/chat/completions
	// compacted: false
}
