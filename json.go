package condense

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// DocumentVersion is the version of the condense JSON form this package
// reads and writes.
const DocumentVersion = 1

// Document is the condense JSON form of a request (docs/formats.md):
//
//	{"version":1,"model","system","tools":[…],"messages":[{"id","role","status","pinned","parts":[…]}]}
type Document struct {
	Version  int
	Model    string
	System   string
	Tools    []Tool
	Messages []Message
	// MaxOutputTokens is written as "max_tokens" when set.
	MaxOutputTokens int
	// ThinkingBudget is written as "thinking_budget" when set.
	ThinkingBudget int
	// OriginalIDs maps tool call ids to the ids the calls had where the
	// history came from, when a reader gave them new ones (a log that
	// reuses ids, say). Each is written as the "original_id" of its
	// tool_call part, and read back from there; a Request has no place
	// for them.
	OriginalIDs map[string]string
}

// DocumentOf returns the condense JSON form of r.
func DocumentOf(r Request) Document {
	return Document{Version: DocumentVersion, Model: r.Model, System: r.System, Tools: r.Tools,
		Messages: r.Messages, MaxOutputTokens: r.MaxOutputTokens, ThinkingBudget: r.ThinkingBudget}
}

// Request returns the request d describes.
func (d Document) Request() Request {
	return Request{Model: d.Model, System: d.System, Tools: d.Tools, Messages: d.Messages,
		MaxOutputTokens: d.MaxOutputTokens, ThinkingBudget: d.ThinkingBudget}
}

// JSONError is a malformed condense JSON document: Path says where
// ("messages[3].parts[0].type"), Err what is wrong.
type JSONError struct {
	Path string
	Err  error
}

func (e *JSONError) Error() string {
	if e.Path == "" {
		return "condense json: " + e.Err.Error()
	}
	return "condense json: " + e.Path + ": " + e.Err.Error()
}

func (e *JSONError) Unwrap() error { return e.Err }

// ErrMalformed is wrapped by every error about malformed input.
var ErrMalformed = errors.New("malformed input")

func jsonErr(path, format string, args ...any) error {
	return &JSONError{Path: path, Err: fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)}
}

type docJSON struct {
	Version   int               `json:"version"`
	Model     string            `json:"model,omitempty"`
	System    string            `json:"system,omitempty"`
	MaxTokens int               `json:"max_tokens,omitempty"`
	Thinking  int               `json:"thinking_budget,omitempty"`
	Tools     []json.RawMessage `json:"tools,omitempty"`
	Messages  []jsonView        `json:"messages"`
}

// jsonView is a JSON value as a view of the bytes it was decoded from,
// where json.RawMessage would copy them: a document's messages are parsed
// from views of the decoder's buffer, one copy of the document fewer.
type jsonView []byte

func (v *jsonView) UnmarshalJSON(data []byte) error {
	*v = data
	return nil
}

type toolJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

type messageJSON struct {
	ID     string            `json:"id,omitempty"`
	Role   Role              `json:"role"`
	Status string            `json:"status,omitempty"`
	Pinned bool              `json:"pinned,omitempty"`
	Parts  []json.RawMessage `json:"parts"`
}

// MarshalJSON writes d in the condense JSON form.
func (d Document) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(d.encodedSize())
	b.WriteString(`{"version":`)
	v := d.Version
	if v == 0 {
		v = DocumentVersion
	}
	b.WriteString(strconv.Itoa(v))
	if d.Model != "" {
		b.WriteString(`,"model":`)
		writeString(&b, d.Model)
	}
	if d.System != "" {
		b.WriteString(`,"system":`)
		writeString(&b, d.System)
	}
	if d.MaxOutputTokens > 0 {
		b.WriteString(`,"max_tokens":`)
		b.WriteString(strconv.Itoa(d.MaxOutputTokens))
	}
	if d.ThinkingBudget > 0 {
		b.WriteString(`,"thinking_budget":`)
		b.WriteString(strconv.Itoa(d.ThinkingBudget))
	}
	if len(d.Tools) > 0 {
		b.WriteString(`,"tools":[`)
		for i, t := range d.Tools {
			if i > 0 {
				b.WriteByte(',')
			}
			raw, err := json.Marshal(toolJSON{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
			if err != nil {
				return nil, fmt.Errorf("tools[%d]: %w", i, err)
			}
			b.Write(raw)
		}
		b.WriteByte(']')
	}
	b.WriteString(`,"messages":[`)
	for i := range d.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := appendMessageJSON(&b, &d.Messages[i], d.OriginalIDs); err != nil {
			return nil, fmt.Errorf("messages[%d]%w", i, err)
		}
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// encodedSize guesses the size of d in the condense JSON form, a little
// over rather than under, so that the body is allocated once (a buffer
// doubled as it grows holds up to three times the body while it copies).
func (d *Document) encodedSize() int {
	n := 256 + len(d.Model) + len(d.System)
	for i := range d.Tools {
		t := &d.Tools[i]
		n += 96 + len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	for i := range d.Messages {
		n += 64 + len(d.Messages[i].ID) + partsSize(d.Messages[i].Parts)
	}
	return n + n/8 // an eighth more for escapes
}

// partsSize is the bytes of parts' fields, with room for their keys and
// for inputs re-encoded and data in base64.
func partsSize(parts []Part) int {
	n := 0
	for i := range parts {
		p := &parts[i]
		n += 96 + len(p.Text) + len(p.ID) + len(p.CallID) + len(p.Name) + len(p.Input)*9/8 +
			len(p.Signature) + len(p.Redacted) + len(p.URL) + len(p.Data)*4/3 + len(p.Raw) + partsSize(p.Content)
	}
	return n
}

// MarshalJSON writes m in the condense JSON form.
func (m Message) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := appendMessageJSON(&b, &m, nil); err != nil {
		return nil, fmt.Errorf("message%w", err)
	}
	return b.Bytes(), nil
}

// MarshalJSON writes p in the condense JSON form.
func (p Part) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := appendPartJSON(&b, &p, nil); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appendMessageJSON writes m; original maps tool call ids to the
// original_id written with them.
func appendMessageJSON(b *bytes.Buffer, m *Message, original map[string]string) error {
	b.WriteByte('{')
	if m.ID != "" {
		b.WriteString(`"id":`)
		writeString(b, m.ID)
		b.WriteByte(',')
	}
	b.WriteString(`"role":`)
	writeString(b, string(m.Role))
	b.WriteString(`,"status":`)
	st := string(m.Status)
	if st == "" {
		st = "complete"
	}
	writeString(b, st)
	if m.Pinned {
		b.WriteString(`,"pinned":true`)
	}
	b.WriteString(`,"parts":[`)
	for i := range m.Parts {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := appendPartJSON(b, &m.Parts[i], original); err != nil {
			return fmt.Errorf(".parts[%d]: %w", i, err)
		}
	}
	b.WriteString("]}")
	return nil
}

func appendPartJSON(b *bytes.Buffer, p *Part, original map[string]string) error {
	b.WriteString(`{"type":`)
	writeString(b, string(p.Type))
	switch p.Type {
	case PartText:
		b.WriteString(`,"text":`)
		writeString(b, p.Text)
	case PartToolCall:
		b.WriteString(`,"id":`)
		writeString(b, p.ID)
		if o, ok := original[p.ID]; ok && o != "" {
			b.WriteString(`,"original_id":`)
			writeString(b, o)
		}
		b.WriteString(`,"name":`)
		writeString(b, p.Name)
		b.WriteString(`,"input":`)
		if len(p.Input) == 0 {
			b.WriteString("{}")
		} else {
			if !json.Valid(p.Input) {
				return fmt.Errorf("tool call %q: input is not valid JSON", p.ID)
			}
			b.Write(p.Input)
		}
	case PartToolResult:
		b.WriteString(`,"call_id":`)
		writeString(b, p.CallID)
		b.WriteString(`,"is_error":`)
		b.WriteString(strconv.FormatBool(p.IsError))
		b.WriteString(`,"content":[`)
		for i := range p.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendPartJSON(b, &p.Content[i], nil); err != nil {
				return fmt.Errorf("content[%d]: %w", i, err)
			}
		}
		b.WriteByte(']')
	case PartThinking:
		b.WriteString(`,"text":`)
		writeString(b, p.Text)
		if p.Signature != "" {
			b.WriteString(`,"signature":`)
			writeString(b, p.Signature)
		}
		if p.Redacted != "" {
			b.WriteString(`,"redacted":`)
			writeString(b, p.Redacted)
		}
	case PartImage:
		b.WriteString(`,"media_type":`)
		writeString(b, p.MediaType)
		if p.URL != "" {
			b.WriteString(`,"url":`)
			writeString(b, p.URL)
		} else {
			b.WriteString(`,"data":"`)
			b.WriteString(base64.StdEncoding.EncodeToString(p.Data))
			b.WriteByte('"')
		}
		if p.Width > 0 {
			fmt.Fprintf(b, `,"width":%d`, p.Width)
		}
		if p.Height > 0 {
			fmt.Fprintf(b, `,"height":%d`, p.Height)
		}
	case PartProvider:
		b.WriteString(`,"provider":`)
		writeString(b, p.Provider)
		b.WriteString(`,"raw":`)
		if len(p.Raw) == 0 {
			b.WriteString("null")
		} else {
			if !json.Valid(p.Raw) {
				return fmt.Errorf("provider block: raw is not valid JSON")
			}
			b.Write(p.Raw)
		}
	default:
		return fmt.Errorf("unknown part type %q", p.Type)
	}
	b.WriteByte('}')
	return nil
}

func writeString(b *bytes.Buffer, s string) {
	raw, _ := json.Marshal(s) // marshaling a string cannot fail
	b.Write(raw)
}

// ParseDocument reads a condense JSON document. Errors are *JSONError values
// naming the JSON path of the problem and wrap ErrMalformed.
func ParseDocument(data []byte) (Document, error) {
	var dj docJSON
	if err := strictUnmarshal(data, &dj); err != nil {
		return Document{}, &JSONError{Err: fmt.Errorf("%w: %v", ErrMalformed, err)}
	}
	if dj.Version != DocumentVersion {
		return Document{}, jsonErr("version", "unsupported version %d (want %d)", dj.Version, DocumentVersion)
	}
	if dj.Messages == nil {
		return Document{}, jsonErr("messages", "missing")
	}
	d := Document{Version: dj.Version, Model: dj.Model, System: dj.System, MaxOutputTokens: dj.MaxTokens, ThinkingBudget: dj.Thinking}
	if dj.MaxTokens < 0 {
		return Document{}, jsonErr("max_tokens", "negative value %d", dj.MaxTokens)
	}
	if dj.Thinking < 0 {
		return Document{}, jsonErr("thinking_budget", "negative value %d", dj.Thinking)
	}
	for i, raw := range dj.Tools {
		var tj toolJSON
		path := fmt.Sprintf("tools[%d]", i)
		if err := strictUnmarshal(raw, &tj); err != nil {
			return Document{}, jsonErr(path, "%v", err)
		}
		if tj.Name == "" {
			return Document{}, jsonErr(path+".name", "missing")
		}
		d.Tools = append(d.Tools, Tool{Name: tj.Name, Description: tj.Description, InputSchema: tj.InputSchema})
	}
	d.Messages = make([]Message, 0, len(dj.Messages))
	for i, raw := range dj.Messages {
		m, err := parseMessage(raw, fmt.Sprintf("messages[%d]", i), &d.OriginalIDs)
		if err != nil {
			return Document{}, err
		}
		d.Messages = append(d.Messages, m)
	}
	return d, nil
}

// UnmarshalJSON reads d from the condense JSON form; see ParseDocument.
func (d *Document) UnmarshalJSON(data []byte) error {
	doc, err := ParseDocument(data)
	if err != nil {
		return err
	}
	*d = doc
	return nil
}

// UnmarshalJSON reads m from the condense JSON form.
func (m *Message) UnmarshalJSON(data []byte) error {
	msg, err := parseMessage(data, "message", nil)
	if err != nil {
		return err
	}
	*m = msg
	return nil
}

// UnmarshalJSON reads p from the condense JSON form.
func (p *Part) UnmarshalJSON(data []byte) error {
	part, err := parsePart(data, "part", nil)
	if err != nil {
		return err
	}
	*p = part
	return nil
}

// parseMessage reads a message at path. With original set, the
// original_id of each tool call goes into *original (made when needed);
// without, it is read and left out.
func parseMessage(raw []byte, path string, original *map[string]string) (Message, error) {
	var mj messageJSON
	if err := strictUnmarshal(raw, &mj); err != nil {
		return Message{}, jsonErr(path, "%v", err)
	}
	switch mj.Role {
	case RoleSystem, RoleUser, RoleAssistant, RoleTool:
	case "":
		return Message{}, jsonErr(path+".role", "missing")
	default:
		return Message{}, jsonErr(path+".role", "unknown role %q", mj.Role)
	}
	m := Message{ID: mj.ID, Role: mj.Role, Pinned: mj.Pinned}
	switch mj.Status {
	case "", "complete":
	case "failed":
		m.Status = StatusFailed
	case "aborted":
		m.Status = StatusAborted
	default:
		return Message{}, jsonErr(path+".status", "unknown status %q", mj.Status)
	}
	m.Parts = make([]Part, 0, len(mj.Parts))
	for j, praw := range mj.Parts {
		p, err := parsePart(praw, fmt.Sprintf("%s.parts[%d]", path, j), original)
		if err != nil {
			return Message{}, err
		}
		m.Parts = append(m.Parts, p)
	}
	return m, nil
}

type partJSON struct {
	Type      PartType          `json:"type"`
	Text      *string           `json:"text"`
	ID        string            `json:"id"`
	CallID    string            `json:"call_id"`
	Name      string            `json:"name"`
	Input     json.RawMessage   `json:"input"`
	IsError   bool              `json:"is_error"`
	Content   []json.RawMessage `json:"content"`
	Signature string            `json:"signature"`
	Redacted  string            `json:"redacted"`
	MediaType string            `json:"media_type"`
	Data      *string           `json:"data"`
	URL       string            `json:"url"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Provider  string            `json:"provider"`
	Raw       json.RawMessage   `json:"raw"`
	// OriginalID is a tool call's id where the history came from.
	OriginalID *string `json:"original_id"`
}

// parsePart reads a part at path; original is parseMessage's.
func parsePart(raw []byte, path string, original *map[string]string) (Part, error) {
	var pj partJSON
	if err := strictUnmarshal(raw, &pj); err != nil {
		return Part{}, jsonErr(path, "%v", err)
	}
	if pj.OriginalID != nil && pj.Type != PartToolCall {
		return Part{}, jsonErr(path+".original_id", "only a tool_call part has an original_id")
	}
	p := Part{Type: pj.Type}
	switch pj.Type {
	case PartText:
		if pj.Text == nil {
			return Part{}, jsonErr(path+".text", "missing")
		}
		p.Text = *pj.Text
	case PartToolCall:
		if pj.ID == "" {
			return Part{}, jsonErr(path+".id", "missing")
		}
		if pj.Name == "" {
			return Part{}, jsonErr(path+".name", "missing")
		}
		p.ID, p.Name = pj.ID, pj.Name
		if pj.OriginalID != nil {
			if *pj.OriginalID == "" {
				return Part{}, jsonErr(path+".original_id", "empty")
			}
			if original != nil {
				if *original == nil {
					*original = map[string]string{}
				}
				(*original)[p.ID] = *pj.OriginalID
			}
		}
		if len(pj.Input) == 0 || string(pj.Input) == "null" {
			p.Input = json.RawMessage("{}")
		} else {
			if t := bytes.TrimLeft(pj.Input, " \t\r\n"); len(t) == 0 || t[0] != '{' {
				return Part{}, jsonErr(path+".input", "a tool call's input must be a JSON object")
			}
			p.Input = append(json.RawMessage(nil), pj.Input...)
		}
	case PartToolResult:
		if pj.CallID == "" {
			return Part{}, jsonErr(path+".call_id", "missing")
		}
		p.CallID, p.IsError = pj.CallID, pj.IsError
		for k, craw := range pj.Content {
			c, err := parsePart(craw, fmt.Sprintf("%s.content[%d]", path, k), nil)
			if err != nil {
				return Part{}, err
			}
			if c.Type != PartText && c.Type != PartImage && c.Type != PartProvider {
				return Part{}, jsonErr(fmt.Sprintf("%s.content[%d].type", path, k), "%q cannot appear in a tool result", c.Type)
			}
			p.Content = append(p.Content, c)
		}
	case PartThinking:
		if pj.Text != nil {
			p.Text = *pj.Text
		}
		p.Signature, p.Redacted = pj.Signature, pj.Redacted
		if p.Text == "" && p.Redacted == "" {
			return Part{}, jsonErr(path, "thinking part has neither text nor redacted data")
		}
	case PartImage:
		p.MediaType, p.URL, p.Width, p.Height = pj.MediaType, pj.URL, pj.Width, pj.Height
		switch {
		case pj.Data != nil && pj.URL != "":
			return Part{}, jsonErr(path, "image has both data and url")
		case pj.Data != nil:
			b, err := base64.StdEncoding.DecodeString(*pj.Data)
			if err != nil {
				return Part{}, jsonErr(path+".data", "not base64: %v", err)
			}
			p.Data = b
		case pj.URL == "":
			return Part{}, jsonErr(path, "image has neither data nor url")
		}
		if pj.Width < 0 || pj.Height < 0 {
			return Part{}, jsonErr(path, "negative image size")
		}
	case PartProvider:
		if pj.Provider == "" {
			return Part{}, jsonErr(path+".provider", "missing")
		}
		if len(pj.Raw) == 0 {
			return Part{}, jsonErr(path+".raw", "missing")
		}
		p.Provider = pj.Provider
		p.Raw = append(json.RawMessage(nil), pj.Raw...)
	case "":
		return Part{}, jsonErr(path+".type", "missing")
	default:
		return Part{}, jsonErr(path+".type", "unknown part type %q", pj.Type)
	}
	return p, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after JSON value")
	}
	return nil
}
