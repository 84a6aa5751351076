package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"

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

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
