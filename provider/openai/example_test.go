package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
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
		case "/v1/responses/input_tokens":
			var req struct {
				Instructions string
				Input        []json.RawMessage
			}
			json.NewDecoder(r.Body).Decode(&req)
			fmt.Fprintf(w, `{"object":"response.input_tokens","input_tokens":%d}`, 4*len(req.Input)+len(req.Instructions)/4)
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
	out, err := s.Summarize(context.Background(), condense.SummaryRequest{Messages: []condense.Message{
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

// The exact counter feeds a calibration, so that the offline heuristic
// learns how far off it is.
func ExampleCounter() {
	srv := fakeServer() // stands in for https://api.openai.com
	defer srv.Close()

	const model = "gpt-4o-mini"
	cal := tokens.NewCalibration()
	c, err := openai.NewCounter(openai.Options{
		APIKey:  "sk-example",
		BaseURL: srv.URL + "/v1",
		Model:   model,
		OnCount: func(estimated, exact int) { cal.Observe(model, estimated, exact) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := condense.UserText("How many tokens is this?")
	fmt.Println(c.CountMessage(&m), c.CountOverhead("You are terse.", nil), c.Stats().Requests)
	// Output:
	// 4 7 2
}
