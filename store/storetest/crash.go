package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/tokens"
)

// The helper process is this test binary run again with these variables.
const (
	envMode = "CONDENSE_STORETEST_HELPER" // "crash" or "lock"
	envDir  = "CONDENSE_STORETEST_DIR"
	envRun  = "CONDENSE_STORETEST_RUN"
)

// Opener opens a store over dir; each call opens the same data afresh.
type Opener func(dir string) (store.Store, error)

func crashOptions() *session.Options {
	return &session.Options{
		Request:   condense.Request{Model: "gpt-4o", System: "You are a coding agent."},
		Counter:   tokens.Heuristic(tokens.FamilyOpenAI),
		Preflight: condense.Options{Settings: condense.Settings{Window: 6000, ReservedOutput: 500}},
	}
}

// helper runs in the child process and never returns.
func helper(open Opener) {
	mode, dir, run := os.Getenv(envMode), os.Getenv(envDir), os.Getenv(envRun)
	ctx := context.Background()
	st, err := open(dir)
	if err != nil {
		fmt.Printf("ERR open store: %v\n", err)
		os.Exit(3)
	}
	s, err := session.Open(ctx, st, "crash", crashOptions())
	if mode == "lock" {
		switch {
		case errors.Is(err, store.ErrLocked):
			fmt.Printf("LOCKED %v\n", err)
		case err != nil:
			fmt.Printf("ERR %v\n", err)
		default:
			fmt.Printf("OPENED\n")
			s.Close()
		}
		os.Exit(0)
	}
	if err != nil {
		fmt.Printf("ERR open session: %v\n", err)
		os.Exit(3)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	ack := func(msgs []condense.Message) {
		var b strings.Builder
		for _, m := range msgs {
			b.WriteString("ack " + m.ID + "\n")
		}
		// One write per acknowledgement: a kill may cut it, never reorder it.
		os.Stdout.WriteString(b.String())
	}
	for i := 0; ; i++ {
		id := fmt.Sprintf("%s-%d", run, i)
		var msgs []condense.Message
		switch {
		case i%9 == 0:
			msgs = []condense.Message{{ID: id + "-u", Role: condense.RoleUser, Parts: []condense.Part{condense.Text("next task " + id + ": fix cmd/" + id + ".go")}}}
		default:
			call := "call-" + id
			msgs = []condense.Message{
				{ID: id + "-a", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("running tests"),
					condense.ToolCall(call, "run", json.RawMessage(`{"cmd":"go test ./..."}`))}},
				{ID: id + "-t", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(call, rng.IntN(4) == 0,
					condense.Text(strings.Repeat("ok  \tgithub.com/x/y/"+id+"\t0.12s\n", 8+rng.IntN(30))))}},
			}
		}
		if err := s.Append(ctx, msgs...); err != nil {
			fmt.Printf("ERR append: %v\n", err)
			os.Exit(3)
		}
		ack(msgs)
		if i%3 == 2 {
			res, err := s.Prepare(ctx, condense.Request{Model: "gpt-4o", System: "You are a coding agent."})
			if err != nil && !errors.Is(err, condense.ErrContextWindowExceeded) {
				fmt.Printf("ERR prepare: %v\n", err)
				os.Exit(3)
			}
			if res != nil && len(res.Records) > 0 {
				fmt.Printf("cp %s\n", res.Records[len(res.Records)-1].Checkpoint)
			}
		}
		if i%37 == 36 {
			if cps := s.Checkpoints(); len(cps) > 0 {
				if _, err := s.Undo(ctx, cps[len(cps)-1].ID); err != nil {
					fmt.Printf("ERR undo: %v\n", err)
					os.Exit(3)
				}
				fmt.Printf("undo %s\n", cps[len(cps)-1].ID)
			}
		}
	}
}

// inHelper runs the helper (and never returns) when this process is one:
// Crash and TwoProcesses re-run the test binary on their own test.
func inHelper(open Opener) {
	if os.Getenv(envMode) != "" {
		helper(open)
	}
}

func child(t *testing.T, mode, dir, run string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), envMode+"="+mode, envDir+"="+dir, envRun+"="+run)
	cmd.Stderr = os.Stderr
	return cmd
}

// Crash is the crash-consistency test (DESIGN I6). The test binary is run
// again as a helper that appends and compacts a session in a loop, printing
// each acknowledged message id; the test kills it with SIGKILL at random
// moments, kills times, then reopens the store and checks that every
// acknowledged message is there, no checkpoint is torn (the session opens,
// which validates every checkpoint) and the rendering validates.
func Crash(t *testing.T, open Opener, kills int, budget time.Duration) {
	inHelper(open)
	dir := t.TempDir()
	acked := map[string]bool{}
	ackedCPs := map[string]bool{}
	checkpoints, undos := 0, 0
	start := time.Now()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	runs := 0
	for ; runs < kills && time.Since(start) < budget; runs++ {
		cmd := child(t, "crash", dir, fmt.Sprintf("r%d", runs))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var raw []byte
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, _ = io.ReadAll(stdout)
		}()
		time.Sleep(time.Duration(10+rng.IntN(60)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		wg.Wait()
		cmd.Wait()
		// The last piece has no newline when the kill cut a line: drop it.
		lines := strings.Split(string(raw), "\n")
		lines = lines[:len(lines)-1]
		for _, ln := range lines {
			switch {
			case strings.HasPrefix(ln, "ack "):
				acked[strings.TrimPrefix(ln, "ack ")] = true
			case strings.HasPrefix(ln, "cp "):
				checkpoints++
				ackedCPs[strings.TrimPrefix(ln, "cp ")] = true
			case strings.HasPrefix(ln, "undo "):
				undos++
			case strings.HasPrefix(ln, "ERR"):
				t.Fatalf("helper run %d: %s", runs, ln)
			}
		}
	}
	t.Logf("%d kills in %v: %d acknowledged messages, %d checkpoints, %d undos", runs, time.Since(start).Round(time.Millisecond), len(acked), checkpoints, undos)
	if runs < kills && (os.Getenv("CI") == "true" || !testing.Short()) && runs < 200 {
		t.Errorf("only %d of %d kills fit the %v budget", runs, kills, budget)
	}
	if len(acked) == 0 || checkpoints == 0 {
		t.Fatalf("the helper acknowledged %d messages and made %d checkpoints: nothing was tested", len(acked), checkpoints)
	}
	st, err := open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := session.Open(context.Background(), st, "crash", crashOptions())
	if err != nil {
		t.Fatalf("reopen after %d kills: %v", runs, err)
	}
	defer s.Close()
	hist, err := s.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	have := make(map[string]bool, len(hist))
	for _, m := range hist {
		if have[m.ID] {
			t.Fatalf("message %s stored twice", m.ID)
		}
		have[m.ID] = true
	}
	for id := range acked {
		if !have[id] {
			t.Fatalf("acknowledged message %s lost (%d in the log)", id, len(hist))
		}
	}
	if err := condense.Validate(hist); err != nil {
		t.Fatalf("history: %v", err)
	}
	if err := condense.Validate(s.Rendering().Messages()); err != nil {
		t.Fatalf("rendering: %v", err)
	}
	res, err := s.Prepare(context.Background(), condense.Request{Model: "gpt-4o", System: "You are a coding agent."}, condense.WithoutCompaction())
	if err != nil && !errors.Is(err, condense.ErrContextWindowExceeded) {
		t.Fatal(err)
	}
	if res != nil {
		if err := condense.Validate(res.Request.Messages); err != nil {
			t.Fatalf("rendered request: %v", err)
		}
	}
	// Every acknowledged checkpoint was saved (undone ones stay in the log).
	s.Close()
	l, err := st.Open(context.Background(), "crash")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	saved := map[string]bool{}
	for _, cp := range l.Checkpoints() {
		saved[cp.ID] = true
		for _, r := range cp.Records {
			saved[r.Checkpoint] = true
		}
	}
	for id := range ackedCPs {
		if !saved[id] {
			t.Fatalf("acknowledged checkpoint %s lost", id)
		}
	}
}

// TwoProcesses checks the cross-process lock: while this process has the
// session open, a helper process that opens it gets store.ErrLocked; once it
// is closed, the helper opens it.
func TwoProcesses(t *testing.T, open Opener) {
	inHelper(open)
	dir := t.TempDir()
	st, err := open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := session.Open(context.Background(), st, "crash", crashOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(context.Background(), condense.UserText("hello")); err != nil {
		t.Fatal(err)
	}
	out, err := child(t, "lock", dir, "x").Output()
	if err != nil || !strings.HasPrefix(string(out), "LOCKED ") {
		t.Fatalf("second process: %q, %v; want LOCKED", out, err)
	}
	t.Logf("second process: %s", strings.TrimSpace(string(out)))
	s.Close()
	out, err = child(t, "lock", dir, "y").Output()
	if err != nil || strings.TrimSpace(string(out)) != "OPENED" {
		t.Fatalf("after close: %q, %v; want OPENED", out, err)
	}
}
