package server

import (
	_ "embed"
	"net/http"
)

// openAPIDoc is the OpenAPI 3.1 description of the API; a test checks it
// against the routes.
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openAPIDoc)
}
