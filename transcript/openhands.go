package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"strings"

	"github.com/condense-dev/condense"
)

// OpenHands event logs, in either of OpenHands' two event formats:
//
//   - the software-agent-sdk events (OpenHands V1), each an object with a
//     "kind": a JSON array of events, JSONL with one event a line (the
//     conversation's event files put together), or an object holding them
//     under "events" or "history";
//   - the older action/observation events (OpenHands V0, the trajectories
//     saved with save_trajectory_path and the "history" of evaluation
//     outputs), each with an "action" or an "observation" name: a JSON
//     array of events, JSONL, or an object holding them under "history"
//     (an evaluation output record, whose metadata.llm_config.model names
//     the model) or "events".
//
// The events become messages the way OpenHands itself turns them into
// model messages:
//
//   - SystemPromptEvent (and the V0 "system" action) is the system text, its
//     dynamic context appended; V0 tool definitions (OpenAI function tools)
//     become the tools. V1 tool definitions hold no schemas and are left
//     out.
//   - MessageEvent (and the V0 "message" action) is a user or assistant
//     message: its text and images (image_urls), its extended content
//     appended as text, its thinking blocks or reasoning content as
//     thinking.
//   - ActionEvent is an assistant message holding the event's thought as
//     text, its thinking (thinking blocks with signatures, else reasoning
//     content, else the summary of a Responses reasoning item) and its tool
//     call; consecutive action events of one LLM response form one
//     assistant message with parallel calls. A V0 action with
//     tool_call_metadata is the assistant message the metadata's
//     model_response holds (its text and every tool call of the response,
//     once per response); a V0 agent action without it (a run whose model
//     did not call tools natively) becomes a tool call named after the
//     action with the id "openhands-<event id>", its args as input, so the
//     observation that names it as its cause answers it.
//   - ObservationEvent, UserRejectObservation ("Action rejected: reason")
//     and AgentErrorEvent are tool results for their tool_call_id (or, with
//     none, for the call of their action_id); an observation with
//     is_error, a rejection and an error are marked as errors. A V0
//     observation answers the call in its tool_call_metadata, or the
//     synthesized call of its cause; "error" and "user_rejected"
//     observations are errors. Other V0 observations (a command the user
//     ran, a condensation summary) are user messages.
//   - The finish action is an assistant message of its thought, as
//     OpenHands renders it; a V0 command the user ran is a user message
//     "User executed the command:\n…".
//   - Condensation (and the V0 "condensation" action) with a summary is
//     imported as the Checkpoint when it fits: the events it and the
//     condensations before it forget are the oldest messages, save for
//     user text messages OpenHands keeps first (the task), whose text then
//     leads the summary, since OpenHands sends them together. A
//     condensation that forgets anything else is noted (NoteConverted) and
//     not imported; the messages stay either way.
//
// Events that carry no message (state updates, pauses, condensation
// requests, recall and agent-state events, LLM logs, hooks, tokens) are left
// out. The model is the evaluation output's, else the last V0
// model_response's, else the one a V1 stats update names.
func readOpenHands(b *builder, data []byte) error {
	events, path, err := ohEvents(b, data)
	if err != nil {
		return err
	}
	r := &ohReader{b: b, callByEvent: map[string]string{}, respMsg: map[string]int{}}
	r.scanCondensations(events)
	for i, ev := range events {
		start := len(b.msgs)
		if err := r.event(ev.raw, i, ev.loc(path, i)); err != nil {
			return err
		}
		// The events are views of data, each released once read (see
		// docArena); an event may add parts to the message before.
		b.release(ev.raw)
		b.keepFrom(start)
	}
	b.req.System = strings.Join(r.system, "\n\n")
	if b.req.Model == "" {
		b.req.Model = r.model
	}
	r.placeCheckpoint()
	return nil
}

// ohEvent is one event and the line it is on (JSONL).
type ohEvent struct {
	raw  json.RawMessage
	line int
}

func (e ohEvent) loc(path string, i int) loc {
	if e.line > 0 {
		return loc{line: e.line}
	}
	return loc{path: fmt.Sprintf("%s[%d]", path, i)}
}

// ohEvents finds the events of data and the JSON path of their array.
func ohEvents(b *builder, data []byte) ([]ohEvent, string, error) {
	var evs []ohEvent
	add := func(raws []rawView) {
		for _, r := range raws {
			evs = append(evs, ohEvent{raw: json.RawMessage(r)})
		}
	}
	switch kind(data) {
	case '[':
		var raws []rawView
		if err := decode(data, &raws); err != nil {
			return nil, "", b.docErr(data, err)
		}
		add(raws)
		return evs, "", nil
	case '{':
	default:
		return nil, "", b.errAt(loc{}, "want a JSON array of events, JSONL events, or an object with \"history\" or \"events\"")
	}
	var doc struct {
		History  []rawView `json:"history"`
		Events   []rawView `json:"events"`
		Metadata struct {
			LLMConfig struct {
				Model string `json:"model"`
			} `json:"llm_config"`
		} `json:"metadata"`
	}
	if decode(data, &doc) == nil && (doc.History != nil || doc.Events != nil) {
		b.req.Model = doc.Metadata.LLMConfig.Model
		if doc.History != nil {
			add(doc.History)
			return evs, "history", nil
		}
		add(doc.Events)
		return evs, "events", nil
	}
	// JSONL, or event documents one after another (a conversation's event
	// files put together): each value with the line it starts on. Input
	// that does not decode as a stream is read line by line, so a bad line
	// is one bad event.
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		var raw rawView // a view of the decoder's copy: the event is data's
		if err := dec.Decode(&raw); err != nil {
			if err == io.EOF {
				return evs, "", nil
			}
			break
		}
		// The value starts after the whitespace before it.
		for start < int64(len(data)) && strings.IndexByte(" \t\r\n", data[start]) >= 0 {
			start++
		}
		end := dec.InputOffset()
		evs = append(evs, ohEvent{raw: data[start:end:end], line: 1 + bytes.Count(data[:start], []byte("\n"))})
	}
	evs = evs[:0]
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		evs = append(evs, ohEvent{raw: line, line: n + 1})
	}
	return evs, "", nil
}

// ohReader holds what reading the events found so far.
type ohReader struct {
	b      *builder
	system []string
	model  string
	// callByEvent maps an action event's id to its tool call id, for the
	// observations that name their action rather than the call.
	callByEvent map[string]string
	// respMsg maps an LLM response id to the index in b.msgs of its
	// assistant message, while it is the last message.
	respMsg map[string]int
	// pending is the last synthesized call, which an observation without
	// a cause right after it answers.
	pending string
	// The checkpoint: the summary of the last condensation with one, the
	// events forgotten up to it, and the first message of each event.
	cpSummary string
	cpSource  string
	forgotten map[string]bool
	evMsgs    []ohMsgSpan
}

// ohMsgSpan is the messages one event added: b.msgs[start:end].
type ohMsgSpan struct {
	id         string
	start, end int
}

// ohRaw is the members of both event formats the reader uses.
type ohRaw struct {
	ID     json.RawMessage `json:"id"`
	Kind   string          `json:"kind"`
	Source string          `json:"source"`
	// V1
	LLMMessage             json.RawMessage `json:"llm_message"`
	ExtendedContent        json.RawMessage `json:"extended_content"`
	Thought                json.RawMessage `json:"thought"`
	ResponsesReasoningItem json.RawMessage `json:"responses_reasoning_item"`
	ToolCall               json.RawMessage `json:"tool_call"`
	ToolCallID             string          `json:"tool_call_id"`
	ToolName               string          `json:"tool_name"`
	LLMResponseID          string          `json:"llm_response_id"`
	ActionID               json.RawMessage `json:"action_id"`
	Observation            json.RawMessage `json:"observation"`
	Action                 json.RawMessage `json:"action"`
	RejectionReason        *string         `json:"rejection_reason"`
	Error                  json.RawMessage `json:"error"`
	SystemPrompt           json.RawMessage `json:"system_prompt"`
	DynamicContext         json.RawMessage `json:"dynamic_context"`
	Summary                json.RawMessage `json:"summary"`
	Key                    string          `json:"key"`
	Value                  json.RawMessage `json:"value"`
	// V0
	Message          string          `json:"message"`
	Args             json.RawMessage `json:"args"`
	Content          json.RawMessage `json:"content"`
	Cause            json.RawMessage `json:"cause"`
	ToolCallMetadata json.RawMessage `json:"tool_call_metadata"`
}

// eventID is an event id (a number in V0, a string in V1) as a string.
func eventID(raw json.RawMessage) string {
	if kind(raw) == '"' {
		return jsonString(raw)
	}
	if isNull(raw) {
		return ""
	}
	return string(bytes.TrimSpace(raw))
}

// event reads the i-th event.
func (r *ohReader) event(raw json.RawMessage, i int, l loc) error {
	var e ohRaw
	if err := decode(raw, &e); err != nil {
		return r.b.bad(l.at(raw, err), "%v", err)
	}
	id := eventID(e.ID)
	if id == "" {
		id = fmt.Sprintf("e%d", i)
	}
	start := len(r.b.msgs)
	defer func() {
		if len(r.b.msgs) > start {
			r.evMsgs = append(r.evMsgs, ohMsgSpan{id: id, start: start, end: len(r.b.msgs)})
		}
	}()
	switch {
	case e.Kind != "":
		return r.v1(&e, raw, id, l)
	case kind(e.Action) == '"':
		return r.v0Action(&e, raw, id, l)
	case kind(e.Observation) == '"':
		return r.v0Observation(&e, id, l)
	}
	return r.b.bad(l, "neither a \"kind\", an \"action\" nor an \"observation\"")
}

// v1 reads a software-agent-sdk event.
func (r *ohReader) v1(e *ohRaw, raw json.RawMessage, id string, l loc) error {
	b := r.b
	switch e.Kind {
	case "SystemPromptEvent":
		for _, c := range []json.RawMessage{e.SystemPrompt, e.DynamicContext} {
			if t := ohText(c); t != "" {
				r.system = append(r.system, t)
			}
		}
	case "MessageEvent":
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if kind(e.LLMMessage) != '{' || json.Unmarshal(e.LLMMessage, &m) != nil {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "llm_message")}, "want a message object")
		}
		parts, err := ohContent(m.Content)
		if err != nil {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "llm_message.content")}, "%s", err)
		}
		ext, err := ohContent(e.ExtendedContent)
		if err != nil {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "extended_content")}, "%s", err)
		}
		parts = append(parts, ext...)
		role := condense.RoleUser
		switch m.Role {
		case "assistant":
			role = condense.RoleAssistant
			parts = append(ohThinking(e.LLMMessage), parts...)
		case "system":
			r.system = append(r.system, textOf(parts))
			return nil
		case "user", "":
			if m.Role == "" && e.Source == "agent" {
				role = condense.RoleAssistant
			}
		default:
			return b.bad(loc{line: l.line, path: joinPath(l.path, "llm_message.role")}, "unknown role %q", m.Role)
		}
		b.add(condense.Message{ID: id, Role: role, Parts: parts}, l)
	case "ActionEvent":
		var tc struct {
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if !isNull(e.ToolCall) && json.Unmarshal(e.ToolCall, &tc) != nil {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "tool_call")}, "want a tool call object")
		}
		callID := firstNonEmpty(tc.ID, e.ToolCallID)
		if callID == "" {
			callID = "openhands-" + id
		}
		name := firstNonEmpty(tc.Name, e.ToolName)
		if name == "" {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "tool_name")}, "missing")
		}
		var input json.RawMessage
		switch {
		case kind(tc.Arguments) == '"':
			args := jsonString(tc.Arguments)
			var ok bool
			if input, ok = validInput(args); !ok {
				return b.bad(loc{line: l.line, path: joinPath(l.path, "tool_call.arguments")}, "not valid JSON")
			}
		case kind(tc.Arguments) == '{':
			input = append(json.RawMessage(nil), tc.Arguments...)
		case kind(e.Action) == '{':
			input = withoutKeys(e.Action, "kind")
		default:
			input = json.RawMessage("{}")
		}
		if id != "" {
			r.callByEvent[id] = callID
		}
		call := condense.ToolCall(callID, name, input)
		if e.LLMResponseID != "" {
			if i, ok := r.respMsg[e.LLMResponseID]; ok && i == len(b.msgs)-1 {
				b.msgs[i].m.Parts = append(b.msgs[i].m.Parts, call)
				return nil
			}
		}
		thought, err := ohContent(e.Thought)
		if err != nil {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "thought")}, "%s", err)
		}
		parts := append(ohThinking(raw), thought...)
		parts = append(parts, call)
		b.add(condense.Message{ID: id, Role: condense.RoleAssistant, Parts: parts}, l)
		if e.LLMResponseID != "" {
			r.respMsg[e.LLMResponseID] = len(b.msgs) - 1
		}
		return nil
	case "ObservationEvent", "UserRejectObservation", "AgentErrorEvent":
		callID := e.ToolCallID
		if callID == "" {
			callID = r.callByEvent[eventID(e.ActionID)]
		}
		if callID == "" {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "tool_call_id")}, "missing")
		}
		var parts []condense.Part
		isErr := false
		switch e.Kind {
		case "ObservationEvent":
			var o struct {
				Content json.RawMessage `json:"content"`
				IsError bool            `json:"is_error"`
			}
			if kind(e.Observation) != '{' || json.Unmarshal(e.Observation, &o) != nil {
				return b.bad(loc{line: l.line, path: joinPath(l.path, "observation")}, "want an observation object")
			}
			var err error
			if parts, err = ohContent(o.Content); err != nil {
				return b.bad(loc{line: l.line, path: joinPath(l.path, "observation.content")}, "%s", err)
			}
			ext, err := ohContent(e.ExtendedContent)
			if err != nil {
				return b.bad(loc{line: l.line, path: joinPath(l.path, "extended_content")}, "%s", err)
			}
			parts, isErr = append(parts, ext...), o.IsError
		case "UserRejectObservation":
			reason := "User rejected the action"
			if e.RejectionReason != nil {
				reason = *e.RejectionReason
			}
			parts, isErr = []condense.Part{condense.Text("Action rejected: " + reason)}, true
		default:
			parts, isErr = []condense.Part{condense.Text(jsonString(e.Error))}, true
		}
		b.add(condense.Message{ID: id, Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(callID, isErr, parts...)}}, l)
	case "CondensationSummaryEvent":
		if s := jsonString(e.Summary); s != "" {
			b.add(condense.Message{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text(s)}}, l)
		}
	case "ConversationStateUpdateEvent":
		if e.Key == "stats" {
			var v struct {
				UsageToMetrics map[string]struct {
					ModelName string `json:"model_name"`
				} `json:"usage_to_metrics"`
			}
			if json.Unmarshal(e.Value, &v) == nil && v.UsageToMetrics["default"].ModelName != "" {
				r.model = v.UsageToMetrics["default"].ModelName
			}
		}
	}
	return nil
}

// v0Action reads an action event of the older format.
func (r *ohReader) v0Action(e *ohRaw, raw json.RawMessage, id string, l loc) error {
	b := r.b
	action := jsonString(e.Action)
	var args map[string]json.RawMessage
	if !isNull(e.Args) {
		if kind(e.Args) != '{' || json.Unmarshal(e.Args, &args) != nil {
			return b.bad(loc{line: l.line, path: joinPath(l.path, "args")}, "want an object")
		}
	} else {
		// The oldest saved histories put the args beside "action".
		args = objectKeys(raw)
		for _, k := range ohEventMembers {
			delete(args, k)
		}
		e.Args, _ = json.Marshal(args)
	}
	argStr := func(k string) string { return jsonString(args[k]) }
	switch action {
	case "system":
		if s := argStr("content"); s != "" {
			r.system = append(r.system, s)
		}
		var tools []json.RawMessage
		_ = json.Unmarshal(args["tools"], &tools)
		for i, traw := range tools {
			var t oaiTool
			if json.Unmarshal(traw, &t) != nil || t.Function.Name == "" {
				if err := b.bad(loc{line: l.line, path: joinPath(l.path, fmt.Sprintf("args.tools[%d]", i))}, "want a function tool with a name"); err != nil {
					return err
				}
				continue
			}
			b.req.Tools = append(b.req.Tools, condense.Tool{Name: t.Function.Name,
				Description: t.Function.Description, InputSchema: t.Function.Parameters})
		}
		return nil
	case "message":
		parts := []condense.Part{}
		if s := argStr("content"); s != "" {
			parts = append(parts, condense.Text(s))
		} else if e.Message != "" {
			parts = append(parts, condense.Text(e.Message))
		}
		var urls []string
		_ = json.Unmarshal(args["image_urls"], &urls)
		for _, u := range urls {
			img, ok := ohImage(u)
			if !ok {
				return b.bad(loc{line: l.line, path: joinPath(l.path, "args.image_urls")}, "want an http(s) URL or a base64 data: URL")
			}
			parts = append(parts, img)
		}
		role := condense.RoleUser
		if e.Source == "agent" {
			role = condense.RoleAssistant
		}
		b.add(condense.Message{ID: id, Role: role, Parts: parts}, l)
		return nil
	case "finish":
		text := argStr("thought")
		if tm := ohToolMeta(e.ToolCallMetadata); tm != nil {
			r.noteModel(tm)
			if c := tm.message().Content; c != "" && c != text {
				text = strings.TrimSpace(text + "\n" + c)
			}
		}
		if text == "" {
			text = firstNonEmpty(argStr("final_thought"), e.Message)
		}
		if text != "" {
			b.add(condense.Message{ID: id, Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}}, l)
		}
		return nil
	case "condensation", "recall", "change_agent_state", "null", "condensation_request",
		"pause", "resume", "stop", "reject", "loop_recovery", "start":
		return nil
	}
	if e.Source == "user" && isNull(e.ToolCallMetadata) {
		text := e.Message
		if action == "run" {
			text = "User executed the command:\n" + argStr("command")
		}
		if text != "" {
			b.add(condense.Message{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text(text)}}, l)
		}
		return nil
	}
	tm := ohToolMeta(e.ToolCallMetadata)
	if tm == nil {
		// An action without native tool calling: a synthesized call the
		// observation naming this event as its cause answers.
		callID := "openhands-" + id
		r.callByEvent[id] = callID
		r.pending = callID
		var parts []condense.Part
		if t := argStr("thought"); t != "" {
			parts = append(parts, condense.Text(t))
		}
		parts = append(parts, condense.ToolCall(callID, action, withoutKeys(e.Args, "thought")))
		b.add(condense.Message{ID: id, Role: condense.RoleAssistant, Parts: parts}, l)
		return nil
	}
	r.noteModel(tm)
	if tm.ToolCallID != "" {
		r.callByEvent[id] = tm.ToolCallID
	}
	resp := tm.responseID()
	if i, ok := r.respMsg[resp]; ok && resp != "" {
		// The response's message already holds its calls (the actions of
		// one response may come between the observations of the earlier
		// ones); add this one when the response did not list it.
		if !hasCall(b.msgs[i].m.Parts, tm.ToolCallID) {
			call, err := r.v0Call(tm, e, l)
			if err != nil || call == nil {
				return err
			}
			b.msgs[i].m.Parts = append(b.msgs[i].m.Parts, *call)
		}
		return nil
	}
	var parts []condense.Part
	msg := tm.message()
	if msg.raw != nil {
		parts = append(parts, ohThinking(msg.raw)...)
	}
	if t := strings.TrimSpace(msg.Content); t != "" {
		parts = append(parts, condense.Text(msg.Content))
	} else if t := argStr("thought"); t != "" {
		parts = append(parts, condense.Text(t))
	}
	for j, craw := range msg.ToolCalls {
		var tc oaiToolCall
		if json.Unmarshal(craw, &tc) != nil || tc.ID == "" || tc.Function.Name == "" {
			if err := b.bad(loc{line: l.line, path: joinPath(l.path, fmt.Sprintf("tool_call_metadata.model_response.choices[0].message.tool_calls[%d]", j))}, "want a tool call with an id and a function name"); err != nil {
				return err
			}
			continue
		}
		input, ok := validInput(tc.Function.Arguments)
		if !ok {
			if err := b.bad(loc{line: l.line, path: joinPath(l.path, fmt.Sprintf("tool_call_metadata.model_response.choices[0].message.tool_calls[%d].function.arguments", j))}, "not valid JSON"); err != nil {
				return err
			}
			continue
		}
		if hasCall(parts, tc.ID) {
			continue
		}
		parts = append(parts, condense.ToolCall(tc.ID, tc.Function.Name, input))
	}
	if !hasCall(parts, tm.ToolCallID) {
		call, err := r.v0Call(tm, e, l)
		if err != nil {
			return err
		}
		if call != nil {
			parts = append(parts, *call)
		}
	}
	b.add(condense.Message{ID: id, Role: condense.RoleAssistant, Parts: parts}, l)
	if resp != "" {
		r.respMsg[resp] = len(b.msgs) - 1
	}
	return nil
}

// ohEventMembers are the members of a V0 event that are not its args.
var ohEventMembers = []string{"id", "timestamp", "source", "message", "action", "observation", "cause",
	"tool_call_metadata", "timeout", "llm_metrics", "action_risk", "security_risk"}

// v0Call is the tool call of a V0 action whose model response does not
// list it: the metadata's function name and call id, the args as input.
func (r *ohReader) v0Call(tm *ohMeta, e *ohRaw, l loc) (*condense.Part, error) {
	if tm.ToolCallID == "" || tm.FunctionName == "" {
		return nil, r.b.bad(loc{line: l.line, path: joinPath(l.path, "tool_call_metadata")}, "want a function_name and a tool_call_id")
	}
	call := condense.ToolCall(tm.ToolCallID, tm.FunctionName, withoutKeys(e.Args, "thought"))
	return &call, nil
}

// v0Observation reads an observation event of the older format.
func (r *ohReader) v0Observation(e *ohRaw, id string, l loc) error {
	b := r.b
	obs := jsonString(e.Observation)
	switch obs {
	case "agent_state_changed", "null", "recall", "loop_detection", "success":
		return nil
	}
	content := ""
	switch kind(e.Content) {
	case '"':
		content = jsonString(e.Content)
	case 0, 'n':
	default:
		return b.bad(loc{line: l.line, path: joinPath(l.path, "content")}, "want a string")
	}
	callID := ""
	if tm := ohToolMeta(e.ToolCallMetadata); tm != nil {
		callID = tm.ToolCallID
	}
	if callID == "" {
		callID = r.callByEvent[eventID(e.Cause)]
	}
	if callID == "" && isNull(e.Cause) && r.pending != "" && len(b.msgs) > 0 && hasCall(b.msgs[len(b.msgs)-1].m.Parts, r.pending) {
		// The oldest histories link nothing: an observation right after a
		// synthesized call answers it.
		callID = r.pending
	}
	r.pending = ""
	if callID == "" {
		if content == "" {
			content = e.Message
		}
		if content != "" {
			b.add(condense.Message{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text(content)}}, l)
		}
		return nil
	}
	isErr := obs == "error" || obs == "user_rejected"
	b.add(condense.Message{ID: id, Role: condense.RoleTool, Parts: []condense.Part{
		condense.ToolResult(callID, isErr, condense.Text(content))}}, l)
	return nil
}

// ohMeta is a V0 event's tool_call_metadata.
type ohMeta struct {
	FunctionName  string          `json:"function_name"`
	ToolCallID    string          `json:"tool_call_id"`
	ModelResponse json.RawMessage `json:"model_response"`
}

func ohToolMeta(raw json.RawMessage) *ohMeta {
	if kind(raw) != '{' {
		return nil
	}
	var m ohMeta
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return &m
}

// ohRespMsg is the message of a model response, and the message itself.
type ohRespMsg struct {
	Content   string
	ToolCalls []json.RawMessage
	raw       json.RawMessage
}

func (m *ohMeta) response() (id, model string, msg ohRespMsg) {
	var resp struct {
		ID      string `json:"id"`
		Model   string `json:"model"`
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	if kind(m.ModelResponse) != '{' || json.Unmarshal(m.ModelResponse, &resp) != nil {
		return "", "", ohRespMsg{}
	}
	if len(resp.Choices) > 0 && kind(resp.Choices[0].Message) == '{' {
		var cm struct {
			Content   json.RawMessage   `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		}
		if json.Unmarshal(resp.Choices[0].Message, &cm) == nil {
			msg = ohRespMsg{Content: jsonString(cm.Content), ToolCalls: cm.ToolCalls, raw: resp.Choices[0].Message}
		}
	}
	return resp.ID, resp.Model, msg
}

func (m *ohMeta) responseID() string { id, _, _ := m.response(); return id }
func (m *ohMeta) message() ohRespMsg { _, _, msg := m.response(); return msg }

func (r *ohReader) noteModel(m *ohMeta) {
	if _, model, _ := m.response(); model != "" {
		r.model = model
	}
}

func hasCall(parts []condense.Part, id string) bool {
	for _, p := range parts {
		if p.Type == condense.PartToolCall && p.ID == id {
			return true
		}
	}
	return false
}

// scanCondensations finds the last condensation with a summary and the
// events it and the condensations before it forget.
func (r *ohReader) scanCondensations(events []ohEvent) {
	forgotten := map[string]bool{}
	for i, ev := range events {
		var c struct {
			ID                json.RawMessage `json:"id"`
			Kind              string          `json:"kind"`
			Action            json.RawMessage `json:"action"`
			Args              json.RawMessage `json:"args"`
			ForgottenEventIDs json.RawMessage `json:"forgotten_event_ids"`
			Summary           json.RawMessage `json:"summary"`
		}
		if json.Unmarshal(ev.raw, &c) != nil {
			continue
		}
		src := c
		switch {
		case c.Kind == "Condensation":
		case c.Kind == "" && jsonString(c.Action) == "condensation":
			var a struct {
				ForgottenEventIDs json.RawMessage `json:"forgotten_event_ids"`
				Start             *int64          `json:"forgotten_events_start_id"`
				End               *int64          `json:"forgotten_events_end_id"`
				Summary           json.RawMessage `json:"summary"`
			}
			if json.Unmarshal(c.Args, &a) != nil {
				continue
			}
			src.ForgottenEventIDs, src.Summary = a.ForgottenEventIDs, a.Summary
			// A range of event ids (ids count up from 0); a range wider
			// than any event log is not read.
			if a.Start != nil && a.End != nil && *a.Start >= 0 && *a.End >= *a.Start && *a.End-*a.Start <= 1<<16 {
				for n := *a.Start; n <= *a.End; n++ {
					forgotten[fmt.Sprint(n)] = true
				}
			}
		default:
			continue
		}
		var ids []json.RawMessage
		_ = json.Unmarshal(src.ForgottenEventIDs, &ids)
		for _, id := range ids {
			forgotten[eventID(id)] = true
		}
		if s := jsonString(src.Summary); strings.TrimSpace(s) != "" {
			r.cpSummary = s
			r.cpSource = fmt.Sprintf("openhands condensation %s", ev.loc("", i).describe())
			r.forgotten = maps.Clone(forgotten)
		}
	}
}

func (l loc) describe() string {
	if l.line > 0 {
		return fmt.Sprintf("at line %d", l.line)
	}
	return "at " + l.path
}

// placeCheckpoint imports the condensation found by scanCondensations when
// the messages it forgets are the oldest ones, save for user text messages
// kept before them.
func (r *ohReader) placeCheckpoint() {
	if r.cpSummary == "" {
		return
	}
	b := r.b
	// The messages: kept user texts first, then forgotten ones, then kept
	// ones.
	var lead []string
	first := -1 // the first kept message after the forgotten ones
	state := 0  // 0: leading kept, 1: forgotten, 2: kept after
	for _, sp := range r.evMsgs {
		f := r.forgotten[sp.id]
		switch {
		case state == 0 && !f:
			for _, rm := range b.msgs[sp.start:sp.end] {
				if rm.m.Role != condense.RoleUser || !onlyText(rm.m.Parts) {
					r.noteUnfit("it keeps a message other than user text before the events it forgets")
					return
				}
				lead = append(lead, rm.m.TextContent())
			}
		case state == 0 && f:
			state = 1
		case state == 1 && !f:
			state, first = 2, sp.start
		case state == 2 && f:
			r.noteUnfit("it forgets events that follow kept ones")
			return
		}
	}
	if state == 0 {
		r.noteUnfit("none of the events it forgets is in the log")
		return
	}
	if first < 0 {
		first = len(b.msgs)
	}
	summary := strings.Join(append(lead, r.cpSummary), "\n\n")
	b.cp = &rawCheckpoint{summary: summary, at: first, source: r.cpSource}
}

func (r *ohReader) noteUnfit(why string) {
	r.b.note(NoteConverted, loc{}, "%s not imported as a checkpoint: %s; its summary is left out and the messages stay", r.cpSource, why)
}

func onlyText(parts []condense.Part) bool {
	for _, p := range parts {
		if p.Type != condense.PartText {
			return false
		}
	}
	return true
}

// ohContent reads OpenHands content: a string, null, a text content object
// or a list of text ({"type": "text", "text"}) and image ({"type": "image",
// "image_urls"}) contents.
func ohContent(raw json.RawMessage) ([]condense.Part, error) {
	switch kind(raw) {
	case 0, 'n':
		return nil, nil
	case '"':
		if s := jsonString(raw); s != "" {
			return []condense.Part{condense.Text(s)}, nil
		}
		return nil, nil
	case '{':
		raw = append(append(json.RawMessage("["), raw...), ']')
	case '[':
	default:
		return nil, fmt.Errorf("want a string or a list of contents")
	}
	var items []struct {
		Type      string   `json:"type"`
		Text      *string  `json:"text"`
		ImageURLs []string `json:"image_urls"`
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("want a list of text and image contents")
	}
	var parts []condense.Part
	for i, it := range items {
		switch it.Type {
		case "text", "":
			if it.Text == nil {
				return nil, fmt.Errorf("content %d: text missing", i)
			}
			if *it.Text != "" {
				parts = append(parts, condense.Text(*it.Text))
			}
		case "image":
			for _, u := range it.ImageURLs {
				img, ok := ohImage(u)
				if !ok {
					return nil, fmt.Errorf("content %d: want an http(s) URL or a base64 data: URL", i)
				}
				parts = append(parts, img)
			}
		default:
			return nil, fmt.Errorf("content %d: unknown type %q", i, it.Type)
		}
	}
	return parts, nil
}

// ohImage is the image at an http(s) URL or in a base64 data: URL.
func ohImage(url string) (condense.Part, bool) {
	if !strings.HasPrefix(url, "data:") && !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return condense.Part{}, false
	}
	return imageFromURL(url)
}

// ohText is the text of a text content object (or a string).
func ohText(raw json.RawMessage) string {
	parts, err := ohContent(raw)
	if err != nil {
		return ""
	}
	return textOf(parts)
}

func textOf(parts []condense.Part) string {
	m := condense.Message{Parts: parts}
	return m.TextContent()
}

// ohThinking is the thinking of an action event or an LLM message: its
// thinking blocks, else its reasoning content, else the summary and
// content of its Responses reasoning item (without a signature).
func ohThinking(raw json.RawMessage) []condense.Part {
	if parts := litellmThinking(raw); len(parts) > 0 {
		return parts
	}
	var m struct {
		Item *struct {
			Summary []string `json:"summary"`
			Content []string `json:"content"`
		} `json:"responses_reasoning_item"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Item == nil {
		return nil
	}
	text := strings.TrimSpace(strings.Join(append(m.Item.Summary, m.Item.Content...), "\n\n"))
	if text == "" {
		return nil
	}
	return []condense.Part{condense.Thinking(text, "")}
}

// withoutKeys returns the object raw without the given members, "{}" when
// raw is not an object.
func withoutKeys(raw json.RawMessage, keys ...string) json.RawMessage {
	m := objectKeys(raw)
	if m == nil {
		return json.RawMessage("{}")
	}
	for _, k := range keys {
		delete(m, k)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return json.RawMessage("{}")
	}
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
