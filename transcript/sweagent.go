package transcript

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// readChatList reads chat messages (OpenAI shape), leading system messages
// becoming the system text. toolIDs, when set, returns the call ids a tool
// message answers (SWE-agent's tool_call_ids). msgs are views of the
// document, each released once read (see docArena).
func readChatList(b *builder, msgs []json.RawMessage, path string, toolIDs func(json.RawMessage) []string) error {
	leading := true
	var system []string
	for i, raw := range msgs {
		p := fmt.Sprintf("%s[%d]", path, i)
		l := loc{path: p}
		if toolIDs != nil {
			if ids := toolIDs(raw); len(ids) > 0 {
				var e struct {
					Content rawView `json:"content"`
				}
				_ = json.Unmarshal(raw, &e)
				content, rerr := oaiContent(json.RawMessage(e.Content), p+".content")
				if rerr != nil {
					if err := b.bad(rerr.loc, "%s", rerr.msg); err != nil {
						return err
					}
					continue
				}
				m := condense.Message{Role: condense.RoleTool}
				for _, id := range ids {
					m.Parts = append(m.Parts, condense.ToolResult(id, false, content...))
				}
				leading = false
				b.release(raw)
				b.add(m, l)
				continue
			}
		}
		m, rerr := oaiMessage(raw, p)
		if rerr != nil {
			if err := b.bad(rerr.loc, "%s", rerr.msg); err != nil {
				return err
			}
			continue
		}
		if m.Role == condense.RoleAssistant {
			m.Parts = append(litellmThinking(raw), m.Parts...)
		}
		b.release(raw)
		b.keep(&m)
		if m.Role == condense.RoleSystem && leading {
			system = append(system, m.TextContent())
			continue
		}
		leading = false
		b.add(m, l)
	}
	b.req.System = strings.Join(system, "\n\n")
	return nil
}

// SWE-agent .traj files: {"trajectory": [steps], "history": [messages],
// "info", "replay_config"}. The history, when present, is what the model
// saw and is preferred: chat messages, with tool_calls on assistant
// messages and tool_call_ids on tool messages in the function-calling
// variant, plain text in the text-action variant. Replayed demonstrations
// give later calls the id of an earlier one; such a call gets a new id
// "<id>~<n>" (a NoteRekeyed note; the file's id is kept in
// Transcript.OriginalIDs) and the results after it answer it. Without a
// history, each
// trajectory step becomes an assistant message (its response, else its
// thought and action) and a user message (its observation). The model is
// replay_config's agent.model.name when there is one.
func readSWEAgent(b *builder, data []byte) error {
	var doc struct { // views of data, not copies
		Trajectory   []rawView `json:"trajectory"`
		History      []rawView `json:"history"`
		ReplayConfig rawView   `json:"replay_config"`
	}
	if err := decode(data, &doc); err != nil {
		return b.docErr(data, err)
	}
	b.req.Model = sweModel(json.RawMessage(doc.ReplayConfig))
	b.rekey = true
	if len(doc.History) > 0 {
		return readChatList(b, views(doc.History), "history", func(raw json.RawMessage) []string {
			var e struct {
				Role        string          `json:"role"`
				ToolCallIDs json.RawMessage `json:"tool_call_ids"`
			}
			if json.Unmarshal(raw, &e) != nil || e.Role != "tool" {
				return nil
			}
			var ids []string
			_ = json.Unmarshal(e.ToolCallIDs, &ids)
			return ids
		})
	}
	if doc.Trajectory == nil {
		return b.errAt(loc{path: "trajectory"}, "missing (and no history)")
	}
	for i, raw := range doc.Trajectory {
		p := fmt.Sprintf("trajectory[%d]", i)
		var st struct {
			Response    *string `json:"response"`
			Thought     string  `json:"thought"`
			Action      string  `json:"action"`
			Observation *string `json:"observation"`
		}
		if err := decode(raw, &st); err != nil {
			if err := b.bad(loc{path: p}, "%v", err); err != nil {
				return err
			}
			continue
		}
		reply := ""
		switch {
		case st.Response != nil && *st.Response != "":
			reply = *st.Response
		case st.Action != "":
			reply = strings.TrimSpace(st.Thought + "\n\n```\n" + st.Action + "\n```")
		default:
			reply = st.Thought
		}
		if reply != "" {
			b.add(condense.AssistantText(reply), loc{path: p + ".response"})
		}
		b.release(raw)
		if st.Observation != nil && *st.Observation != "" {
			b.add(condense.UserText(*st.Observation), loc{path: p + ".observation"})
		}
	}
	return nil
}

func sweModel(raw json.RawMessage) string {
	if kind(raw) == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		raw = json.RawMessage(s)
	}
	var rc struct {
		Agent struct {
			Model struct {
				Name string `json:"name"`
			} `json:"model"`
		} `json:"agent"`
	}
	if kind(raw) != '{' || json.Unmarshal(raw, &rc) != nil {
		return ""
	}
	return rc.Agent.Model.Name
}
