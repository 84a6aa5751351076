package strategy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// Names lists the built-in strategies by the names ByName takes, the
// default pipeline first.
var Names = []string{"pipeline", "mask", "drop-oldest", "clear-tool-uses", "summarize", "segments", "minify"}

// ErrUnknownName is returned by ByName for a name that is not a built-in
// strategy.
var ErrUnknownName = errors.New("unknown strategy")

// ByName returns the built-in strategy with the given name, each with its
// defaults: "pipeline" (or "") is Default(); the others are the stages by
// their Name. The CLI's --strategy, the server's session setting and
// replaying a journal all name strategies this way.
func ByName(name string) (condense.Strategy, error) {
	switch name {
	case "pipeline", "":
		return Default(), nil
	case "mask":
		return Mask{}, nil
	case "drop-oldest":
		return DropOldest{}, nil
	case "clear-tool-uses":
		return ClearToolUses{}, nil
	case "summarize":
		return Summarize{}, nil
	case "segments":
		return Segments{}, nil
	case "minify":
		return Minify{}, nil
	}
	return nil, fmt.Errorf("%w %q (one of %s)", ErrUnknownName, name, strings.Join(Names, ", "))
}
