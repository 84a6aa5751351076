package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/summarize"
)

// RecallInput is the input of the recall tool.
type RecallInput struct {
	Ref string `json:"ref" jsonschema:"required,description=A recall reference from the context: r42-3fa9c2d1 from a masked tool output\\, covers 5-28 or a checkpoint id c3 from a summary."`
}

// RecallTool returns a tool named "recall" that gives the model the
// original messages behind a masked placeholder or a summary, through the
// session's Recall. Nothing compaction hides is lost: the model can ask
// for it back.
func RecallTool(s *session.Session) Tool {
	return NewTool("recall", "Show the original messages behind a masked tool output or a summary in your context, given its recall reference.",
		func(ctx context.Context, in RecallInput) (string, error) {
			got, err := s.Recall(ctx, in.Ref)
			if err != nil {
				return "", err
			}
			var b strings.Builder
			for _, r := range got {
				for i := range r.Messages {
					m := &r.Messages[i]
					fmt.Fprintf(&b, "[log %d, %s]\n", r.Start+i, m.Role)
					summarize.RenderMessage(&b, m, 0)
					b.WriteString("\n")
				}
			}
			return b.String(), nil
		})
}
