package server_test

import (
	"encoding/json"
	"testing"

	"github.com/condense-dev/condense/server"
)

// A manual compaction with the pipeline reports each stage it runs, in
// order, between started and compacted; reading the snapshot (whose
// compaction_available comes from a dry run of the same strategy)
// reports none.
func TestCompactionReportsStages(t *testing.T) {
	c := inProcess(t, nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 128000}})
	p := "/v1/sessions/" + snap.ID
	for _, turn := range []string{"p1", "p2", "p3", "p4"} {
		c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: workTurn(turn, 4)}, nil)
	}
	var before server.Snapshot
	c.must(200, "GET", p, nil, &before)
	if before.CompactionAvailable == nil || !*before.CompactionAvailable {
		t.Fatalf("compaction_available %v, want true", before.CompactionAvailable)
	}
	events := c.subscribe(snap.ID, before.LastEventID)
	defer events.close()
	// An append makes compaction_available stale: the next snapshot
	// finds it again with a dry run, which publishes no stage.
	c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: workTurn("p5", 1)}, nil)
	c.must(200, "GET", p, nil, nil)
	c.must(200, "POST", p+"/compact", nil, nil)
	got := events.until(t, server.EventCompacted, nil)
	var phases []string
	var stages []string
	for _, ev := range got {
		if ev.Type != server.EventCompacting {
			continue
		}
		var d struct {
			Phase, Stage string
			Index, Of    int
			Manual       bool
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		phases = append(phases, d.Phase)
		if d.Phase == "stage" {
			if !d.Manual || d.Index != len(stages)+1 || d.Of != 4 {
				t.Fatalf("stage event %s", ev.Data)
			}
			stages = append(stages, d.Stage)
		}
	}
	if len(phases) == 0 || phases[0] != "started" || got[0].Type != server.EventAppended {
		t.Fatalf("compacting phases %v: want started first", phases)
	}
	// A manual compaction runs every stage of the default pipeline.
	want := []string{"minify", "mask", "summarize", "drop-oldest"}
	if len(stages) != len(want) {
		t.Fatalf("stages %v, want %v (phases %v)", stages, want, phases)
	}
	for i := range want {
		if stages[i] != want[i] {
			t.Fatalf("stages %v, want %v", stages, want)
		}
	}
}
