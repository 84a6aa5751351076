package proxy

import "bytes"

// Prompt-cache markers move. An agent puts its cache breakpoints
// ("cache_control" members) on its newest messages, and on the next call
// takes them off the messages that are no longer newest, so the bytes of
// an old message change while its content does not. The proxy reads
// history elements without their markers: the hash chain and the decoded
// messages ignore them, so a moved marker neither makes a known
// conversation look new nor invalidates its checkpoint. Markers still
// reach the upstream on the client's own bytes (every element the
// rendering keeps verbatim goes out as sent); what the codec writes for a
// compacted span carries none, so a request never holds more breakpoints
// than the client asked for.

var markerKey = []byte(`"cache_control"`)

// withoutMarkers returns e without its "cache_control" members (and the
// comma that separated each from its neighbour). e itself is returned,
// not copied, when it has none.
func withoutMarkers(e []byte) []byte {
	if !bytes.Contains(e, markerKey) {
		return e
	}
	out := make([]byte, 0, len(e))
	from := 0
	for {
		k := bytes.Index(e[from:], markerKey)
		if k < 0 {
			break
		}
		q := from + k
		cut, end, ok := markerSpan(e, q)
		if !ok {
			out = append(out, e[from:q+len(markerKey)]...)
			from = q + len(markerKey)
			continue
		}
		out = append(out, e[from:cut]...)
		from = end
	}
	return append(out, e[from:]...)
}

// markerSpan returns the bytes [cut, end) to drop for the member whose key
// starts at e[q]: the key, its value, and the comma before it (or after
// it, for a first member). ok is false when the key is not a member name
// (a quote inside a string, say).
func markerSpan(e []byte, q int) (cut, end int, ok bool) {
	if q > 0 && e[q-1] == '\\' {
		return 0, 0, false
	}
	p := q - 1
	for p >= 0 && isSpace(e[p]) {
		p--
	}
	if p < 0 || (e[p] != ',' && e[p] != '{') {
		return 0, 0, false
	}
	i := skipSpace(e, q+len(markerKey))
	if i >= len(e) || e[i] != ':' {
		return 0, 0, false
	}
	end = skipValue(e, skipSpace(e, i+1))
	if end < 0 {
		return 0, 0, false
	}
	if e[p] == ',' {
		return p, end, true
	}
	// The first member: drop the comma after it instead.
	j := skipSpace(e, end)
	if j < len(e) && e[j] == ',' {
		return q, skipSpace(e, j+1), true
	}
	return q, end, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
