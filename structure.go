package condense

// Span is a half-open range [Start, End) of message indexes.
type Span struct {
	Start, End int
}

// Len returns the number of messages in s.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether i lies in s.
func (s Span) Contains(i int) bool { return i >= s.Start && i < s.End }

// Turns returns the turns of msgs: each starts at a user message
// and runs up to the next user message. Messages before the first user
// message belong to no turn.
func Turns(msgs []Message) []Span {
	return turnSpans(len(msgs), func(i int) bool { return msgs[i].Role == RoleUser })
}

// Steps returns the steps of msgs: each is one assistant message and the
// tool messages that follow it, the unit of the tool loop.
func Steps(msgs []Message) []Span {
	return stepSpans(len(msgs), func(i int) Role { return msgs[i].Role })
}

func turnSpans(n int, startsTurn func(int) bool) []Span {
	var spans []Span
	for i := 0; i < n; i++ {
		if !startsTurn(i) {
			continue
		}
		if len(spans) > 0 {
			spans[len(spans)-1].End = i
		}
		spans = append(spans, Span{Start: i, End: n})
	}
	return spans
}

func stepSpans(n int, role func(int) Role) []Span {
	var spans []Span
	for i := 0; i < n; i++ {
		if role(i) != RoleAssistant {
			continue
		}
		j := i + 1
		for j < n && role(j) == RoleTool {
			j++
		}
		spans = append(spans, Span{Start: i, End: j})
		i = j - 1
	}
	return spans
}

// LastStep returns the span of the newest step of msgs: the last assistant
// message and its tool messages. ok is false when msgs holds no assistant
// message after the last user message.
func LastStep(msgs []Message) (s Span, ok bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].Role {
		case RoleTool:
			continue
		case RoleAssistant:
			j := i + 1
			for j < len(msgs) && msgs[j].Role == RoleTool {
				j++
			}
			if j != len(msgs) {
				return Span{}, false
			}
			return Span{Start: i, End: j}, true
		default:
			return Span{}, false
		}
	}
	return Span{}, false
}
