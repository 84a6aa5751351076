package eval

import (
	"encoding/json"
	"index/suffixarray"
	"strings"

	"github.com/condense-dev/condense"
)

// Flatten returns the text of msgs that specifics are looked for in: text
// parts, tool names and the strings of tool inputs (decoded, so a minified
// input reads like the original) and tool results. Thinking and images are
// left out, as the extractor leaves them out.
func Flatten(msgs []condense.Message) string {
	var b strings.Builder
	for i := range msgs {
		flattenParts(&b, msgs[i].Parts)
	}
	return b.String()
}

func flattenParts(b *strings.Builder, parts []condense.Part) {
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			if !decodeJSON(p.Text, func(s string) {
				b.WriteString(s)
				b.WriteByte('\n')
			}) {
				b.WriteString(p.Text)
				b.WriteByte('\n')
			}
		case condense.PartToolCall:
			b.WriteString(p.Name)
			b.WriteByte('\n')
			var in any
			if err := json.Unmarshal(p.Input, &in); err != nil {
				b.Write(p.Input)
				b.WriteByte('\n')
				continue
			}
			if obj, ok := in.(map[string]any); ok {
				for _, key := range []string{"command", "cmd", "script"} {
					if cmd := commandOf(obj[key]); cmd != "" {
						b.WriteString(firstLine(cmd))
						b.WriteByte('\n')
						break
					}
				}
			}
			walkStrings(in, func(s string) {
				b.WriteString(s)
				b.WriteByte('\n')
			})
		case condense.PartToolResult:
			flattenParts(b, p.Content)
		}
	}
}

// Index answers "does this text appear in the rendering" in O(len(text)
// · log n), so measuring thousands of specifics stays cheap.
type Index struct {
	sa *suffixarray.Index
}

// NewIndex indexes text.
func NewIndex(text string) *Index { return &Index{sa: suffixarray.New([]byte(text))} }

// Contains reports whether s occurs in the indexed text.
func (x *Index) Contains(s string) bool {
	if s == "" {
		return true
	}
	return len(x.sa.Lookup([]byte(s), 1)) > 0
}
