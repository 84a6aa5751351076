package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Without --tokens the server refuses an address other hosts can reach.
func TestServeNeedsTokensOffLoopback(t *testing.T) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--store", "jsonl:" + t.TempDir()}, &out, &errb)
	if ExitCode(err) != exitUsage || !strings.Contains(errb.String(), "loopback") {
		t.Fatalf("exit %d: %s", ExitCode(err), errb.String())
	}
}

// serve starts, says where it listens, and stops cleanly when its context
// ends.
func TestServeStartsAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var errb bytes.Buffer
	done := make(chan error, 1)
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &syncBuffer{w: &errb, ready: cancel}}
	go func() {
		done <- runEnv(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--store", "jsonl:" + t.TempDir()}, e)
	}()
	if err := <-done; ExitCode(err) != exitOK && ExitCode(err) != exitCancelled {
		t.Fatalf("serve: %v: %s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "serving jsonl:") {
		t.Fatalf("stderr: %s", errb.String())
	}
}

// syncBuffer calls ready once the first line is written: the server
// listens then.
type syncBuffer struct {
	w     *bytes.Buffer
	ready func()
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	n, err := b.w.Write(p)
	if b.ready != nil && bytes.Contains(b.w.Bytes(), []byte("serving")) {
		b.ready()
		b.ready = nil
	}
	return n, err
}

// A --workspace that is not a directory is refused before serving.
func TestServeWorkspaceMustExist(t *testing.T) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--store", "jsonl:" + t.TempDir(), "--workspace", t.TempDir() + "/missing"}, &out, &errb)
	if ExitCode(err) != exitUsage || !strings.Contains(errb.String(), "--workspace") {
		t.Fatalf("exit %d: %s", ExitCode(err), errb.String())
	}
}
