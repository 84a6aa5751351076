package transcript

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/condense-dev/condense"
)

// keep moves texts into the released part of an owned document, copies
// texts that share the document's unreleased part first, leaves alone
// what does not fit and never changes a value.
func TestKeepInDocument(t *testing.T) {
	orig := []byte(`[{"text":"hello, world"},{"text":"second record"},{"text":"third"}]`)
	doc := bytes.Clone(orig)
	view := unsafe.String(&doc[10], 12) // "hello, world", shared with doc
	big := strings.Repeat("x", len(doc))
	m := condense.Message{ID: "msg-1", Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.Text(view),
		condense.ToolCall("call-1", "Bash", []byte(`{"cmd":"ls"}`)),
		condense.ToolResult("call-1", false, condense.Text("out")),
		condense.Text(big),
	}}
	want := condense.Message{ID: "msg-1", Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.Text("hello, world"),
		condense.ToolCall("call-1", "Bash", []byte(`{"cmd":"ls"}`)),
		condense.ToolResult("call-1", false, condense.Text("out")),
		condense.Text(big),
	}}
	a := &docArena{buf: doc, owned: true}
	b := &builder{arena: a}
	b.release(doc[:bytes.Index(doc, []byte(`},{"text":"third`))+1]) // the first two records
	b.keep(&m)
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("kept %+v, want %+v", m, want)
	}
	in := func(s string) bool { _, ok := a.offset(unsafe.Pointer(unsafe.StringData(s))); return ok }
	for _, s := range []string{m.ID, m.Parts[0].Text, m.Parts[1].ID, m.Parts[1].Name, m.Parts[2].CallID, m.Parts[2].Content[0].Text} {
		if !in(s) {
			t.Errorf("%q not kept in the document", s)
		}
	}
	if _, ok := a.offset(unsafe.Pointer(unsafe.SliceData(m.Parts[1].Input))); !ok || cap(m.Parts[1].Input) != len(m.Parts[1].Input) {
		t.Errorf("input not kept in the document, or with room to grow over other texts")
	}
	if in(m.Parts[3].Text) {
		t.Errorf("a text longer than the released bytes was moved")
	}
	if a.used > a.free || a.free > len(doc) {
		t.Errorf("used %d, free %d, len %d", a.used, a.free, len(doc))
	}
	// Keeping again moves nothing: what is kept stays.
	used := a.used
	b.keep(&m)
	if a.used != used || !reflect.DeepEqual(m, want) {
		t.Errorf("second keep moved texts")
	}

	// A document that is not the reader's is never written: a view gets
	// its own copy and nothing else moves.
	doc2 := bytes.Clone(orig)
	a2 := &docArena{buf: doc2}
	b2 := &builder{arena: a2}
	m2 := condense.AssistantText(unsafe.String(&doc2[10], 12))
	b2.release(doc2)
	b2.keep(&m2)
	if _, ok := a2.offset(unsafe.Pointer(unsafe.StringData(m2.Parts[0].Text))); ok || m2.Parts[0].Text != "hello, world" || !bytes.Equal(doc2, orig) {
		t.Errorf("a caller's document was kept in or written to")
	}
}

// ReadBytes keeps nothing of its input: changing the input afterwards
// changes no transcript read from it.
func TestReadBytesRetainsNothing(t *testing.T) {
	for _, path := range testdataFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, lenient := range []bool{false, true} {
			opts := Options{Name: path, Lenient: lenient}
			want, wantErr := ReadBytes(data, opts)
			scratch := bytes.Clone(data)
			got, err := ReadBytes(scratch, opts)
			for i := range scratch {
				scratch[i] = '#'
			}
			if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s lenient=%v: the transcript changed with its input", path, lenient)
			}
		}
	}
}
