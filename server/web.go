package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// The web page (docs/server.md, "Web page"): plain HTML, CSS and
// JavaScript embedded in the binary, served at / and /page/; it uses the
// API like any other client (its login cookie when tokens are set). No
// build step, no CDN: it works on a machine that is offline.
//
//go:embed web
var webFiles embed.FS

// pageRoutes serves the page. They are not API routes and are left out of
// the OpenAPI document; the files themselves need no login (they hold no
// data), the API calls they make do.
func (s *Server) pageRoutes(m *http.ServeMux) {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err) // the embedded directory is part of the build
	}
	files := http.FileServerFS(sub)
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		pageHeaders(w)
		http.ServeFileFS(w, r, sub, "index.html")
	})
	m.Handle("GET /page/", http.StripPrefix("/page/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pageHeaders(w)
		files.ServeHTTP(w, r)
	})))
}

// pageHeaders keep the page to its own origin: no script, style or
// connection elsewhere, no framing.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
}
