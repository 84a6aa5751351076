package server_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	jpostgres "github.com/condense-dev/condense/journal/postgres"
	"github.com/condense-dev/condense/server"
	"github.com/condense-dev/condense/store/postgres"
)

// pgURL is the test database (CONDENSE_TEST_POSTGRES); the test skips
// without it.
func pgURL(t testing.TB) string {
	u := os.Getenv("CONDENSE_TEST_POSTGRES")
	if u == "" {
		t.Skip("CONDENSE_TEST_POSTGRES is not set")
	}
	return u
}

// pgSchema returns a schema of t's own, dropped when t ends.
func pgSchema(t testing.TB) string {
	url := pgURL(t)
	var b [6]byte
	rand.Read(b[:])
	name := fmt.Sprintf("condense_test_%d_%s", os.Getpid(), hex.EncodeToString(b[:]))
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	return name
}

// replica is one server on a loopback port over a store of its own (its
// own pool and leases) in the shared schema.
type replica struct {
	*client
	st   *postgres.Store
	srv  *server.Server
	http *httptest.Server
}

// startReplica starts a server on the database's schema.
func startReplica(t testing.TB, schema string, ttl time.Duration, opts *server.Options) *replica {
	t.Helper()
	return startReplicaOn(t, &postgres.Options{Schema: schema, LeaseTTL: ttl}, opts)
}

// startReplicaOn starts a server over a store opened with stOpts.
func startReplicaOn(t testing.TB, stOpts *postgres.Options, opts *server.Options) *replica {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	so := *stOpts
	so.Logger = log
	st, err := postgres.Open(ctx, pgURL(t), &so)
	if err != nil {
		t.Fatal(err)
	}
	js, err := jpostgres.New(ctx, st.Pool(), so.Schema)
	if err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &server.Options{}
	}
	opts.Logger = log
	b := &server.Backend{Store: st, Journal: js, Postgres: st, Describe: "postgres"}
	srv, err := server.New(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	r := &replica{client: &client{t: t, base: hs.URL, hc: noFatal()}, st: st, srv: srv, http: hs}
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		b.Close()
	})
	return r
}

// turnIDs lists the ids of messages.
func turnIDs(msgs []condense.Message) []string {
	out := make([]string, len(msgs))
	for i := range msgs {
		out[i] = msgs[i].ID
	}
	return out
}

// TestReplicasShareSessions is the multi-replica test: three servers on
// loopback ports over one database; the same session's append+render
// requests go to all three at once, past the threshold again and again.
// Every message is stored once, each compaction saves exactly one
// checkpoint (reported by exactly one render), and every replica's event
// stream sees every compaction.
func TestReplicasShareSessions(t *testing.T) {
	schema := pgSchema(t)
	var rs []*replica
	for range 3 {
		rs = append(rs, startReplica(t, schema, 5*time.Second, nil))
	}
	snap := newSession(t, rs[0].client, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "mask", System: testSystem}})
	id := snap.ID
	var streams []*sse
	for _, r := range rs {
		streams = append(streams, r.subscribe(id, 0))
	}

	const workers, renders = 2, 6
	type result struct {
		msgs []string
		cps  []string
		err  string
	}
	results := make(chan result, len(rs)*workers*renders)
	var wg sync.WaitGroup
	for ri, r := range rs {
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range renders {
					turn := workTurn(fmt.Sprintf("r%dw%dk%d", ri, w, k), 1)
					raw, _ := json.Marshal(server.RenderRequest{Messages: turn})
					st, body := r.post(id, raw)
					res := result{msgs: turnIDs(turn)}
					if st != 200 {
						res.err = fmt.Sprintf("replica %d: render: %d %s", ri, st, body)
					} else {
						var rr server.RenderResponse
						json.Unmarshal([]byte(body), &rr)
						// The passes of one preflight share one
						// checkpoint, named after the last.
						if n := len(rr.Compactions); n > 0 {
							res.cps = append(res.cps, rr.Compactions[n-1].Checkpoint)
						}
					}
					results <- res
				}
			}()
		}
	}
	wg.Wait()
	close(results)
	sent := map[string]int{}
	reported := map[string]int{}
	for res := range results {
		if res.err != "" {
			t.Fatal(res.err)
		}
		for _, m := range res.msgs {
			sent[m]++
		}
		for _, c := range res.cps {
			reported[c]++
		}
	}

	// Every message once, each turn contiguous.
	var page server.MessagesPage
	rs[1].must(200, "GET", "/v1/sessions/"+id+"/messages?limit=10000", nil, &page)
	stored := map[string]int{}
	for i, m := range page.Messages {
		stored[m.ID]++
		if strings.HasSuffix(m.ID, "-u") {
			p := strings.TrimSuffix(m.ID, "-u")
			want := []string{p + "-u", p + "-call0-a", p + "-call0-t", p + "-done"}
			for k, w := range want {
				if i+k >= len(page.Messages) || page.Messages[i+k].ID != w {
					t.Fatalf("turn %s is not contiguous at %d", p, i)
				}
			}
		}
	}
	if len(page.Messages) != len(sent) {
		t.Fatalf("%d messages stored, %d sent", len(page.Messages), len(sent))
	}
	for m := range sent {
		if stored[m] != 1 {
			t.Fatalf("message %s stored %d times", m, stored[m])
		}
	}

	// Exactly one checkpoint per compaction.
	var cps struct {
		Checkpoints []server.CheckpointInfo `json:"checkpoints"`
	}
	rs[2].must(200, "GET", "/v1/sessions/"+id+"/checkpoints", nil, &cps)
	if len(cps.Checkpoints) == 0 {
		t.Fatal("no compaction past the threshold")
	}
	var ids []string
	for i, cp := range cps.Checkpoints {
		ids = append(ids, cp.ID)
		if i > 0 && cpNum(cp.ID) <= cpNum(cps.Checkpoints[i-1].ID) {
			t.Fatalf("checkpoint %s after %s", cp.ID, cps.Checkpoints[i-1].ID)
		}
		if reported[cp.ID] != 1 {
			t.Fatalf("checkpoint %s reported by %d renders", cp.ID, reported[cp.ID])
		}
		if i > 0 && cp.HistoryCount <= cps.Checkpoints[i-1].HistoryCount {
			t.Fatalf("checkpoint %s covers %d messages, %s before it %d: two compactions of one history", cp.ID, cp.HistoryCount, cps.Checkpoints[i-1].ID, cps.Checkpoints[i-1].HistoryCount)
		}
	}
	if len(reported) != len(cps.Checkpoints) {
		t.Fatalf("renders reported %v, stored %v", reported, ids)
	}
	t.Logf("%d renders on 3 replicas: %d messages, checkpoints %v", len(rs)*workers*renders, len(page.Messages), ids)

	// Every replica's stream sees every compaction.
	for i, s := range streams {
		want := map[string]bool{}
		for _, c := range ids {
			want[c] = true
		}
		s.until(t, server.EventCompacted, func(ev server.Event) bool {
			var d struct{ Checkpoint string }
			json.Unmarshal(ev.Data, &d)
			delete(want, d.Checkpoint)
			return len(want) == 0
		})
		s.close()
		t.Logf("replica %d saw every compaction", i)
	}
	// A stream opened later with Last-Event-ID resumes on any replica
	// without a gap.
	again := rs[2].subscribe(id, 3)
	first := <-again.events
	again.close()
	if first.ID != 4 {
		t.Fatalf("resumed at event %d, want 4", first.ID)
	}

	// A change of settings on one replica reaches the others (a record
	// notification: polled), and so does a deletion.
	window := 9000
	rs[0].must(200, "PATCH", "/v1/sessions/"+id, server.ConfigChange{Window: &window}, nil)
	for polls := 0; ; polls++ {
		var s server.Snapshot
		rs[1].must(200, "GET", "/v1/sessions/"+id, nil, &s)
		if s.Config.Window == window && s.Usage.Window == window {
			break
		}
		if polls > 500 {
			t.Fatalf("replica 1 still has window %d", s.Config.Window)
		}
		time.Sleep(10 * time.Millisecond) // polling the other replica's state
	}
	rs[1].must(204, "DELETE", "/v1/sessions/"+id, nil, nil)
	for polls := 0; ; polls++ {
		st, _ := rs[2].do("GET", "/v1/sessions/"+id, nil)
		if st == 404 {
			break
		}
		if polls > 500 {
			t.Fatalf("replica 2 still serves a deleted session: %d", st)
		}
		time.Sleep(10 * time.Millisecond) // polling the other replica's state
	}
}

func cpNum(id string) int {
	var n int
	fmt.Sscanf(id, "c%d", &n)
	return n
}

// post sends a render with its messages from a goroutine.
func (c *client) post(id string, body []byte) (int, string) {
	resp, err := c.hc.Post(c.base+"/v1/sessions/"+id+"/render", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

// blockingSummarizer blocks every summary until its context ends, telling
// started first.
type blockingSummarizer struct{ started chan<- struct{} }

func (b blockingSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	select {
	case b.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// quickSummarizer answers every summary at once.
type quickSummarizer struct{}

func (quickSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	return &condense.Summary{Text: fmt.Sprintf("summary of %d messages", len(req.Messages))}, nil
}

// TestReplicaDiesMidCompaction: a replica that dies while its compaction
// waits on the model keeps the session's lease until it expires; a
// manual compaction meanwhile is 409 busy on another replica, and a
// render on a third completes the compaction once the lease is released
// (polled in the database). One checkpoint, nothing lost.
func TestReplicaDiesMidCompaction(t *testing.T) {
	schema := pgSchema(t)
	started := make(chan struct{}, 1)
	const ttl = 2 * time.Second
	dying := startReplica(t, schema, ttl, &server.Options{NewSummarizer: func(string, string) (condense.Summarizer, error) {
		return blockingSummarizer{started: started}, nil
	}})
	quick := func(string, string) (condense.Summarizer, error) { return quickSummarizer{}, nil }
	a := startReplica(t, schema, ttl, &server.Options{NewSummarizer: quick})
	b := startReplica(t, schema, ttl, &server.Options{NewSummarizer: quick})

	snap := newSession(t, a.client, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "summarize", Summarizer: "model", System: testSystem}})
	id := snap.ID
	var sent []string
	for _, p := range []string{"p1", "p2", "p3"} {
		turn := workTurn(p, 4)
		sent = append(sent, turnIDs(turn)...)
		a.must(200, "POST", "/v1/sessions/"+id+"/messages", server.AppendRequest{Messages: turn}, nil)
	}
	events := b.subscribe(id, 0)

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// released reports whether the dying replica's lease is gone.
	var holder string
	released := func() bool {
		var free bool
		err := conn.QueryRow(ctx, `SELECT lease_owner IS DISTINCT FROM $2 OR lease_expires <= now() FROM `+schema+`.sessions WHERE id = $1`, id, holder).Scan(&free)
		if err != nil {
			t.Fatal(err)
		}
		return free
	}

	// The dying replica starts the compaction and waits on its model.
	go dying.post(id, []byte(`{}`))
	<-started
	if err := conn.QueryRow(ctx, `SELECT lease_owner FROM `+schema+`.sessions WHERE id = $1`, id).Scan(&holder); err != nil {
		t.Fatalf("the compacting replica holds no lease: %v", err)
	}
	// It dies: its connections to the database go first (its lease is
	// neither renewed nor released), then its clients.
	dying.st.Pool().Close()
	dying.http.CloseClientConnections()

	// While the lease lives, a manual compaction elsewhere is busy.
	if st, body := b.do("POST", "/v1/sessions/"+id+"/compact", nil); st != 409 || errorCode(t, body) != server.CodeBusy {
		t.Fatalf("manual compaction while another replica compacts: %d %s", st, body)
	}
	// A render on another replica waits for the lease.
	type answer struct {
		st   int
		body string
	}
	done := make(chan answer, 1)
	go func() {
		st, body := a.post(id, []byte(`{}`))
		done <- answer{st, body}
	}()

	// The lease is released when it expires: poll the database.
	var ans answer
	for polls := 0; ; polls++ {
		if released() {
			t.Logf("lease released after %d polls", polls)
			ans = <-done
			break
		}
		select {
		case ans = <-done:
			if !released() {
				t.Fatalf("render answered while the dead replica's lease was live: %d %s", ans.st, ans.body)
			}
		case <-time.After(20 * time.Millisecond):
			continue
		}
		break
	}
	if ans.st != 200 {
		t.Fatalf("render after the lease's release: %d %s", ans.st, ans.body)
	}
	var rr server.RenderResponse
	json.Unmarshal([]byte(ans.body), &rr)
	if len(rr.Compactions) != 1 || rr.Compactions[0].Checkpoint != "c1" {
		t.Fatalf("the surviving replica's render: compactions %+v", rr.Compactions)
	}
	events.until(t, server.EventCompacted, func(ev server.Event) bool { return strings.Contains(string(ev.Data), `"c1"`) })
	events.close()

	var cps struct {
		Checkpoints []server.CheckpointInfo `json:"checkpoints"`
	}
	b.must(200, "GET", "/v1/sessions/"+id+"/checkpoints", nil, &cps)
	if len(cps.Checkpoints) != 1 {
		t.Fatalf("%d checkpoints, want 1", len(cps.Checkpoints))
	}
	var page server.MessagesPage
	b.must(200, "GET", "/v1/sessions/"+id+"/messages?limit=10000", nil, &page)
	got := turnIDs(page.Messages)
	if strings.Join(got, ",") != strings.Join(sent, ",") {
		sort.Strings(got)
		t.Fatalf("log after the death: %v, want %v", got, sent)
	}
}

// BenchmarkReplicasAppendRender is the load benchmark on PostgreSQL: each
// operation appends one message to a session of ~50 messages / ~10k
// tokens and renders it (two requests, each holding the session's lease),
// with 1 or 3 replicas over one database and 16 sessions in flight. With
// 3 replicas consecutive operations on a session go to different
// replicas (no affinity), so each finds the session changed by another
// and reads what is new before it works. Reports ops/s and latency
// percentiles.
func BenchmarkReplicasAppendRender(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
			schema := pgSchema(b)
			var rs []*replica
			for range n {
				rs = append(rs, startReplica(b, schema, 10*time.Second, nil))
			}
			const inflight = 16
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * inflight}}
			perSession := 20
			sessions := max((b.N+perSession-1)/perSession, inflight)
			ids := make([]string, sessions)
			hist := benchHistory()
			for i := range ids {
				var snap server.Snapshot
				rs[i%n].must(201, "POST", "/v1/sessions", server.CreateRequest{
					SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 128000, Strategy: "mask"},
					Messages:      hist}, &snap)
				ids[i] = snap.ID
			}
			msg, _ := json.Marshal(server.AppendRequest{Messages: []condense.Message{condense.UserText("one more thing: " + strings.Repeat("check the backoff. ", 10))}})
			lat := make([]time.Duration, b.N)
			var next atomic.Int64
			var failed atomic.Value
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for range inflight {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						k := i % sessions
						id := ids[k]
						r := rs[(i/sessions)%n] // the session's next operation on the next replica
						t0 := time.Now()
						if err := post(hc, r.base+"/v1/sessions/"+id+"/messages", msg); err != nil {
							failed.Store(err)
							return
						}
						if err := post(hc, r.base+"/v1/sessions/"+id+"/render?format=openai", nil); err != nil {
							failed.Store(err)
							return
						}
						lat[i] = time.Since(t0)
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			if err, _ := failed.Load().(error); err != nil {
				b.Fatal(err)
			}
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[min(len(lat)-1, int(float64(len(lat))*p))]) / 1e6 }
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
			var reopens int64
			for _, r := range rs {
				reopens += r.srv.Reopens()
			}
			b.ReportMetric(float64(reopens)/float64(b.N), "reopens/op")
		})
	}
}

// gateSummarizer tells started when a summary begins and answers it once
// release is closed.
type gateSummarizer struct {
	started chan struct{}
	release chan struct{}
}

func newGate() *gateSummarizer {
	return &gateSummarizer{started: make(chan struct{}, 1), release: make(chan struct{})}
}

func (g *gateSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	select {
	case g.started <- struct{}{}:
	default:
	}
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &condense.Summary{Text: fmt.Sprintf("summary of %d messages", len(req.Messages))}, nil
}

// answer is an HTTP answer received in a goroutine.
type answer struct {
	st   int
	body []byte
	err  error
}

// sendAsync sends a request from a goroutine; its answer comes on the
// channel.
func (c *client) sendAsync(method, path string, body any) <-chan answer {
	ch := make(chan answer, 1)
	go func() {
		st, out, err := c.send(method, path, body)
		ch <- answer{st, out, err}
	}()
	return ch
}

// waitSignal returns a store's OnWait that signals on the channel it
// returns when an operation waits for a lease held elsewhere.
func waitSignal() (func(string), <-chan struct{}) {
	ch := make(chan struct{}, 1)
	return func(string) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}, ch
}

// A manual compaction waits for what another replica does that is no
// compaction — an append stopped while it holds the session's lease — and
// then compacts the history with that append in it. While another
// replica compacts, it answers 409 busy at once, and so does an append
// there, as on one replica.
func TestReplicaManualCompaction(t *testing.T) {
	schema := pgSchema(t)
	gate := newGate()
	a := startReplica(t, schema, 5*time.Second, &server.Options{NewSummarizer: func(string, string) (condense.Summarizer, error) {
		return gate, nil
	}})
	onWait, bWaits := waitSignal()
	b := startReplicaOn(t, &postgres.Options{Schema: schema, LeaseTTL: 5 * time.Second, OnWait: onWait}, &server.Options{
		NewSummarizer: func(string, string) (condense.Summarizer, error) { return quickSummarizer{}, nil }})
	snap := newSession(t, a.client, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "summarize", Summarizer: "model", System: testSystem}})
	id := snap.ID
	path := "/v1/sessions/" + id
	for _, p := range []string{"p1", "p2", "p3", "p4"} {
		a.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn(p, 4)}, nil)
	}

	// A appends, and stops while it holds the lease.
	holding, resume := make(chan struct{}), make(chan struct{})
	var once, resumed sync.Once
	server.OnAppend(a.srv, func() { once.Do(func() { close(holding); <-resume }) })
	defer resumed.Do(func() { close(resume) }) // a failure lets the append end
	appended := a.sendAsync("POST", path+"/messages", server.AppendRequest{Messages: workTurn("p5", 4)})
	<-holding
	compacted := b.sendAsync("POST", path+"/compact", server.CompactRequest{})
	select {
	case <-bWaits:
	case ans := <-compacted:
		t.Fatalf("manual compaction while another replica appends: %d %s %v, want it to wait", ans.st, ans.body, ans.err)
	}
	resumed.Do(func() { close(resume) })
	if ans := <-appended; ans.st != 200 {
		t.Fatalf("the held append: %d %s %v", ans.st, ans.body, ans.err)
	}
	ans := <-compacted
	if ans.st != 200 {
		t.Fatalf("manual compaction after the append: %d %s %v", ans.st, ans.body, ans.err)
	}
	var cr server.CompactResponse
	if err := json.Unmarshal(ans.body, &cr); err != nil {
		t.Fatal(err)
	}
	if cr.Snapshot.Messages != 5*10 || cr.Snapshot.Checkpoint == nil || cr.Snapshot.Checkpoint.HistoryCount != 50 {
		t.Fatalf("the compaction that waited: %d messages, checkpoint %+v; want it over all 50", cr.Snapshot.Messages, cr.Snapshot.Checkpoint)
	}

	// A compacts (its summary waits on the gate): B's manual compaction
	// and B's append are busy.
	for _, p := range []string{"p6", "p7", "p8"} {
		b.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn(p, 4)}, nil)
	}
	var released sync.Once
	releaseGate := func() { released.Do(func() { close(gate.release) }) }
	defer releaseGate()
	running := a.sendAsync("POST", path+"/compact", server.CompactRequest{})
	select {
	case <-gate.started:
	case ans := <-running:
		t.Fatalf("A's compaction: %d %s %v", ans.st, ans.body, ans.err)
	}
	for _, req := range []struct {
		what, path string
		body       any
	}{
		{"manual compaction", "/compact", server.CompactRequest{}},
		{"append", "/messages", server.AppendRequest{Messages: workTurn("p9", 1)}},
	} {
		st, body := b.do("POST", path+req.path, req.body)
		if st != 409 || errorCode(t, body) != server.CodeBusy || !strings.Contains(string(body), `"activity":"compaction"`) {
			t.Fatalf("%s while another replica compacts: %d %s, want 409 busy with a compaction", req.what, st, body)
		}
	}
	releaseGate()
	if ans := <-running; ans.st != 200 {
		t.Fatalf("A's compaction: %d %s %v", ans.st, ans.body, ans.err)
	}
	b.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn("p9", 1)}, nil)
}

// gateModel is a hosted run's model that tells started when it is called
// and answers (echoing the prompt) once release is closed.
type gateModel struct {
	started chan struct{}
	release chan struct{}
}

func (g gateModel) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	select {
	case g.started <- struct{}{}:
	default:
	}
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return server.EchoModel{}.Generate(ctx, req)
}

func (g gateModel) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	resp, err := g.Generate(ctx, req)
	if err != nil {
		return func(yield func(agent.StreamEvent, error) bool) { yield(agent.StreamEvent{}, err) }
	}
	return agent.Events(resp)
}

// While a hosted run on one replica waits on its model, the session is
// busy with a prompt on every replica, as on one: an append, a render, a
// manual compaction and another prompt elsewhere answer 409 busy at once
// rather than wait for the run; reads answer. Once the run ends, appends
// elsewhere go through.
func TestReplicaBusyDuringRun(t *testing.T) {
	schema := pgSchema(t)
	model := gateModel{started: make(chan struct{}, 1), release: make(chan struct{})}
	var released sync.Once
	release := func() { released.Do(func() { close(model.release) }) }
	defer release()
	a := startReplica(t, schema, 5*time.Second, &server.Options{NewModel: func(string, string) (agent.Model, error) { return model, nil }})
	onWait, bWaits := waitSignal()
	b := startReplicaOn(t, &postgres.Options{Schema: schema, LeaseTTL: 5 * time.Second, OnWait: onWait}, nil)
	snap := newSession(t, a.client, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 60000, ReservedOutput: 500, Strategy: "mask", System: testSystem}})
	path := "/v1/sessions/" + snap.ID
	b.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn("p1", 1)}, nil)

	var pr server.PromptResponse
	a.must(202, "POST", path+"/prompt", server.PromptRequest{Text: "fix the failing test"}, &pr)
	<-model.started
	for _, req := range []struct {
		what, path string
		body       any
	}{
		{"append", "/messages", server.AppendRequest{Messages: workTurn("p2", 1)}},
		{"render", "/render", server.RenderRequest{}},
		{"manual compaction", "/compact", server.CompactRequest{}},
		{"prompt", "/prompt", server.PromptRequest{Text: "and another"}},
	} {
		var ans answer
		select {
		case ans = <-b.sendAsync("POST", path+req.path, req.body):
		case <-bWaits:
			t.Fatalf("%s on another replica waits for the run", req.what)
		}
		if ans.st != 409 || errorCode(t, ans.body) != server.CodeBusy || !strings.Contains(string(ans.body), `"activity":"prompt"`) {
			t.Fatalf("%s on another replica during a run: %d %s %v, want 409 busy with a prompt", req.what, ans.st, ans.body, ans.err)
		}
	}
	var page server.MessagesPage
	b.must(200, "GET", path+"/messages", nil, &page)
	if page.Total != 5 || page.Messages[4].TextContent() != "fix the failing test" {
		t.Fatalf("messages read on another replica during the run: %d", page.Total)
	}

	// The run settles (its lease given back) and is done.
	events := b.subscribe(snap.ID, 0)
	release()
	events.until(t, server.EventSettled, func(ev server.Event) bool {
		var s server.Snapshot
		json.Unmarshal(ev.Data, &s)
		return s.Run == pr.Run && !s.Busy
	})
	events.close()
	var run server.RunInfo
	a.must(200, "GET", path+"/runs/"+pr.Run, nil, &run)
	if run.State != server.RunDone {
		t.Fatalf("run %s: %+v", pr.Run, run)
	}
	var ar server.AppendResponse
	b.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn("p2", 1)}, &ar)
	if ar.From != 6 {
		t.Fatalf("append after the run landed at %d, want 6 (after the prompt and its answer)", ar.From)
	}
}

// appendedIDs returns the message ids an appended event names.
func appendedIDs(ev server.Event) string {
	var d struct{ IDs []string }
	json.Unmarshal(ev.Data, &d)
	return strings.Join(d.IDs, ",")
}

// A replica that loses its database right after an append committed —
// before anything else happens, as in a crash — does not lose the
// append's event: a client of another replica's stream gets it, and gets
// it again with the same id when it reconnects from before it.
func TestReplicaAppendedEventSurvivesCrash(t *testing.T) {
	schema := pgSchema(t)
	const ttl = time.Second // the crashed replica's lease ends by expiry
	a := startReplica(t, schema, ttl, nil)
	b := startReplica(t, schema, ttl, nil)
	snap := newSession(t, a.client, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 60000, ReservedOutput: 500, Strategy: "mask", System: testSystem}})
	path := "/v1/sessions/" + snap.ID
	a.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn("p1", 1)}, nil)
	events := b.subscribe(snap.ID, 0)
	before := events.until(t, server.EventAppended, nil)
	last := before[len(before)-1].ID

	var once sync.Once
	server.OnAppended(a.srv, func() { once.Do(func() { a.st.Pool().Close() }) })
	lost := workTurn("p2", 1)
	a.must(200, "POST", path+"/messages", server.AppendRequest{Messages: lost}, nil)
	// B appends once the crashed replica's lease has expired; its event
	// comes after the crashed append's.
	b.must(200, "POST", path+"/messages", server.AppendRequest{Messages: workTurn("p3", 1)}, nil)
	want := strings.Join(turnIDs(lost), ",")
	var id int64
	for _, ev := range events.until(t, server.EventAppended, func(ev server.Event) bool { return strings.HasPrefix(appendedIDs(ev), "p3-") }) {
		if ev.Type == server.EventAppended && appendedIDs(ev) == want {
			id = ev.ID
		}
	}
	events.close()
	if id == 0 {
		t.Fatalf("the append committed before its replica crashed has no appended event")
	}
	again := b.subscribe(snap.ID, last)
	defer again.close()
	ev := <-again.events
	if ev.ID != id || ev.Type != server.EventAppended || appendedIDs(ev) != want {
		t.Fatalf("reconnected after %d: event %d %s %s, want the appended event %d", last, ev.ID, ev.Type, ev.Data, id)
	}
	var page server.MessagesPage
	b.must(200, "GET", path+"/messages", nil, &page)
	if page.Total != 12 {
		t.Fatalf("%d messages stored, want 12", page.Total)
	}
}
