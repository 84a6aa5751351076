package telemetry

import (
	"context"
	"fmt"
	"os"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// NewTracerProvider returns the tracer provider the standard OpenTelemetry
// environment asks for: when OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, one that batches spans to that
// OTLP/HTTP endpoint (the exporter reads the other OTEL_EXPORTER_OTLP_*
// variables: headers, timeout, TLS); otherwise a no-op provider. The
// service name is "condense" unless OTEL_SERVICE_NAME says otherwise.
// shutdown flushes the spans still batched and stops the exporter.
func NewTracerProvider(ctx context.Context) (tp trace.TracerProvider, shutdown func(context.Context) error, err error) {
	noShutdown := func(context.Context) error { return nil }
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return noop.NewTracerProvider(), noShutdown, nil
	}
	proto := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if proto == "" {
		proto = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if proto != "" && proto != "http/protobuf" {
		return nil, nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q: only http/protobuf is supported", proto)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName("condense")))
	if err != nil {
		return nil, nil, err
	}
	if os.Getenv("OTEL_SERVICE_NAME") != "" {
		// The environment's name wins over the default "condense".
		res, err = resource.Merge(res, resource.Environment())
		if err != nil {
			return nil, nil, err
		}
	}
	p := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return p, p.Shutdown, nil
}
