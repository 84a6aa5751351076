package condense_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/condense-dev/condense"
)

func call(id string) condense.Part {
	return condense.ToolCall(id, "bash", json.RawMessage(`{"command":"ls"}`))
}

func result(id string) condense.Part { return condense.ToolResult(id, false, condense.Text("ok")) }

func msg(role condense.Role, parts ...condense.Part) condense.Message {
	return condense.Message{Role: role, Parts: parts}
}

func TestValidate(t *testing.T) {
	u := condense.UserText("task")
	tests := []struct {
		name  string
		msgs  []condense.Message
		index int
		kind  condense.Violation
	}{
		{"ok", []condense.Message{u, msg(condense.RoleAssistant, call("a"), call("b")), msg(condense.RoleTool, result("a")), msg(condense.RoleTool, result("b")), condense.AssistantText("done")}, -1, ""},
		{"ok newest step still running", []condense.Message{u, msg(condense.RoleAssistant, call("a"), call("b")), msg(condense.RoleTool, result("a"))}, -1, ""},
		{"ok thinking before calls", []condense.Message{u, msg(condense.RoleAssistant, condense.Thinking("hm", "sig"), call("a")), msg(condense.RoleTool, result("a"))}, -1, ""},
		{"orphan result", []condense.Message{u, msg(condense.RoleAssistant, call("a")), msg(condense.RoleTool, result("a"), result("zz"))}, 2, condense.ViolationOrphanResult},
		{"result before any assistant", []condense.Message{u, msg(condense.RoleTool, result("a"))}, 1, condense.ViolationOrphanResult},
		{"missing result in older step", []condense.Message{u, msg(condense.RoleAssistant, call("a")), condense.UserText("next")}, 1, condense.ViolationMissingResult},
		{"missing result before next assistant", []condense.Message{u, msg(condense.RoleAssistant, call("a")), condense.AssistantText("x")}, 1, condense.ViolationMissingResult},
		{"batch split by user message", []condense.Message{u, msg(condense.RoleAssistant, call("a"), call("b")), msg(condense.RoleTool, result("a")), condense.UserText("hey"), msg(condense.RoleTool, result("b"))}, 3, condense.ViolationSplitBatch},
		{"late result after later step", []condense.Message{u, msg(condense.RoleAssistant, call("a")), msg(condense.RoleTool, result("a")), msg(condense.RoleAssistant, call("b")), msg(condense.RoleTool, result("b"), result("a"))}, 4, condense.ViolationDuplicateCallID},
		{"duplicate call id", []condense.Message{u, msg(condense.RoleAssistant, call("a")), msg(condense.RoleTool, result("a")), msg(condense.RoleAssistant, call("a"))}, 3, condense.ViolationDuplicateCallID},
		{"thinking after call", []condense.Message{u, msg(condense.RoleAssistant, call("a"), condense.Thinking("hm", "sig")), msg(condense.RoleTool, result("a"))}, 1, condense.ViolationThinkingSeparated},
		{"thinking alone before calls", []condense.Message{u, msg(condense.RoleAssistant, condense.Thinking("hm", "sig")), msg(condense.RoleAssistant, call("a")), msg(condense.RoleTool, result("a"))}, 1, condense.ViolationThinkingSeparated},
		{"result in user message", []condense.Message{u, msg(condense.RoleAssistant, call("a")), msg(condense.RoleUser, result("a"))}, 2, condense.ViolationMisplacedPart},
		{"call in tool message", []condense.Message{u, msg(condense.RoleTool, call("a"))}, 1, condense.ViolationMisplacedPart},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := condense.Validate(tt.msgs)
			if tt.index < 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			var ve *condense.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate = %v, want a *ValidationError", err)
			}
			if !errors.Is(err, condense.ErrInvalidHistory) {
				t.Errorf("error does not unwrap to ErrInvalidHistory")
			}
			if ve.Index != tt.index || ve.Violation != tt.kind {
				t.Errorf("got message %d %s, want message %d %s (%v)", ve.Index, ve.Violation, tt.index, tt.kind, err)
			}
		})
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 1, 2, 2})
	f.Add([]byte{0, 1, 3, 0, 2})
	f.Add([]byte{4, 1, 2, 5, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		// Build a history from ops: each byte picks a message shape.
		var msgs []condense.Message
		ids := []string{"a", "b", "c"}
		for i, op := range ops {
			id := ids[i%len(ids)]
			switch op % 6 {
			case 0:
				msgs = append(msgs, condense.UserText("u"))
			case 1:
				msgs = append(msgs, msg(condense.RoleAssistant, call(id)))
			case 2:
				msgs = append(msgs, msg(condense.RoleTool, result(ids[int(op/6)%len(ids)])))
			case 3:
				msgs = append(msgs, condense.AssistantText("x"))
			case 4:
				msgs = append(msgs, msg(condense.RoleAssistant, condense.Thinking("t", "s")))
			case 5:
				msgs = append(msgs, msg(condense.RoleAssistant, call(id), call(id+"2")))
			}
		}
		err := condense.Validate(msgs)
		if err != nil {
			var ve *condense.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("not a ValidationError: %v", err)
			}
			if ve.Index < 0 || ve.Index >= len(msgs) {
				t.Fatalf("index %d out of range (len %d)", ve.Index, len(msgs))
			}
			// The prefix before the offending message is never itself at
			// fault in a way that names a later index.
			return
		}
		// A valid history stays valid when cut after any complete step.
		for _, s := range condense.Steps(msgs) {
			if err := condense.Validate(msgs[:s.End]); err != nil {
				t.Fatalf("prefix up to %d invalid although whole history is valid: %v", s.End, err)
			}
		}
	})
}
