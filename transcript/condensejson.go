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
	if ok, err := readCondenseByMessage(b, data); ok {
		return err
	}
	return readCondenseWhole(b, data)
}

// readCondenseWhole is readCondense with condense.ParseDocument.
func readCondenseWhole(b *builder, data []byte) error {
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

// once is a member of a document's top level that may occur at most once:
// a view of its value and how many times it occurs.
type once struct {
	v rawView
	n int
}

func (o *once) UnmarshalJSON(data []byte) error {
	o.v, o.n = data, o.n+1
	return nil
}

// condenseTop are the top-level members of a condense document.
var condenseTop = map[string]bool{"version": true, "model": true, "system": true, "max_tokens": true,
	"thinking_budget": true, "tools": true, "messages": true}

// readCondenseByMessage reads a condense document as readCondense does, a
// message at a time from views of data, each released once read (see
// docArena), where condense.ParseDocument would hold the messages'
// JSON and the whole document's messages at once besides data. It reads
// what readCondense reads, errors included, and reports false, having
// read nothing, for a document it leaves to readCondense: one whose top
// level does not decode, has other members or a member twice, has no
// array of messages, or whose other members condense.ParseDocument
// rejects.
func readCondenseByMessage(b *builder, data []byte) (bool, error) {
	var keys map[string]rawView
	var top struct {
		Version  once `json:"version"`
		Model    once `json:"model"`
		System   once `json:"system"`
		Max      once `json:"max_tokens"`
		Thinking once `json:"thinking_budget"`
		Tools    once `json:"tools"`
		Messages once `json:"messages"`
	}
	if kind(data) != '{' || json.Unmarshal(data, &keys) != nil || json.Unmarshal(data, &top) != nil {
		return false, nil
	}
	for k := range keys {
		if !condenseTop[k] {
			return false, nil
		}
	}
	for _, o := range []once{top.Version, top.Model, top.System, top.Max, top.Thinking, top.Tools} {
		if o.n > 1 {
			return false, nil
		}
	}
	if top.Messages.n != 1 || kind(json.RawMessage(top.Messages.v)) != '[' {
		return false, nil
	}
	// Everything but the messages, as the lenient reading of readCondense
	// puts it together.
	rest := make(map[string]json.RawMessage, len(keys))
	for k, v := range keys {
		rest[k] = json.RawMessage(v)
	}
	rest["messages"] = json.RawMessage("[]")
	again, err := json.Marshal(rest)
	if err != nil {
		return false, nil
	}
	head, err := condense.ParseDocument(again)
	if err != nil {
		return false, nil
	}
	msgs, err := arrayItems(json.RawMessage(top.Messages.v))
	if err != nil {
		return false, nil
	}
	b.req = head.Request()
	b.req.Messages = nil
	var original map[string]string
	for i, raw := range msgs {
		path := fmt.Sprintf("messages[%d]", i)
		var m condense.Message
		if err := m.UnmarshalJSON(raw); err != nil {
			if !b.opts.Lenient {
				// condense.ParseDocument names the message by its
				// index where Message.UnmarshalJSON says "message".
				var je *condense.JSONError
				if errors.As(err, &je) {
					if rel, ok := strings.CutPrefix(je.Path, "message"); ok {
						err = &condense.JSONError{Path: path + rel, Err: je.Err}
					}
				}
				return true, condenseErr(b, err)
			}
			b.skipped++
			b.note(NoteSkipped, loc{path: path}, "%v", err)
			continue
		}
		original = originalIDs(raw, original)
		b.release(raw)
		b.add(m, loc{path: path})
	}
	b.original = original
	return true, nil
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
