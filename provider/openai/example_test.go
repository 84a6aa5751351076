package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/summarize"
)

// A fake OpenAI-compatible server, so that the example runs offline.
func fakeServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/chat/completions":
			fmt.Fprint(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"llama3.1:8b",
				"choices":[{"index":0,"message":{"role":"assistant","content":"## Summary\nThe agent listed the files."},"finish_reason":"stop"}],
				"usage":{"prompt_tokens":700,"completion_tokens":11,"total_tokens":711}}`)
		default:
			http.NotFound(w, r)
		}
	}))
}

// An Ollama or vLLM server is reached by its base URL; it needs no key.
func ExampleSummarizer_Summarize() {
	srv := fakeServer() // stands in for http://localhost:11434
	defer srv.Close()

	s, err := openai.New(openai.Options{
		BaseURL: srv.URL + "/v1",
		Model:   "llama3.1:8b",
		Limits:  summarize.Limits{MaxInputTokens: 28_000}, // the server's context, less the output cap
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := s.Summarize(context.Background(), summarize.Input{Messages: []condense.Message{
		condense.UserText("List the files."),
		condense.AssistantText("main.go and go.mod."),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Text)
	fmt.Println(out.Usage.Provider, out.Usage.Model, out.Usage.InputTokens, out.Usage.OutputTokens, out.Usage.CostUSD)
	// Output:
	// ## Summary
	// The agent listed the files.
	// openai llama3.1:8b 700 11 0
}
