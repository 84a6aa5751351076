package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/strategy"
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
		case "/v1/responses":
			fmt.Fprint(w, `{"id":"resp_1","object":"response","status":"completed","model":"o4-mini",
				"output":[{"id":"msg_1","type":"message","role":"assistant","status":"completed",
					"content":[{"type":"output_text","text":"Add the missing rule.","annotations":[]}]}],
				"usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":0},"output_tokens":6}}`)
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

// SDK parameters go through a preflight and back: build them as usual,
// convert, let condense render the history (compacted when it would not
// fit), convert the rendered request back and send it with the SDK.
// Members condense does not model (temperature here) ride along.
func ExampleChatRequestFromParams() {
	srv := fakeServer() // stands in for https://api.openai.com
	defer srv.Close()
	ctx := context.Background()

	const model = "gpt-4.1"
	params := sdk.ChatCompletionNewParams{
		Model: model,
		Messages: []sdk.ChatCompletionMessageParamUnion{
			sdk.SystemMessage("You are a coding agent."),
			sdk.UserMessage("The build fails."),
			{OfAssistant: &sdk.ChatCompletionAssistantMessageParam{ToolCalls: []sdk.ChatCompletionMessageToolCallUnionParam{
				{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{ID: "call_1",
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "run", Arguments: `{"cmd":"make"}`}}},
			}}},
			sdk.ToolMessage("make: *** No rule to make target 'all'.", "call_1"),
		},
		Temperature: sdk.Float(0.2),
	}

	req, err := openai.ChatRequestFromParams(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	pf := condense.NewPreflight(tokens.ForModel(model, tokens.Models), strategy.Default(), &condense.Options{Registry: tokens.Models})
	res, err := pf.Prepare(ctx, req.Request)
	if err != nil {
		fmt.Println(err)
		return
	}
	req.Request = res.Request
	rendered, err := req.Params()
	if err != nil {
		fmt.Println(err)
		return
	}

	client := sdk.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-example"))
	answer, err := client.Chat.Completions.New(ctx, rendered)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(rendered.Messages), "messages, temperature", rendered.Temperature.Value)
	fmt.Println(answer.Choices[0].Message.Content)
	// Output:
	// 4 messages, temperature 0.2
	// ## Summary
	// The agent listed the files.
}

// The same with the Responses API: the encrypted reasoning item a
// previous response returned goes through the preflight and back whole.
func ExampleResponsesRequestFromParams() {
	srv := fakeServer() // stands in for https://api.openai.com
	defer srv.Close()
	ctx := context.Background()

	const model = "o4-mini"
	params := responses.ResponseNewParams{
		Model:        model,
		Instructions: sdk.String("You are a coding agent."),
		Store:        sdk.Bool(false),
		Include:      []responses.ResponseIncludable{"reasoning.encrypted_content"},
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage("The build fails.", responses.EasyInputMessageRoleUser),
			param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(
				`{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"gAAAAABo_enc=="}`)),
			responses.ResponseInputItemParamOfFunctionCall(`{"cmd":"make"}`, "call_1", "run"),
			responses.ResponseInputItemParamOfFunctionCallOutput("make: *** No rule to make target 'all'."),
		}},
	}
	params.Input.OfInputItemList[3].OfFunctionCallOutput.CallID = sdk.String("call_1")

	req, err := openai.ResponsesRequestFromParams(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	pf := condense.NewPreflight(tokens.ForModel(model, tokens.Models), strategy.Default(), &condense.Options{Registry: tokens.Models})
	res, err := pf.Prepare(ctx, req.Request)
	if err != nil {
		fmt.Println(err)
		return
	}
	req.Request = res.Request
	rendered, err := req.Params()
	if err != nil {
		fmt.Println(err)
		return
	}

	client := sdk.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-example"))
	answer, err := client.Responses.New(ctx, rendered)
	if err != nil {
		fmt.Println(err)
		return
	}
	rs := rendered.Input.OfInputItemList[1].OfReasoning
	fmt.Println(len(rendered.Input.OfInputItemList), "items; reasoning", rs.ID, rs.EncryptedContent.Value)
	fmt.Println(answer.OutputText())
	// Output:
	// 4 items; reasoning rs_1 gAAAAABo_enc==
	// Add the missing rule.
}

// Asking a model one question: the text of the answer and what it cost.
func ExampleClient_Chat() {
	srv := fakeServer() // stands in for https://api.openai.com
	defer srv.Close()

	client := openai.NewClient(openai.ClientOptions{APIKey: "sk-example", BaseURL: srv.URL + "/v1"})
	resp, err := client.Chat(context.Background(), &openai.ChatRequest{Request: condense.Request{
		Model:           "gpt-4.1",
		System:          "Answer in one line.",
		Messages:        []condense.Message{condense.UserText("What did the agent do?")},
		MaxOutputTokens: 200,
	}})
	if err != nil {
		fmt.Println(err) // a *condense.APIError for an error answer
		return
	}
	fmt.Println(resp.Text())
	fmt.Println(resp.FinishReason, resp.Usage.InputTokens, resp.Usage.OutputTokens)
	// Output:
	// ## Summary
	// The agent listed the files.
	// stop 700 11
}
