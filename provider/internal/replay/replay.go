// Package replay serves recorded provider exchanges from testdata with
// httptest, for the provider adapters' offline tests. A Server answers each
// request with the next Step (repeating the last one when the script runs
// out) and records what it was sent.
//
// It is the server of summarize/summarizertest, which the provider
// summarizers' tests run on, under the names the adapters' other tests
// use: one server for both.
package replay

import (
	"testing"

	"github.com/condense-dev/condense/summarize/summarizertest"
)

type (
	// Step is one recorded answer (summarizertest.Step).
	Step = summarizertest.Step
	// Request is what the server was sent (summarizertest.Request).
	Request = summarizertest.Request
	// Server replays steps (summarizertest.Server).
	Server = summarizertest.Server
)

// New starts a server replaying steps; it is closed when the test ends.
func New(t testing.TB, steps ...Step) *Server {
	t.Helper()
	return summarizertest.NewServer(t, steps...)
}
