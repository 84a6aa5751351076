package postgres_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
	"github.com/condense-dev/condense/store/storetest"
)

// EnvURL names the test database; the tests skip without it.
const EnvURL = "CONDENSE_TEST_POSTGRES"

// envSchema passes the schema to the helper processes the crash tests
// start.
const envSchema = "CONDENSE_TEST_POSTGRES_SCHEMA"

func dbURL(t testing.TB) string {
	u := os.Getenv(EnvURL)
	if u == "" {
		t.Skip(EnvURL + " is not set")
	}
	return u
}

// newSchema returns a schema name of its own for t, dropped when t ends.
func newSchema(t testing.TB) string {
	u := dbURL(t)
	var b [6]byte
	rand.Read(b[:])
	name := fmt.Sprintf("condense_test_%d_%s", os.Getpid(), hex.EncodeToString(b[:]))
	t.Cleanup(func() { dropSchema(t, u, name) })
	return name
}

func dropSchema(t testing.TB, url, name string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Errorf("drop schema %s: %v", name, err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+name+` CASCADE`); err != nil {
		t.Errorf("drop schema %s: %v", name, err)
	}
}

func open(t testing.TB, schema string, opts *postgres.Options) *postgres.Store {
	t.Helper()
	o := postgres.Options{}
	if opts != nil {
		o = *opts
	}
	o.Schema = schema
	s, err := postgres.Open(context.Background(), dbURL(t), &o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() store.Store {
		schema := newSchema(t)
		return func() store.Store { return open(t, schema, nil) }
	})
}

// crashOpener opens the store in the schema the test made; helper
// processes find it in the environment.
func crashOpener(t *testing.T) storetest.Opener {
	schema := os.Getenv(envSchema)
	if schema == "" {
		schema = newSchema(t)
		t.Setenv(envSchema, schema)
	}
	u := dbURL(t)
	return func(string) (store.Store, error) {
		return postgres.Open(context.Background(), u, &postgres.Options{Schema: schema})
	}
}

func TestCrash(t *testing.T) { storetest.Crash(t, crashOpener(t), storetest.Kills()) }

func TestTwoProcesses(t *testing.T) { storetest.TwoProcesses(t, crashOpener(t)) }

func TestMain(m *testing.M) {
	if os.Getenv(envLockHelper) != "" {
		lockHelper()
		return
	}
	goleak.VerifyTestMain(m)
}

// envLockHelper makes the test binary a process that locks a shared
// session and waits to be killed (TestKilledHolderReleased).
const envLockHelper = "CONDENSE_TEST_POSTGRES_LOCK_HELPER"

func lockHelper() {
	ctx := context.Background()
	fail := func(err error) {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	s, err := postgres.Open(ctx, os.Getenv(EnvURL), &postgres.Options{Schema: os.Getenv(envSchema), LeaseTTL: time.Hour})
	if err != nil {
		fail(err)
	}
	sh, err := s.OpenShared(ctx, "held")
	if err != nil {
		fail(err)
	}
	l, err := sh.Lock(ctx)
	if err != nil {
		fail(err)
	}
	if _, err := l.Append(ctx, store.Batch{Messages: []condense.Message{condense.UserText("from the helper")}}); err != nil {
		fail(err)
	}
	fmt.Println("LOCKED")
	select {} // until killed
}

// A replica that dies holding a session's lock releases it: another
// process on the same machine takes it at once, long before the lease
// (an hour) would expire.
func TestKilledHolderReleased(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	s := open(t, schema, &postgres.Options{LeaseTTL: time.Hour})
	defer s.Close()
	sh, err := s.OpenShared(ctx, "held")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envLockHelper+"=1", envSchema+"="+schema)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "LOCKED\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %q, %v", line, err)
	}
	var le *postgres.LeaseError
	if _, err := sh.TryLock(ctx); !errors.As(err, &le) || le.PID != cmd.Process.Pid {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("TryLock while the helper holds the lock: %v, want its *LeaseError", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	l, err := sh.TryLock(ctx)
	if err != nil {
		t.Fatalf("TryLock after the holder died: %v", err)
	}
	defer l.Close()
	if l.Len() != 1 {
		t.Fatalf("the new holder sees %d messages, want the helper's 1", l.Len())
	}
}
