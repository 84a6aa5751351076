package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/store/memstore"
)

// The OpenAPI document lists exactly the routes the server has, and each
// of its operations reaches the handler of its own route.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s, err := New(&Backend{Store: memstore.New(), Journal: journal.NewMemory(), StateDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil || doc.OpenAPI == "" {
		t.Fatalf("openapi.json: %v", err)
	}
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	served := append([]string(nil), s.patterns...)
	sort.Strings(documented)
	sort.Strings(served)
	if strings.Join(documented, "\n") != strings.Join(served, "\n") {
		t.Fatalf("documented:\n%s\n\nserved:\n%s", strings.Join(documented, "\n"), strings.Join(served, "\n"))
	}
	for _, op := range documented {
		method, path, _ := strings.Cut(op, " ")
		url := strings.NewReplacer("{id}", "s-1", "{cp}", "c1", "{run}", "s-1-r1").Replace(path)
		req := httptest.NewRequestWithContext(context.Background(), method, url, nil)
		if _, pattern := s.mux.Handler(req); pattern != op {
			t.Errorf("%s %s reaches %q, not its own route", method, url, pattern)
		}
	}
}
