package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/proxy"
	"github.com/condense-dev/condense/server"
)

// proxyOptions are proxy's flags.
type proxyOptions struct {
	openai        string
	anthropic     string
	listen        string
	window        sizeFlag
	reserve       sizeFlag
	fraction      float64
	lowWater      float64
	conversations int
	maxBody       sizeFlag
	maxConcurrent int
	recall        bool
	summarizer    string
	summaryModel  string
	verbose       bool
	shutdown      time.Duration
	store         string
}

const proxyLong = `Run a proxy between an agent and its model API that compacts the history on
the way up, for agents in any language that speak the OpenAI or Anthropic API
(docs/proxy.md):

  condense proxy                                   # listens on 127.0.0.1:8787
  OPENAI_BASE_URL=http://127.0.0.1:8787/v1 your-openai-agent
  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 your-anthropic-agent

POST /v1/chat/completions, /v1/responses and /v1/messages are compacted when
the request is over the threshold of its model, and forwarded byte for byte
otherwise; everything else (count_tokens, models, files, …) is passed through.
Streams are relayed as they arrive. The proxy recognises each conversation
across calls by its history and reuses its checkpoints, so the rendering only
grows at its end between compactions and the provider's prompt cache keeps
hitting. API keys are forwarded, never logged or kept. Answers carry
condense-compacted, condense-tokens-before and condense-tokens-after headers;
Prometheus metrics are at /metrics on the same address.

--store chooses where conversations live:
  (none)          this process's memory, the --conversations most recent
  postgres://USER@HOST:PORT/DB[?schema=NAME]   PostgreSQL (docs/postgres.md):
                  every proxy given the same database and schema continues
                  the conversations of the others with the same checkpoints,
                  and compacts each conversation once whichever of them sees
                  its requests; run several behind a load balancer
A SQLite or JSONL store is refused: it serves one process, and one process
keeps its conversations in memory.`

func newProxyCmd(e *env) *cobra.Command {
	o := &proxyOptions{maxBody: sizeFlag{n: proxy.DefaultMaxBodyBytes}}
	cmd := &cobra.Command{
		Use:   "proxy [flags]",
		Short: "compact transparently between an agent and the OpenAI or Anthropic API",
		Long:  proxyLong,
		Example: "  condense proxy --listen 127.0.0.1:8787\n" +
			"  condense proxy --openai-upstream http://localhost:11434/v1 --window 32k\n" +
			"  condense proxy --listen 0.0.0.0:8787 --store 'postgres://condense@db:5432/condense?schema=proxy'",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProxy(cmd, e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.openai, "openai-upstream", "", "base URL of the OpenAI-compatible API, /v1 included (default https://api.openai.com/v1)")
	f.StringVar(&o.anthropic, "anthropic-upstream", "", "base URL of the Anthropic API (default https://api.anthropic.com)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:8787", "address to listen on")
	f.Var(&o.window, "window", "context window of every model (default: the model's own)")
	f.Var(&o.reserve, "reserve", "output tokens reserved (default: the request's max tokens, else 4096)")
	f.Float64Var(&o.fraction, "fraction", 0, "compaction starts above this share of the input limit (default 0.75)")
	f.Float64Var(&o.lowWater, "low-water", 0, "and brings the request down to this share of the threshold (default 0.4)")
	f.IntVar(&o.conversations, "conversations", proxy.DefaultConversations, "conversations remembered, least recently used first out (with --store: kept ready in memory)")
	f.StringVar(&o.store, "store", "", "keep conversations in PostgreSQL, shared by every proxy using it: postgres://… (default: in memory)")
	f.Var(&o.maxBody, "max-body", "largest request body accepted (32m = 32,000,000 bytes)")
	f.IntVar(&o.maxConcurrent, "max-concurrent", proxy.DefaultMaxConcurrent, "requests in flight per client (per API key)")
	f.BoolVar(&o.recall, "recall", false, "let the model recall masked content with a condense_recall tool (non-streaming requests)")
	f.StringVar(&o.summarizer, "summarizer", "extractive", "who writes summaries: extractive, anthropic, openai")
	f.StringVar(&o.summaryModel, "summarizer-model", "", "model that writes summaries (default: the provider's cheapest)")
	f.BoolVar(&o.verbose, "verbose", false, "log debug messages")
	f.DurationVar(&o.shutdown, "shutdown-timeout", 30*time.Second, "longest wait for requests in flight on shutdown")
	return cmd
}

func runProxy(cmd *cobra.Command, e *env, o *proxyOptions) error {
	if o.fraction < 0 || o.fraction > 1 || o.lowWater < 0 || o.lowWater > 1 {
		return flagErrorf(cmd, "--fraction and --low-water are shares between 0 and 1")
	}
	sum, err := newSummarizer(o.summarizer, o.summaryModel)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if o.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	reg := prometheus.NewRegistry()
	metrics, err := proxy.NewMetrics(reg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	shared, where, closeStore, err := openProxyStore(ctx, o.store, log)
	if err != nil {
		return err
	}
	defer closeStore()
	p, err := proxy.New(&proxy.Options{
		Shared:            shared,
		OpenAIUpstream:    o.openai,
		AnthropicUpstream: o.anthropic,
		Settings:          condense.Settings{Window: o.window.n, ReservedOutput: o.reserve.n, Fraction: o.fraction, LowWater: o.lowWater},
		Conversations:     o.conversations,
		MaxBodyBytes:      int64(o.maxBody.n),
		MaxConcurrent:     o.maxConcurrent,
		Recall:            o.recall,
		Summarizer:        sum,
		Logger:            log,
		Metrics:           metrics,
	})
	if err != nil {
		return usagef("%v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/", p)
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return usagef("--listen: %v", err)
	}
	fmt.Fprintf(e.stderr, "condense: proxying on http://%s (OPENAI_BASE_URL=http://%[1]s/v1, ANTHROPIC_BASE_URL=http://%[1]s), conversations in %s\n", ln.Addr(), where)
	// No write timeout: streamed answers last as long as the model writes.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.shutdown)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// openProxyStore opens the store of --store: none for memory, else a
// PostgreSQL database, opened as condense serve opens it (the URL's schema
// parameter names the schema). It returns the store, where it is for the
// log, and its Close.
func openProxyStore(ctx context.Context, url string, log *slog.Logger) (proxy.SharedStore, string, func() error, error) {
	if url == "" {
		return nil, "memory", func() error { return nil }, nil
	}
	if !strings.HasPrefix(url, "postgres") {
		return nil, "", nil, usagef("--store %q: the proxy keeps conversations in memory (no --store) or in PostgreSQL (postgres://…); "+
			"a SQLite or JSONL store serves one process, which keeps its conversations in memory", redact.String(url))
	}
	b, err := server.OpenBackend(ctx, url, log)
	if err != nil {
		return nil, "", nil, usagef("--store: %v", err)
	}
	if b.Postgres == nil {
		b.Close()
		return nil, "", nil, usagef("--store %q is not a PostgreSQL URL", redact.String(url))
	}
	shared, err := proxy.NewPostgresStore(ctx, b.Postgres)
	if err != nil {
		b.Close()
		return nil, "", nil, err
	}
	return shared, b.Describe, b.Close, nil
}
