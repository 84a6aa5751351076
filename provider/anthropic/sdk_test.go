package anthropic

import (
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/condense-dev/condense"
)

// sdkParams is a request built with the SDK's own types, holding every kind
// of block the codec models, blocks it carries opaque, cache_control on
// system, tools, blocks and tool results, and members the SDK has no field
// for.
func sdkParams() sdk.MessageNewParams {
	cache := sdk.NewCacheControlEphemeralParam()
	text := sdk.NewTextBlock("Here is the log.")
	text.OfText.CacheControl = cache
	result := sdk.ToolResultBlockParam{
		ToolUseID:    "toolu_01",
		IsError:      sdk.Bool(true),
		CacheControl: cache,
		Content: []sdk.ToolResultBlockParamContentUnion{
			{OfText: &sdk.TextBlockParam{Text: "panic: nil map"}},
			{OfImage: &sdk.ImageBlockParam{Source: sdk.ImageBlockParamSourceUnion{OfURL: &sdk.URLImageSourceParam{URL: "https://example.com/a.png"}}}},
		},
	}
	bash := sdk.ToolUnionParamOfTool(sdk.ToolInputSchemaParam{Properties: map[string]any{"cmd": map[string]any{"type": "string"}}}, "bash")
	bash.OfTool.CacheControl = cache
	bash.OfTool.Description = sdk.String("Run a command.")
	p := sdk.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 8192,
		System:    []sdk.TextBlockParam{{Text: "You are a coding agent."}, {Text: "Be brief.", CacheControl: cache}},
		Thinking:  sdk.ThinkingConfigParamOfEnabled(2048),
		ToolChoice: sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{
			DisableParallelToolUse: sdk.Bool(true)}},
		StopSequences: []string{"STOP"},
		Tools: []sdk.ToolUnionParam{bash,
			{OfWebSearchTool20250305: &sdk.WebSearchTool20250305Param{MaxUses: sdk.Int(2)}}},
		Messages: []sdk.MessageParam{
			sdk.NewUserMessage(sdk.NewTextBlock("Fix the build."),
				sdk.NewImageBlockBase64("image/png", "iVBORw0KGgo="), text),
			sdk.NewAssistantMessage(
				sdk.NewThinkingBlock("EqQBCkYIBRgCKkA3f0Zq==", "Read the log first."),
				sdk.NewRedactedThinkingBlock("EmwKAhgBEgy3va3pzix"),
				sdk.NewTextBlock("Running it."),
				sdk.NewToolUseBlock("toolu_01", map[string]any{"cmd": "go build ./..."}, "bash"),
				// A block of a type the SDK may not know yet, sent as it is.
				param.Override[sdk.ContentBlockParamUnion](json.RawMessage(`{"type":"compaction","content":"Earlier: x.","encrypted_content":"Z2lnYQ=="}`)),
			),
			sdk.NewUserMessage(sdk.ContentBlockParamUnion{OfToolResult: &result},
				sdk.NewDocumentBlock(sdk.PlainTextSourceParam{Data: "notes"})),
		},
	}
	p.SetExtraFields(map[string]any{"future_member": map[string]any{"on": true}})
	return p
}

// TestSDKRoundTrip: SDK parameters → condense → SDK parameters send the
// same JSON.
func TestSDKRoundTrip(t *testing.T) {
	p := sdkParams()
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := FromSDK(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ToSDK(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, want, got) {
		t.Fatalf("round trip changed the parameters:\n%s\nwant\n%s", got, want)
	}
	if back.Model != "claude-sonnet-4-5" || back.MaxTokens != 8192 {
		t.Errorf("model %q max tokens %d", back.Model, back.MaxTokens)
	}

	// What condense sees.
	if r.ThinkingBudget != 2048 || r.System != "You are a coding agent.\n\nBe brief." || len(r.Tools) != 2 {
		t.Errorf("request %+v", r.Request)
	}
	msgs := r.Messages
	if len(msgs) != 4 || msgs[2].Role != condense.RoleTool || msgs[3].Role != condense.RoleUser {
		t.Fatalf("%d messages", len(msgs))
	}
	a := msgs[1].Parts
	if a[0].Signature != "EqQBCkYIBRgCKkA3f0Zq==" || a[1].Redacted != "EmwKAhgBEgy3va3pzix" || a[4].Type != condense.PartProvider {
		t.Errorf("assistant parts %+v", a)
	}
	if f, ok := PartFields(&msgs[0].Parts[3]); !ok || f[0].Name != "cache_control" {
		t.Errorf("cache marker lost: %+v", msgs[0].Parts)
	}
	if f, ok := PartFields(&msgs[2].Parts[1]); !ok || f[0].Name != "cache_control" || !msgs[2].Parts[0].IsError {
		t.Errorf("tool result: %+v", msgs[2].Parts)
	}

	// A changed history goes back the same way, the rest as it was.
	r.Messages = []condense.Message{condense.UserText("Summary: the build failed on a nil map."), msgs[1]}
	back, err = ToSDK(r)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = json.Marshal(back)
	var body struct {
		Messages []json.RawMessage `json:"messages"`
		Future   json.RawMessage   `json:"future_member"`
	}
	if err := json.Unmarshal(got, &body); err != nil || len(body.Messages) != 2 || string(body.Future) != `{"on":true}` {
		t.Errorf("compacted: %s", got)
	}
}
