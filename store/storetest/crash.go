package storetest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// The helper process is this test binary run again with these variables.
const (
	envMode = "CONDENSE_STORETEST_HELPER" // "crash" or "lock"
	envDir  = "CONDENSE_STORETEST_DIR"
	envRun  = "CONDENSE_STORETEST_RUN"
	envSeed = "CONDENSE_STORETEST_SEED"
	envID   = "CONDENSE_STORETEST_SESSION"
)

// EnvLong, set to "1", makes Kills return LongKills.
const EnvLong = "CONDENSE_TEST_LONG"

// EnvCrashSeed, set to the seed a Crash run logged, repeats that run's
// choices: how many acknowledgements each helper makes before it is killed,
// which kills land on a write in flight, and what each helper writes. (Where
// exactly a kill lands inside a write cannot be repeated.)
const EnvCrashSeed = "CONDENSE_CRASH_SEED"

// Kill counts for Crash.
const (
	DefaultKills = 100
	LongKills    = 2000
)

// Kills returns how many kills a Crash test makes: DefaultKills, or
// LongKills when CONDENSE_TEST_LONG=1.
func Kills() int {
	if os.Getenv(EnvLong) == "1" {
		return LongKills
	}
	return DefaultKills
}

const (
	// lockSession is the session TwoProcesses locks.
	lockSession = "crash"
	// runsPerSession is how many helpers in a row write one session
	// (each reopening what the last left) before Crash starts another:
	// opening a session reads all of it, so this keeps each run's cost
	// the same however many kills a test makes.
	runsPerSession = 20
	// maxAcks is the most acknowledgements a helper makes before the kill
	// is sent; each run picks 1..maxAcks, or, one run in fifteen, 0 with
	// the kill landing on the open.
	maxAcks = 40
	// window is how many of the newest messages a checkpoint renders
	// after its drop marker; the older half of them have their tool
	// results masked.
	window = 12
	// reportFD is the helper's end of the report pipe (cmd.ExtraFiles[0]).
	reportFD = 3
	// strategyName names the checkpoints the helper makes.
	strategyName = "storetest-crash"
)

// Opener opens a store over dir; each call opens the same data afresh.
type Opener func(dir string) (store.Store, error)

// The report protocol: the helper writes one line per event to the report
// pipe, each with a single write (a pipe write of this size is atomic, so a
// kill can cut the stream only between lines):
//
//	w open                      about to open the session
//	open <len> <cps> <undos>    the session as opened: messages, checkpoints, undo markers
//	w <op>                      about to append <op>
//	ack <op>                    <op> was appended: Append returned nil
//	ERR <text>                  the helper failed (the test fails)
//	LOCKED <err> | OPENED       lock mode's answer
//
// An <op> is the batch, as space-separated fields: "m=<id>,<id>" (its
// messages), "c=<id>:<history count>" (its checkpoint), "u=<id>,<id>" (the
// checkpoints its undo marker retires).
type op struct {
	msgs []string
	cp   string
	hc   int
	undo []string
}

func (o *op) String() string {
	var f []string
	if len(o.msgs) > 0 {
		f = append(f, "m="+strings.Join(o.msgs, ","))
	}
	if o.cp != "" {
		f = append(f, fmt.Sprintf("c=%s:%d", o.cp, o.hc))
	}
	if len(o.undo) > 0 {
		f = append(f, "u="+strings.Join(o.undo, ","))
	}
	return strings.Join(f, " ")
}

func parseOp(s string) (*op, error) {
	o := &op{}
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "m":
			o.msgs = strings.Split(v, ",")
		case "c":
			id, hc, ok := strings.Cut(v, ":")
			n, err := strconv.Atoi(hc)
			if !ok || err != nil || id == "" {
				return nil, fmt.Errorf("bad checkpoint field %q", f)
			}
			o.cp, o.hc = id, n
		case "u":
			o.undo = strings.Split(v, ",")
		default:
			return nil, fmt.Errorf("unknown field %q", f)
		}
	}
	if len(o.msgs) == 0 && o.cp == "" && len(o.undo) == 0 {
		return nil, fmt.Errorf("empty op %q", s)
	}
	return o, nil
}

// counts is what a session holds, as far as the crash test follows it.
type counts struct{ msgs, cps, undos int }

func (c counts) after(o *op) counts {
	c.msgs += len(o.msgs)
	if o.cp != "" {
		c.cps++
	}
	if len(o.undo) > 0 {
		c.undos++
	}
	return c
}

func (c counts) String() string {
	return fmt.Sprintf("%d messages, %d checkpoints, %d undo markers", c.msgs, c.cps, c.undos)
}

// helper is the child process's side: it drives one session through the
// store API and reports every write before it starts and once it is
// acknowledged.
type helper struct {
	ctx   context.Context
	l     store.Log
	rep   *os.File
	rng   *rand.Rand
	run   string
	n     int                // messages in the log
	first condense.Message   // the log's first message (when n > 0)
	tail  []condense.Message // the newest min(n, window) messages
	live  []store.Checkpoint // checkpoints not retired by an undo marker
	maxCP int                // highest checkpoint number in the log
}

func (h *helper) report(format string, args ...any) {
	if _, err := h.rep.WriteString(fmt.Sprintf(format, args...) + "\n"); err != nil {
		os.Exit(4) // the test is gone
	}
}

func (h *helper) fail(format string, args ...any) {
	h.report("ERR "+format, args...)
	os.Exit(3)
}

// runHelper runs in the child process and never returns.
func runHelper(open Opener) {
	mode, dir := os.Getenv(envMode), os.Getenv(envDir)
	h := &helper{ctx: context.Background(), rep: os.NewFile(reportFD, "report"), run: os.Getenv(envRun)}
	st, err := open(dir)
	if err != nil {
		h.fail("open store: %v", err)
	}
	if mode == "lock" {
		l, err := st.Open(h.ctx, lockSession)
		switch {
		case errors.Is(err, store.ErrLocked):
			h.report("LOCKED %v", err)
		case err != nil:
			h.report("ERR %v", err)
		default:
			h.report("OPENED")
			l.Close()
		}
		os.Exit(0)
	}
	seed, err := strconv.ParseUint(os.Getenv(envSeed), 10, 64)
	if err != nil {
		h.fail("seed: %v", err)
	}
	h.rng = rand.New(rand.NewPCG(seed, 2))
	h.report("w open")
	if h.l, err = st.Open(h.ctx, os.Getenv(envID)); err != nil {
		h.fail("open session: %v", err)
	}
	h.restore()
	for i := 0; ; i++ {
		h.step(i)
	}
}

// restore reads what the helper needs of the log: its length, its live
// checkpoints, its first message and its newest ones.
func (h *helper) restore() {
	h.n = h.l.Len()
	cps, undos := h.l.Checkpoints(), h.l.Undos()
	h.live = liveCheckpoints(cps, undos)
	for _, cp := range cps {
		for _, id := range checkpointIDs(&cp) {
			if k, ok := cpNumber(id); ok {
				h.maxCP = max(h.maxCP, k)
			}
		}
	}
	if h.n > 0 {
		first, err := h.l.Messages(h.ctx, 0, 1)
		if err != nil {
			h.fail("read the first message: %v", err)
		}
		h.first = first[0]
		if h.tail, err = h.l.Messages(h.ctx, max(0, h.n-window), h.n); err != nil {
			h.fail("read the newest messages: %v", err)
		}
	}
	h.report("open %d %d %d", h.n, len(cps), len(undos))
}

// step makes one write: messages (most often), a checkpoint (sometimes
// with new messages in the same batch) or an undo marker (often enough that
// every run is likely to make one).
func (h *helper) step(i int) {
	var b store.Batch
	var o op
	switch r := h.rng.IntN(10); {
	case r == 9 && len(h.live) > 0:
		// Undo one of the newest live checkpoints and every later one,
		// the way a session undoes.
		k := max(0, len(h.live)-1-h.rng.IntN(3))
		for _, cp := range h.live[k:] {
			o.undo = append(o.undo, cp.ID)
		}
		b.Undo = &store.Undo{Checkpoints: o.undo, Time: time.Now().UTC()}
	case r >= 7 && h.n > 0:
		if h.rng.IntN(3) == 0 {
			b.Messages = h.messages(i)
		}
		cp := h.checkpoint(h.grown(b.Messages))
		b.Checkpoint = &cp
		o.cp, o.hc = cp.ID, cp.HistoryCount
	default:
		b.Messages = h.messages(i)
	}
	for _, m := range b.Messages {
		o.msgs = append(o.msgs, m.ID)
	}
	line := o.String()
	h.report("w %s", line)
	first, err := h.l.Append(h.ctx, b)
	if err != nil {
		h.fail("append %s: %v", line, err)
	}
	if first != h.n {
		h.fail("append %s: first index %d, want %d", line, first, h.n)
	}
	h.n, h.first, h.tail = h.grown(b.Messages)
	if b.Checkpoint != nil {
		h.live = append(h.live, *b.Checkpoint)
	}
	if b.Undo != nil {
		h.live = h.live[:len(h.live)-len(b.Undo.Checkpoints)]
	}
	h.report("ack %s", line)
}

// grown returns the log's length, first message and newest window as they
// are once msgs are appended.
func (h *helper) grown(msgs []condense.Message) (int, condense.Message, []condense.Message) {
	first := h.first
	if h.n == 0 && len(msgs) > 0 {
		first = msgs[0]
	}
	tail := append(h.tail[:len(h.tail):len(h.tail)], msgs...)
	return h.n + len(msgs), first, tail[max(0, len(tail)-window):]
}

// messages returns the next batch: a user message (always the first of a
// new log), or an assistant message with a tool call and its result.
func (h *helper) messages(i int) []condense.Message {
	id := fmt.Sprintf("%s-%d", h.run, i)
	if h.n == 0 || h.rng.IntN(5) == 0 {
		return []condense.Message{{ID: id + "-u", Role: condense.RoleUser,
			Parts: []condense.Part{condense.Text("next task " + id + ": fix cmd/" + id + ".go")}}}
	}
	call := "call-" + id
	return []condense.Message{
		{ID: id + "-a", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("running tests"),
			condense.ToolCall(call, "run", json.RawMessage(`{"cmd":"go test ./..."}`))}},
		{ID: id + "-t", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(call, h.rng.IntN(4) == 0,
			condense.Text(strings.Repeat("ok  \tgithub.com/x/y/"+id+"\t0.12s\n", 1+h.rng.IntN(6))))}},
	}
}

// checkpoint builds the next checkpoint over a log of n messages whose
// first message is first and whose newest ones are tail. It renders the
// way a drop-oldest compaction with masking would, without a strategy: the
// first message (the task) verbatim, a drop marker standing for everything
// before the newest window (cut where a turn or a step starts, so no tool
// result loses its call), tool results masked in the older half of the
// window, the rest verbatim.
func (h *helper) checkpoint(n int, first condense.Message, tail []condense.Message) store.Checkpoint {
	base := n - len(tail) // the log index of tail[0]
	r := condense.Rendering{{Index: 0, Message: first}}
	from, firstKept := 1, 0
	if keep := n - window; keep > 1 {
		d := keep
		for d < n && tail[d-base].Role == condense.RoleTool {
			d++
		}
		marker := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{
			condense.Text(fmt.Sprintf("[condense: %d messages dropped · recall covers 1-%d]", d-1, d-1))}}
		r = append(r, condense.Item{Index: -1, Edit: condense.EditDropped, Covers: condense.Span{Start: 1, End: d}, Message: marker})
		from, firstKept = d, d
	}
	for i := from; i < n; i++ {
		m := tail[i-base]
		if m.Role == condense.RoleTool && i < n-window/2 {
			r = append(r, condense.Item{Index: i, Edit: condense.EditMasked, Message: masked(i, m)})
			continue
		}
		r = append(r, condense.Item{Index: i, Message: m})
	}
	h.maxCP++
	id := "c" + strconv.Itoa(h.maxCP)
	return store.Checkpoint{
		ID: id, Strategy: strategyName, HistoryCount: n, FirstKept: firstKept, Time: time.Now().UTC(),
		Records:   []condense.Record{{Checkpoint: id, Strategy: strategyName, MessagesBefore: n, MessagesAfter: len(r)}},
		Rendering: store.EncodeOverlay(r),
	}
}

// masked returns tool message m (log index i) with its results replaced by
// placeholders.
func masked(i int, m condense.Message) condense.Message {
	out := condense.Message{ID: m.ID, Role: m.Role, Status: m.Status}
	for _, p := range m.Parts {
		if p.Type == condense.PartToolResult {
			ref := condense.RecallRef(i, &p)
			p = condense.ToolResult(p.CallID, p.IsError, condense.Text(condense.MaskPlaceholder(40, ref, nil)))
		}
		out.Parts = append(out.Parts, p)
	}
	return out
}

// liveCheckpoints returns the checkpoints no undo marker retires, in the
// order saved.
func liveCheckpoints(cps []store.Checkpoint, undos []store.Undo) []store.Checkpoint {
	retired := map[string]bool{}
	for _, u := range undos {
		for _, id := range u.Checkpoints {
			retired[id] = true
		}
	}
	var live []store.Checkpoint
	for _, cp := range cps {
		if !retired[cp.ID] {
			live = append(live, cp)
		}
	}
	return live
}

// checkpointIDs returns the id of cp and those of the passes merged in it.
func checkpointIDs(cp *store.Checkpoint) []string {
	ids := []string{cp.ID}
	for _, r := range cp.Records {
		if r.Checkpoint != "" && r.Checkpoint != cp.ID {
			ids = append(ids, r.Checkpoint)
		}
	}
	return ids
}

// cpNumber parses "c12".
func cpNumber(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "c")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0 && strconv.Itoa(n) == rest
}

// firstKept returns the lowest log index r renders after its last summary
// or drop marker (the end of the marker's span when nothing follows it), 0
// when there is none.
func firstKept(r condense.Rendering) int {
	last := -1
	for k := range r {
		if r[k].Index < 0 && (r[k].Edit == condense.EditSummary || r[k].Edit == condense.EditDropped) {
			last = k
		}
	}
	if last < 0 {
		return 0
	}
	for _, it := range r[last+1:] {
		if it.Index >= 0 {
			return it.Index
		}
	}
	return r[last].Covers.End
}

// inHelper runs the helper (and never returns) when this process is one:
// Crash and TwoProcesses re-run the test binary on their own test.
func inHelper(open Opener) {
	if os.Getenv(envMode) != "" {
		runHelper(open)
	}
}

// startHelper starts the test binary again as a helper; what the helper
// reports arrives on the returned pipe, which reaches EOF when it is gone.
func startHelper(t *testing.T, mode, dir, id, run string, seed uint64) (*exec.Cmd, *os.File, error) {
	rd, wr, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), envMode+"="+mode, envDir+"="+dir, envID+"="+id, envRun+"="+run,
		envSeed+"="+strconv.FormatUint(seed, 10),
		// A race-enabled binary sleeps a second on exit by default.
		"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.ExtraFiles = []*os.File{wr} // the helper's reportFD
	err = cmd.Start()
	wr.Close()
	if err != nil {
		rd.Close()
		return nil, nil, err
	}
	return cmd, rd, nil
}

// sessionTally is what the parent knows of one session across its runs.
type sessionTally struct {
	id string
	// state is the session after every acknowledged write.
	state counts
	// inFlight is the write announced but not acknowledged when its
	// helper was killed, until the next open shows whether it landed.
	inFlight *op

	acked      map[string]bool // acknowledged message ids
	ackedCPs   map[string]int  // acknowledged checkpoint id → history count
	ackedUndos map[string]int  // acknowledged undo markers (ids joined) → how many
}

// crashTally is what the parent knows across all the runs.
type crashTally struct {
	sessions []*sessionTally

	msgs, cps, undos int // acknowledged messages, checkpoints, undo markers
	onWrite, onOpen  int // kills sent on a write announcement, on an open
	landed, lost     int // writes in flight at a kill that landed / were lost
}

// opened checks the session s as a helper (or the final check) opened it
// against what was acknowledged: a crash leaves either the old state or
// the new one, so the session holds exactly the acknowledged writes, plus
// the one in flight at the last kill when it landed whole.
func (c *crashTally) opened(s *sessionTally, got counts) error {
	switch {
	case got == s.state:
		if s.inFlight != nil {
			c.lost++
		}
	case s.inFlight != nil && got == s.state.after(s.inFlight):
		c.landed++
		s.state = got
	case s.inFlight != nil:
		return fmt.Errorf("session %s opened with %v; want %v (the write in flight lost) or %v (it landed)",
			s.id, got, s.state, s.state.after(s.inFlight))
	default:
		return fmt.Errorf("session %s opened with %v; want %v", s.id, got, s.state)
	}
	s.inFlight = nil
	return nil
}

func (c *crashTally) ack(s *sessionTally, o *op) {
	s.state = s.state.after(o)
	for _, id := range o.msgs {
		s.acked[id] = true
	}
	c.msgs += len(o.msgs)
	if o.cp != "" {
		s.ackedCPs[o.cp] = o.hc
		c.cps++
	}
	if len(o.undo) > 0 {
		s.ackedUndos[strings.Join(o.undo, ",")]++
		c.undos++
	}
}

// run starts one helper on session s and kills it with SIGKILL once it has
// acknowledged target writes — or, with onWrite, at the first write it
// announces after that, so the kill lands while the write is under way
// (target 0: while the session is being opened).
func (c *crashTally) run(t *testing.T, dir string, s *sessionTally, run, target int, onWrite bool, seed uint64) error {
	cmd, rd, err := startHelper(t, "crash", dir, s.id, fmt.Sprintf("r%d", run), seed)
	if err != nil {
		return err
	}
	killed := false
	kill := func() bool {
		if killed {
			return false
		}
		killed = true
		cmd.Process.Signal(syscall.SIGKILL)
		return true
	}
	err = c.read(rd, s, target, onWrite, kill)
	kill()
	rd.Close()
	werr := cmd.Wait()
	switch {
	case err != nil:
		return err
	case !killed:
		return fmt.Errorf("the helper exited before the kill: %v", werr)
	}
	return nil
}

// read follows one helper's reports to the end of the pipe (the helper's
// death), killing it at the chosen point. The reports written before the
// kill arrived still count; a last line cut by the kill is dropped.
func (c *crashTally) read(rd io.Reader, s *sessionTally, target int, onWrite bool, kill func() bool) error {
	br := bufio.NewReader(rd)
	acks := 0
	var inFlight *op
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			break
		}
		line = strings.TrimSuffix(line, "\n")
		verb, rest, _ := strings.Cut(line, " ")
		switch verb {
		case "w":
			if rest == "open" {
				if onWrite && acks >= target && kill() {
					c.onOpen++
				}
				continue
			}
			o, err := parseOp(rest)
			if err != nil {
				return fmt.Errorf("helper report %q: %v", line, err)
			}
			if inFlight != nil {
				return fmt.Errorf("helper announced %q before acknowledging %q", rest, inFlight)
			}
			inFlight = o
			if onWrite && acks >= target && kill() {
				c.onWrite++
			}
		case "open":
			var got counts
			if _, err := fmt.Sscanf(rest, "%d %d %d", &got.msgs, &got.cps, &got.undos); err != nil {
				return fmt.Errorf("helper report %q: %v", line, err)
			}
			if err := c.opened(s, got); err != nil {
				return err
			}
		case "ack":
			o, err := parseOp(rest)
			if err != nil {
				return fmt.Errorf("helper report %q: %v", line, err)
			}
			if inFlight == nil || inFlight.String() != o.String() {
				return fmt.Errorf("helper acknowledged %q; it announced %v", rest, inFlight)
			}
			c.ack(s, o)
			inFlight = nil
			if acks++; !onWrite && acks >= target {
				kill()
			}
		case "ERR":
			return fmt.Errorf("helper: %s", rest)
		default:
			return fmt.Errorf("helper wrote %q", line)
		}
	}
	if inFlight != nil {
		s.inFlight = inFlight
	}
	return nil
}

// Crash is the crash-consistency test: a crash at any point leaves either
// the old state or the new one, and no acknowledged write is lost.
//
// The test binary is run again as a helper that drives a session through
// the store API — appending messages, saving checkpoints (some in the same
// batch as messages), appending undo markers — and reports on a pipe each
// write before it starts and once Append has acknowledged it. The test
// kills the helper with SIGKILL after a random number of acknowledgements
// (1 to 40), or, one run in three, right after it announces the write that
// follows them, so the kill lands on the write in flight (one of those runs
// in five: on the open, which recovers from the previous kill). It kills
// kills times, runsPerSession runs in a row on one session, each helper
// reopening what the last one left. Each open must show exactly the
// acknowledged writes, plus the one in flight only if it landed whole.
// Finally it reopens every session and checks that every acknowledged
// message is stored exactly once, every acknowledged checkpoint and undo
// marker is saved, every checkpoint's overlay renders a history that
// validates, and the session's current rendering validates and restores.
//
// Kill points are chosen from a seed the test logs; EnvCrashSeed repeats
// them. Nothing depends on timing.
func Crash(t *testing.T, open Opener, kills int) {
	inHelper(open)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(EnvCrashSeed); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", EnvCrashSeed, s, err)
		}
		seed = v
	}
	t.Logf("seed %d (%s=%d repeats the kill points)", seed, EnvCrashSeed, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := t.TempDir()
	c := &crashTally{}
	start := time.Now()
	var s *sessionTally
	for run := 0; run < kills; run++ {
		if run%runsPerSession == 0 {
			s = &sessionTally{id: fmt.Sprintf("crash-%d", run/runsPerSession),
				acked: map[string]bool{}, ackedCPs: map[string]int{}, ackedUndos: map[string]int{}}
			c.sessions = append(c.sessions, s)
		}
		onWrite := rng.IntN(3) == 0
		target := 1 + rng.IntN(maxAcks)
		if onWrite && rng.IntN(5) == 0 {
			target = 0 // kill on the open
		}
		if err := c.run(t, dir, s, run, target, onWrite, rng.Uint64()); err != nil {
			t.Fatalf("run %d (seed %d): %v", run, seed, err)
		}
	}
	t.Logf("%d kills in %v over %d sessions: %d acknowledged messages, %d checkpoints, %d undos; "+
		"%d kills on a write announcement, %d on an open; %d writes in flight at a kill landed, %d were lost",
		kills, time.Since(start).Round(time.Millisecond), len(c.sessions), c.msgs, c.cps, c.undos,
		c.onWrite, c.onOpen, c.landed, c.lost)
	if c.msgs == 0 || c.cps == 0 || c.undos == 0 {
		t.Fatalf("the helpers acknowledged %d messages, %d checkpoints and %d undos: nothing was tested", c.msgs, c.cps, c.undos)
	}
	for _, s := range c.sessions {
		if err := c.verify(open, dir, s); err != nil {
			t.Fatalf("after %d kills (seed %d): %v", kills, seed, err)
		}
	}
}

// verify reopens session s and checks it against what the helpers
// acknowledged.
func (c *crashTally) verify(open Opener, dir string, s *sessionTally) error {
	ctx := context.Background()
	st, err := open(dir)
	if err != nil {
		return err
	}
	defer st.Close()
	l, err := st.Open(ctx, s.id) // opening reads back every record
	if err != nil {
		return fmt.Errorf("reopen %s: %w", s.id, err)
	}
	defer l.Close()
	cps, undos := l.Checkpoints(), l.Undos()
	if err := c.opened(s, counts{l.Len(), len(cps), len(undos)}); err != nil {
		return err
	}
	hist, err := l.Messages(ctx, 0, l.Len())
	if err != nil {
		return fmt.Errorf("session %s: %w", s.id, err)
	}
	have := make(map[string]bool, len(hist))
	for _, m := range hist {
		if have[m.ID] {
			return fmt.Errorf("session %s: message %s stored twice", s.id, m.ID)
		}
		have[m.ID] = true
	}
	for id := range s.acked {
		if !have[id] {
			return fmt.Errorf("session %s: acknowledged message %s lost (%d in the log)", s.id, id, len(hist))
		}
	}
	saved := map[string]int{}
	for _, cp := range cps {
		saved[cp.ID] = cp.HistoryCount
	}
	for id, hc := range s.ackedCPs {
		if n, ok := saved[id]; !ok || n != hc {
			return fmt.Errorf("session %s: acknowledged checkpoint %s (over %d messages) lost", s.id, id, hc)
		}
	}
	savedUndos := map[string]int{}
	for _, u := range undos {
		savedUndos[strings.Join(u.Checkpoints, ",")]++
	}
	for ids, n := range s.ackedUndos {
		if savedUndos[ids] < n {
			return fmt.Errorf("session %s: acknowledged undo of %s lost", s.id, ids)
		}
	}
	if err := checkLog(hist, cps, undos); err != nil {
		return fmt.Errorf("session %s: %w", s.id, err)
	}
	return nil
}

// checkLog checks a session's log as a session opening it would: the
// history validates; no checkpoint is torn (each is a valid overlay of the
// history it counts, rendering messages that validate and are the log's
// where they say so); the live checkpoints come in a possible order; and
// the current rendering — the newest live checkpoint's overlay with the
// later messages verbatim — validates and restores into a preflight.
func checkLog(hist []condense.Message, cps []store.Checkpoint, undos []store.Undo) error {
	if err := condense.Validate(hist); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	seen := map[string]bool{}
	for k := range cps {
		cp := &cps[k]
		if seen[cp.ID] {
			return fmt.Errorf("checkpoint %s saved twice", cp.ID)
		}
		seen[cp.ID] = true
		if err := cp.Validate(); err != nil {
			return err
		}
		if cp.HistoryCount > len(hist) {
			return fmt.Errorf("checkpoint %s counts %d messages, the log holds %d", cp.ID, cp.HistoryCount, len(hist))
		}
		r, err := cp.Rendering.Rendering(hist[:cp.HistoryCount])
		if err != nil {
			return fmt.Errorf("checkpoint %s: %w", cp.ID, err)
		}
		if err := condense.Validate(r.Messages()); err != nil {
			return fmt.Errorf("checkpoint %s rendering: %w", cp.ID, err)
		}
		for _, it := range r {
			if it.Index >= 0 && it.Message.ID != hist[it.Index].ID {
				return fmt.Errorf("checkpoint %s renders %s as log message %d, which is %s", cp.ID, it.Message.ID, it.Index, hist[it.Index].ID)
			}
		}
		if fk := firstKept(r); fk != cp.FirstKept {
			return fmt.Errorf("checkpoint %s: first kept index %d, its rendering's is %d", cp.ID, cp.FirstKept, fk)
		}
	}
	for _, u := range undos {
		for _, id := range u.Checkpoints {
			if !seen[id] {
				return fmt.Errorf("undo marker retires checkpoint %s, which is not saved", id)
			}
		}
	}
	live := liveCheckpoints(cps, undos)
	prevNum, prevCount, prevKept := 0, 0, 0
	for _, cp := range live {
		num, ok := cpNumber(cp.ID)
		switch {
		case !ok || num <= prevNum:
			return fmt.Errorf("live checkpoint %s comes after c%d", cp.ID, prevNum)
		case cp.HistoryCount < prevCount || cp.FirstKept < prevKept:
			return fmt.Errorf("live checkpoint %s (%d messages, first kept %d) goes back from %d, %d", cp.ID, cp.HistoryCount, cp.FirstKept, prevCount, prevKept)
		}
		prevNum, prevCount, prevKept = num, cp.HistoryCount, cp.FirstKept
	}
	var r condense.Rendering
	from := 0
	if len(live) > 0 {
		cp := live[len(live)-1]
		r, _ = cp.Rendering.Rendering(hist[:cp.HistoryCount]) // checked above
		from = cp.HistoryCount
	}
	for i := from; i < len(hist); i++ {
		r = append(r, condense.Item{Index: i, Message: hist[i]})
	}
	if err := condense.Validate(r.Messages()); err != nil {
		return fmt.Errorf("rendering: %w", err)
	}
	pf := condense.NewPreflight(byteCounter{}, nil, &condense.Options{Logger: slog.New(slog.DiscardHandler)})
	if err := pf.Restore(hist, r, 0); err != nil {
		return fmt.Errorf("restore the rendering: %w", err)
	}
	return nil
}

// byteCounter counts a byte of condense JSON as a token: enough for
// Preflight.Restore, which checks a rendering, not a budget.
type byteCounter struct{}

func (byteCounter) Name() string { return "bytes" }
func (byteCounter) Exact() bool  { return false }

func (byteCounter) CountMessage(m *condense.Message) int {
	raw, _ := m.MarshalJSON()
	return len(raw)
}

func (byteCounter) CountOverhead(system string, tools []condense.Tool) int {
	return len(system) + 100*len(tools)
}

// TwoProcesses checks the cross-process lock: while this process has the
// session open, a helper process that opens it gets store.ErrLocked; once it
// is closed, the helper opens it.
func TwoProcesses(t *testing.T, open Opener) {
	inHelper(open)
	ctx := context.Background()
	dir := t.TempDir()
	st, err := open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := st.Open(ctx, lockSession)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, store.Batch{Messages: []condense.Message{condense.UserText("hello")}}); err != nil {
		l.Close()
		t.Fatal(err)
	}
	out, err := lockHelper(t, dir, "x")
	if err != nil || !strings.HasPrefix(out, "LOCKED ") {
		l.Close()
		t.Fatalf("second process: %q, %v; want LOCKED", out, err)
	}
	t.Logf("second process: %s", out)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	out, err = lockHelper(t, dir, "y")
	if err != nil || out != "OPENED" {
		t.Fatalf("after close: %q, %v; want OPENED", out, err)
	}
}

// lockHelper runs a helper that opens the session and reports whether it
// could.
func lockHelper(t *testing.T, dir, run string) (string, error) {
	cmd, rd, err := startHelper(t, "lock", dir, lockSession, run, 0)
	if err != nil {
		return "", err
	}
	out, rerr := io.ReadAll(rd)
	rd.Close()
	if err := cmd.Wait(); err != nil {
		return string(out), err
	}
	return strings.TrimSpace(string(out)), rerr
}
