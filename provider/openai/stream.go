package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// sseReader reads server-sent events.
type sseReader struct {
	r    *bufio.Reader
	line []byte
}

func newSSE(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReaderSize(r, 64<<10)} }

// readLine returns the next line without its end of line.
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.line = append(s.line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(s.line) == 0) {
			return nil, err
		}
		return bytes.TrimRight(s.line, "\r\n"), nil
	}
}

// next returns the next event's name ("" when the stream names none) and
// its data (data lines joined by newlines), or io.EOF.
func (s *sseReader) next() (string, []byte, error) {
	event := ""
	var data []byte
	has := false
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && has {
				return event, data, nil
			}
			return "", nil, err
		}
		if len(line) == 0 {
			if has {
				return event, data, nil
			}
			event = ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			event = string(value)
		case "data":
			if has {
				data = append(data, '\n')
			}
			data = append(data, value...)
			has = true
		}
	}
}

// streamError returns the error an error object inside a stream stands
// for. The stream's HTTP status was 200, so the status is inferred from
// the code: rate limits are 429, a context over the window 400, anything
// else a server error (500).
func streamError(errType, code, message string) *condense.APIError {
	status := http.StatusInternalServerError
	s := strings.ToLower(errType + " " + code)
	switch {
	case strings.Contains(s, "rate_limit"):
		status = http.StatusTooManyRequests
	case strings.Contains(s, "context_length") || strings.Contains(s, "invalid_request"):
		status = http.StatusBadRequest
	}
	return condense.ClassifyHTTP(Provider, status, errType, code, message)
}

// ChatChunk is one chunk of a streamed Chat Completions answer (a
// chat.completion.chunk object): the first choice's delta.
type ChatChunk struct {
	ID    string
	Model string
	// Text and Refusal are pieces of the message's content and refusal.
	Text    string
	Refusal string
	// ToolCalls are pieces of tool calls: the first piece of a call has
	// its ID and Name, the others more of its Arguments.
	ToolCalls []ToolCallDelta
	// FinishReason is set on the choice's last chunk.
	FinishReason string
	// Usage is set on the chunk that reports usage (the last one, with
	// stream_options.include_usage).
	Usage *condense.Usage
}

// ToolCallDelta is a piece of a streamed tool call.
type ToolCallDelta struct {
	// Index is the call's position among the message's tool calls.
	Index     int
	ID        string
	Name      string
	Arguments string
}

// DecodeChatChunk reads one chunk of a streamed Chat Completions answer.
// A chunk that reports an error ({"error": {…}}) is returned as a
// *condense.APIError.
func DecodeChatChunk(data []byte) (*ChatChunk, error) { return decodeDoc(data, decodeChatChunk) }

func decodeChatChunk(doc []byte) (*ChatChunk, error) {
	c := &ChatChunk{}
	for name, val := range jsonx.Members(doc) {
		switch name {
		case "id":
			c.ID, _ = str(val)
		case "model":
			c.Model, _ = str(val)
		case "usage":
			if kindOf(val) == '{' {
				u := chatUsage(val)
				c.Usage = &u
			}
		case "error":
			if kindOf(val) == '{' {
				// Classified by its code; its type is not read.
				h, _ := readItem(val, "code", "message")
				return nil, streamError("", rawString(h.vals["code"]), h.str("message"))
			}
		case "choices":
			// The first choice's delta.
			for _, cv := range jsonx.Elements(val) {
				h, _ := readItem(cv, "delta", "finish_reason")
				c.FinishReason = h.str("finish_reason")
				d, _ := readItem(h.vals["delta"], "content", "refusal", "tool_calls")
				c.Text = d.str("content")
				c.Refusal = d.str("refusal")
				for _, tv := range jsonx.Elements(d.vals["tool_calls"]) {
					th, _ := readItem(tv, "index", "id", "function")
					fh, _ := readItem(th.vals["function"], "name", "arguments")
					td := ToolCallDelta{ID: th.str("id"), Name: fh.str("name"), Arguments: fh.str("arguments")}
					td.Index, _ = intOf(th.vals["index"])
					c.ToolCalls = append(c.ToolCalls, td)
				}
				break
			}
		}
	}
	return c, nil
}

// events reads the events of a streamed answer whose data are JSON
// objects: what ChatStream and ResponsesStream share.
type events struct {
	body io.Closer
	sse  *sseReader
	err  error
}

func newEvents(body io.ReadCloser) events { return events{body: body, sse: newSSE(body)} }

// next returns the next event's name ("" when the stream names none) and
// its data, checked to be one JSON object. ok is false at the end of the
// stream ("data: [DONE]", or the end of the body) and on an error, which
// Err then returns.
func (s *events) next() (name string, doc []byte, ok bool) {
	if s.err != nil || s.sse == nil {
		return "", nil, false
	}
	for {
		event, data, err := s.sse.next()
		if err != nil {
			if err != io.EOF {
				s.err = err
			}
			s.sse = nil
			return "", nil, false
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 {
			continue
		}
		if string(data) == "[DONE]" {
			s.sse = nil
			return "", nil, false
		}
		if doc, s.err = objectDoc(data); s.err != nil {
			return "", nil, false
		}
		return event, doc, true
	}
}

// Err returns the error that ended the stream, if one did.
func (s *events) Err() error { return s.err }

// Close closes the answer's body.
func (s *events) Close() error {
	if s.body == nil {
		return nil
	}
	return s.body.Close()
}

// ChatStream reads a streamed Chat Completions answer chunk by chunk:
//
//	for s.Next() {
//		c := s.Chunk()
//		…
//	}
//	if err := s.Err(); err != nil { … }
type ChatStream struct {
	events
	chunk *ChatChunk
}

// NewChatStream returns a stream reading the server-sent events of body.
func NewChatStream(body io.ReadCloser) *ChatStream { return &ChatStream{events: newEvents(body)} }

// Next moves to the next chunk; false at the end of the stream ("data:
// [DONE]") or on an error.
func (s *ChatStream) Next() bool {
	_, doc, ok := s.next()
	if !ok {
		return false
	}
	s.chunk, s.err = decodeChatChunk(doc)
	return s.err == nil
}

// Chunk returns the current chunk.
func (s *ChatStream) Chunk() *ChatChunk { return s.chunk }

// ResponsesEvent is one event of a streamed Responses API answer.
type ResponsesEvent struct {
	// Type is the event's type: "response.output_text.delta",
	// "response.output_item.done", "response.completed", ….
	Type string
	// OutputIndex, ContentIndex and SummaryIndex say where in the output
	// the event belongs.
	OutputIndex  int
	ContentIndex int
	SummaryIndex int
	ItemID       string
	// Delta is the piece of text, refusal, summary or arguments a delta
	// event adds.
	Delta string
	// Item is the output item of response.output_item.added and .done
	// (the done event's item is complete: use it, not the added one, for a
	// reasoning item's encrypted content). OutputItemParts reads it.
	Item json.RawMessage
	// Response is the response of response.created, .in_progress,
	// .completed, .incomplete and .failed.
	Response *ResponsesResponse
	// Error is the error of an "error" event.
	Error *ResponseError
}

// DecodeResponsesEvent reads the data of one event of a streamed Responses
// API answer.
func DecodeResponsesEvent(data []byte) (*ResponsesEvent, error) {
	return decodeDoc(data, decodeResponsesEvent)
}

func decodeResponsesEvent(doc []byte) (*ResponsesEvent, error) {
	ev := &ResponsesEvent{}
	var code, message []byte
	for name, val := range jsonx.Members(doc) {
		switch name {
		case "type":
			ev.Type, _ = str(val)
		case "output_index":
			ev.OutputIndex, _ = intOf(val)
		case "content_index":
			ev.ContentIndex, _ = intOf(val)
		case "summary_index":
			ev.SummaryIndex, _ = intOf(val)
		case "item_id":
			ev.ItemID, _ = str(val)
		case "delta":
			ev.Delta, _ = str(val)
		case "item":
			ev.Item = val
		case "response":
			if kindOf(val) == '{' {
				r, err := decodeResponse(val)
				if err != nil {
					return nil, under("response", err)
				}
				ev.Response = r
			}
		case "code":
			code = val
		case "message":
			message = val
		case "error":
			if kindOf(val) == '{' {
				ev.Error = responseError(val)
			}
		}
	}
	if ev.Type == "error" && ev.Error == nil {
		ev.Error = &ResponseError{Code: rawString(code)}
		ev.Error.Message, _ = str(message)
	}
	return ev, nil
}

// ResponsesStream reads a streamed Responses API answer event by event,
// as ChatStream reads chunks. An "error" event, and a response.failed
// event, end it with a *condense.APIError.
type ResponsesStream struct {
	events
	event *ResponsesEvent
}

// NewResponsesStream returns a stream reading the server-sent events of
// body.
func NewResponsesStream(body io.ReadCloser) *ResponsesStream {
	return &ResponsesStream{events: newEvents(body)}
}

// Next moves to the next event; false at the end of the stream or on an
// error.
func (s *ResponsesStream) Next() bool {
	name, doc, ok := s.next()
	if !ok {
		return false
	}
	ev, err := decodeResponsesEvent(doc)
	if err != nil {
		s.err = err
		return false
	}
	if ev.Type == "" {
		ev.Type = name
	}
	switch {
	case ev.Type == "error" && ev.Error != nil:
		s.err = streamError("", ev.Error.Code, ev.Error.Message)
		return false
	case ev.Type == "response.failed":
		e := &ResponseError{Message: "response failed"}
		if ev.Response != nil && ev.Response.Error != nil {
			e = ev.Response.Error
		}
		s.err = streamError("", e.Code, e.Message)
		return false
	}
	s.event = ev
	return true
}

// Event returns the current event.
func (s *ResponsesStream) Event() *ResponsesEvent { return s.event }

var errNoBody = errors.New("openai: the answer has no body")
