package condense

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
)

// Edit says how a rendered item differs from the log message it stands for.
type Edit string

// The edits a strategy can make. A synthesized item (Index < 0) is always a
// summary, a note or a custom strategy's own message.
const (
	// EditNone: the log message, verbatim.
	EditNone Edit = ""
	// EditMinified: the log message with JSON re-encoded without
	// insignificant whitespace; no information lost.
	EditMinified Edit = "minify"
	// EditMasked: some tool results replaced by placeholders.
	EditMasked Edit = "mask"
	// EditCleared: tool uses cleared (results, and optionally inputs).
	EditCleared Edit = "clear"
	// EditTruncated: tool results of the newest step cut to their head and
	// tail around a truncation marker (TruncationMarker), made by the
	// preflight, not by a strategy, when the newest step alone did not fit
	// the input limit.
	EditTruncated Edit = "truncate"
	// EditSummary: a synthesized summary of the log span Covers.
	EditSummary Edit = "summary"
	// EditNote: a synthesized note to the model (the agent-visible budget).
	EditNote Edit = "note"
	// EditDropped: a synthesized marker standing where log messages Covers
	// were dropped, holding their ledger items.
	EditDropped Edit = "drop"
	// EditSynthetic: a message a custom strategy made that matches no log
	// message.
	EditSynthetic Edit = "synthetic"
)

// Item is one message of a rendering: a log message (Index >= 0), possibly
// edited, or a synthesized one (Index < 0).
type Item struct {
	// Index is the log index of the message this item renders; -1 when the
	// item is synthesized.
	Index int
	// Message is the message as it will be sent.
	Message Message
	Edit    Edit
	// Covers is the log span a summary replaces.
	Covers Span
	// Ledger lists, for a synthesized summary, the ledger items of Covers
	// that its text holds (as rendered: "file internal/x.go"). The next
	// summary checks them against its own text instead of extracting the
	// whole span again. nil means unknown.
	Ledger []string

	tokens int // cached count; 0 = not counted
}

// Synthetic reports whether the item is not a log message.
func (it *Item) Synthetic() bool { return it.Index < 0 }

// Rendering is what a strategy produces: the ordered messages of the next
// request, each tied to the log message it comes from. It doubles as the
// source map from the request back to the history.
type Rendering []Item

// Verbatim returns the rendering that sends history unchanged.
func Verbatim(history []Message) Rendering {
	r := make(Rendering, len(history))
	for i := range history {
		r[i] = Item{Index: i, Message: history[i]}
	}
	return r
}

// Messages returns the messages of r, in a new slice.
func (r Rendering) Messages() []Message {
	out := make([]Message, len(r))
	for i := range r {
		out[i] = r[i].Message
	}
	return out
}

// Clone returns a copy of r with its own backing array.
func (r Rendering) Clone() Rendering { return append(Rendering(nil), r...) }

// Turns returns the turns of r: spans of items that start at a user item
// rendering a log message. Synthesized items never start a turn.
func (r Rendering) Turns() []Span {
	return turnSpans(len(r), func(i int) bool { return r[i].Index >= 0 && r[i].Message.Role == RoleUser })
}

// Steps returns the steps of r (assistant item and its tool items).
func (r Rendering) Steps() []Span {
	return stepSpans(len(r), func(i int) Role { return r[i].Message.Role })
}

// Equal reports whether r and o render the same messages from the same
// sources: the test for "the strategy left it as it was".
func (r Rendering) Equal(o Rendering) bool {
	if len(r) != len(o) {
		return false
	}
	for i := range r {
		if r[i].Index != o[i].Index || r[i].Edit != o[i].Edit || r[i].Covers != o[i].Covers {
			return false
		}
		if r[i].Edit != EditNone && Fingerprint(&r[i].Message) != Fingerprint(&o[i].Message) {
			return false
		}
	}
	return true
}

// Protected returns, for each item of r, whether the built-in strategies must
// keep it verbatim: the first user message (the task), pinned messages, the
// newest user message and the newest step. Without them the model loses what
// it was asked to do or what it just did.
func (r Rendering) Protected() []bool {
	keep := make([]bool, len(r))
	firstUser, lastUser := -1, -1
	for i := range r {
		it := &r[i]
		if it.Message.Pinned {
			keep[i] = true
		}
		if it.Index >= 0 && it.Message.Role == RoleUser {
			if firstUser < 0 {
				firstUser = i
			}
			lastUser = i
		}
	}
	if firstUser >= 0 {
		keep[firstUser] = true
	}
	if lastUser >= 0 {
		keep[lastUser] = true
	}
	// The newest step: the last assistant item and the tool items after it,
	// when no user message follows.
	for i := len(r) - 1; i >= 0; i-- {
		role := r[i].Message.Role
		if role == RoleTool {
			continue
		}
		if role == RoleAssistant {
			for j := i; j < len(r) && (j == i || r[j].Message.Role == RoleTool); j++ {
				keep[j] = true
			}
		}
		break
	}
	return keep
}

// RecallRef returns the recall reference of a tool result at log index:
// "r<index>-<first 8 hex digits of the SHA-256 of the result's content>"
// (docs/formats.md). The content digest covers the text of the result's
// parts, and the condense JSON of any non-text part, joined by newlines.
func RecallRef(index int, result *Part) string {
	return "r" + strconv.Itoa(index) + "-" + ContentDigest(result)[:8]
}

// ContentDigest returns the hex SHA-256 of a part's content as RecallRef
// defines it.
func ContentDigest(p *Part) string {
	h := sha256.New()
	parts := p.Content
	if p.Type != PartToolResult {
		parts = []Part{*p}
	}
	for i := range parts {
		if i > 0 {
			h.Write([]byte{'\n'})
		}
		if parts[i].Type == PartText {
			h.Write([]byte(parts[i].Text))
			continue
		}
		raw, err := parts[i].MarshalJSON()
		if err != nil {
			raw = []byte(parts[i].Type)
		}
		h.Write(raw)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ParseRecallRef splits a recall reference into its log index and digest
// prefix.
func ParseRecallRef(ref string) (index int, digest string, err error) {
	rest, ok := strings.CutPrefix(ref, "r")
	if !ok {
		return 0, "", fmt.Errorf("%w: recall reference %q does not start with r", ErrMalformed, ref)
	}
	num, dig, ok := strings.Cut(rest, "-")
	if !ok || len(dig) != 8 {
		return 0, "", fmt.Errorf("%w: recall reference %q is not r<index>-<8 hex digits>", ErrMalformed, ref)
	}
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return 0, "", fmt.Errorf("%w: recall reference %q has a bad index", ErrMalformed, ref)
	}
	index, err = strconv.Atoi(num)
	if err != nil || index < 0 {
		return 0, "", fmt.Errorf("%w: recall reference %q has a bad index", ErrMalformed, ref)
	}
	if _, err := hex.DecodeString(dig); err != nil {
		return 0, "", fmt.Errorf("%w: recall reference %q has a bad digest", ErrMalformed, ref)
	}
	return index, dig, nil
}

// MaskPlaceholder returns the text that replaces a masked tool result
// (docs/formats.md):
//
//	[condense: tool output masked (5,210 tokens) · recall r42-3fa9c2d1 · kept: error "panic: …"; file internal/x.go]
//
// kept holds the result's ledger items, already formatted; with none the
// "kept" section is left out.
func MaskPlaceholder(tokens int, ref string, kept []string) string {
	var b strings.Builder
	b.WriteString("[condense: tool output masked (")
	b.WriteString(humanize.Comma(int64(tokens)))
	b.WriteString(" tokens) · recall ")
	b.WriteString(ref)
	if len(kept) > 0 {
		b.WriteString(" · kept: ")
		b.WriteString(strings.Join(kept, "; "))
	}
	b.WriteByte(']')
	return b.String()
}
