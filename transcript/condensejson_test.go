package transcript

import (
	"bytes"
	"os"
	"reflect"
	"testing"
)

// Reading a condense document a message at a time reads what reading it
// with condense.ParseDocument reads, transcript, notes and errors, strict
// and lenient: for every sample written as a condense document and for
// documents with malformed messages. A document it leaves to
// condense.ParseDocument is left untouched.
func TestCondenseByMessage(t *testing.T) {
	var docs [][]byte
	for _, path := range testdataFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ReadBytes(data, Options{Lenient: true})
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		if err := WriteWith(&buf, FormatCondense, tr.Request, WriteOptions{OriginalIDs: tr.OriginalIDs}); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, buf.Bytes())
	}
	samples := len(docs)
	for _, s := range []string{
		`{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"hi"}]},{"role":"robot","parts":[]},` +
			`{"role":"assistant","parts":[{"type":"text"}]},{"role":"user","parts":[{"type":"text","text":"ok"}],"bogus":1},` +
			`{"role":"assistant","parts":[{"type":"tool_call","id":"a","original_id":"b","name":"n","input":{}}]},` +
			`{"role":"tool","parts":[{"type":"tool_result","call_id":"a","content":[{"type":"image"}]}]},"x"]}`,
		`{"version":1,"model":"m","system":"s","max_tokens":5,"tools":[{"name":"t","input_schema":{}}],"messages":[` +
			`{"role":"assistant","parts":[{"type":"tool_call","id":"a","original_id":"b","name":"n","input":{}}]},` +
			`{"role":"tool","parts":[{"type":"tool_result","call_id":"a","content":[]}]}]}`,
		// Left to condense.ParseDocument.
		`{"version":2,"messages":[{"role":"robot"}]}`,
		`{"version":1,"messages":null}`,
		`{"version":1}`,
		`{"version":1,"version":"x","messages":[]}`,
		`{"version":1,"Messages":[],"messages":[]}`,
		`{"version":1,"extra":1,"messages":[]}`,
		`{"version":1,"tools":[{}],"messages":[]}`,
		`[{"role":"user"}]`,
		`{"version":1,"messages":[]`,
	} {
		docs = append(docs, []byte(s))
	}
	for i, doc := range docs {
		for _, lenient := range []bool{false, true} {
			opts := Options{Lenient: lenient, Name: "doc.json"}
			whole := &builder{opts: opts, format: FormatCondense}
			var want *Transcript
			wantErr := readCondenseWhole(whole, doc)
			if wantErr == nil {
				want, wantErr = whole.finish()
			}
			by := &builder{opts: opts, format: FormatCondense}
			ok, err := readCondenseByMessage(by, doc)
			if !ok {
				if i < samples+2 {
					t.Errorf("doc %d lenient=%v: left to condense.ParseDocument", i, lenient)
				}
				if err != nil || !reflect.DeepEqual(by, &builder{opts: opts, format: FormatCondense}) {
					t.Errorf("doc %d lenient=%v: left to condense.ParseDocument after reading some of it", i, lenient)
				}
				continue
			}
			var got *Transcript
			if err == nil {
				got, err = by.finish()
			}
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("doc %d lenient=%v: error %v, want %v", i, lenient, err, wantErr)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("doc %d lenient=%v: read\n%+v\nwant\n%+v", i, lenient, got, want)
			}
		}
	}
}
