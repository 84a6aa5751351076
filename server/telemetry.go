package server

import (
	"context"
	"net/http"
	"time"
)

// Telemetry receives what the server measures: requests, compactions,
// tokens saved and summary latency, and the spans of renders, compactions,
// summaries and model calls. The server works without one; package
// server/telemetry has the Prometheus and OpenTelemetry one.
type Telemetry interface {
	// Request counts one answered request of route (the ServeMux pattern,
	// "POST /v1/sessions/{id}/render") with its status.
	Request(route string, status int, d time.Duration)
	// Compaction counts one compaction saved. ctx carries the span of the
	// operation it happened in (a render, a manual compaction, a run).
	Compaction(ctx context.Context, strategy string, tokensBefore, tokensAfter int, manual bool)
	// Summary observes the latency of one summary.
	Summary(d time.Duration, err error)
	// Start starts a span; end ends it with the operation's error.
	Start(ctx context.Context, name string) (_ context.Context, end func(error))
	// Handler serves /metrics.
	Handler() http.Handler
}

type noTelemetry struct{}

func (noTelemetry) Request(string, int, time.Duration)                 {}
func (noTelemetry) Compaction(context.Context, string, int, int, bool) {}
func (noTelemetry) Summary(time.Duration, error)                       {}
func (noTelemetry) Start(ctx context.Context, _ string) (context.Context, func(error)) {
	return ctx, func(error) {}
}
func (noTelemetry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, notFound("metrics (the server runs without them)"))
	})
}
