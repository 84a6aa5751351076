package tokens

import "encoding/binary"

// The Claude calibration. Anthropic does not publish Claude's tokenizer, so
// the estimate is a per-message overhead plus characters per token by kind
// of text, fitted on testdata/claude-usage-deltas.csv: the billed input
// growth of 286 requests of 16 Claude Code sub-agent sessions (Claude
// Sonnet/Opus 4.5) against the characters that entered the conversation.
//
// Each CSV row is one request delta, which in a tool loop adds two messages:
// the assistant message with its tool calls and the tool-result message
// (claudeMessagesPerDelta). The fit chose the overhead and the rates that
// give the least total estimate while never under-counting the total and
// under-counting at most 2% of the rows; TestHeuristicClaudeCalibration
// measures them.
//
// The overhead is large (small deltas bill 60-500 tokens beyond their
// characters: framing, tool-use ids, and text the transcripts do not show),
// so the estimate over-counts conversations of many short tool steps most.
// Every row of the data is a tool step, so the overhead is charged to the
// messages of tool steps only (claudePerToolTurn, on a message holding tool
// calls or tool results); a plain text message pays claudePerMessage, the
// framing of the Messages format. The usage feedback of Calibration only
// ever raises estimates; it cannot lower this overhead.
const (
	claudePerMessage       = 10   // tokens of framing per message
	claudePerToolTurn      = 270  // … more on a message of a tool step
	claudeMessagesPerDelta = 2    // assistant message + tool-result message
	claudeCharsText        = 2.0  // characters per token of text parts
	claudeCharsToolInput   = 3.1  // … of tool names and JSON inputs
	claudeCharsToolOutput  = 2.95 // … of tool result content
	// claudeCharsThinking is not fitted: the transcripts hold no thinking
	// text. Thinking is prose, which packs more characters per token than
	// code; the text rate is used, which errs high.
	claudeCharsThinking = claudeCharsText

	// Characters outside ASCII are not in the fit (the sessions are almost
	// all ASCII). They are charged per character, on the high side of what
	// BPE tokenizers give: accented and Cyrillic letters half a token, CJK
	// a token and a quarter, emoji three.
	claudeLead2 = 0.5
	claudeLead3 = 1.25
	claudeLead4 = 3.0

	// claudeToolsPrompt is the system prompt Anthropic adds when a request
	// has tools (Claude 4.x, tool_choice auto; Anthropic "Tool use"
	// pricing table: 346 tokens).
	claudeToolsPrompt = 346
	// claudePerTool frames each tool definition; an estimate.
	claudePerTool = 10
	// claudeRequest frames the request and the system text; an estimate.
	claudeRequest = 10
)

var claudeCharsPerToken = [numKinds]float64{
	kindText:       claudeCharsText,
	kindToolInput:  claudeCharsToolInput,
	kindToolOutput: claudeCharsToolOutput,
	kindThinking:   claudeCharsThinking,
}

var claudeFraming = framing{
	family:   FamilyAnthropic,
	message:  claudePerMessage,
	toolTurn: claudePerToolTurn,
	tool:     claudePerTool,
	request:  claudeRequest,
	tools:    claudeToolsPrompt,
}

// claudeText is the Claude estimate of text of a kind: ASCII characters at
// the kind's rate, other characters by their UTF-8 length. ASCII is skipped
// eight bytes at a time.
func claudeText(kind int, s string) float64 {
	var n2, n3, n4, nonASCII int
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 == 0 {
			continue
		}
		for _, b := range []byte(s[i : i+8]) {
			n2, n3, n4, nonASCII = classifyHigh(b, n2, n3, n4, nonASCII)
		}
	}
	for ; i < len(s); i++ {
		n2, n3, n4, nonASCII = classifyHigh(s[i], n2, n3, n4, nonASCII)
	}
	ascii := len(s) - nonASCII
	return float64(ascii)/claudeCharsPerToken[kind] +
		claudeLead2*float64(n2) + claudeLead3*float64(n3) + claudeLead4*float64(n4)
}

// classifyHigh counts b if it is not ASCII: as the lead byte of a 2-, 3- or
// 4-byte character, and as a non-ASCII byte. Invalid bytes count as
// non-ASCII only, like continuation bytes.
func classifyHigh(b byte, n2, n3, n4, high int) (int, int, int, int) {
	if b < 0x80 {
		return n2, n3, n4, high
	}
	switch byteClass[b] {
	case cLead2:
		n2++
	case cLead3:
		n3++
	case cLead4:
		n4++
	case cOther:
		n2++ // an invalid byte: charged like a 2-byte character
	}
	return n2, n3, n4, high + 1
}

// claudeEstimate is the Claude estimate of messages tool-step messages holding
// chars[kind] characters of each kind: what the counter gives for ASCII
// text, without rounding. The calibration test evaluates it on the CSV.
func claudeEstimate(chars [numKinds]int, messages int) float64 {
	est := float64(messages * (claudePerMessage + claudePerToolTurn))
	for k, n := range chars {
		est += float64(n) / claudeCharsPerToken[k]
	}
	return est
}
