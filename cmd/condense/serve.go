package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/anthropicmodel"
	"github.com/condense-dev/condense/agent/openaimodel"
	"github.com/condense-dev/condense/agent/workspace"
	"github.com/condense-dev/condense/proxy"
	"github.com/condense-dev/condense/server"
	"github.com/condense-dev/condense/server/telemetry"
)

// serveOptions are serve's flags.
type serveOptions struct {
	store         string
	addr          string
	tokens        string
	maxBody       sizeFlag
	eventsKept    int
	provider      string
	openaiBaseURL string
	writeTimeout  time.Duration
	shutdown      time.Duration
	verbose       bool
	metricsOpen   bool
	workspace     string
	proxy         bool
	anthropicURL  string
}

const serveLong = `Serve compaction over HTTP: sessions, append, render, compact, abort, undo,
recall, hosted agent runs and live events under /v1 (docs/server.md; the
OpenAPI document is at /v1/openapi.json).

--store chooses where sessions live:
  (none)          SQLite at $XDG_DATA_HOME/condense/condense.db (~/.local/share/…)
  sqlite:PATH     a SQLite file (also PATH ending .db, .sqlite, .sqlite3)
  jsonl:DIR       a directory of JSONL files (also any other PATH)
  postgres://USER@HOST:PORT/DB[?schema=NAME]   PostgreSQL (docs/postgres.md)

Without --tokens the server needs no auth and listens on loopback only. With
--tokens FILE (one token per line, optionally followed by its owner's name)
every request needs "Authorization: Bearer TOKEN" or the cookie POST /v1/login
sets, and each token sees only its own sessions.

Hosted runs use the session's provider: "fake" (an echo model for demos),
"anthropic" ($ANTHROPIC_API_KEY) or "openai" ($OPENAI_API_KEY; --openai-base-url
for any OpenAI-compatible server). They have no tools unless --workspace DIR
gives them read-only ones over that directory: read_file, list_files and
search, confined to it (package agent/workspace).

--proxy also serves the compacting proxy of "condense proxy" (docs/proxy.md)
under /proxy: OPENAI_BASE_URL=http://ADDR/proxy/v1, ANTHROPIC_BASE_URL=
http://ADDR/proxy. Its upstreams are --openai-base-url and --anthropic-base-url
(default: the providers' public APIs); it is authorized by the provider keys
its callers send, not by --tokens. With a PostgreSQL --store its
conversations are kept in the same database and schema, shared by the
replicas; otherwise in memory.

Prometheus metrics are at /metrics, behind the same auth as the API unless
--metrics-open. OpenTelemetry spans (render, compaction, summary, run, model
call) go to the OTLP/HTTP endpoint in $OTEL_EXPORTER_OTLP_ENDPOINT when it is
set, and nowhere otherwise.`

func newServeCmd(e *env) *cobra.Command {
	o := &serveOptions{maxBody: sizeFlag{n: server.DefaultMaxBodyBytes}}
	cmd := &cobra.Command{
		Use:     "serve [flags]",
		Short:   "serve sessions, compaction and hosted runs over HTTP",
		Long:    serveLong,
		Example: "  condense serve --store jsonl:./sessions --addr 127.0.0.1:7878",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd, e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.store, "store", "", "where sessions live: sqlite:PATH, jsonl:DIR, postgres://… (default: SQLite under the user's data directory)")
	f.StringVar(&o.addr, "addr", "127.0.0.1:7878", "address to listen on (loopback only unless --tokens is given)")
	f.StringVar(&o.tokens, "tokens", "", "file of bearer tokens, one per line with an optional owner name")
	f.Var(&o.maxBody, "max-body", "largest request body accepted (32m = 32,000,000 bytes)")
	f.IntVar(&o.eventsKept, "events-kept", server.DefaultEventsKept, "events each session keeps for reconnecting clients")
	f.StringVar(&o.provider, "provider", "fake", "provider of sessions that name none: fake, anthropic, openai")
	f.StringVar(&o.openaiBaseURL, "openai-base-url", "", "base URL of an OpenAI-compatible API (with its /v1)")
	f.StringVar(&o.anthropicURL, "anthropic-base-url", "", "base URL of the Anthropic API (default https://api.anthropic.com)")
	f.DurationVar(&o.writeTimeout, "write-timeout", server.DefaultTimeouts.Write, "longest time to write an answer (renders that summarize with a model must fit)")
	f.DurationVar(&o.shutdown, "shutdown-timeout", server.DefaultTimeouts.Shutdown, "longest wait for requests in flight on shutdown")
	f.BoolVar(&o.verbose, "verbose", false, "log every request (the access log) and debug messages")
	f.BoolVar(&o.metricsOpen, "metrics-open", false, "serve /metrics without a token even when --tokens is given")
	f.StringVar(&o.workspace, "workspace", "", "give hosted runs read-only tools (read_file, list_files, search) over this directory")
	f.BoolVar(&o.proxy, "proxy", false, "also serve the compacting proxy under /proxy (upstreams: --openai-base-url, --anthropic-base-url)")
	return cmd
}

func runServe(cmd *cobra.Command, e *env, o *serveOptions) error {
	opts := &server.Options{MaxBodyBytes: int64(o.maxBody.n), EventsKept: o.eventsKept, DefaultProvider: o.provider, OpenMetrics: o.metricsOpen}
	if o.tokens != "" {
		f, err := os.Open(o.tokens)
		if err != nil {
			return usagef("--tokens: %v", err)
		}
		opts.Tokens, err = server.ParseTokens(f)
		f.Close()
		if err != nil {
			return usagef("--tokens %s: %v", o.tokens, err)
		}
	} else if !server.IsLoopback(o.addr) {
		return flagErrorf(cmd, "--addr %s is not a loopback address: without --tokens the server listens on loopback only", o.addr)
	}
	switch o.provider {
	case "fake", "anthropic", "openai":
	default:
		return flagErrorf(cmd, "unknown --provider %q (fake, anthropic, openai)", o.provider)
	}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	opts.Logger = log
	opts.NewModel = func(provider, model string) (agent.Model, error) {
		switch provider {
		case "fake", "":
			return server.EchoModel{}, nil
		case "anthropic":
			return anthropicmodel.New(anthropicmodel.Options{BaseURL: o.anthropicURL}), nil
		case "openai":
			return openaimodel.New(openaimodel.Options{BaseURL: o.openaiBaseURL}), nil
		}
		return nil, fmt.Errorf("provider %q is not configured", provider)
	}
	opts.NewSummarizer = func(provider, model string) (condense.Summarizer, error) {
		if provider == "fake" {
			return nil, fmt.Errorf("the fake provider writes no summaries")
		}
		return newSummarizer(provider, model)
	}
	if o.workspace != "" {
		ws, err := workspace.Open(o.workspace, nil)
		if err != nil {
			return usagef("--workspace: %v", err)
		}
		defer ws.Close()
		opts.Tools = ws.Tools()
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tp, shutdownTraces, err := telemetry.NewTracerProvider(ctx)
	if err != nil {
		return usagef("tracing: %v", err)
	}
	defer func() {
		// Flush the spans still batched, even after a signal.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := shutdownTraces(sctx); err != nil {
			log.Warn("condense: flushing traces", "err", err)
		}
	}()
	reg := prometheus.NewRegistry()
	if opts.Telemetry, err = telemetry.New(&telemetry.Options{TracerProvider: tp, Registry: reg}); err != nil {
		return err
	}
	b, err := server.OpenBackend(ctx, o.store, log)
	if err != nil {
		return usagef("--store: %v", err)
	}
	defer b.Close()
	if o.proxy {
		metrics, err := proxy.NewMetrics(reg)
		if err != nil {
			return err
		}
		// On PostgreSQL the proxy's conversations are in the same database
		// and schema, shared by the replicas; otherwise in memory.
		var shared proxy.SharedStore
		if b.Postgres != nil {
			if shared, err = proxy.NewPostgresStore(ctx, b.Postgres); err != nil {
				return err
			}
		}
		p, err := proxy.New(&proxy.Options{OpenAIUpstream: o.openaiBaseURL, AnthropicUpstream: o.anthropicURL, Logger: log, Metrics: metrics, Shared: shared})
		if err != nil {
			return usagef("--proxy: %v", err)
		}
		opts.Mounts = map[string]http.Handler{"/proxy": p}
	}
	s, err := server.New(b, opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		s.Close()
		return usagef("--addr: %v", err)
	}
	fmt.Fprintf(e.stderr, "condense: serving %s on http://%s\n", b.Describe, ln.Addr())
	// A signal or Ctrl-C shuts the server down gracefully: a clean exit.
	return s.Serve(ctx, ln, server.Timeouts{Write: o.writeTimeout, Shutdown: o.shutdown})
}
