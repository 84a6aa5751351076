// Package telemetry is the server's Prometheus metrics and OpenTelemetry
// traces: a server.Telemetry that counts requests, compactions, tokens saved
// and summary latency in a Prometheus registry served at /metrics, and
// turns the server's spans (render, compaction, summary, run, model call)
// into OpenTelemetry spans.
//
// Traces go wherever the tracer provider sends them. NewTracerProvider
// builds the usual one from the standard environment: an OTLP/HTTP
// exporter when OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and a no-op provider
// otherwise, so a server without a collector pays nothing for spans.
//
// The dependencies are the reference clients of both systems
// (prometheus/client_golang, go.opentelemetry.io/otel): operators scrape and
// collect with tools that speak exactly these formats. They live in this
// package so that programs embedding package server without telemetry do
// not link them.
package telemetry

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/condense-dev/condense/server"
)

// Options configure a Telemetry. The zero value is ready to use.
type Options struct {
	// Registry receives the metrics and is what /metrics serves; nil means
	// a new registry holding the condense metrics and the Go runtime's and
	// process's collectors.
	Registry *prometheus.Registry
	// TracerProvider makes the spans; nil means no spans (a no-op
	// provider). NewTracerProvider builds one from the environment.
	TracerProvider trace.TracerProvider
}

// Telemetry is the Prometheus and OpenTelemetry server.Telemetry.
type Telemetry struct {
	reg    *prometheus.Registry
	tracer trace.Tracer

	requests    *prometheus.CounterVec
	durations   *prometheus.HistogramVec
	compactions *prometheus.CounterVec
	saved       *prometheus.CounterVec
	summaries   *prometheus.HistogramVec
}

var _ server.Telemetry = (*Telemetry)(nil)

// New returns a Telemetry with its metrics registered.
func New(opts *Options) (*Telemetry, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	reg := o.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		if err := reg.Register(collectors.NewGoCollector()); err != nil {
			return nil, err
		}
		if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
			return nil, err
		}
	}
	tp := o.TracerProvider
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	t := &Telemetry{
		reg:    reg,
		tracer: tp.Tracer("github.com/condense-dev/condense/server"),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "condense_http_requests_total",
			Help: "HTTP requests answered, by route (the ServeMux pattern) and status code.",
		}, []string{"route", "code"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "condense_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route (event streams count when they end).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route"}),
		compactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "condense_compactions_total",
			Help: "Compactions saved, by strategy and trigger (auto: a render or hosted run over the threshold; manual: POST …/compact).",
		}, []string{"strategy", "trigger"}),
		saved: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "condense_tokens_saved_total",
			Help: "Estimated tokens compactions took out of the requests (tokens before minus after), by strategy.",
		}, []string{"strategy"}),
		summaries: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "condense_summary_duration_seconds",
			Help:    "Time to write one summary, by result (ok, error).",
			Buckets: []float64{.001, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"result"}),
	}
	for _, c := range []prometheus.Collector{t.requests, t.durations, t.compactions, t.saved, t.summaries} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Request counts an answered request.
func (t *Telemetry) Request(route string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	t.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	t.durations.WithLabelValues(route).Observe(d.Seconds())
}

// Compaction counts a compaction and its tokens saved, and adds a
// "compaction" event to the span in ctx.
func (t *Telemetry) Compaction(ctx context.Context, strategy string, before, after int, manual bool) {
	trigger := "auto"
	if manual {
		trigger = "manual"
	}
	t.compactions.WithLabelValues(strategy, trigger).Inc()
	if before > after {
		t.saved.WithLabelValues(strategy).Add(float64(before - after))
	}
	trace.SpanFromContext(ctx).AddEvent("compaction", trace.WithAttributes(
		attribute.String("condense.strategy", strategy),
		attribute.String("condense.trigger", trigger),
		attribute.Int("condense.tokens_before", before),
		attribute.Int("condense.tokens_after", after)))
}

// Summary observes the latency of a summary.
func (t *Telemetry) Summary(d time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	t.summaries.WithLabelValues(result).Observe(d.Seconds())
}

// Start starts a span named name; end records the error, if any, and ends
// it.
func (t *Telemetry) Start(ctx context.Context, name string) (context.Context, func(error)) {
	ctx, span := t.tracer.Start(ctx, name)
	return ctx, func(err error) {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// Handler serves the registry in the Prometheus exposition format.
func (t *Telemetry) Handler() http.Handler {
	return promhttp.HandlerFor(t.reg, promhttp.HandlerOpts{Registry: t.reg})
}
