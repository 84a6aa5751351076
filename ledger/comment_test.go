package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestDecisionComments: a comment in a block of code the agent shows that
// records a course set against another is kept as a decision, with its
// marker; a comment that only explains the code is not.
func TestDecisionComments(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Here is the loader:\n\n```python\n# we read TOML with tomllib instead of PyYAML because the file has no anchors\nimport tomllib\n```\n\nTests pass.",
			"# we read TOML with tomllib instead of PyYAML because the file has no anchors"},
		{"```go\n// Decision: retry twice with jitter, then dead-letter the message\nfunc handle() {}\n```",
			"// Decision: retry twice with jitter, then dead-letter the message"},
	} {
		m := condense.AssistantText(c.text)
		items := ExtractMessage(&m, 1)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, c.want) }) {
			t.Errorf("no decision %q in %q", c.want, Strings(items))
		}
	}
	for _, text := range []string{
		"```python\n# read the config file and return its sections as a dict\ndef load(p): ...\n```",
		"```go\n// loop over the shards in order of their keys until done\n```",
		"```sh\n# should we use podman instead of docker here?\n```",
	} {
		m := condense.AssistantText(text)
		for _, it := range ExtractMessage(&m, 1) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", text, it.Value)
			}
		}
	}
}
