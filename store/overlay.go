package store

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/condense-dev/condense"
)

// Overlay is a rendering stored compactly: runs of verbatim log messages as
// index ranges, and each edited or synthesized item with its edit, the span
// it covers and the message as rendered.
type Overlay []Entry

// Entry is one element of an Overlay: a verbatim run (Run set) or one item.
type Entry struct {
	// Run is a run of verbatim log messages [Run[0], Run[1]).
	Run *[2]int `json:"run,omitempty"`
	// Index is the item's log index, -1 when synthesized.
	Index int           `json:"i"`
	Edit  condense.Edit `json:"edit,omitempty"`
	// Covers is the span [Covers[0], Covers[1]) a summary or drop marker
	// stands for.
	Covers  *[2]int           `json:"covers,omitempty"`
	Message *condense.Message `json:"m,omitempty"`
	// Ledger is a summary's ledger (condense.Item.Ledger).
	Ledger []string `json:"ledger,omitempty"`
}

// entryJSON is an Entry on disk. M holds the message's condense JSON, or,
// when that JSON has whitespace between its tokens (raw tool inputs and
// provider blocks are kept byte for byte), the same JSON as a string:
// encoding/json compacts what a marshaler returns, and a string keeps every
// byte.
type entryJSON struct {
	Run    *[2]int         `json:"run,omitempty"`
	Index  int             `json:"i"`
	Edit   condense.Edit   `json:"edit,omitempty"`
	Covers *[2]int         `json:"covers,omitempty"`
	M      json.RawMessage `json:"m,omitempty"`
	Ledger []string        `json:"ledger,omitempty"`
}

// MarshalJSON writes a run as {"run":[a,b]} alone.
func (e Entry) MarshalJSON() ([]byte, error) {
	if e.Run != nil {
		return fmt.Appendf(nil, `{"run":[%d,%d]}`, e.Run[0], e.Run[1]), nil
	}
	ej := entryJSON{Index: e.Index, Edit: e.Edit, Covers: e.Covers, Ledger: e.Ledger}
	if e.Message != nil {
		raw, err := e.Message.MarshalJSON()
		if err != nil {
			return nil, err
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return nil, err
		}
		if compact.Len() != len(raw) {
			raw, _ = json.Marshal(string(raw)) // a string always marshals
		}
		ej.M = raw
	}
	return json.Marshal(ej)
}

// UnmarshalJSON reads an Entry, its message as an object or a string.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var ej entryJSON
	if err := json.Unmarshal(data, &ej); err != nil {
		return err
	}
	*e = Entry{Run: ej.Run, Index: ej.Index, Edit: ej.Edit, Covers: ej.Covers, Ledger: ej.Ledger}
	if len(ej.M) == 0 || string(ej.M) == "null" {
		return nil
	}
	raw := []byte(ej.M)
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		raw = []byte(s)
	}
	e.Message = new(condense.Message)
	return e.Message.UnmarshalJSON(raw)
}

// EncodeOverlay stores r compactly. Verbatim items (EditNone with a log
// index) become runs; the rest keep their message.
func EncodeOverlay(r condense.Rendering) Overlay {
	var o Overlay
	for i := 0; i < len(r); i++ {
		it := &r[i]
		if it.Index >= 0 && it.Edit == condense.EditNone {
			if n := len(o); n > 0 && o[n-1].Run != nil && o[n-1].Run[1] == it.Index {
				o[n-1].Run[1]++
				continue
			}
			o = append(o, Entry{Run: &[2]int{it.Index, it.Index + 1}})
			continue
		}
		m := it.Message
		e := Entry{Index: it.Index, Edit: it.Edit, Message: &m, Ledger: it.Ledger}
		if it.Covers != (condense.Span{}) {
			e.Covers = &[2]int{it.Covers.Start, it.Covers.End}
		}
		o = append(o, e)
	}
	return o
}

// Check reports an overlay that cannot render a history of n messages:
// indexes outside it, log indexes out of order, spans that run
// backwards, edited items without a message. Spans a summary or marker
// covers may include messages also rendered (the task a summary keeps).
func (o Overlay) Check(n int) error {
	last := -1 // highest log index rendered or covered so far
	for k, e := range o {
		switch {
		case e.Run != nil:
			a, b := e.Run[0], e.Run[1]
			if a < 0 || b <= a || b > n {
				return fmt.Errorf("entry %d: run %d-%d outside the history (%d messages)", k, a, b, n)
			}
			if a <= last {
				return fmt.Errorf("entry %d: run %d-%d out of order (after %d)", k, a, b, last)
			}
			last = b - 1
			continue
		case e.Message == nil:
			return fmt.Errorf("entry %d: edited item without a message", k)
		case e.Index >= n:
			return fmt.Errorf("entry %d: log index %d outside the history (%d messages)", k, e.Index, n)
		case e.Index >= 0:
			if e.Index <= last {
				return fmt.Errorf("entry %d: log index %d out of order (after %d)", k, e.Index, last)
			}
			last = e.Index
		case e.Index < -1:
			return fmt.Errorf("entry %d: bad index %d", k, e.Index)
		}
		if e.Covers != nil {
			a, b := e.Covers[0], e.Covers[1]
			if a < 0 || b < a || b > n {
				return fmt.Errorf("entry %d: covers %d-%d outside the history (%d messages)", k, a, b, n)
			}
		}
	}
	return nil
}

// Indexes returns the log indexes the overlay renders (runs and edited
// items), in order.
func (o Overlay) Indexes() []int {
	var out []int
	for _, e := range o {
		if e.Run != nil {
			for i := e.Run[0]; i < e.Run[1]; i++ {
				out = append(out, i)
			}
		} else if e.Index >= 0 {
			out = append(out, e.Index)
		}
	}
	return out
}

// Rendering expands the overlay over history (which must hold at least the
// messages the overlay refers to; Check first).
func (o Overlay) Rendering(history []condense.Message) (condense.Rendering, error) {
	if err := o.Check(len(history)); err != nil {
		return nil, err
	}
	var r condense.Rendering
	for _, e := range o {
		if e.Run != nil {
			for i := e.Run[0]; i < e.Run[1]; i++ {
				r = append(r, condense.Item{Index: i, Message: history[i]})
			}
			continue
		}
		it := condense.Item{Index: e.Index, Edit: e.Edit, Message: *e.Message, Ledger: e.Ledger}
		if e.Covers != nil {
			it.Covers = condense.Span{Start: e.Covers[0], End: e.Covers[1]}
		}
		r = append(r, it)
	}
	return r, nil
}
