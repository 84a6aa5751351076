package condense

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Strategy turns the current rendering of a history into a smaller one
// (docs/design.md). The strategy package has the built-in ones; Func
// adapts a plain Go function.
//
// Compact returns the new rendering. Returning ErrNothingToCompact, or a
// Candidate whose rendering equals cc.Current, means "leave it": nothing is
// recorded. Built-in strategies keep every tool call with its results, the
// task, pinned messages and the newest user message and step verbatim, and
// every ledger item of what they compact rendered or counted as demoted.
// Every candidate, built in or custom, is validated for turn safety and
// re-counted against the input limit before it is used.
type Strategy interface {
	Name() string
	Compact(ctx context.Context, cc *CompactionContext) (*Candidate, error)
}

// Candidate is a strategy's proposal.
type Candidate struct {
	Rendering Rendering
	// LedgerItems counts the ledger items rendered into placeholders and
	// summaries; Demoted those over the ledger budget, kept recall-only.
	LedgerItems int
	Demoted     int
	// LedgerBudget is the most tokens the strategy let its ledger items
	// use: the room left below the budget's target, or a configured
	// budget. Items demoted were over it.
	LedgerBudget int
	// Gate is the quality gate's result when a summary was made.
	Gate *Gate
	// Summary is the summary text, when the strategy made one.
	Summary string
	// Usage of the model calls the strategy made, when it made any.
	Usage []Usage
	// Trim says what was cut from the summary request to fit it.
	Trim Trim
	// Steps names the strategies of a pipeline that acted, in order.
	Steps []string
}

// Gate is the result of checking a summary against the ledger: items the
// summary lacks are added back to its ## Ledger section, so no specific of
// the span is lost whatever the summarizer wrote.
type Gate struct {
	// KeptBySummary counts ledger items the summary held verbatim.
	KeptBySummary int `json:"kept_by_summary"`
	// AddedBack counts items the summary lacked, added to its ## Ledger.
	AddedBack int `json:"added_back"`
	// Demoted counts items over the ledger budget, kept recall-only.
	Demoted int `json:"demoted"`
	// Notes counts the passages of the agent's own text kept verbatim in
	// the summary's "## In the agent's words", in the room the ledger left
	// below the target.
	Notes int `json:"notes,omitempty"`
}

// Trim records what a summary request left out to fit its own budget
// (its own token budget and the provider's payload limit): tool results
// truncated with a marker, then the oldest messages dropped.
type Trim struct {
	TruncatedResults int `json:"truncated_results,omitempty"`
	DroppedMessages  int `json:"dropped_messages,omitempty"`
}

// Usage is what one model call was billed. InputTokens includes the
// tokens read from and written to the provider's prompt cache; CacheRead
// and CacheWrite say how many of them were. Provider and Model name the
// call when it was made for compaction.
type Usage struct {
	Provider         string  `json:"provider,omitempty"`
	Model            string  `json:"model,omitempty"`
	InputTokens      int     `json:"input_tokens"`
	OutputTokens     int     `json:"output_tokens"`
	CacheReadTokens  int     `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int     `json:"cache_write_tokens,omitempty"`
	CostUSD          float64 `json:"cost_usd,omitempty"`
}

// Add returns u plus o: token counts and cost add up; Provider and Model
// are u's.
func (u Usage) Add(o Usage) Usage {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
	u.CostUSD += o.CostUSD
	return u
}

// Total returns input plus output tokens.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// CompactionContext is what a strategy sees. Strategies must not modify
// History or Current; they build a new Rendering.
type CompactionContext struct {
	// History is the append-only log; Current is how it is rendered now
	// (earlier compactions applied, new messages appended).
	History []Message
	Current Rendering
	System  string
	Tools   []Tool
	// Tokens is the estimate of the current request.
	Tokens int
	Budget Budget
	Model  string
	// Emergency is set on the second attempt of a preflight: recent
	// retention drops to zero, but the task, pinned messages and the newest
	// user message and step still stay verbatim.
	Emergency bool
	// Manual is set for a compaction the user asked for; it may keep a
	// candidate that does not reduce the count.
	Manual bool
	// Instructions are the user's, for a manual compaction.
	Instructions string
	Counter      Counter
	// Checkpoint is the id the compaction will have if accepted ("c3"):
	// summaries name it in their <summary checkpoint="…"> tag.
	Checkpoint string
	// Summarizer writes summaries for the strategy (Options.Summarizer); nil
	// when none is configured, in which case the built-in strategies use
	// the extractive summarizer (summarize.Extractive). A custom strategy
	// that needs a summary calls it the same way.
	Summarizer Summarizer
	// Logger is the preflight's (Options.Logger). The library redacts
	// secrets in the error values it logs; a strategy logging text of the
	// history itself should pass it through ledger.Redact first.
	Logger *slog.Logger

	overhead int
	hist     []int    // cached counts of verbatim log messages (0 = unknown)
	chain    []uint64 // rolling hash of the log up to each message
	memo     *memo    // values kept across compactions (Remember)
}

// Window returns the model's context window.
func (cc *CompactionContext) Window() int { return cc.Budget.Window }

// Count returns the estimate of the request r would render: system, tools
// and every item. Counts of log messages and of items already counted are
// cached.
func (cc *CompactionContext) Count(r Rendering) int {
	n := cc.overheadTokens()
	for i := range r {
		n += cc.CountItem(&r[i])
	}
	return corrected(cc.Counter, n)
}

// CountItem returns the tokens of one item (uncorrected), caching the count
// in the item.
func (cc *CompactionContext) CountItem(it *Item) int {
	if it.tokens > 0 {
		return it.tokens
	}
	if it.Edit == EditNone && it.Index >= 0 && it.Index < len(cc.hist) && cc.hist[it.Index] > 0 {
		it.tokens = cc.hist[it.Index]
		return it.tokens
	}
	it.tokens = max(1, cc.Counter.CountMessage(&it.Message))
	if it.Edit == EditNone && it.Index >= 0 && it.Index < len(cc.hist) {
		cc.hist[it.Index] = it.tokens
	}
	return it.tokens
}

// CountMessage returns the tokens of one message (uncorrected).
func (cc *CompactionContext) CountMessage(m *Message) int { return cc.Counter.CountMessage(m) }

func (cc *CompactionContext) overheadTokens() int {
	if cc.overhead == 0 {
		cc.overhead = max(1, cc.Counter.CountOverhead(cc.System, cc.Tools))
	}
	return cc.overhead
}

// Record describes one compaction, as journals and the "compactions" of
// condense compact --stats report it.
type Record struct {
	// Checkpoint is the compaction's id, sequential per conversation
	// ("c1", "c2", …).
	Checkpoint     string        `json:"checkpoint,omitempty"`
	Strategy       string        `json:"strategy"`
	Emergency      bool          `json:"emergency,omitempty"`
	Manual         bool          `json:"manual,omitempty"`
	TokensBefore   int           `json:"tokens_before"`
	TokensAfter    int           `json:"tokens_after"`
	MessagesBefore int           `json:"messages_before"`
	MessagesAfter  int           `json:"messages_after"`
	Window         int           `json:"window"`
	Threshold      int           `json:"threshold,omitempty"`
	Target         int           `json:"target,omitempty"`
	LedgerItems    int           `json:"ledger_items"`
	Demoted        int           `json:"demoted"`
	LedgerBudget   int           `json:"ledger_budget,omitempty"`
	Gate           Gate          `json:"gate"`
	Steps          []string      `json:"steps,omitempty"`
	Summary        string        `json:"-"`
	Usage          []Usage       `json:"usage,omitempty"`
	Trim           Trim          `json:"summary_trim,omitzero"`
	Duration       time.Duration `json:"-"`
	// Truncated says which tool results of the newest step the preflight
	// cut to their head and tail to fit the input limit, when it had to.
	Truncated Truncation `json:"truncated,omitzero"`
}

// Func adapts a plain function to a Strategy: it receives the current
// rendered messages in cc.Current and returns new messages. Returned messages
// identical to a current one are mapped back to its log index (by identity
// of content); the others become synthesized items. Returning the messages
// unchanged means "leave it".
func Func(name string, f func(ctx context.Context, cc *CompactionContext) ([]Message, error)) Strategy {
	return funcStrategy{name: name, f: f}
}

type funcStrategy struct {
	name string
	f    func(context.Context, *CompactionContext) ([]Message, error)
}

func (s funcStrategy) Name() string { return s.name }

func (s funcStrategy) Compact(ctx context.Context, cc *CompactionContext) (*Candidate, error) {
	msgs, err := s.f(ctx, cc)
	if err != nil {
		return nil, err
	}
	return &Candidate{Rendering: MapBack(cc.Current, msgs)}, nil
}

// MapBack turns plain messages into a rendering over cur: each message equal
// to an item of cur (same id, role, status and parts) takes that item's
// source; the rest are synthesized. Among equal items ("Noted." said eight
// times) it matches from the end, taking the latest unused one before the
// item it matched next, so the newest messages map to the newest items and
// the source map keeps the order of the log.
func MapBack(cur Rendering, msgs []Message) Rendering {
	byPrint := make(map[uint64][]int, len(cur))
	for i := range cur {
		fp := Fingerprint(&cur[i].Message)
		byPrint[fp] = append(byPrint[fp], i)
	}
	used := make(map[int]bool, len(msgs))
	pos := make([]int, len(msgs))
	next := len(cur)
	for i := len(msgs) - 1; i >= 0; i-- {
		pos[i] = -1
		cands := byPrint[Fingerprint(&msgs[i])]
		for k := len(cands) - 1; k >= 0; k-- { // the latest unused one before next
			if c := cands[k]; c < next && !used[c] {
				pos[i] = c
				break
			}
		}
		if pos[i] < 0 {
			for k := len(cands) - 1; k >= 0; k-- {
				if !used[cands[k]] {
					pos[i] = cands[k]
					break
				}
			}
		}
		if pos[i] >= 0 {
			used[pos[i]] = true
			next = pos[i]
		}
	}
	out := make(Rendering, len(msgs))
	for i := range msgs {
		if pos[i] < 0 {
			out[i] = Item{Index: -1, Message: msgs[i], Edit: EditSynthetic}
			continue
		}
		out[i] = cur[pos[i]]
	}
	return out
}

func strategyName(s Strategy) string {
	if s == nil {
		return "none"
	}
	return s.Name()
}

// StrategyError wraps an error a strategy returned (or a candidate that
// failed validation), naming the strategy.
type StrategyError struct {
	Strategy string
	Err      error
}

func (e *StrategyError) Error() string {
	return fmt.Sprintf("strategy %s: %v", e.Strategy, e.Err)
}

func (e *StrategyError) Unwrap() error { return e.Err }
