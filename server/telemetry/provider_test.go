package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel/trace/noop"

	"github.com/condense-dev/condense/server/telemetry"
)

func TestTracerProviderFromEnvironment(t *testing.T) {
	ctx := context.Background()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	tp, shutdown, err := telemetry.NewTracerProvider(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tp.(noop.TracerProvider); !ok {
		t.Fatalf("no endpoint: %T, want the no-op provider", tp)
	}
	shutdown(ctx)

	var posts atomic.Int32
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && r.URL.Path == "/v1/traces" {
			posts.Add(1)
		}
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	tp, shutdown, err = telemetry.NewTracerProvider(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tel, err := telemetry.New(&telemetry.Options{TracerProvider: tp})
	if err != nil {
		t.Fatal(err)
	}
	_, end := tel.Start(ctx, "condense.render")
	end(nil)
	// Shutdown flushes the batch: the span reaches the collector.
	if err := shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if posts.Load() == 0 {
		t.Fatal("the span was not exported to OTEL_EXPORTER_OTLP_ENDPOINT")
	}

	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	if _, _, err := telemetry.NewTracerProvider(ctx); err == nil {
		t.Fatal("grpc was accepted; only http/protobuf is supported")
	}
}
