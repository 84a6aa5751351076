// Package strategytest checks that a compaction strategy keeps the rules
// every condense.Strategy must keep, the way testing/slogtest checks a
// slog.Handler. It runs the strategy through a real condense.Preflight on
// random agent histories (drawn with pgregory.net/rapid: tool calls,
// parallel batches, thinking, images, failed and aborted replies, pinned
// messages, long one-task turns, calls still running) and checks every
// request the preflight prepares:
//
//   - turn safety: every tool result follows its call, in the tool messages
//     right after the calling assistant message, and no call lacks its result
//     unless it is in the newest step; the strategy never proposes a
//     rendering the preflight refuses for breaking these rules;
//   - the request counts at most the input limit, or Prepare returns a
//     *condense.WindowError;
//   - the first user message (the task) and every pinned message are
//     rendered verbatim, and so are the newest user message and the newest
//     step (the last assistant message and its tool results);
//   - every item that claims to render a log message verbatim equals it;
//   - the caller's messages are never modified;
//   - no specific is lost: every ledger item of what was compacted (the span
//     a summary or a drop marker covers, a masked or cleared tool result)
//     appears in the request, or is counted as demoted by the compactions;
//   - the strategy is deterministic: two fresh preflights render the same
//     history into the same bytes.
//
// Messages a strategy made itself (a condense.Func strategy's new messages,
// Edit condense.EditSynthetic) cover no span, so the ledger rule does not
// apply to them.
//
// Run checks in two subtests: Prepare renders a whole history at once, with
// a window from a quarter of its tokens to twice them; Incremental feeds a
// history message by message to one preflight, as an agent loop does,
// preparing a request wherever the agent would call the model. Check does
// the same without subtests and reports to any TB, so a test of a test can
// observe a failure.
//
// The whole-history check draws DefaultCases histories and the incremental
// one DefaultIncrementalCases, both sized for CI; Cases and
// IncrementalCases change them, and CONDENSE_TEST_LONG=1 draws LongFactor
// times as many. rapid's own -rapid.checks flag overrides them, and
// -rapid.seed repeats a failing run.
//
// A custom strategy and its test:
//
//	// keepRecentSteps drops every step but the newest n, keeping any step
//	// that holds a message the strategy must not touch.
//	func keepRecentSteps(n int) condense.Strategy {
//		return condense.Func("keep-recent-steps", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
//			cur := cc.Current
//			protected := cur.Protected()
//			steps := cur.Steps()
//			drop := make([]bool, len(cur))
//			for _, s := range steps[:max(0, len(steps)-n)] {
//				if !slices.Contains(protected[s.Start:s.End], true) {
//					for i := s.Start; i < s.End; i++ {
//						drop[i] = true
//					}
//				}
//			}
//			var out []condense.Message
//			for i := range cur {
//				if !drop[i] {
//					out = append(out, cur[i].Message)
//				}
//			}
//			return out, nil
//		})
//	}
//
//	func TestKeepRecentSteps(t *testing.T) {
//		strategytest.Run(t, func() condense.Strategy { return keepRecentSteps(4) })
//	}
//
// newStrategy is called for every preflight, so a strategy with state
// starts afresh each time. Runs of the kit in one test binary take turns:
// rapid reads its number of cases from a flag, which the kit sets for the
// length of a run.
package strategytest
