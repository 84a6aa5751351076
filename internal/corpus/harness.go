package corpus

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// harness is an agent as it writes its transcript: a transcript format in
// one of its variants, a tool set, a model, a working directory, a system
// prompt and how the task is wrapped. Harnesses are split by half; every
// format family has a variant in each half, while the tool sets of real
// agents (Claude Code, Codex, SWE-agent, OpenHands) are facts of those
// agents and appear wherever their format does.
type harness struct {
	name    string
	format  string // the transcript format, as condense --format names it
	ext     string
	tools   string // toolsets key
	model   string
	root    func(p *project) string
	system  string
	wrap    func(g *gen, task string) string
	readSep string // Claude Code's line-number separator
	// reminder: Claude Code adds a system reminder to file reads.
	reminder bool
	thinking bool
	parallel bool
	// narrate: every step has text (agents whose format requires a thought).
	narrate bool
	// scale shrinks tool outputs for formats that store them twice.
	scale  float64
	write  func(g *gen) ([]byte, error)
	callID func(g *gen) string
}

func hKey(h *harness) string { return h.name }

func toolu(g *gen) string { return "toolu_01" + g.r.b62(22) }
func callOAI(g *gen) string {
	return "call_" + g.r.b62(24)
}

func plainTask(g *gen, task string) string { return task }

var harnesses = newSplit("harnesses", []*harness{
	{
		name: "claude-code-blocks", format: "claude-code", ext: ".jsonl", tools: "claude-code", model: "claude-sonnet-4-5-20250929",
		root: func(p *project) string { return "/home/dev/" + p.name }, readSep: "→", reminder: true, thinking: true, parallel: true, scale: 1,
		wrap: plainTask, write: writeClaudeCode, callID: toolu,
	},
	{
		name: "openai-chat-generic", format: "openai", ext: ".json", tools: "generic-a", model: "gpt-4.1",
		root:     func(p *project) string { return "/srv/" + p.name },
		system:   "You are a coding agent working in a {lang} repository. Use the tools to read, search and change the code. Keep changes minimal and run the tests before you finish.",
		parallel: true, scale: 1, wrap: plainTask, write: writeOpenAIObject, callID: callOAI,
	},
	{
		name: "anthropic-openhands", format: "anthropic", ext: ".json", tools: "openhands", model: "claude-sonnet-4-5",
		root:     func(p *project) string { return "/workspace/" + p.name },
		system:   "You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.\n\n<ROLE>\nYour primary role is to assist users by executing commands, modifying code, and solving technical problems effectively.\n</ROLE>",
		thinking: true, parallel: true, scale: 1, write: writeAnthropicBlocks, callID: toolu,
		wrap: func(g *gen, task string) string {
			return fmt.Sprintf("<uploaded_files>\n%s\n</uploaded_files>\nI've uploaded a code repository in the directory %s. Consider the following issue description:\n\n<issue_description>\n%s\n</issue_description>\n\nCan you help me implement the necessary changes to the repository so that the requirements specified in the <issue_description> are met?", g.root, g.root, task)
		},
	},
	{
		name: "codex-shell-patch", format: "codex", ext: ".jsonl", tools: "codex", model: "gpt-5-codex",
		root:     func(p *project) string { return "/Users/sam/src/" + p.name },
		system:   "You are Codex, a coding agent running in the Codex CLI on a user's computer. Use the shell tool to run commands and apply_patch to edit files. Keep your answers concise.",
		thinking: true, scale: 1, wrap: plainTask, write: writeCodexJSONOutput, callID: callOAI,
	},
	{
		name: "mini-swe-agent", format: "mini-swe-agent", ext: ".traj.json", tools: "mini-swe-agent", model: "anthropic/claude-sonnet-4-5-20250929",
		root:    func(p *project) string { return "/testbed" },
		system:  "You are a helpful assistant that can interact with a computer shell to solve programming tasks.",
		narrate: true, scale: 0.9, write: writeMiniSWE, callID: callOAI,
		wrap: func(g *gen, task string) string {
			return "<pr_description>\nConsider the following PR description:\n" + task + "\n</pr_description>\n\n<instructions>\n# Task Instructions\n\n## Overview\nYou're a software engineer interacting continuously with a computer by submitting commands.\nYour response must contain exactly ONE bash code block with ONE command (or commands connected with && or ||).\nInclude a THOUGHT section before your command where you explain your reasoning process.\n</instructions>"
		},
	},
	{
		name: "swe-agent-function-calling", format: "swe-agent", ext: ".traj", tools: "swe-agent-fc", model: "claude-3-7-sonnet-20250219",
		root:    func(p *project) string { return "/repo" },
		system:  "SETTING: You are an autonomous programmer, and you're working directly in the command line with a special interface.\n\nThe special interface consists of a file editor that shows you 100 lines of a file at a time.",
		narrate: true, scale: 0.6, write: writeSWEAgentFC, callID: callOAI, wrap: sweTask,
	},
}, []*harness{
	{
		name: "claude-code-merged", format: "claude-code", ext: ".jsonl", tools: "claude-code", model: "claude-opus-4-1-20250805",
		root: func(p *project) string { return "/Users/maria/code/" + p.name }, readSep: "\t", parallel: true, scale: 1,
		wrap: plainTask, write: writeClaudeCodeMerged, callID: toolu,
	},
	{
		name: "openai-array-generic", format: "openai", ext: ".json", tools: "generic-b", model: "",
		root:     func(p *project) string { return "/work/" + p.name },
		system:   "You are an autonomous software engineer. You can view files, execute commands and edit code through function calls. Think before you act and verify your changes.",
		parallel: true, scale: 1, wrap: plainTask, write: writeOpenAIArray, callID: callOAI,
	},
	{
		name: "anthropic-text-editor", format: "anthropic", ext: ".json", tools: "text-editor", model: "claude-sonnet-4-20250514",
		root:     func(p *project) string { return "/home/agent/" + p.name },
		system:   "You are an expert software engineer operating inside a sandboxed Linux machine. Use the bash tool and the text editor tool to investigate and fix the problem the user describes.",
		parallel: true, scale: 1, wrap: plainTask, write: writeAnthropicString, callID: toolu,
	},
	{
		name: "codex-custom-patch", format: "codex", ext: ".jsonl", tools: "codex", model: "gpt-5",
		root:     func(p *project) string { return "/home/ci/work/" + p.name },
		system:   "You are a coding agent running in the Codex CLI, a terminal-based coding assistant. You are expected to be precise, safe, and helpful.",
		thinking: true, scale: 1, wrap: plainTask, write: writeCodexTextOutput, callID: callOAI,
	},
	{
		name: "swe-agent-text", format: "swe-agent", ext: ".traj", tools: "swe-agent", model: "gpt-4o-2024-08-06",
		root:    func(p *project) string { return "/" + p.name + "__repo" },
		system:  "SETTING: You are an autonomous programmer, and you're working directly in the command line with a special interface.\n\nCOMMANDS:\nopen:\n  docstring: opens the file at the given path in the editor.\n  signature: open \"<path>\" [<line_number>]\nedit:\n  docstring: replaces lines <start_line> through <end_line> (inclusive) with the given text in the open file.\n  signature: edit <start_line>:<end_line>\n<replacement_text>\nend_of_edit\nsubmit:\n  docstring: submits your current code and terminates the session",
		narrate: true, scale: 0.6, write: writeSWEAgentText, callID: callOAI, wrap: sweTask,
	},
	{
		name: "openai-chat-openhands", format: "openai", ext: ".json", tools: "openhands", model: "gpt-4o",
		root:     func(p *project) string { return "/workspace/" + p.name },
		system:   "You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.\n<IMPORTANT>\n* If user provides a path, you should NOT assume it's relative to the current working directory.\n</IMPORTANT>",
		parallel: true, scale: 1, write: writeOpenAIOpenHands, callID: callOAI,
		wrap: func(g *gen, task string) string {
			return fmt.Sprintf("<uploaded_files>\n%s\n</uploaded_files>\n\n%s", g.root, task)
		},
	},
}, hKey)

func sweTask(g *gen, task string) string {
	return "We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\n" + task +
		"\n\nINSTRUCTIONS:\nNow, you're going to solve this issue on your own. Your terminal session has started and you're in the repository's root directory. Edit all the files you need to and run any checks or tests that you want.\nRemember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME.\nWhen you're satisfied with all of the changes you've made, you can submit your changes to the code base by simply running the submit command.\n\n(Open file: n/a)\n(Current directory: " + g.root + ")\nbash-$"
}

func (g *gen) systemPrompt() string {
	return fill(g.h.system, map[string]string{"lang": map[string]string{"go": "Go", "python": "Python", "ts": "TypeScript", "rust": "Rust", "java": "Java", "ops": "infrastructure"}[g.l.name]})
}

func (g *gen) signature() string {
	b := make([]byte, 96)
	for i := range b {
		b[i] = byte(g.r.next())
	}
	return base64.StdEncoding.EncodeToString(b)
}

// inputSchema is a JSON schema for a tool definition's properties
// ("name" or "name:type").
func inputSchema(d toolDef) obj {
	props := obj{}
	for _, p := range d.props {
		name, typ, ok := strings.Cut(p, ":")
		if !ok {
			typ = "string"
		}
		s := obj{{"type", typ}}
		if typ == "array" {
			s = append(s, kv{"items", obj{{"type", "integer"}}})
		}
		props = append(props, kv{name, s})
	}
	req := d.required
	if req == nil {
		req = []string{}
	}
	return obj{{"type", "object"}, {"properties", props}, {"required", req}}
}

// inputJSON is a call's input as a JSON string.
func inputJSON(c *call) string {
	b, _ := marshal(c.input)
	return string(b)
}
