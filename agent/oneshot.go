package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// Complete sends req as given and returns the answer: one-shot calls are
// never compacted nor journaled: only the tool loop, whose history grows,
// compacts. The request names the agent's
// ModelName when it names no model.
func (a *Agent) Complete(ctx context.Context, req condense.Request) (*Response, error) {
	if a.Model == nil {
		return nil, errNoModel
	}
	if req.Model == "" {
		req.Model = a.ModelName
	}
	resp, err := a.Model.Generate(ctx, &req)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// Structured sends req as given, asking for a JSON value matching the
// schema of T, and decodes the answer into it. The instruction goes into
// the system text; the messages are sent as they are, never compacted.
func Structured[T any](ctx context.Context, a *Agent, req condense.Request) (T, *Response, error) {
	var out T
	schema := SchemaOf[T]()
	note := "Answer with only a JSON value, no prose and no code fence, matching this JSON schema:\n" + string(schema)
	if req.System != "" {
		req.System += "\n\n" + note
	} else {
		req.System = note
	}
	resp, err := a.Complete(ctx, req)
	if err != nil {
		return out, nil, err
	}
	text := strings.TrimSpace(resp.Text())
	text = strings.TrimPrefix(text, "```json")
	text = strings.TrimPrefix(text, "```")
	text = strings.TrimSuffix(text, "```")
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &out); err != nil {
		return out, resp, fmt.Errorf("agent: structured answer is not a %T: %v", out, err)
	}
	return out, resp, nil
}
