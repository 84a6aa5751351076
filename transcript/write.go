package transcript

import (
	"fmt"
	"io"

	"github.com/condense-dev/condense"
)

// Write writes req to w in format f, one JSON document followed by a
// newline. f is FormatOpenAI, FormatAnthropic or FormatCondense. What each
// writer cannot represent is said on writeOpenAI and writeAnthropic.
func Write(w io.Writer, f Format, req condense.Request) error {
	var out []byte
	var err error
	switch f {
	case FormatOpenAI:
		out, err = writeOpenAI(req)
	case FormatAnthropic:
		out, err = writeAnthropic(req)
	case FormatCondense:
		out, err = writeCondense(req)
	default:
		return fmt.Errorf("%w %q for writing (want %s)", ErrUnknownFormat, f, formatList(WriteFormats))
	}
	if err != nil {
		return err
	}
	out = append(out, '\n')
	_, err = w.Write(out)
	return err
}
