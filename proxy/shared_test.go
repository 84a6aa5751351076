package proxy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store/postgres"
	"github.com/condense-dev/condense/strategy"
)

// envPostgres names the test database; the tests of shared conversations
// skip without it.
const envPostgres = "CONDENSE_TEST_POSTGRES"

// pgSchema returns the test database and a schema of t's own, dropped
// when t ends.
func pgSchema(t testing.TB) (url, schema string) {
	url = os.Getenv(envPostgres)
	if url == "" {
		t.Skip(envPostgres + " is not set")
	}
	var b [6]byte
	rand.Read(b[:])
	schema = fmt.Sprintf("condense_proxy_test_%d_%s", os.Getpid(), hex.EncodeToString(b[:]))
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return url, schema
}

// sharedStores runs f with each SharedStore the tests know: in memory
// (memShared), and PostgreSQL when CONDENSE_TEST_POSTGRES names a
// database, in a schema of the subtest's own.
func sharedStores(t *testing.T, f func(t *testing.T, sh *sharedFixture)) {
	t.Run("memory", func(t *testing.T) {
		mem := newMemShared()
		f(t, &sharedFixture{
			open:        func(*testing.T) SharedStore { return mem },
			checkpoints: func(*testing.T) map[string][]int { return mem.checkpoints() },
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url, schema := pgSchema(t)
		f(t, &sharedFixture{
			open: func(t *testing.T) SharedStore {
				ctx := context.Background()
				// A store of its own, as a replica in a process of its own has.
				st, err := postgres.Open(ctx, url, &postgres.Options{Schema: schema, Logger: quietLogger()})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				sh, err := NewPostgresStore(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				return sh
			},
			checkpoints: func(t *testing.T) map[string][]int { return pgCheckpoints(t, url, schema) },
		})
	})
}

// sharedFixture is one shared store as the tests see it.
type sharedFixture struct {
	open func(t *testing.T) SharedStore
	// checkpoints returns the history count of every checkpoint stored,
	// by conversation.
	checkpoints func(t *testing.T) map[string][]int
}

// replica is a proxy in front of up keeping its conversations in the
// fixture's store.
func (sh *sharedFixture) replica(t *testing.T, up *upstream, opts Options) *harness {
	opts.Shared = sh.open(t)
	return newHarnessOn(t, up, opts)
}

func (m *memShared) checkpoints() map[string][]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string][]int{}
	for id, s := range m.sessions {
		_, _, cps := s.state()
		for _, cp := range cps {
			out[id] = append(out[id], cp.HistoryCount)
		}
	}
	return out
}

// compactions counts the compactions a proxy logged.
func (h *harness) compactions() int {
	return strings.Count(h.logs.String(), "condense proxy: compacted")
}

func pgCheckpoints(t *testing.T, url, schema string) map[string][]int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT session, (convert_from(data, 'UTF8')::jsonb->>'history_count')::int FROM `+schema+`.checkpoints ORDER BY session, seq`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Replicas that share a schema serve one conversation whose requests are
// spread over them exactly as one proxy serves it alone: each request
// goes upstream as the same bytes, each compaction runs once, on the
// replica that first needs it, and is stored once; a replica started
// later continues the conversation from the store.
func TestSharedReplicasContinueEachOther(t *testing.T) {
	for _, tc := range apiCases {
		t.Run(tc.name, func(t *testing.T) {
			sharedStores(t, func(t *testing.T, sh *sharedFixture) { replicasContinue(t, sh, tc) })
		})
	}
}

func replicasContinue(t *testing.T, sh *sharedFixture, tc apiCase) {
	alone := newHarness(t, Options{Settings: smallWindow})
	up := newUpstream(t)
	replicas := []*harness{
		sh.replica(t, up, Options{Settings: smallWindow}),
		sh.replica(t, up, Options{Settings: smallWindow}),
	}
	step := map[string]func(int, int) []map[string]any{"chat": chatStep, "responses": responsesStep, "messages": anthropicStep}[tc.name]
	history := tc.history(4, 3000)
	for call := range 12 {
		if call == 8 {
			replicas = append(replicas, sh.replica(t, up, Options{Settings: smallWindow}))
		}
		history = append(history, step(4+call, 3000)...)
		in := body(t, tc.head, tc.array, history)
		want := alone.post(t, tc.path, in)
		r := replicas[call%len(replicas)]
		got := r.post(t, tc.path, in)
		if got.StatusCode != 200 || want.StatusCode != 200 {
			t.Fatalf("call %d: status %d, alone %d", call, got.StatusCode, want.StatusCode)
		}
		if !bytes.Equal(up.body(-1), alone.up.body(-1)) {
			t.Fatalf("call %d (replica %d): the body sent upstream differs from the one a proxy alone sends:\n%s\nalone:\n%s",
				call, call%len(replicas), up.body(-1), alone.up.body(-1))
		}
		for _, k := range []string{HeaderCompacted, HeaderTokensBefore, HeaderTokensAfter} {
			if got.Header.Get(k) != want.Header.Get(k) {
				t.Errorf("call %d: %s %s, alone %s", call, k, got.Header.Get(k), want.Header.Get(k))
			}
		}
	}
	n := 0
	for _, r := range replicas {
		n += r.compactions()
	}
	cps := sh.checkpoints(t)
	t.Logf("%s: %d compactions alone, %d over the replicas, stored %v", tc.name, alone.compactions(), n, cps)
	if alone.compactions() == 0 {
		t.Fatal("the conversation never compacted: the test proves nothing")
	}
	if n != alone.compactions() {
		t.Errorf("%d compactions over the replicas, %d alone", n, alone.compactions())
	}
	if len(cps) != 1 {
		t.Fatalf("checkpoints stored in %d conversations, want 1", len(cps))
	}
	for _, counts := range cps {
		if len(counts) != alone.compactions() {
			t.Errorf("%d checkpoints stored (history counts %v), want one per compaction: %d", len(counts), counts, alone.compactions())
		}
	}
}

// blockingStrategy compacts with the default strategy; when entered and
// release are set, its first call tells entered and waits for release.
type blockingStrategy struct {
	condense.Strategy
	mu      sync.Mutex
	calls   int
	entered chan struct{}
	release chan struct{}
}

func (b *blockingStrategy) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	b.mu.Lock()
	b.calls++
	entered, release := b.entered, b.release
	b.entered = nil
	b.mu.Unlock()
	if entered != nil {
		entered <- struct{}{}
		<-release
	}
	return b.Strategy.Compact(ctx, cc)
}

func (b *blockingStrategy) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}

// Two replicas that get the request crossing the threshold at once
// compact once: the second, come to compact while the first is
// compacting, waits for the conversation's lease, finds the checkpoint
// made meanwhile and sends the same body.
func TestSharedConcurrentCrossingCompactsOnce(t *testing.T) {
	sharedStores(t, crossingCompactsOnce)
}

func crossingCompactsOnce(t *testing.T, sh *sharedFixture) {
	up := newUpstream(t)
	first := &blockingStrategy{Strategy: strategy.Default()}
	second := &blockingStrategy{Strategy: strategy.Default()}
	a := sh.replica(t, up, Options{Settings: smallWindow, Strategy: first})
	b := sh.replica(t, up, Options{Settings: smallWindow, Strategy: second})
	history := chatHistory(3, 3000)
	for call := range 2 { // under the threshold
		history = append(history, chatStep(3+call, 3000)...)
		if resp := a.post(t, "/v1/chat/completions", body(t, `{"model":"gpt-4o"}`, "messages", history)); resp.Header.Get(HeaderCompacted) != "false" {
			t.Fatalf("warming up, call %d: compacted %q, want false", call, resp.Header.Get(HeaderCompacted))
		}
	}
	for i := 5; i < 9; i++ { // over it
		history = append(history, chatStep(i, 3000)...)
	}
	in := body(t, `{"model":"gpt-4o"}`, "messages", history)

	release := make(chan struct{})
	first.mu.Lock()
	first.entered, first.release = make(chan struct{}), release
	entered := first.entered
	first.mu.Unlock()
	waiting := make(chan string, 1)
	b.p.beforeLease = func(id string) { waiting <- id }
	type answer struct {
		status int
		header string
	}
	answers := make(chan answer, 2)
	send := func(h *harness) {
		resp := h.post(t, "/v1/chat/completions", in)
		io.Copy(io.Discard, resp.Body)
		answers <- answer{resp.StatusCode, resp.Header.Get(HeaderCompacted)}
	}
	go send(a)
	<-entered // a compacts, holding the lease
	go send(b)
	got := 0
	select {
	case <-waiting: // b is about to compact too: it waits for the lease
	case ans := <-answers:
		t.Errorf("the second replica answered (%+v) while the first was compacting", ans)
		got++
	}
	close(release)
	for ; got < 2; got++ {
		if ans := <-answers; ans.status != 200 || ans.header != "true" {
			t.Errorf("answer %+v, want 200 and compacted", ans)
		}
	}
	if n := second.count(); n != 0 {
		t.Errorf("the second replica ran its strategy %d times, want 0 (it uses the first's checkpoint)", n)
	}
	if n := a.compactions() + b.compactions(); n != 1 {
		t.Errorf("%d compactions logged, want 1", n)
	}
	cps := sh.checkpoints(t)
	if len(cps) != 1 {
		t.Fatalf("checkpoints in %d conversations, want 1: %v", len(cps), cps)
	}
	for _, counts := range cps {
		if len(counts) != 1 {
			t.Errorf("%d checkpoints stored, want 1: %v", len(counts), counts)
		}
	}
	if !bytes.Equal(up.body(-1), up.body(-2)) {
		t.Errorf("the replicas sent different bodies for the same request:\n%s\n%s", up.body(-2), up.body(-1))
	}
}

// A request whose history diverges from its conversation's (an edited
// message) starts a conversation of its own, compacted as a new one and
// then continued from its own checkpoints; one that resends an earlier
// state (a rewind) is compacted as a new conversation and saves nothing;
// neither changes how the original conversation goes on.
func TestSharedEditedHistoryForks(t *testing.T) {
	sharedStores(t, editedHistoryForks)
}

func editedHistoryForks(t *testing.T, sh *sharedFixture) {
	up := newUpstream(t)
	a := sh.replica(t, up, Options{Settings: smallWindow})
	b := sh.replica(t, up, Options{Settings: smallWindow})
	alone := newHarness(t, Options{Settings: smallWindow})
	const head = `{"model":"gpt-4o"}`
	// sent sends in to h and returns the body h sent upstream.
	sent := func(h *harness, in []byte) []byte {
		t.Helper()
		if resp := h.post(t, "/v1/chat/completions", in); resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		return h.up.body(-1)
	}
	history := chatHistory(4, 3000)
	var states [][]byte
	for call := range 8 {
		history = append(history, chatStep(4+call, 3000)...)
		in := body(t, head, "messages", history)
		states = append(states, in)
		if got, want := sent([]*harness{a, b}[call%2], in), sent(alone, in); !bytes.Equal(got, want) {
			t.Fatalf("call %d: the replicas' body differs from the one of a proxy alone", call)
		}
	}
	if alone.compactions() == 0 {
		t.Fatal("the conversation never compacted: the test proves nothing")
	}

	edited := chatHistory(4, 3000)
	edited[1]["content"] = "Make the test suite in ./internal/lex pass."
	edited = append(edited, history[len(edited):]...)
	fresh := newHarness(t, Options{Settings: smallWindow})
	for call := range 2 {
		edited = append(edited, chatStep(30+call, 3000)...)
		in := body(t, head, "messages", edited)
		if got, want := sent([]*harness{b, a}[call], in), sent(fresh, in); !bytes.Equal(got, want) {
			t.Errorf("edited history, call %d: the replicas' body differs from the one of a new proxy", call)
		}
	}
	if fresh.compactions() == 0 {
		t.Error("the edited history never compacted: the test proves less than it should")
	}

	// An edit after the last compaction keeps its checkpoint, as a proxy
	// alone keeps it for a conversation whose history changed there.
	alone2 := newHarness(t, Options{Settings: smallWindow})
	for _, in := range states {
		sent(alone2, in)
	}
	if alone2.compactions() != 1 || alone.compactions() != 1 {
		t.Fatalf("%d and %d compactions, the test wants one, before the edit", alone2.compactions(), alone.compactions())
	}
	late := slices.Clone(history)
	last := maps.Clone(late[len(late)-1])
	last["content"] = "edited output"
	late[len(late)-1] = last
	for call := range 2 {
		in := body(t, head, "messages", late)
		if got, want := sent([]*harness{a, b}[call], in), sent(alone2, in); !bytes.Equal(got, want) {
			t.Errorf("late edit, call %d: the replicas' body differs from the one of a proxy alone", call)
		}
		late = append(late, chatStep(50+call, 3000)...)
	}
	if n := alone2.compactions(); n != 1 {
		t.Errorf("%d compactions after the late edit, want the one before it", n)
	}

	rewound := states[5]
	if got, want := sent(a, rewound), sent(newHarness(t, Options{Settings: smallWindow}), rewound); !bytes.Equal(got, want) {
		t.Error("rewound history: the replica's body differs from the one of a new proxy")
	}

	history = append(history, chatStep(40, 3000)...)
	in := body(t, head, "messages", history)
	if got, want := sent(b, in), sent(alone, in); !bytes.Equal(got, want) {
		t.Error("the original conversation, after the fork and the rewind: the replica's body differs from the one of a proxy alone")
	}
	cps := sh.checkpoints(t)
	if len(cps) != 2 {
		t.Errorf("checkpoints in %d conversations, want 2 (the original and the early edit, the late edit inheriting the original's): %v", len(cps), cps)
	}
}

// Clients compacting their own conversations at once through two
// replicas that keep three conversations ready each: every request is
// answered, no replica keeps more than three, and (under -race) the cache
// and the leases share nothing unguarded.
func TestSharedConcurrentConversations(t *testing.T) {
	sharedStores(t, func(t *testing.T, sh *sharedFixture) {
		up := newUpstream(t)
		replicas := []*harness{
			sh.replica(t, up, Options{Settings: smallWindow, Conversations: 3}),
			sh.replica(t, up, Options{Settings: smallWindow, Conversations: 3}),
		}
		var wg sync.WaitGroup
		for c := range 6 {
			wg.Go(func() {
				key := fmt.Sprintf("client-%d", c%4) // clients 0 and 1 send two conversations each
				history := chatHistory(3, 3000)
				for call := range 4 {
					history = append(history, chatStep(3+call, 3000)...)
					in := body(t, `{"model":"gpt-4o"}`, "messages", history)
					r := replicas[(c+call)%2]
					req, _ := http.NewRequest("POST", r.srv.URL+"/v1/chat/completions", bytes.NewReader(in))
					req.Header.Set("Authorization", "Bearer "+key)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Error(err)
						return
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						t.Errorf("client %d call %d: %d %s", c, call, resp.StatusCode, b)
					}
				}
			})
		}
		wg.Wait()
		for k, r := range replicas {
			if n := r.p.Conversations(); n > 3 {
				t.Errorf("replica %d keeps %d conversations, the bound is 3", k, n)
			}
		}
	})
}
