package summarizertest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Step is one recorded answer of a provider.
type Step struct {
	// Path, when set, is the request path the step expects; a request to
	// another path is reported as an error.
	Path string
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header holds the answer's headers. Content-Type is
	// application/json unless Header sets it.
	Header map[string]string
	// File names a body under the testing package's testdata directory;
	// Body is used when File is empty.
	File string
	Body string
	// Hang holds the answer back until the client gives up (its request's
	// context ends) or the server is closed, and then sends nothing.
	Hang bool
}

// given reports whether s says anything: a zero Step is an answer a
// provider did not give.
func (s Step) given() bool {
	return s.Status != 0 || s.File != "" || s.Body != "" || s.Hang || len(s.Header) > 0
}

// Request is what the server was sent.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the request body into a generic map, for assertions on the
// exact shape sent. A body that is not a JSON object fails t.
func (r Request) JSON(t TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Server answers each request with the next Step of its script, repeating
// the last one when the script runs out, and records what it was sent. It
// is an httptest.Server: give the summarizer its URL and Client.
type Server struct {
	*httptest.Server
	t         TB
	mu        sync.Mutex
	steps     []Step
	n         int
	reqs      []Request
	arrived   chan struct{}
	release   chan struct{}
	closeOnce sync.Once
}

// NewServer starts a server that answers with steps; it is closed when
// the test ends. A step whose File is missing fails t at once.
func NewServer(t testing.TB, steps ...Step) *Server {
	t.Helper()
	s := start(t, steps)
	t.Cleanup(s.Close)
	return s
}

// start starts a server the caller closes.
func start(t TB, steps []Step) *Server {
	t.Helper()
	for _, st := range steps {
		if st.File != "" {
			if _, err := os.Stat(filepath.Join("testdata", st.File)); err != nil {
				t.Fatalf("summarizertest: %v", err)
			}
		}
	}
	s := &Server{
		t:       t,
		steps:   append([]Step(nil), steps...),
		arrived: make(chan struct{}, 64),
		release: make(chan struct{}),
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close releases the answers held back by Hang, then shuts the server
// down, waiting for the requests it is serving. It may be called more than
// once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.release)
		s.Server.Close()
	})
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Arrived receives a value as each request arrives (up to 64 not yet
// received), once its body has been read.
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
		s.t.Errorf("summarizertest: request to %s, want %s", r.URL.Path, st.Path)
	}
	if st.Hang {
		select {
		case <-r.Context().Done():
		case <-s.release:
		}
		return
	}
	data := []byte(st.Body)
	if st.File != "" {
		var err error
		if data, err = os.ReadFile(filepath.Join("testdata", st.File)); err != nil {
			s.t.Errorf("summarizertest: %v", err)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	for k, v := range st.Header {
		w.Header().Set(k, v)
	}
	status := st.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(data)
}
