package ledger

import (
	"testing"
)

func TestParseItemRoundTrip(t *testing.T) {
	items := []Item{
		{Kind: KindFile, Value: "internal/x.go", Access: Written},
		{Kind: KindFile, Value: "a b.go", Access: Read},
		{Kind: KindFile, Value: "docs/readme.md"},
		{Kind: KindCommand, Value: "go test ./...", Exit: exit(1)},
		{Kind: KindCommand, Value: "make", Exit: exit(0)},
		{Kind: KindCommand, Value: "npm run build", Failed: true},
		{Kind: KindError, Value: "panic: runtime error: index out of range [3] with length 3"},
		{Kind: KindMeasurement, Value: "p99 latency: 703.1ms"},
		{Kind: KindID, Value: "OPS-4417"},
		{Kind: KindDecision, Value: `We use "optimistic" locking; not SELECT FOR UPDATE.`},
		{Kind: "plan", Value: "Next I'll look at the handler."},
		{Kind: KindError, Value: "tab\there, ünïcode, and a \\ backslash"},
	}
	for _, want := range items {
		line := want.String()
		got, ok := ParseItem(line)
		if !ok {
			t.Errorf("ParseItem(%q) failed", line)
			continue
		}
		if got.String() != line || got.Key() != want.Key() {
			t.Errorf("ParseItem(%q) = %#v, renders %q", line, got, got.String())
		}
	}
}

func TestParseItemRejects(t *testing.T) {
	for _, line := range []string{
		"", "file", "(12 more demoted to recall-only)", "Error: something", `error "unterminated`,
		`command "go test" (exit x)`, `command "go test" trailing`, `file ""`, "File x.go",
	} {
		if it, ok := ParseItem(line); ok {
			t.Errorf("ParseItem(%q) = %#v, want a rejection", line, it)
		}
	}
}
