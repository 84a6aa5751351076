package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/summarize"
)

// RecallToolName is the tool the proxy adds for the model to recall what
// compaction masked or summarized.
const RecallToolName = "condense_recall"

const (
	recallDescription = "Show the original content behind a masked tool output or a summary in your context, " +
		"given its recall reference: r42-3fa9c2d1 from a masked tool output, or 5-28 from a summary's covers attribute."
	recallSchema = `{"type":"object","properties":{"ref":{"type":"string","description":"The recall reference, r42-3fa9c2d1 or 5-28."}},"required":["ref"]}`
	// maxRecallRounds bounds the upstream calls one client request makes
	// while the model only recalls.
	maxRecallRounds = 4
	// maxAnswerBytes bounds an upstream answer read for recall.
	maxAnswerBytes = 64 << 20
	// charsPerToken converts room in tokens to characters of recalled text,
	// low so that the estimate errs on the side of fitting.
	charsPerToken = 3
)

// recall sends a non-streaming request with the condense_recall tool
// added, and while the model's answer calls that tool alone, answers the
// calls from the conversation's history and asks again. The client gets
// the last answer, as if the tool had never been there, with the number of
// extra upstream calls in HeaderRecallCalls.
func (p *Proxy) recall(w http.ResponseWriter, r *http.Request, api *wireAPI, out *outcome) {
	body, err := withRecallTool(api, out.body)
	if err != nil {
		p.log.Warn("condense proxy: cannot add the recall tool; forwarding without it", "api", api.name, "err", redact.Err(err))
		p.forward(w, r, api.provider, out.body)
		return
	}
	grown := 0 // characters of recalled text added so far
	for round := 0; ; round++ {
		resp, answer, err := p.send(r, api, body)
		if err != nil {
			if r.Context().Err() == nil {
				p.upstreamError(w, r, err)
			}
			return
		}
		calls, msg := recallCalls(api, resp.StatusCode, answer)
		if len(calls) == 0 || round == maxRecallRounds {
			p.metrics.recall(api.name, round)
			w.Header().Set(HeaderRecallCalls, strconv.Itoa(round))
			relay(w, resp, answer)
			return
		}
		room := (out.limit-out.after)*charsPerToken - grown
		results := make([]condense.Message, 0, len(calls))
		for _, c := range calls {
			text, isErr := out.conv.recallText(c.ref, room/len(calls))
			grown += len(text)
			results = append(results, condense.Message{Role: condense.RoleTool,
				Parts: []condense.Part{condense.ToolResult(c.id, isErr, condense.Text(text))}})
		}
		if body, err = continueWith(api, out.req.Model, body, msg, results); err != nil {
			p.log.Warn("condense proxy: cannot continue after a recall; relaying the answer", "api", api.name, "err", redact.Err(err))
			w.Header().Set(HeaderRecallCalls, strconv.Itoa(round))
			relay(w, resp, answer)
			return
		}
		p.log.Info("condense proxy: recalled", "api", api.name, "conversation", out.conv.id, "calls", len(calls), "round", round+1)
	}
}

// withRecallTool adds the recall tool to the body's tools, in the API's
// shape.
func withRecallTool(api *wireAPI, body []byte) ([]byte, error) {
	var tool string
	switch api {
	case chatAPI:
		tool = `{"type":"function","function":{"name":"` + RecallToolName + `","description":` + quote(recallDescription) + `,"parameters":` + recallSchema + `}}`
	case responsesAPI:
		tool = `{"type":"function","name":"` + RecallToolName + `","description":` + quote(recallDescription) + `,"parameters":` + recallSchema + `}`
	default:
		tool = `{"name":"` + RecallToolName + `","description":` + quote(recallDescription) + `,"input_schema":` + recallSchema + `}`
	}
	pb, err := splitBody(body, &wireAPI{array: "tools"})
	if err == nil {
		return pb.withArray(append(pb.elems, []byte(tool))...), nil
	}
	end := bytes.LastIndexByte(body, '}')
	if end < 0 {
		return nil, fmt.Errorf("proxy: the body is not a JSON object")
	}
	out := append([]byte(nil), body[:end]...)
	if bytes.TrimSpace(out)[len(bytes.TrimSpace(out))-1] != '{' {
		out = append(out, ',')
	}
	out = append(out, `"tools":[`+tool+`]`...)
	return append(out, body[end:]...), nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// recallCall is one call of the recall tool.
type recallCall struct{ id, ref string }

// recallCalls returns the model's calls of the recall tool when its answer
// (a successful one) calls that tool and no other, and the answer as an
// assistant message.
func recallCalls(api *wireAPI, status int, answer []byte) ([]recallCall, condense.Message) {
	if status != http.StatusOK {
		return nil, condense.Message{}
	}
	var msg condense.Message
	switch api {
	case chatAPI:
		r, err := openai.DecodeChatResponse(answer)
		if err != nil || r.Choices != 1 {
			return nil, msg
		}
		msg = r.Message
	case responsesAPI:
		r, err := openai.DecodeResponsesResponse(answer)
		if err != nil || r.Status != "completed" {
			return nil, msg
		}
		msg = r.Message
	default:
		r, err := anthropic.DecodeResponse(answer)
		if err != nil {
			return nil, msg
		}
		msg = r.Message
	}
	var calls []recallCall
	for i := range msg.Parts {
		pt := &msg.Parts[i]
		if pt.Type != condense.PartToolCall {
			continue
		}
		if pt.Name != RecallToolName {
			return nil, msg
		}
		calls = append(calls, recallCall{id: pt.ID, ref: gjson.GetBytes(pt.Input, "ref").String()})
	}
	return calls, msg
}

// continueWith returns body with the model's answer and the recall results
// appended to its history, written by the API's codec.
func continueWith(api *wireAPI, model string, body []byte, answer condense.Message, results []condense.Message) ([]byte, error) {
	pb, err := splitBody(body, api)
	if err != nil {
		return nil, err
	}
	tail, err := api.encode(model, append([]condense.Message{answer}, results...))
	if err != nil {
		return nil, err
	}
	return pb.withArray(append(pb.elems, tail)...), nil
}

var (
	reMaskRef = regexp.MustCompile(`r\d+-[0-9a-fA-F]{8}`)
	reSpan    = regexp.MustCompile(`(\d+)-(\d+)`)
)

// recallText returns the original content behind ref, cut to room
// characters, or an error text.
func (c *conversation) recallText(ref string, room int) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var msgs []condense.Message
	start := 0
	switch {
	case reMaskRef.MatchString(ref):
		m := reMaskRef.FindString(ref)
		idx, dig, err := condense.ParseRecallRef(strings.ToLower(m))
		if err != nil || idx >= len(c.msgs) {
			return fmt.Sprintf("[condense: no tool output %s in this conversation]", m), true
		}
		for k := range c.msgs[idx].Parts {
			p := &c.msgs[idx].Parts[k]
			if p.Type == condense.PartToolResult && strings.HasPrefix(condense.ContentDigest(p), dig) {
				msgs, start = c.msgs[idx:idx+1], idx
			}
		}
		if msgs == nil {
			return fmt.Sprintf("[condense: no tool output %s in this conversation]", m), true
		}
	case reSpan.MatchString(ref):
		m := reSpan.FindStringSubmatch(ref)
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if b < a || a >= len(c.msgs) {
			return fmt.Sprintf("[condense: no messages %s in this conversation]", m[0]), true
		}
		msgs, start = c.msgs[a:min(b+1, len(c.msgs))], a
	default:
		return fmt.Sprintf("[condense: %q is not a recall reference (r42-3fa9c2d1, or 5-28)]", ref), true
	}
	var b strings.Builder
	for i := range msgs {
		fmt.Fprintf(&b, "[message %d, %s]\n", start+i, msgs[i].Role)
		summarize.RenderMessage(&b, &msgs[i], 0)
		b.WriteString("\n")
	}
	text := b.String()
	if room < 200 {
		return "[condense: no room in the context window to recall this now]", true
	}
	if len(text) > room {
		text = text[:room-100] + fmt.Sprintf("\n[condense: recall cut at %d of %d characters to fit the context window]", room-100, len(text))
	}
	return text, false
}

// send makes one upstream call with the client's headers and reads the
// whole answer, decompressed.
func (p *Proxy) send(r *http.Request, api *wireAPI, body []byte) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, p.upstreamFor(api.provider, r.URL).String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range r.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Accept-Encoding", "Content-Length", "Connection", "Keep-Alive", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Proxy-Connection":
			continue
		}
		req.Header[k] = vs
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return nil, nil, err
	}
	return resp, answer, nil
}

// relay writes an upstream answer read whole to the client.
func relay(w http.ResponseWriter, resp *http.Response, answer []byte) {
	for k, vs := range resp.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Content-Encoding", "Connection", "Keep-Alive", "Transfer-Encoding", "Trailer", "Upgrade":
			continue
		}
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
	w.WriteHeader(resp.StatusCode)
	w.Write(answer)
}
