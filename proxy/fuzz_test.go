package proxy

import (
	"bytes"
	"context"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzPrepare feeds arbitrary bodies to the compacting path of each API:
// it must not panic, a body it does not compact must come back as it came,
// and a body it compacts must be JSON the codec reads.
func FuzzPrepare(f *testing.F) {
	for i, tc := range apiCases {
		f.Add(uint8(i), body(f, tc.head, tc.array, tc.history(2, 200)))
		f.Add(uint8(i), body(f, tc.head, tc.array, tc.history(8, 3000)))
	}
	f.Add(uint8(0), []byte(`{"model":"gpt-4o","messages":[{"role":"system","content":"x"},{"role":"user","content":"hi"}]}`))
	f.Add(uint8(1), []byte(`{"model":"gpt-4o","input":"hi"}`))
	f.Add(uint8(2), []byte(`{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":[]}],"messages":[]}`))
	p, err := New(&Options{Settings: smallWindow, Logger: quietLogger()})
	if err != nil {
		f.Fatal(err)
	}
	apis := []*wireAPI{chatAPI, responsesAPI, messagesAPI}
	f.Fuzz(func(t *testing.T, which uint8, in []byte) {
		api := apis[int(which)%len(apis)]
		if gjson.ValidBytes(in) {
			// The scanner finds what a JSON parser finds.
			v := gjson.GetBytes(in, api.array)
			pb, err := splitBody(in, api)
			if v.IsArray() && v.Index > 0 && !bytes.Contains(in, []byte(`\u`)) {
				var want []string
				v.ForEach(func(_, e gjson.Result) bool { want = append(want, e.Raw); return true })
				if err != nil || len(pb.elems) != len(want) {
					t.Fatalf("scanner found %d elements (%v), gjson %d", len(pb.elems), err, len(want))
				}
				for k := range want {
					if string(pb.elems[k]) != want[k] {
						t.Fatalf("element %d: scanner %s, gjson %s", k, pb.elems[k], want[k])
					}
				}
			}
		}
		orig := bytes.Clone(in)
		out, err := p.prepare(context.Background(), digest{}, api, in)
		if !bytes.Equal(in, orig) {
			t.Fatal("prepare changed its input")
		}
		if err != nil {
			return
		}
		if !out.compacted {
			if !bytes.Equal(out.body, in) {
				t.Fatalf("not compacted, yet the body changed:\n%s\n%s", in, out.body)
			}
			return
		}
		if !gjson.ValidBytes(out.body) {
			t.Fatalf("compacted body is not JSON: %s", out.body)
		}
		if _, _, err := api.head(out.body); err != nil {
			t.Fatalf("compacted body does not decode: %v\n%s", err, out.body)
		}
	})
}
