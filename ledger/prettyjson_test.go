package ledger

import (
	"slices"
	"testing"

	condense "github.com/condense-dev/condense"
)

// An indented JSON record is read whole at its level's line: the error
// items of a tracker's listing printed by jq, not its routine fields.
func TestPrettyRecord(t *testing.T) {
	out := "{\n  \"counter\": 594,\n  \"title\": \"resume: connection reset by peer\",\n  \"level\": \"error\",\n  \"total_occurrences\": 64713\n}\n" +
		"{\n  \"counter\": 881,\n  \"item\": {\n    \"id\": 7\n  },\n  \"title\": \"FastifyError [FST_ERR_CTP_BODY_TOO_LARGE]: Request body is too large (POST /api/sockets, 94296 bytes)\",\n  \"level\": \"error\"\n}\n" +
		"[\n  {\n    \"msg\": \"listening on :8080\",\n    \"level\": \"info\"\n  },\n  {\n    \"level\": \"fatal\",\n    \"msg\": \"pq: password authentication failed for user \\\"app\\\"\"\n  }\n]\n"
	call := condense.ToolCall("c1", "bash", []byte(`{"command":"rollbar-cli items --status active | jq ."}`))
	res := condense.ToolResult("c1", false, condense.Text(out))
	var errs []string
	for _, it := range ExtractResult(&call, &res, 1) {
		if it.Kind == KindError {
			errs = append(errs, it.Value)
		}
	}
	for _, want := range []string{
		"resume: connection reset by peer",
		"FastifyError [FST_ERR_CTP_BODY_TOO_LARGE]: Request body is too large (POST /api/sockets, 94296 bytes)",
		`pq: password authentication failed for user \"app\"`,
	} {
		if !slices.Contains(errs, want) {
			t.Errorf("%q not among the errors %q", want, errs)
		}
	}
	if slices.Contains(errs, "listening on :8080") {
		t.Errorf("an info record read as an error: %q", errs)
	}
}

func TestEnclosingObject(t *testing.T) {
	text := "x\n{\n  \"a\": {\"b\": \"}\"},\n  \"level\": \"warn\",\n  \"c\": [1, {\"d\": 2}]\n},\nrest"
	at := len("x\n{\n  \"a\": {\"b\": \"}\"},\n")
	got, ok := enclosingObject(text, at)
	if want := `{"a": {"b": "}"},"level": "warn","c": [1, {"d": 2}]}`; !ok || got != want {
		t.Errorf("enclosingObject = %q, %v; want %q", got, ok, want)
	}
	if _, ok := enclosingObject("\"level\": \"error\"\n", 0); ok {
		t.Error("an object found with no opening line")
	}
}
