package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
)

// Clients compacting their own conversations at once, two requests of one
// conversation racing, and the LRU dropping conversations meanwhile: every
// request is answered, and (under -race) nothing is shared unguarded.
func TestConcurrentConversations(t *testing.T) {
	h := newHarness(t, Options{Settings: smallWindow, Conversations: 3})
	var wg sync.WaitGroup
	for c := range 6 {
		wg.Go(func() {
			key := fmt.Sprintf("client-%d", c%4) // clients 0 and 1 send two conversations each
			history := chatHistory(3, 3000)
			for call := range 4 {
				history = append(history, chatStep(3+call, 3000)...)
				in := body(t, `{"model":"gpt-4o"}`, "messages", history)
				req, _ := http.NewRequest("POST", h.srv.URL+"/v1/chat/completions", bytes.NewReader(in))
				req.Header.Set("Authorization", "Bearer "+key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Errorf("client %d call %d: %d %s", c, call, resp.StatusCode, b)
				}
			}
		})
	}
	wg.Wait()
	if n := h.p.Conversations(); n > 3 {
		t.Errorf("%d conversations kept, the bound is 3", n)
	}
}
