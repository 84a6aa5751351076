package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store/jsonl"
)

func ExampleSession() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "condense")
	defer os.RemoveAll(dir)
	st, _ := jsonl.Open(dir, nil)

	s, err := session.Open(ctx, st, "demo", &session.Options{
		Preflight: condense.Options{Settings: condense.Settings{Window: 200_000}},
	})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	s.Append(ctx, condense.UserText("Explain this project."), condense.AssistantText("It keeps agents inside their window."))
	s.Append(ctx, condense.UserText("Which part should be tested first?"))

	res, err := s.Prepare(ctx, condense.Request{Model: "claude-sonnet-4-5", System: "You are helpful."})
	if err != nil {
		panic(err)
	}
	fmt.Println("messages sent:", len(res.Request.Messages))

	if _, err := s.Compact(ctx); errors.Is(err, condense.ErrNothingToCompact) {
		fmt.Println("nothing to compact yet")
	}
	fmt.Println("checkpoints:", len(s.Checkpoints()))
	// Output:
	// messages sent: 3
	// nothing to compact yet
	// checkpoints: 0
}
