package transcript

import (
	"errors"
	"fmt"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
)

// Violation is one rule a written request breaks: a rule of the provider's
// API for FormatOpenAI and FormatAnthropic, a rule of the condense JSON form
// or of turn safety for FormatCondense.
type Violation struct {
	// Rule is the rule's stable short name: one of those
	// anthropic.CheckRequest and openai.CheckChatRequest list, "parse" for a
	// condense document that does not parse, or the condense.Violation
	// condense.Validate reports ("call_without_result", …).
	Rule string `json:"rule"`
	// Path is the JSON path of the offending value, empty when the whole
	// body is at fault.
	Path string `json:"path,omitempty"`
	// Message says what is wrong, for people.
	Message string `json:"message"`
}

func (v Violation) String() string {
	if v.Path == "" {
		return v.Rule + ": " + v.Message
	}
	return v.Path + ": " + v.Rule + ": " + v.Message
}

// CheckWritten checks body, a request Write wrote (or any body) in format f,
// and returns every rule it breaks; none means the provider accepts it as
// it is. FormatAnthropic bodies are checked by anthropic.CheckRequest,
// FormatOpenAI bodies by openai.CheckChatRequest, FormatCondense documents
// by condense.ParseDocument and condense.Validate (which stop at the first
// problem). Another format is one "format" violation. Write's output in
// these formats always passes.
func CheckWritten(f Format, body []byte) []Violation {
	var out []Violation
	switch f {
	case FormatAnthropic:
		for _, v := range anthropic.CheckRequest(body) {
			out = append(out, Violation(v))
		}
	case FormatOpenAI:
		for _, v := range openai.CheckChatRequest(body) {
			out = append(out, Violation(v))
		}
	case FormatCondense:
		doc, err := condense.ParseDocument(body)
		if err != nil {
			v := Violation{Rule: "parse", Message: err.Error()}
			var je *condense.JSONError
			if errors.As(err, &je) {
				v.Path, v.Message = je.Path, je.Err.Error()
			}
			return []Violation{v}
		}
		if err := condense.Validate(doc.Messages); err != nil {
			v := Violation{Rule: "invalid", Message: err.Error()}
			var ve *condense.ValidationError
			if errors.As(err, &ve) {
				v.Rule, v.Path = string(ve.Violation), fmt.Sprintf("messages[%d]", ve.Index)
			}
			out = append(out, v)
		}
	default:
		out = append(out, Violation{Rule: "format", Message: fmt.Sprintf("no checker for format %q (want %s)", f, formatList(WriteFormats))})
	}
	return out
}
