package agent_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
)

// BenchmarkRunTicketResume measures the ticket run served entirely from
// its journal: preflight, strategy rerun, summary and answer served.
func BenchmarkRunTicketResume(b *testing.B) {
	ctx := context.Background()
	st := journal.NewMemory()
	a := &agent.Agent{Name: "ticket", Model: agenttest.NewFakeModel(agenttest.Text("S"), agenttest.Text("A")), Journal: st,
		NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := a.Run(ctx, ticket(8), agent.WithRunID("t")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Run(ctx, ticket(8), agent.WithRunID("t")); err != nil {
			b.Fatal(err)
		}
	}
}
