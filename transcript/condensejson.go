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
// any other problem fails. The original_id of each tool call goes to
// Transcript.OriginalIDs, so that a re-keyed transcript written with
// WriteWith reads back whole.
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
		var original map[string]string
		for i, raw := range top.Messages {
			var m condense.Message
			if err := m.UnmarshalJSON(raw); err != nil {
				b.skipped++
				b.note(NoteSkipped, loc{path: fmt.Sprintf("messages[%d]", i)}, "%v", err)
				continue
			}
			msgs = append(msgs, m)
			original = originalIDs(raw, original)
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
		stripped.OriginalIDs = original
		doc = stripped
	}
	b.original = doc.OriginalIDs
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

// originalIDs adds the original_id of each tool call of the message raw
// (one that parses) to m, made when needed, and returns m.
func originalIDs(raw json.RawMessage, m map[string]string) map[string]string {
	var msg struct {
		Parts []struct {
			ID         string `json:"id"`
			OriginalID string `json:"original_id"`
		} `json:"parts"`
	}
	_ = json.Unmarshal(raw, &msg)
	for _, p := range msg.Parts {
		if p.OriginalID != "" {
			if m == nil {
				m = map[string]string{}
			}
			m[p.ID] = p.OriginalID
		}
	}
	return m
}

// writeCondense writes req as a condense document, each tool call with
// its original id from original, if any.
func writeCondense(req condense.Request, original map[string]string) ([]byte, error) {
	doc := condense.DocumentOf(req)
	doc.OriginalIDs = original
	return doc.MarshalJSON()
}
