package proxy

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

func itoa(n int) string { return strconv.Itoa(n) }

// Metrics are the proxy's Prometheus counters. A nil *Metrics counts
// nothing.
type Metrics struct {
	requests    *prometheus.CounterVec
	compactions *prometheus.CounterVec
	tokensIn    *prometheus.CounterVec
	tokensOut   *prometheus.CounterVec
	recalls     *prometheus.CounterVec
}

// NewMetrics registers the proxy's metrics with reg:
//
//	condense_proxy_requests_total{api,outcome}     requests by outcome: forwarded, compacted,
//	                                               too_long, too_large, limited, unread, passthrough
//	condense_proxy_compactions_total{api,strategy} compactions made
//	condense_proxy_tokens_received_total{api}      estimated input tokens of the requests as sent by clients
//	condense_proxy_tokens_sent_total{api}          estimated input tokens of the requests as sent upstream
//	condense_proxy_recall_calls_total{api}         extra upstream calls made to answer condense_recall
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "condense_proxy_requests_total",
			Help: "Requests by API and outcome."}, []string{"api", "outcome"}),
		compactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "condense_proxy_compactions_total",
			Help: "Compactions made, by API and strategy."}, []string{"api", "strategy"}),
		tokensIn: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "condense_proxy_tokens_received_total",
			Help: "Estimated input tokens of the requests as clients sent them."}, []string{"api"}),
		tokensOut: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "condense_proxy_tokens_sent_total",
			Help: "Estimated input tokens of the requests as sent upstream."}, []string{"api"}),
		recalls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "condense_proxy_recall_calls_total",
			Help: "Extra upstream calls made to answer the model's condense_recall calls."}, []string{"api"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.compactions, m.tokensIn, m.tokensOut, m.recalls} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Metrics) request(api, outcome string) {
	if m != nil {
		m.requests.WithLabelValues(api, outcome).Inc()
	}
}

func (m *Metrics) compaction(api, strategy string) {
	if m != nil {
		m.compactions.WithLabelValues(api, strategy).Inc()
	}
}

func (m *Metrics) tokens(api string, before, after int) {
	if m != nil {
		m.tokensIn.WithLabelValues(api).Add(float64(before))
		m.tokensOut.WithLabelValues(api).Add(float64(after))
	}
}

func (m *Metrics) recall(api string, n int) {
	if m != nil && n > 0 {
		m.recalls.WithLabelValues(api).Add(float64(n))
	}
}
