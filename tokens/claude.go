package tokens

import "encoding/binary"

// The Claude calibration. Anthropic does not publish Claude's tokenizer, so
// the estimate is characters per token by kind of text plus a small framing
// per message and per tool call or result, fitted on
// testdata/claude-usage-deltas.csv: the billed input growth of 286 requests
// of 16 Claude Code sub-agent sessions (Claude Sonnet/Opus 4.5) against the
// characters that entered the conversation, each row one tool step (the
// assistant message with its tool calls and the tool-result message).
//
// The billed deltas also hold text Claude Code adds to the conversation
// without recording it in the transcript (reminders appended to tool
// results): about 120 tokens per request that a request condense renders
// does not contain. So the rates are fitted on the characters, with the
// framing kept to what a tool step's ids, names and markers plausibly cost,
// and the estimate is judged as the data's README says: by its total over
// all rows (within −2%…+10%; it gives +2.4%) and by its median error on
// rows of more than 5,000 characters (within ±10%; it gives +2.5%), not by
// how few small rows it under-counts. TestHeuristicClaudeCalibration
// measures both. A safety margin belongs in the budget's threshold, not in
// these figures; the usage a provider reports corrects them upwards (see
// Corrected).
//
// Plain chat is not in the data. Anthropic's token-counting documentation
// counts 14 input tokens for the system text "You are a scientist" and the
// user message "Hello, Claude"; the estimate gives 18. Prose rates are an
// estimate: Anthropic says OpenAI's tokenizers under-count Claude by about
// 15–20% on typical text, which puts Claude near 3.5 characters per token
// of English prose; the text rate, 3.3, errs a little high.
const (
	claudePerMessage    = 3 // tokens framing a message (role markers)
	claudePerToolCall   = 8 // … a tool_use block, beside its id, name and input
	claudePerToolResult = 8 // … a tool_result block, beside its id and content
	claudeCharsText     = 3.3
	claudeCharsToolIn   = 3.0 // characters per token of tool names, ids and JSON inputs
	claudeCharsToolOut  = 2.9 // … of tool result content
	// claudeCharsThinking is not fitted: the transcripts hold no thinking
	// text. Thinking is prose: the text rate.
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
	// claudeRequest frames the request; the system text is counted at the
	// text rate without framing of its own.
	claudeRequest = 3
)

var claudeCharsPerToken = [numKinds]float64{
	kindText:       claudeCharsText,
	kindToolInput:  claudeCharsToolIn,
	kindToolOutput: claudeCharsToolOut,
	kindThinking:   claudeCharsThinking,
}

var claudeFraming = framing{
	family:     FamilyAnthropic,
	message:    claudePerMessage,
	toolCall:   claudePerToolCall,
	toolResult: claudePerToolResult,
	tool:       claudePerTool,
	request:    claudeRequest,
	tools:      claudeToolsPrompt,
	// Anthropic's system text is a top-level field, not a message.
	systemText: true,
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
