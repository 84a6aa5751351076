package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/condense-dev/condense"
)

// Tool is a Go function the model may call, with a JSON-schema'd input.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON schema of the input object.
	InputSchema json.RawMessage
	// Func runs the tool on the model's raw JSON input. Its text is the
	// tool result; an error becomes a result marked as an error, holding
	// the error's text, and the loop goes on.
	Func func(ctx context.Context, input json.RawMessage) (string, error)
}

// Definition returns the tool as offered to the model.
func (t *Tool) Definition() condense.Tool {
	return condense.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
}

// NewTool returns a tool whose input is In, decoded from the model's JSON
// (unknown fields are an error the model sees), and whose schema is
// reflected from In: exported fields, `json` tags for names and
// `jsonschema:"description=…,required"` tags for the rest.
func NewTool[In any](name, description string, fn func(ctx context.Context, in In) (string, error)) Tool {
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: SchemaOf[In](),
		Func: func(ctx context.Context, raw json.RawMessage) (string, error) {
			var in In
			if len(raw) > 0 {
				if err := json.Unmarshal(raw, &in); err != nil {
					return "", fmt.Errorf("invalid input for %s: %v", name, err)
				}
			}
			return fn(ctx, in)
		},
	}
}

// SchemaOf returns the JSON schema of T, inlined (no $ref, no $schema).
func SchemaOf[T any]() json.RawMessage {
	r := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, AllowAdditionalProperties: false}
	var zero T
	s := r.ReflectFromType(reflect.TypeOf(zero))
	s.Version, s.ID = "", ""
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("agent: schema of %T: %v", zero, err))
	}
	return b
}
