// Package replay serves recorded provider exchanges from testdata with
// httptest, for the provider adapters' offline tests. A Server answers each
// request with the next Step (repeating the last one when the script runs
// out) and records what it was sent.
package replay

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"
)

// Step is one recorded answer.
type Step struct {
	// Path, when set, is the request path the step expects; another path
	// fails the test.
	Path   string
	Status int
	Header map[string]string
	// File names a body under the package's testdata directory; Body is
	// used when File is empty.
	File string
	Body string
	// Delay holds the answer back; Hang holds it until the client gives up.
	// Both end early when the request's context is done.
	Delay time.Duration
	Hang  bool
}

// Request is what the server was sent.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the request body into a generic map, for assertions on the
// exact shape sent.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

// Server replays steps.
type Server struct {
	*httptest.Server
	t       testing.TB
	mu      sync.Mutex
	steps   []Step
	n       int
	reqs    []Request
	arrived chan struct{}
}

// New starts a server replaying steps; it is closed when the test ends.
func New(t testing.TB, steps ...Step) *Server {
	t.Helper()
	s := &Server{t: t, steps: steps, arrived: make(chan struct{}, 64)}
	for _, st := range steps {
		if st.File != "" {
			if _, err := os.Stat("testdata/" + st.File); err != nil {
				t.Fatalf("replay: %v", err)
			}
		}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Arrived receives a value as each request arrives.
func (s *Server) Arrived() <-chan struct{} { return s.arrived }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	var st Step
	if len(s.steps) > 0 {
		st = s.steps[min(s.n, len(s.steps)-1)]
	}
	s.n++
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}
	if st.Path != "" && st.Path != r.URL.Path {
		s.t.Errorf("replay: request to %s, want %s", r.URL.Path, st.Path)
	}
	switch {
	case st.Hang:
		<-r.Context().Done()
		return
	case st.Delay > 0:
		t := time.NewTimer(st.Delay)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return
		case <-t.C:
		}
	}
	data := []byte(st.Body)
	if st.File != "" {
		var err error
		if data, err = os.ReadFile("testdata/" + st.File); err != nil {
			s.t.Errorf("replay: %v", err)
		}
	}
	for k, v := range st.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := st.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(data)
}
