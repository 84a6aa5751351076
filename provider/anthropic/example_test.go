package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/strategy"
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

// An agent built on the official SDK keeps its history in the SDK's own
// types and compacts it before each call: convert the parameters, let a
// condense.Preflight render them, convert the rendered request back and
// send it with the SDK as usual. Nothing the SDK sends is lost on the way:
// thinking signatures, cache_control, blocks condense does not model.
func ExampleFromSDK() {
	srv := fakeAPI()
	defer srv.Close()
	ctx := context.Background()
	const model = "claude-sonnet-4-5"

	params := sdk.MessageNewParams{
		Model:     model,
		MaxTokens: 1024,
		System:    []sdk.TextBlockParam{{Text: "You are a coding agent.", CacheControl: sdk.NewCacheControlEphemeralParam()}},
		Messages: []sdk.MessageParam{
			sdk.NewUserMessage(sdk.NewTextBlock("List the files.")),
			sdk.NewAssistantMessage(sdk.NewToolUseBlock("toolu_1", map[string]string{"cmd": "ls"}, "bash")),
			sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_1", "main.go\ngo.mod", false)),
		},
	}

	// One preflight per conversation; it remembers what it has seen.
	pf := condense.NewPreflight(tokens.ForModel(model, tokens.Models), strategy.Default(),
		&condense.Options{Registry: tokens.Models})

	req, err := anthropic.FromSDK(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := pf.Prepare(ctx, req.Request)
	if err != nil {
		fmt.Println(err) // a *condense.WindowError when it cannot fit
		return
	}
	req.Request = res.Request // the rendered request; the SDK-only parts stay
	params, err = anthropic.ToSDK(req)
	if err != nil {
		fmt.Println(err)
		return
	}

	client := sdk.NewClient(option.WithoutEnvironmentDefaults(), option.WithAPIKey("sk-ant-example"),
		option.WithBaseURL(srv.URL)) // a fake API, so that the example runs offline
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(req.Messages), "messages,", res.Tokens > 0)
	fmt.Println(msg.Content[0].Text)
	// Output:
	// 3 messages, true
	// ## Summary
	// The agent listed the files.
}

// Asking a model one question: a Request around a condense.Request, sent
// with a Client; the answer's text and usage come back decoded.
func ExampleClient_Send() {
	srv := fakeAPI()
	defer srv.Close()

	c, err := anthropic.NewClient(anthropic.Options{APIKey: "sk-ant-example", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := c.Send(context.Background(), &anthropic.Request{Request: condense.Request{
		Model:           "claude-haiku-4-5",
		System:          "Answer in one line.",
		Messages:        []condense.Message{condense.UserText("Which files did the agent list?")},
		MaxOutputTokens: 512,
	}})
	if err != nil {
		fmt.Println(err) // a *condense.APIError for an error answer
		return
	}
	fmt.Println(resp.StopReason, resp.Usage.InputTokens, resp.Usage.OutputTokens)
	fmt.Println(resp.Text())
	// Output:
	// end_turn 900 12
	// ## Summary
	// The agent listed the files.
}
