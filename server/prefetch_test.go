package server_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/server"
)

// fakeLatency is the fake model's latency in the prefetch test: a few
// seconds, as a model writing a summary takes.
const fakeLatency = 3 * time.Second

// TestPrefetchedSummary measures the request that crosses the threshold,
// with the fake model slow, without and with the summary computed ahead:
// the session is brought past the pre-threshold with appends, the agent's
// turn goes on (a tool call and its result) and the render that carries
// them crosses the threshold and compacts. With prefetching on, the
// summary is computed by a River job while the agent works and the
// compaction uses it (its fingerprint matches); the latencies are logged,
// not asserted. A session that moved on (a new user turn) after its job
// ran finds no match and calls the model.
func TestPrefetchedSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("waits on a slow fake model")
	}
	for _, on := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefetch=%v", on), func(t *testing.T) {
			schema := pgSchema(t)
			opts := func() *server.Options {
				o := &server.Options{FakeLatency: fakeLatency, PrefetchFraction: 0.7}
				if !on {
					o.PrefetchFraction = -1
				}
				return o
			}
			rs := []*replica{startReplica(t, schema, 5*time.Second, opts()), startReplica(t, schema, 5*time.Second, opts())}
			c := rs[0]
			snap := newSession(t, c.client, server.CreateRequest{SessionConfig: server.SessionConfig{
				Model: "gpt-4o", Window: 8000, ReservedOutput: 500, Strategy: "summarize", Summarizer: "model", System: testSystem}})
			id := snap.ID
			// Past the pre-threshold, under the threshold.
			for k := 0; ; k++ {
				c.must(200, "POST", "/v1/sessions/"+id+"/messages", server.AppendRequest{Messages: workTurn(fmt.Sprintf("p%d", k), 1)}, nil)
				c.must(200, "GET", "/v1/sessions/"+id, nil, &snap)
				if snap.Usage.Tokens >= snap.Usage.Threshold {
					t.Fatalf("setup: %d tokens over the threshold %d", snap.Usage.Tokens, snap.Usage.Threshold)
				}
				if float64(snap.Usage.Tokens) >= 0.9*float64(snap.Usage.Threshold) {
					break
				}
			}
			stored := func() int64 {
				return rs[0].srv.PrefetchStats().Stored.Load() + rs[1].srv.PrefetchStats().Stored.Load()
			}
			if on {
				// The agent's model call: the job has the time it takes.
				// Every dry run done, every job it queued done.
				settled := func() bool {
					var dry, queued, done int64
					for _, r := range rs {
						st := r.srv.PrefetchStats()
						dry += st.DryRuns.Load()
						queued += st.Queued.Load()
						done += st.Stored.Load() + st.Cancelled.Load()
					}
					return dry == 0 && queued > 0 && done >= queued
				}
				giveUp := time.Now().Add(2 * time.Minute) // a guard, not the thing tested
				for !settled() {
					if time.Now().After(giveUp) {
						t.Fatal("no summary was computed ahead")
					}
					time.Sleep(50 * time.Millisecond) // polling the replicas' counters
				}
			}
			// The crossing request carries the rest of the agent's turn:
			// a tool call and its result, a little over what is left
			// under the threshold.
			lines := (snap.Usage.Threshold-snap.Usage.Tokens)/12 + 8
			step := []condense.Message{
				{ID: "x-a", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("one more look"),
					condense.ToolCall("x-call", "read", json.RawMessage(`{"path":"x.go"}`))}},
				{ID: "x-t", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("x-call", false, condense.Text(longOutput("x", lines)))}},
			}
			start := time.Now()
			var rr server.RenderResponse
			c.must(200, "POST", "/v1/sessions/"+id+"/render", server.RenderRequest{Messages: step}, &rr)
			took := time.Since(start)
			if len(rr.Compactions) == 0 {
				t.Fatalf("the crossing render did not compact: %d tokens", rr.TokensBefore)
			}
			used := rs[0].srv.PrefetchStats().Used.Load() + rs[1].srv.PrefetchStats().Used.Load()
			t.Logf("threshold-crossing render with the fake model at %v: %v (prefetch %v: %d summaries stored ahead, %d used)",
				fakeLatency, took.Round(time.Millisecond), on, stored(), used)
			if on && used != 1 {
				t.Fatalf("the summary computed ahead was not used (%d)", used)
			}
			if !on && used != 0 {
				t.Fatalf("prefetching off, yet %d summaries used", used)
			}
		})
	}
}

// longOutput is n lines of a tool's output.
func longOutput(name string, n int) string {
	out := ""
	for i := range n {
		out += fmt.Sprintf("%s: line %d of the output that goes on\n", name, i)
	}
	return out
}
