package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// A session's usage file stays open while the session is; when the series
// outgrows what the file keeps, the file is rewritten, and the points that
// follow go to the new file, not to the one it replaced.
func TestUsageFileAfterRewrite(t *testing.T) {
	be, err := OpenBackend(context.Background(), "jsonl:"+t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	s, err := New(be, &Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/v1/sessions", strings.NewReader(`{"model":"gpt-4o","window":128000,"strategy":"mask"}`)))
	if w.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	var snap Snapshot
	if err := json.Unmarshal(w.Body.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	h := s.sessions[snap.ID]
	const after = 5
	n := 2*maxSeries + 1 + after // the rewrite comes at point 2*maxSeries+1
	for i := 1; i <= n; i++ {
		h.recordUsage(RenderResponse{Usage: Usage{Tokens: i}}, 1)
	}
	d := s.state.(*dirState)
	d.umu.Lock()
	open := d.files[snap.ID] != nil
	d.umu.Unlock()
	if !open {
		t.Fatal("the usage file is not kept open")
	}
	data, err := os.ReadFile(d.st.usagePath(snap.ID))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != maxSeries+after {
		t.Fatalf("the usage file holds %d points, want %d", len(lines), maxSeries+after)
	}
	for k, line := range lines {
		var p UsagePoint
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
		if want := n - len(lines) + k + 1; p.Tokens != want {
			t.Fatalf("line %d: point %d, want %d", k+1, p.Tokens, want)
		}
	}
}
