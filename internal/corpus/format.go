package corpus

import (
	"bytes"
	"fmt"
	"strings"
)

// The writers: each writes the session the way its agent saves it.

// ---- Claude Code session JSONL ----

type ccWriter struct {
	g       *gen
	b       bytes.Buffer
	parent  string
	session string
	version string
	branch  string
	n       int
	err     error
}

func (w *ccWriter) uuid() string { return w.g.r.uuid() }

func (w *ccWriter) ts() string {
	w.n++
	s := w.n * 5
	return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%03dZ", w.g.day, 9+s/3600%14, s/60%60, s%60, (w.n*137)%1000)
}

func (w *ccWriter) line(typ string, extra obj, msg any) string {
	id := w.uuid()
	var parent any
	if w.parent != "" {
		parent = w.parent
	}
	rec := obj{{"parentUuid", parent}, {"isSidechain", false}, {"userType", "external"}, {"cwd", w.g.root}, {"sessionId", w.session},
		{"version", w.version}, {"gitBranch", w.branch}, {"type", typ}, {"message", msg}}
	rec = append(rec, extra...)
	rec = append(rec, kv{"uuid", id}, kv{"timestamp", w.ts()})
	w.parent = id
	raw, err := marshal(rec)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.b.Write(raw)
	w.b.WriteByte('\n')
	return id
}

func (w *ccWriter) usage() obj {
	return obj{{"input_tokens", 4 + w.g.r.intn(8)}, {"cache_creation_input_tokens", 200 + w.g.r.intn(4000)}, {"cache_read_input_tokens", 15000 + w.n*900}, {"output_tokens", 40 + w.g.r.intn(700)}}
}

func ccResultUse(c *call) obj {
	if c.name == "Bash" {
		return obj{{"stdout", truncate(c.out, 400)}, {"stderr", ""}, {"interrupted", false}, {"isImage", false}}
	}
	return obj{{"type", "text"}, {"file", obj{{"numLines", strings.Count(c.out, "\n")}}}}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary.
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

// writeClaudeCode writes one line per content block, as Claude Code 2.x
// does: the blocks of one API message share message.id.
func writeClaudeCode(g *gen) ([]byte, error) {
	w := &ccWriter{g: g, session: g.r.uuid(), version: "2.0.31", branch: "fix/" + g.p.name + "-" + pick(g.r, g.p.nouns)}
	for _, t := range g.turns {
		if t.role == "user" {
			w.line("user", nil, obj{{"role", "user"}, {"content", t.text}})
			continue
		}
		mid := "msg_01" + g.r.b62(22)
		req := obj{{"requestId", "req_011C" + g.r.b62(20)}}
		var blocks []obj
		if t.think != "" {
			blocks = append(blocks, obj{{"type", "thinking"}, {"thinking", t.think}, {"signature", g.signature()}})
		}
		if t.text != "" {
			blocks = append(blocks, obj{{"type", "text"}, {"text", t.text}})
		}
		for _, c := range t.calls {
			blocks = append(blocks, obj{{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", c.input}})
		}
		for _, bl := range blocks {
			w.line("assistant", req, obj{{"id", mid}, {"type", "message"}, {"role", "assistant"}, {"model", g.h.model}, {"content", []obj{bl}},
				{"stop_reason", nil}, {"stop_sequence", nil}, {"usage", w.usage()}})
		}
		for i := range t.calls {
			c := &t.calls[i]
			w.line("user", obj{{"toolUseResult", ccResultUse(c)}}, obj{{"role", "user"}, {"content", []obj{{{"tool_use_id", c.id}, {"type", "tool_result"}, {"content", c.out}, {"is_error", c.isErr}}}}})
		}
	}
	return w.b.Bytes(), w.err
}

// writeClaudeCodeMerged writes one line per API message (every block of a
// reply on one line, every result of a batch on one line), after a title
// line, as Claude Code 1.0 sessions look.
func writeClaudeCodeMerged(g *gen) ([]byte, error) {
	w := &ccWriter{g: g, session: g.r.uuid(), version: "1.0.72", branch: "main"}
	for _, t := range g.turns {
		if t.role == "user" {
			w.line("user", nil, obj{{"role", "user"}, {"content", t.text}})
			continue
		}
		var blocks []obj
		if t.text != "" {
			blocks = append(blocks, obj{{"type", "text"}, {"text", t.text}})
		}
		for _, c := range t.calls {
			blocks = append(blocks, obj{{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", c.input}})
		}
		stop := "tool_use"
		if len(t.calls) == 0 {
			stop = "end_turn"
		}
		w.line("assistant", obj{{"requestId", "req_" + g.r.b62(24)}}, obj{{"id", "msg_01" + g.r.b62(22)}, {"type", "message"}, {"role", "assistant"}, {"model", g.h.model},
			{"content", blocks}, {"stop_reason", stop}, {"stop_sequence", nil}, {"usage", w.usage()}})
		if len(t.calls) > 0 {
			var res []obj
			for _, c := range t.calls {
				res = append(res, obj{{"type", "tool_result"}, {"tool_use_id", c.id}, {"content", []obj{{{"type", "text"}, {"text", c.out}}}}, {"is_error", c.isErr}})
			}
			w.line("user", nil, obj{{"role", "user"}, {"content", res}})
		}
	}
	title := obj{{"type", "summary"}, {"summary", fmt.Sprintf("Fix %s in %s", pick(g.r, g.p.comps), g.p.name)}, {"leafUuid", w.parent}}
	raw, err := marshal(title)
	if err != nil {
		return nil, err
	}
	return append(append(raw, '\n'), w.b.Bytes()...), w.err
}

// ---- OpenAI chat ----

func oaiTools(ts *toolset) []obj {
	var out []obj
	for _, d := range ts.tools {
		out = append(out, obj{{"type", "function"}, {"function", obj{{"name", d.name}, {"description", d.desc}, {"parameters", inputSchema(d)}}}})
	}
	return out
}

// oaiMessages returns the chat messages; parts writes text as content
// parts instead of strings.
func oaiMessages(g *gen, parts bool) []obj {
	content := func(s string) any {
		if parts {
			return []obj{{{"type", "text"}, {"text", s}}}
		}
		return s
	}
	msgs := []obj{{{"role", "system"}, {"content", content(g.systemPrompt())}}}
	for _, t := range g.turns {
		if t.role == "user" {
			msgs = append(msgs, obj{{"role", "user"}, {"content", content(t.text)}})
			continue
		}
		m := obj{{"role", "assistant"}}
		if t.text != "" {
			m = append(m, kv{"content", content(t.text)})
		} else {
			m = append(m, kv{"content", nil})
		}
		if len(t.calls) > 0 {
			var tc []obj
			for i := range t.calls {
				c := &t.calls[i]
				tc = append(tc, obj{{"id", c.id}, {"type", "function"}, {"function", obj{{"name", c.name}, {"arguments", inputJSON(c)}}}})
			}
			m = append(m, kv{"tool_calls", tc})
		}
		msgs = append(msgs, m)
		for _, c := range t.calls {
			msgs = append(msgs, obj{{"role", "tool"}, {"tool_call_id", c.id}, {"content", c.out}})
		}
	}
	return msgs
}

func writeOpenAIObject(g *gen) ([]byte, error) {
	return indent(obj{{"model", g.h.model}, {"messages", oaiMessages(g, false)}, {"tools", oaiTools(g.ts)}, {"parallel_tool_calls", true}}, "  ")
}

func writeOpenAIOpenHands(g *gen) ([]byte, error) {
	return marshalLine(obj{{"model", g.h.model}, {"max_completion_tokens", 4096}, {"temperature", 0}, {"messages", oaiMessages(g, false)}, {"tools", oaiTools(g.ts)}})
}

func writeOpenAIArray(g *gen) ([]byte, error) {
	return indent(oaiMessages(g, true), " ")
}

func marshalLine(v any) ([]byte, error) {
	raw, err := marshal(v)
	return append(raw, '\n'), err
}

// ---- Anthropic Messages ----

func anthTools(ts *toolset) []obj {
	var out []obj
	for _, d := range ts.tools {
		out = append(out, obj{{"name", d.name}, {"description", d.desc}, {"input_schema", inputSchema(d)}})
	}
	return out
}

// anthMessages returns alternating messages: results and a following user
// text share one user message.
func anthMessages(g *gen, thinking, resultParts bool) []obj {
	var msgs []obj
	var user []obj
	flush := func() {
		if len(user) > 0 {
			msgs = append(msgs, obj{{"role", "user"}, {"content", user}})
			user = nil
		}
	}
	for _, t := range g.turns {
		if t.role == "user" {
			user = append(user, obj{{"type", "text"}, {"text", t.text}})
			continue
		}
		flush()
		var blocks []obj
		if thinking && t.think != "" {
			blocks = append(blocks, obj{{"type", "thinking"}, {"thinking", t.think}, {"signature", g.signature()}})
		}
		if t.text != "" {
			blocks = append(blocks, obj{{"type", "text"}, {"text", t.text}})
		}
		for _, c := range t.calls {
			blocks = append(blocks, obj{{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", c.input}})
		}
		msgs = append(msgs, obj{{"role", "assistant"}, {"content", blocks}})
		for _, c := range t.calls {
			var content any = c.out
			if resultParts {
				content = []obj{{{"type", "text"}, {"text", c.out}}}
			}
			r := obj{{"type", "tool_result"}, {"tool_use_id", c.id}, {"content", content}}
			if c.isErr {
				r = append(r, kv{"is_error", true})
			}
			user = append(user, r)
		}
	}
	flush()
	return msgs
}

func writeAnthropicBlocks(g *gen) ([]byte, error) {
	return indent(obj{{"model", g.h.model}, {"max_tokens", 16000}, {"thinking", obj{{"type", "enabled"}, {"budget_tokens", 4096}}},
		{"system", []obj{{{"type", "text"}, {"text", g.systemPrompt()}, {"cache_control", obj{{"type", "ephemeral"}}}}}},
		{"tools", anthTools(g.ts)}, {"messages", anthMessages(g, true, false)}}, "  ")
}

func writeAnthropicString(g *gen) ([]byte, error) {
	return marshalLine(obj{{"model", g.h.model}, {"max_tokens", 8192}, {"system", g.systemPrompt()}, {"tools", anthTools(g.ts)}, {"messages", anthMessages(g, false, true)}})
}

// ---- Codex rollout JSONL ----

type cxWriter struct {
	g   *gen
	b   bytes.Buffer
	n   int
	err error
}

func (w *cxWriter) line(typ string, payload obj) {
	w.n++
	s := w.n * 3
	rec := obj{{"timestamp", fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%03dZ", w.g.day, 10+s/3600%12, s/60%60, s%60, (w.n*211)%1000)}, {"type", typ}, {"payload", payload}}
	raw, err := marshal(rec)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.b.Write(raw)
	w.b.WriteByte('\n')
}

func (w *cxWriter) msg(role, kind, text string) {
	w.line("response_item", obj{{"type", "message"}, {"role", role}, {"content", []obj{{{"type", kind}, {"text", text}}}}})
}

// writeCodex writes a rollout; textOutput selects the newer result text
// ("Exit code: …") over the older JSON result, and custom apply_patch
// calls over apply_patch run through the shell tool.
func writeCodex(g *gen, textOutput bool) ([]byte, error) {
	w := &cxWriter{g: g}
	meta := obj{{"id", g.r.uuid()}, {"timestamp", fmt.Sprintf("2026-04-%02dT10:00:00.000Z", g.day)}, {"cwd", g.root}, {"originator", "codex_cli_rs"}}
	if textOutput {
		meta = append(meta, kv{"cli_version", "0.58.0"}, kv{"base_instructions", obj{{"text", g.systemPrompt()}}})
	} else {
		meta = append(meta, kv{"cli_version", "0.36.0"}, kv{"instructions", g.systemPrompt()})
	}
	meta = append(meta, kv{"git", obj{{"commit_hash", g.r.hex(40)}, {"branch", "main"}, {"repository_url", "git@github.com:example/" + g.p.name + ".git"}}})
	w.line("session_meta", meta)
	ctx := obj{{"cwd", g.root}, {"approval_policy", "on-request"}, {"sandbox_policy", obj{{"mode", "workspace-write"}}}, {"model", g.h.model}, {"effort", "medium"}, {"summary", "auto"}}
	w.msg("user", "input_text", fmt.Sprintf("<environment_context>\n  <cwd>%s</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>", g.root))
	for _, t := range g.turns {
		if t.role == "user" {
			w.line("turn_context", ctx)
			w.msg("user", "input_text", t.text)
			if textOutput {
				w.line("event_msg", obj{{"type", "user_message"}, {"message", t.text}, {"kind", "plain"}})
			}
			continue
		}
		if t.think != "" {
			w.line("response_item", obj{{"type", "reasoning"}, {"summary", []obj{{{"type", "summary_text"}, {"text", "**" + title(pick(g.r, g.p.verbs)) + "**\n\n" + t.think}}}}, {"content", nil}, {"encrypted_content", "gAAAAAB" + g.r.b62(120)}})
		}
		if t.text != "" {
			w.msg("assistant", "output_text", t.text)
			if textOutput {
				w.line("event_msg", obj{{"type", "agent_message"}, {"message", t.text}})
			}
		}
		for i := range t.calls {
			c := &t.calls[i]
			secs := fmt.Sprintf("%d.%d", g.r.intn(20), g.r.intn(10))
			switch {
			case c.patch && textOutput:
				w.line("response_item", obj{{"type", "custom_tool_call"}, {"status", "completed"}, {"call_id", c.id}, {"name", "apply_patch"}, {"input", c.input.get("patch")}})
				w.line("response_item", obj{{"type", "custom_tool_call_output"}, {"call_id", c.id}, {"output", fmt.Sprintf("Exit code: 0\nWall time: %s seconds\nOutput:\n%s", secs, c.out)}})
				continue
			case c.patch:
				args, _ := marshal(obj{{"command", []string{"apply_patch", c.input.get("patch").(string)}}, {"workdir", g.root}})
				w.line("response_item", obj{{"type", "function_call"}, {"name", "shell"}, {"arguments", string(args)}, {"call_id", c.id}})
			default:
				w.line("response_item", obj{{"type", "function_call"}, {"name", c.name}, {"arguments", inputJSON(c)}, {"call_id", c.id}})
			}
			if textOutput {
				w.line("response_item", obj{{"type", "function_call_output"}, {"call_id", c.id}, {"output", fmt.Sprintf("Exit code: %d\nWall time: %s seconds\nOutput:\n%s", c.exit, secs, c.out)}})
			} else {
				out, _ := marshal(obj{{"output", c.out}, {"metadata", obj{{"exit_code", c.exit}, {"duration_seconds", secs}}}})
				w.line("response_item", obj{{"type", "function_call_output"}, {"call_id", c.id}, {"output", string(out)}})
			}
		}
		if g.r.chance(0.3) {
			w.line("event_msg", obj{{"type", "token_count"}, {"info", obj{{"total_token_usage", obj{{"input_tokens", 10000 + w.n*700}, {"cached_input_tokens", 8000 + w.n*650}, {"output_tokens", 50 + w.n*20}}}}}})
		}
	}
	return w.b.Bytes(), w.err
}

func writeCodexJSONOutput(g *gen) ([]byte, error) { return writeCodex(g, false) }
func writeCodexTextOutput(g *gen) ([]byte, error) { return writeCodex(g, true) }

// ---- mini-swe-agent and SWE-agent trajectories ----

func (g *gen) fenced(t *turn, lang string) string {
	if len(t.calls) == 0 {
		return t.text
	}
	return fmt.Sprintf("%s\n\n```%s\n%s\n```", t.text, lang, t.calls[0].action)
}

func writeMiniSWE(g *gen) ([]byte, error) {
	msgs := []obj{{{"role", "system"}, {"content", g.systemPrompt()}}}
	for _, t := range g.turns {
		if t.role == "user" {
			msgs = append(msgs, obj{{"role", "user"}, {"content", t.text}})
			continue
		}
		text := t.text
		if len(t.calls) > 0 {
			text = "THOUGHT: " + text
		}
		msgs = append(msgs, obj{{"role", "assistant"}, {"content", g.fenced(&turn{text: text, calls: t.calls}, "bash")}})
		for _, c := range t.calls {
			msgs = append(msgs, obj{{"role", "user"}, {"content", c.out}})
		}
	}
	info := obj{{"exit_status", "Submitted"}, {"submission", g.diffText()},
		{"model_stats", obj{{"instance_cost", float64(g.r.intn(400)) / 100}, {"api_calls", g.steps}}}, {"mini_version", "1.14.2"},
		{"config", obj{{"agent", obj{{"step_limit", 300}, {"cost_limit", 5.0}}}, {"model", obj{{"model_name", g.h.model}, {"model_kwargs", obj{{"temperature", 0.0}}}}},
			{"environment", obj{{"cwd", g.root}, {"timeout", 60}}}}}}
	return indent(obj{{"info", info}, {"messages", msgs}, {"trajectory_format", "mini-swe-agent-1"}}, "  ")
}

// sweDoc writes a SWE-agent trajectory: the steps and the history the
// model saw. fc gives assistant messages tool calls.
func sweDoc(g *gen, fc bool) ([]byte, error) {
	var traj []obj
	hist := []obj{{{"role", "system"}, {"content", g.systemPrompt()}, {"agent", "main"}, {"message_type", "system_prompt"}}}
	for _, t := range g.turns {
		if t.role == "user" {
			hist = append(hist, obj{{"role", "user"}, {"content", t.text}, {"agent", "main"}, {"message_type", "observation"}})
			continue
		}
		if len(t.calls) == 0 {
			hist = append(hist, obj{{"role", "assistant"}, {"content", t.text}, {"thought", t.text}, {"action", ""}, {"agent", "main"}, {"message_type", "action"}})
			continue
		}
		c := &t.calls[0]
		response := g.fenced(t, "")
		if fc {
			args := inputJSON(c)
			hist = append(hist, obj{{"role", "assistant"}, {"content", t.text}, {"thought", t.text}, {"action", c.action}, {"agent", "main"},
				{"tool_calls", []obj{{{"function", obj{{"arguments", args}, {"name", c.name}}}, {"id", c.id}, {"type", "function"}}}}, {"message_type", "action"}})
			hist = append(hist, obj{{"role", "tool"}, {"content", c.out}, {"agent", "main"}, {"tool_call_ids", []string{c.id}}, {"message_type", "observation"}})
			response = t.text
		} else {
			hist = append(hist, obj{{"role", "assistant"}, {"content", response}, {"thought", t.text}, {"action", c.action}, {"agent", "main"}, {"message_type", "action"}})
			hist = append(hist, obj{{"role", "user"}, {"content", c.out}, {"agent", "main"}, {"message_type", "observation"}})
		}
		open := "n/a"
		if g.openFile != "" {
			open = g.abs(g.openFile)
		}
		traj = append(traj, obj{{"action", c.action}, {"observation", c.out}, {"response", response}, {"thought", t.text},
			{"execution_time", float64(g.r.intn(5000)) / 1000}, {"state", obj{{"open_file", open}, {"working_dir", g.root}}}})
	}
	rc, _ := marshal(obj{{"agent", obj{{"model", obj{{"name", g.h.model}, {"temperature", 0.0}}}}}, {"env", obj{{"repo", obj{{"repo_name", g.p.name}}}}}})
	info := obj{{"submission", g.diffText()}, {"exit_status", "submitted"}, {"model_stats", obj{{"instance_cost", float64(g.r.intn(400)) / 100}, {"api_calls", g.steps}}}}
	return indent(obj{{"environment", "swe_main"}, {"trajectory", traj}, {"history", hist}, {"info", info}, {"replay_config", string(rc)}}, " ")
}

func writeSWEAgentFC(g *gen) ([]byte, error)   { return sweDoc(g, true) }
func writeSWEAgentText(g *gen) ([]byte, error) { return sweDoc(g, false) }
