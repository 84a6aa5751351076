package ledger

import (
	"strconv"
	"strings"
)

// A query tool, an API or a job's status record often reports what went
// wrong in a member of one record among many that went right: an import
// run's "rejected": [{"line": 8814, "reason": "schema validation failed:
// …"}], a migration log's "note": "checksum mismatch: …", a job's
// "failure_reason". Such a member is kept as an error, as printed, when its
// value reads as a failure, whatever the tool; the command need not have
// failed, since the records it printed did.

// failureKeys are the members that say why something went wrong.
var failureKeys = map[string]bool{"reason": true, "note": true, "cause": true, "failure": true, "failure_reason": true,
	"failureReason": true, "error_message": true, "errorMessage": true, "errmsg": true, "error_description": true,
	"status_reason": true, "statusReason": true, "rejection_reason": true}

// reasonWords mark a member's value as a failure, besides failureWords.
var reasonWords = []string{"mismatch", "invalid", "expected", "rejected", "bounced", "blocked", "exhausted", "timed out",
	"timeout", "violat", "conflict", "unreachable", "forbidden", "unauthorized", "missing", "exceeded", "corrupt"}

// recordReasons adds the failures the members of JSON records give (see
// above), in one pass over the text: each `":` closes a member's key.
func (s *scanner) recordReasons(text string) {
	for off := 0; ; {
		i := strings.Index(text[off:], `":`)
		if i < 0 {
			return
		}
		end := off + i // the key's closing quote
		off = end + 2
		open := strings.LastIndexByte(text[:end], '"')
		if open < 0 || !failureKeys[text[open+1:end]] {
			continue
		}
		v := strings.TrimLeft(text[off:], " ")
		if !strings.HasPrefix(v, `"`) {
			continue
		}
		q, err := strconv.QuotedPrefix(v)
		if err != nil {
			continue
		}
		printed := q[1 : len(q)-1]
		if len(strings.Fields(printed)) < 3 {
			continue // a reason code: "OOMKilled", "Evicted"
		}
		if low := strings.ToLower(printed); failureWords(low) || hasAny(low, reasonWords...) {
			s.add(KindError, printed)
		}
	}
}
