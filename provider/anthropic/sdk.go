package anthropic

import (
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
)

// FromSDK converts the request parameters of the official Go SDK into a
// Request, so that an agent built on the SDK can compact its own history:
// the parameters are written as the SDK would send them and decoded by
// DecodeRequest, so nothing the SDK sends is lost (thinking signatures,
// redacted thinking, server tool blocks, cache_control wherever it is,
// members set with SetExtraFields). The members the SDK sends as headers
// rather than in the body (UserProfileID, WorkspaceID) are not in the
// Request: set them again on the parameters ToSDK returns.
func FromSDK(p sdk.MessageNewParams) (*Request, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("anthropic: writing the SDK parameters: %w", err)
	}
	return DecodeRequest(body)
}

// ToSDK converts r into the official Go SDK's request parameters, for
// client.Messages.New or NewStreaming. The parameters send exactly the body
// EncodeRequest writes (param.SetJSON), so nothing is lost on the way even
// where the SDK's types have no field for it; Model and MaxTokens are also
// set, which the SDK reads to choose a timeout. Change r, not the returned
// parameters: the SDK sends the body, not the fields.
func ToSDK(r *Request) (sdk.MessageNewParams, error) {
	body, err := EncodeRequest(r)
	if err != nil {
		return sdk.MessageNewParams{}, err
	}
	p := sdk.MessageNewParams{Model: sdk.Model(r.Model), MaxTokens: int64(r.MaxOutputTokens)}
	param.SetJSON(body, &p)
	return p, nil
}
