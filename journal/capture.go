package journal

import "fmt"

// Capture is how much of a run the journal keeps. Events never hold more
// content than the level allows, so a journal kept for audits need not
// hold the conversation.
//
//   - CaptureFull keeps everything replay and resume need: the request, the
//     model's answers, summaries, tool inputs and outputs.
//   - CaptureCounts keeps counts, usage, fingerprints and error codes, no
//     content.
//   - CaptureNone keeps the structure only: kinds, indexes, codes.
//
// Below CaptureFull, the text an event still holds (names, ids, stop
// reasons, a final error's message) has its secrets redacted
// (ledger.Redact). context:compacted events are the same at every level:
// counts and the strategy's name, never content. Only a CaptureFull journal can be
// replayed or resumed. The zero value is CaptureFull.
type Capture string

// The capture levels.
const (
	CaptureFull   Capture = "full"
	CaptureCounts Capture = "counts"
	CaptureNone   Capture = "none"
)

// Level returns c with the zero value read as CaptureFull.
func (c Capture) Level() Capture {
	if c == "" {
		return CaptureFull
	}
	return c
}

// ParseCapture reads "none", "counts" or "full".
func ParseCapture(s string) (Capture, error) {
	switch c := Capture(s); c {
	case CaptureFull, CaptureCounts, CaptureNone:
		return c, nil
	}
	return "", fmt.Errorf("journal: unknown capture level %q (want none, counts or full)", s)
}
