package ledger

import (
	"strings"

	"github.com/condense-dev/condense"
)

// Observations marks the user messages of msgs that are tool output an agent
// relays in the user's role rather than the user's own words by where they
// stand: in a text-protocol log, a user message that answers an assistant
// message holding a fenced block. Callers add the messages whose text opens
// the way relayed output does (IsObservation), in any log.
//
// A text-protocol log is one whose messages hold no tool call and no tool
// result: the agent (SWE-agent, mini-swe-agent and the agents built like
// them) writes its action as a fenced block in its reply, and the harness
// sends back the action's output as the next user message, in whatever shape
// its templates give it. Recognising that exchange by its structure, not by
// the output's first words, keeps a harness with templates of its own from
// turning hundreds of outputs into "requests" and burying the user's real
// ones among them. When msgs start the log (base 0) their first user message
// is the task, never an observation.
//
// The result has one entry per message.
func Observations(msgs []condense.Message, base int) []bool {
	obs := make([]bool, len(msgs))
	for i := range msgs {
		for _, p := range msgs[i].Parts {
			if p.Type == condense.PartToolCall || p.Type == condense.PartToolResult {
				return obs
			}
		}
	}
	task := base == 0
	action := false // the latest assistant message holds a fenced block
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case condense.RoleAssistant:
			action = FencedBlock(m.TextContent())
		case condense.RoleUser:
			if task {
				task = false
				action = false
				continue
			}
			obs[i] = action
			action = false
		}
	}
	return obs
}

// FencedBlock reports whether text holds a Markdown fenced block: a line
// that opens with three backquotes.
func FencedBlock(text string) bool {
	for rest := text; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			return true
		}
	}
	return false
}
