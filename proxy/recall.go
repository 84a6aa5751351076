package proxy

import "net/http"

func (p *Proxy) recall(w http.ResponseWriter, r *http.Request, api *wireAPI, out *outcome) {
	p.forward(w, r, api.provider, out.body)
}
