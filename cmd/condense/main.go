// Command condense compacts, counts, inspects and evaluates LLM agent
// transcripts with the condense library. Run "condense help" for the
// commands.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(ExitCode(err))
}
