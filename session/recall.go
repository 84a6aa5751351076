package session

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// Recalled is a run of original log messages starting at log index Start.
type Recalled struct {
	Start    int
	Messages []condense.Message
}

var (
	reMask    = regexp.MustCompile(`(?:^|recall )(r\d+-[0-9a-fA-F]{8})\b`)
	reCovers  = regexp.MustCompile(`(?:covers="|recall covers |^)(\d+)-(\d+)(?:"|\b)`)
	reCP      = regexp.MustCompile(`^c\d+$`)
	reSummary = regexp.MustCompile(`<summary checkpoint="(c\d+)"`)
)

// Recall returns the original messages behind a reference in a rendering
// (the formats are in docs/formats.md), so an agent can be given a recall
// tool: nothing compaction hides is out of reach. It accepts:
//
//   - a mask reference "r42-3fa9c2d1" (or a whole placeholder holding
//     "recall r42-…"): the tool message at log index 42, after checking the
//     digest of its result;
//   - a summary tag `<summary checkpoint="c3" covers="0-117">`, a drop
//     marker's "recall covers 5-28", or a bare "5-28": log messages 0..117 /
//     5..28 inclusive;
//   - a checkpoint id "c3": every log span that checkpoint summarized,
//     dropped or edited.
func (s *Session) Recall(ctx context.Context, ref string) ([]Recalled, error) {
	ref = strings.TrimSpace(ref)
	switch {
	case reCP.MatchString(ref):
		return s.recallCheckpoint(ctx, ref)
	case reMask.MatchString(ref):
		m := reMask.FindStringSubmatch(ref)
		idx, dig, err := condense.ParseRecallRef(strings.ToLower(m[1]))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadReference, err)
		}
		msgs, err := s.messages(ctx, idx, idx+1)
		if err != nil {
			return nil, err
		}
		for k := range msgs[0].Parts {
			p := &msgs[0].Parts[k]
			if p.Type == condense.PartToolResult && strings.HasPrefix(condense.ContentDigest(p), dig) {
				return []Recalled{{Start: idx, Messages: msgs}}, nil
			}
		}
		return nil, fmt.Errorf("%w: %s: no tool result at log index %d has digest %s", ErrBadReference, m[1], idx, dig)
	case reCovers.MatchString(ref):
		m := reCovers.FindStringSubmatch(ref)
		a, err1 := strconv.Atoi(m[1])
		b, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil || b < a {
			return nil, fmt.Errorf("%w: %q", ErrBadReference, ref)
		}
		msgs, err := s.messages(ctx, a, b+1)
		if err != nil {
			return nil, err
		}
		return []Recalled{{Start: a, Messages: msgs}}, nil
	case reSummary.MatchString(ref):
		return s.recallCheckpoint(ctx, reSummary.FindStringSubmatch(ref)[1])
	}
	return nil, fmt.Errorf("%w: %q is not a recall reference", ErrBadReference, ref)
}

func (s *Session) recallCheckpoint(ctx context.Context, id string) ([]Recalled, error) {
	s.mu.Lock()
	var found *store.Checkpoint
	for i := range s.all {
		for _, cid := range checkpointIDs(&s.all[i]) {
			if cid == id {
				found = &s.all[i]
			}
		}
	}
	s.mu.Unlock()
	if found == nil {
		return nil, fmt.Errorf("%w: %w: %s", ErrBadReference, ErrUnknownCheckpoint, id)
	}
	var spans [][2]int
	for _, e := range edits(found.Rendering) {
		if e.Start >= 0 {
			spans = append(spans, [2]int{e.Start, e.End})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var merged [][2]int
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	var out []Recalled
	for _, sp := range merged {
		msgs, err := s.messages(ctx, sp[0], sp[1])
		if err != nil {
			return nil, err
		}
		out = append(out, Recalled{Start: sp[0], Messages: msgs})
	}
	return out, nil
}

// messages returns the original log messages [from, to): from the store,
// or from memory when unsaved.
func (s *Session) messages(ctx context.Context, from, to int) ([]condense.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	var unsaved []condense.Message
	for _, b := range s.pending {
		unsaved = append(unsaved, b.Messages...)
	}
	n := len(s.hist) + len(unsaved)
	if from < 0 || to > n || from >= to {
		return nil, fmt.Errorf("%w: log span %d-%d outside the history (%d messages)", ErrBadReference, from, to-1, n)
	}
	var out []condense.Message
	if from < len(s.hist) {
		end := min(to, len(s.hist))
		if s.durable >= end {
			msgs, err := s.log.Messages(ctx, from, end)
			if err != nil {
				return nil, err
			}
			out = msgs
		} else {
			out = append(out, s.hist[from:end]...)
		}
	}
	for i := max(from, len(s.hist)); i < to; i++ {
		out = append(out, unsaved[i-len(s.hist)])
	}
	return out, nil
}
