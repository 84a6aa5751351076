package openai

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/condense-dev/condense"
)

func chatParams() sdk.ChatCompletionNewParams {
	p := sdk.ChatCompletionNewParams{
		Model: "gpt-4.1",
		Messages: []sdk.ChatCompletionMessageParamUnion{
			sdk.SystemMessage("You are a coding agent."),
			sdk.UserMessage([]sdk.ChatCompletionContentPartUnionParam{
				sdk.TextContentPart("What failed?"),
				sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{URL: "https://example.com/ci.png", Detail: "high"}),
			}),
			{OfAssistant: &sdk.ChatCompletionAssistantMessageParam{ToolCalls: []sdk.ChatCompletionMessageToolCallUnionParam{
				{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{ID: "call_1",
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "run", Arguments: `{"cmd": "make"}`}}},
				{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{ID: "call_2",
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "run", Arguments: `{"cmd": "make`}}},
				{OfCustom: &sdk.ChatCompletionMessageCustomToolCallParam{ID: "call_3",
					Custom: sdk.ChatCompletionMessageCustomToolCallCustomParam{Name: "apply_patch", Input: "*** Begin Patch"}}},
			}}},
			sdk.ToolMessage("make: *** No rule", "call_1"),
			sdk.ToolMessage("cut short", "call_2"),
			sdk.ToolMessage("patched", "call_3"),
			// A message the SDK's types do not know, set as raw JSON.
			param.Override[sdk.ChatCompletionMessageParamUnion](json.RawMessage(`{"role":"critic","content":"Too slow.","score":3}`)),
			sdk.AssistantMessage("Fixed the rule."),
		},
		Tools: []sdk.ChatCompletionToolUnionParam{
			sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "run", Description: sdk.String("Run a command."),
				Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{"cmd": map[string]any{"type": "string"}}},
				Strict:     sdk.Bool(true)}),
		},
		Temperature:         sdk.Float(0.2),
		MaxCompletionTokens: sdk.Int(2048),
		ToolChoice:          sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: sdk.String("auto")},
	}
	p.SetExtraFields(map[string]any{"x_future_option": json.RawMessage(`{"nested":[1,2.50]}`)})
	return p
}

func TestChatParamsRoundTrip(t *testing.T) {
	p := chatParams()
	r, err := ChatRequestFromParams(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.System != "You are a coding agent." || r.MaxOutputTokens != 2048 || len(r.Tools) != 1 || r.RawTools == nil {
		t.Errorf("request %+v", r.Request)
	}
	calls := r.Messages[1].ToolCalls()
	if len(calls) != 3 || string(calls[1].Input) != `{"_raw_arguments":"{\"cmd\": \"make"}` || calls[2].Name != "apply_patch" {
		t.Errorf("tool calls %+v", calls)
	}
	if k := partKinds(r.Messages[5]); k != "chat.message" {
		t.Errorf("raw message: %s", k)
	}
	back, err := r.Params()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(p)
	b, _ := json.Marshal(back)
	if !sameJSON(a, b) {
		t.Errorf("SDK params → condense → SDK params changed them:\n%s\n%s", a, b)
	}
	// The parameters are the SDK's own types where they can be.
	if back.Messages[1].OfUser == nil || back.Messages[2].OfAssistant == nil || len(back.Messages[2].OfAssistant.ToolCalls) != 3 ||
		back.Temperature.Value != 0.2 || back.Tools[0].OfFunction == nil {
		t.Errorf("params not typed: %+v", back)
	}
}

func responsesParams() responses.ResponseNewParams {
	text := func(s string) responses.ResponseInputMessageContentListParam {
		return responses.ResponseInputMessageContentListParam{responses.ResponseInputContentParamOfInputText(s)}
	}
	message := func(content responses.ResponseInputMessageContentListParam, role string) responses.ResponseInputItemUnionParam {
		return responses.ResponseInputItemUnionParam{OfInputMessage: &responses.ResponseInputItemMessageParam{
			Type: "message", Role: role, Content: content}}
	}
	items := responses.ResponseInputParam{
		message(text("Prefer small diffs."), "developer"),
		message(text("What failed?"), "user"),
		// Encrypted reasoning, as a previous response returned it.
		param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(
			`{"id":"rs_01","type":"reasoning","summary":[{"type":"summary_text","text":"Run make."}],"encrypted_content":"gAAAAABo_enc_01=="}`)),
		{OfReasoning: &responses.ResponseReasoningItemParam{ID: "rs_02", Summary: []responses.ResponseReasoningItemSummaryParam{},
			EncryptedContent: sdk.String("gAAAAABo_enc_02==")}},
		responses.ResponseInputItemParamOfFunctionCall(`{"cmd":"make"}`, "call_1", "run"),
		{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{CallID: sdk.String("call_1"),
			Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: sdk.String("make: *** No rule")}}},
		responses.ResponseInputItemParamOfCustomToolCall("call_2", "*** Begin Patch", "apply_patch"),
		responses.ResponseInputItemParamOfCustomToolCallOutput[string]("call_2", "patched"),
		param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(`{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"make"}}`)),
		responses.ResponseInputItemParamOfCompaction("Z2lnYW50aWM="),
		{OfMessage: &responses.EasyInputMessageParam{Type: "message", Role: "assistant",
			Content: responses.EasyInputMessageContentUnionParam{OfString: sdk.String("Fixed the rule.")}}},
	}
	p := responses.ResponseNewParams{
		Model:           "o4-mini",
		Instructions:    sdk.String("You are a coding agent."),
		Input:           responses.ResponseNewParamsInputUnion{OfInputItemList: items},
		MaxOutputTokens: sdk.Int(4096),
		Store:           sdk.Bool(false),
		Include:         []responses.ResponseIncludable{"reasoning.encrypted_content"},
		Tools: []responses.ToolUnionParam{
			{OfFunction: &responses.FunctionToolParam{Name: "run", Strict: sdk.Bool(true),
				Parameters: map[string]any{"type": "object", "properties": map[string]any{"cmd": map[string]any{"type": "string"}}}}},
			{OfWebSearch: &responses.WebSearchToolParam{Type: "web_search"}},
		},
	}
	p.SetExtraFields(map[string]any{"x_future_option": json.RawMessage(`true`)})
	return p
}

func TestResponsesParamsRoundTrip(t *testing.T) {
	p := responsesParams()
	r, err := ResponsesRequestFromParams(p)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range r.Messages {
		kinds = append(kinds, string(m.Role)+":"+partKinds(m))
	}
	want := "system:responses.item_fields text user:text assistant:thinking redacted tool_call tool:tool_result " +
		"assistant:responses.item_fields tool_call tool:responses.item_fields tool_result assistant:raw:web_search_call raw:compaction text"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("messages:\n%s\nwant\n%s", got, want)
	}
	if th := r.Messages[2].Parts[0]; th.Signature != `{"id":"rs_01","type":"reasoning","summary":[{"type":"summary_text","text":"Run make."}],"encrypted_content":"gAAAAABo_enc_01=="}` {
		t.Errorf("reasoning %+v", th)
	}
	back, err := r.Params()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(p)
	b, _ := json.Marshal(back)
	if !sameJSON(a, b) {
		t.Errorf("SDK params → condense → SDK params changed them:\n%s\n%s", a, b)
	}
	if back.Input.OfInputItemList[1].OfInputMessage == nil && back.Input.OfInputItemList[1].OfMessage == nil {
		t.Errorf("a user message is not typed: %+v", back.Input.OfInputItemList[1])
	}
}

// The SDK's short forms (a message without a type, its content a string)
// read alike and come back in the codec's form, which the API reads the
// same.
func TestResponsesParamsShortForms(t *testing.T) {
	p := responses.ResponseNewParams{Model: "o4-mini", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
		responses.ResponseInputItemParamOfMessage("What failed?", responses.EasyInputMessageRoleUser),
	}}}
	r, err := ResponsesRequestFromParams(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != 1 || r.Messages[0].Role != condense.RoleUser || r.Messages[0].TextContent() != "What failed?" {
		t.Fatalf("messages %+v", r.Messages)
	}
	back, err := r.Params()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(back)
	if want := `{"model":"o4-mini","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"What failed?"}]}]}`; !sameJSON(b, []byte(want)) {
		t.Errorf("params %s", b)
	}
	s, _ := json.Marshal(responses.ResponseNewParams{Model: "m", Input: responses.ResponseNewParamsInputUnion{OfString: sdk.String("hi")}})
	r, err = DecodeResponsesRequest(s)
	if err != nil || len(r.Messages) != 1 || r.Messages[0].TextContent() != "hi" {
		t.Fatalf("string input: %v %+v", err, r)
	}
}
