package server_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/server"
	"github.com/condense-dev/condense/store/postgres"
)

// A server on a PostgreSQL backend (a schema of the test's own): sessions
// and their messages are in the database and outlive the server.
func TestPostgresBackend(t *testing.T) {
	base := os.Getenv("CONDENSE_TEST_POSTGRES")
	if base == "" {
		t.Skip("CONDENSE_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	var b [6]byte
	rand.Read(b[:])
	schema := fmt.Sprintf("condense_srvtest_%d_%s", os.Getpid(), hex.EncodeToString(b[:]))
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	url := base + sep + "schema=" + schema
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	serve := func() (*client, func()) {
		be, err := server.OpenBackend(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if be.Postgres == nil || be.Postgres.Schema() != schema {
			t.Fatalf("backend %s: not PostgreSQL in schema %s", be.Describe, schema)
		}
		if !strings.Contains(be.Describe, "schema="+schema) || strings.Contains(be.Describe, "sslmode") {
			t.Fatalf("Describe = %q", be.Describe)
		}
		s, err := server.New(be, &server.Options{Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(s.Handler())
		return &client{t: t, base: hs.URL}, func() { hs.Close(); s.Close(); be.Close() }
	}
	c, stop := serve()
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o"}})
	msgs := []condense.Message{condense.UserText("hello"), condense.AssistantText("hi"), condense.UserText("again")}
	c.must(200, "POST", "/v1/sessions/"+snap.ID+"/messages", server.AppendRequest{Messages: msgs}, nil)
	stop()

	var n int
	st, err := postgres.Open(ctx, base, &postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Pool().QueryRow(ctx, `SELECT messages FROM sessions WHERE id = $1`, snap.ID).Scan(&n)
	st.Close()
	if err != nil || n != 3 {
		t.Fatalf("the database holds %d messages of %s (%v), want 3", n, snap.ID, err)
	}
	c, stop = serve()
	defer stop()
	var got server.Snapshot
	c.must(200, "GET", "/v1/sessions/"+snap.ID, nil, &got)
	if got.Messages != 3 {
		t.Fatalf("after a restart the session has %d messages, want 3", got.Messages)
	}
}
