package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/tokens"
)

// A fake Messages API, so that the example runs offline.
func fakeAPI() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/messages":
			fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5-20251001",
				"content":[{"type":"text","text":"## Summary\nThe agent listed the files."}],
				"stop_reason":"end_turn","usage":{"input_tokens":900,"output_tokens":12}}`)
		case "/v1/messages/count_tokens":
			var req struct{ Messages []json.RawMessage }
			json.NewDecoder(r.Body).Decode(&req)
			fmt.Fprintf(w, `{"input_tokens":%d}`, 10*len(req.Messages))
		}
	}))
}

func ExampleSummarizer_Summarize() {
	srv := fakeAPI()
	defer srv.Close()

	s, err := anthropic.New(anthropic.Options{
		APIKey:  "sk-ant-example",
		BaseURL: srv.URL, // "" means $ANTHROPIC_BASE_URL, else api.anthropic.com
		Model:   "claude-haiku-4-5",
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
	fmt.Println(out.Usage.Provider, out.Usage.Model, out.Usage.InputTokens, out.Usage.OutputTokens)
	// Output:
	// ## Summary
	// The agent listed the files.
	// anthropic claude-haiku-4-5-20251001 900 12
}

// The exact counter feeds a calibration, so that the offline heuristic
// learns how far off it is, and the preflight can fall back on it cheaply.
func ExampleCounter() {
	srv := fakeAPI()
	defer srv.Close()

	const model = "claude-haiku-4-5"
	cal := tokens.NewCalibration()
	heuristic := tokens.Corrected(tokens.Heuristic(tokens.FamilyAnthropic), model, cal)

	c, err := anthropic.NewCounter(anthropic.Options{
		APIKey:  "sk-ant-example",
		BaseURL: srv.URL,
		Model:   model,
		OnCount: func(estimated, exact int) { cal.Observe(model, estimated, exact) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := condense.UserText("How many tokens is this?")
	fmt.Println(c.CountMessage(&m), c.CountMessage(&m), c.Stats().Requests)
	fmt.Println(heuristic.Correction() >= 1)
	// Output:
	// 10 10 1
	// true
}
