package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// readCondense reads the condense JSON form (condense.ParseDocument; see
// docs/formats.md). Under Lenient a message that does not parse is skipped;
// any other problem fails.
func readCondense(b *builder, data []byte) error {
	doc, err := condense.ParseDocument(data)
	if err != nil {
		var je *condense.JSONError
		if !b.opts.Lenient || !errors.As(err, &je) || !strings.HasPrefix(je.Path, "messages[") {
			return condenseErr(b, err)
		}
		// Parse message by message, skipping the bad ones.
		var top struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if json.Unmarshal(data, &top) != nil {
			return condenseErr(b, err)
		}
		msgs := make([]condense.Message, 0, len(top.Messages))
		for i, raw := range top.Messages {
			var m condense.Message
			if err := m.UnmarshalJSON(raw); err != nil {
				b.skipped++
				b.note(NoteSkipped, loc{path: fmt.Sprintf("messages[%d]", i)}, "%v", err)
				continue
			}
			msgs = append(msgs, m)
		}
		// Re-parse the document without its messages for the other fields.
		var rest map[string]json.RawMessage
		if json.Unmarshal(data, &rest) != nil {
			return condenseErr(b, err)
		}
		rest["messages"] = json.RawMessage("[]")
		again, _ := json.Marshal(rest)
		stripped, err := condense.ParseDocument(again)
		if err != nil {
			return condenseErr(b, err)
		}
		stripped.Messages = msgs
		doc = stripped
	}
	b.req = doc.Request()
	b.req.Messages = nil
	for i, m := range doc.Messages {
		b.add(m, loc{path: fmt.Sprintf("messages[%d]", i)})
	}
	return nil
}

func condenseErr(b *builder, err error) error {
	var je *condense.JSONError
	if errors.As(err, &je) {
		return &ReadError{File: b.opts.Name, Path: je.Path, Err: je.Err}
	}
	return &ReadError{File: b.opts.Name, Err: fmt.Errorf("%w: %v", condense.ErrMalformed, err)}
}

func writeCondense(req condense.Request) ([]byte, error) {
	return condense.DocumentOf(req).MarshalJSON()
}
